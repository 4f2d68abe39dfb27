// Validator of the multi-GPU tests. Prints `RESULT multi_gpu_<key>=<value>` and `FAIL: ...` lines;
// exits 1 when a check failed.
//   multi-gpu-validate windows <tool.json> <program.json> <overlap|serial> <passes>
//       tool.json from multi-gpu-tool, program.json from cuda-multi-gpu-program. Every replayed
//       dispatch: on its thread's device's agent, PASS 0..N-1 in order, N COMPLETE records inside
//       the sequence; windows of one agent never overlap; `overlap`: windows of the two devices
//       overlap in time; `serial`: one agent, and the two threads contended for it (a CONFIG
//       ENTER of one inside a window of the other).
//   multi-gpu-validate counters <results.json> <program.json> <filtered1|unfiltered>
//       rocprofv3's results.json of `--pmc smsp__inst_executed.sum --pmc smsp__warps_launched.sum
//       --replay-mode kernel` with group 2's metric filtered out of device 1 (filtered1) or no
//       filter (unfiltered): a device with both groups gets pass i = group i, a device with
//       group 1 only gets one pass with group 1; no wrap, no skip.
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace
{
using json = nlohmann::json;

int failures = 0;

void
fail(const std::string& message)
{
    std::printf("FAIL: %s\n", message.c_str());
    ++failures;
}

template <typename T>
void
result(const std::string& key, const T& value)
{
    std::printf("RESULT multi_gpu_%s=%s\n", key.c_str(), json(value).dump().c_str());
}

void
result_text(const std::string& key, const std::string& value)
{
    std::printf("RESULT multi_gpu_%s=%s\n", key.c_str(), value.c_str());
}

bool
load(const char* path, json& out)
{
    auto in = std::ifstream{path};
    if(!in)
    {
        fail(std::string{"cannot read "} + path);
        return false;
    }
    try
    {
        in >> out;
    }
    catch(const std::exception& e)
    {
        fail(std::string{path} + " is not JSON: " + e.what());
        return false;
    }
    return true;
}

struct interval
{
    uint64_t begin  = 0;
    uint64_t end    = 0;
    uint64_t agent  = 0;
    uint64_t thread = 0;
};

bool
overlaps(const interval& x, const interval& y)
{
    return x.begin < y.end && y.begin < x.end;
}

// Total time covered by both sets of intervals (each set merged first), ns.
uint64_t
common_time(std::vector<interval> x, std::vector<interval> y)
{
    auto merge = [](std::vector<interval> v)
    {
        std::sort(v.begin(), v.end(), [](auto& l, auto& r) { return l.begin < r.begin; });
        auto out = std::vector<interval>{};
        for(const auto& i : v)
            if(!out.empty() && i.begin <= out.back().end)
                out.back().end = std::max(out.back().end, i.end);
            else
                out.push_back(i);
        return out;
    };
    x          = merge(std::move(x));
    y          = merge(std::move(y));
    auto total = uint64_t{0};
    for(const auto& a : x)
        for(const auto& b : y)
        {
            auto lo = std::max(a.begin, b.begin);
            auto hi = std::min(a.end, b.end);
            if(lo < hi) total += hi - lo;
        }
    return total;
}

// Device ordinal -> agent handle: by uuid, else by the GPU index (logical_node_type_id).
std::map<int, uint64_t>
map_devices(const json& agents, const json& devices)
{
    auto by_uuid = std::map<std::string, uint64_t>{};
    auto by_gpu  = std::map<int, uint64_t>{};
    for(const auto& a : agents)
    {
        if(a.value("type", "") != "GPU") continue;
        by_uuid[a.value("uuid", "")]                = a.at("id").get<uint64_t>();
        by_gpu[a.value("logical_node_type_id", -1)] = a.at("id").get<uint64_t>();
    }
    auto out     = std::map<int, uint64_t>{};
    auto by_what = std::string{"uuid"};
    for(const auto& d : devices)
    {
        const auto ordinal = d.at("ordinal").get<int>();
        if(auto itr = by_uuid.find(d.value("uuid", "")); itr != by_uuid.end())
            out[ordinal] = itr->second;
        else if(auto g = by_gpu.find(ordinal); g != by_gpu.end())
        {
            out[ordinal] = g->second;
            by_what      = "logical_node_type_id";
        }
        else
            fail("no GPU agent for CUDA device " + std::to_string(ordinal));
    }
    result_text("agent_mapping", by_what);
    return out;
}

int
check_windows(const char*        tool_path,
              const char*        program_path,
              const std::string& expect,
              uint64_t           passes)
{
    auto tool = json{}, prog = json{};
    if(!load(tool_path, tool) || !load(program_path, prog)) return 1;
    for(const auto& e : tool.value("errors", json::array()))
        fail("tool: " + e.get<std::string>());
    for(const auto& t : prog.at("threads"))
        for(const auto& e : t.value("errors", json::array()))
            fail("program thread " + std::to_string(t.at("index").get<int>()) + ": " +
                 e.get<std::string>());

    const auto agent_of            = map_devices(tool.at("agents"), prog.at("devices"));
    const auto iterations          = prog.at("iterations").get<uint64_t>();
    auto       replayed_per_launch = uint64_t{0}, ordinary_per_launch = uint64_t{0};
    for(const auto& k : prog.at("kernels"))
        (k.at("replayed_by_test_tool").get<bool>() ? replayed_per_launch : ordinary_per_launch) +=
            1;

    // COMPLETE records by dispatch id.
    auto records = std::map<uint64_t, std::vector<json>>{};
    for(const auto& r : tool.at("records"))
        records[r.at("dispatch_id").get<uint64_t>()].push_back(r);

    auto locked      = std::vector<interval>{}; // PASS 0 ENTER .. last PASS EXIT
    auto spans       = std::vector<interval>{}; // CONFIG ENTER .. last PASS EXIT
    auto bad_passes  = 0;
    auto bad_records = 0;
    auto outside     = 0; // records whose kernel times lie outside their PASS (informational)
    auto inside_pass = 0; // records of dispatches run once, delivered inside some PASS (info)
    auto wrong_agent = 0;
    for(const auto& t : prog.at("threads"))
    {
        const auto tid      = t.at("tid").get<uint64_t>();
        const auto device   = t.at("device").get<int>();
        const auto index    = t.at("index").get<int>();
        const auto agent    = agent_of.count(device) ? agent_of.at(device) : 0;
        auto       replayed = uint64_t{0}, ordinary = uint64_t{0};
        for(const auto& w : tool.at("windows"))
        {
            if(w.at("thread").get<uint64_t>() != tid) continue;
            const auto id = w.at("dispatch_id").get<uint64_t>();
            if(w.at("agent").get<uint64_t>() != agent)
            {
                if(wrong_agent++ < 5)
                    fail("dispatch " + std::to_string(id) + " of thread " + std::to_string(index) +
                         " (device " + std::to_string(device) + ") reported on agent " +
                         std::to_string(w.at("agent").get<uint64_t>()) + ", expected " +
                         std::to_string(agent));
            }
            const auto& ps   = w.at("passes");
            const auto  recs = records[id];
            if(w.at("requested").get<uint64_t>() == 1)
            {
                ++ordinary;
                if(recs.size() == 1 && recs[0].at("pass").get<int64_t>() != -1) ++inside_pass;
                if(!ps.empty() || recs.size() != 1)
                    if(bad_records++ < 5)
                        fail("dispatch " + std::to_string(id) +
                             " (not replayed) must run once: " + std::to_string(ps.size()) +
                             " PASS callbacks, " + std::to_string(recs.size()) + " records");
                continue;
            }
            ++replayed;
            auto ok = ps.size() == passes &&
                      w.at("config_exit").get<uint64_t>() <= ps[0].at("enter").get<uint64_t>();
            for(size_t k = 0; ok && k < ps.size(); ++k)
            {
                ok = ps[k].at("pass").get<uint64_t>() == k &&
                     ps[k].at("total").get<uint64_t>() == passes &&
                     ps[k].at("enter").get<uint64_t>() <= ps[k].at("exit").get<uint64_t>() &&
                     (k + 1 == ps.size() ||
                      ps[k].at("exit").get<uint64_t>() <= ps[k + 1].at("enter").get<uint64_t>());
            }
            if(!ok)
            {
                if(bad_passes++ < 5)
                    fail("dispatch " + std::to_string(id) + ": PASS callbacks are not 0.." +
                         std::to_string(passes - 1) + " in order: " + ps.dump());
                continue;
            }
            auto seen = std::set<int64_t>{};
            for(const auto& r : recs)
            {
                const auto p = r.at("pass").get<int64_t>();
                seen.insert(p);
                if(r.at("agent").get<uint64_t>() != agent) ++wrong_agent;
                if(p >= 0 && p < static_cast<int64_t>(ps.size()) &&
                   (r.at("start").get<uint64_t>() < ps[p].at("enter").get<uint64_t>() ||
                    r.at("end").get<uint64_t>() > ps[p].at("exit").get<uint64_t>()))
                    ++outside;
            }
            if(recs.size() != passes || seen.size() != passes || *seen.begin() != 0 ||
               *seen.rbegin() != static_cast<int64_t>(passes - 1))
                if(bad_records++ < 5)
                    fail("dispatch " + std::to_string(id) + ": " + std::to_string(recs.size()) +
                         " COMPLETE records, expected one inside each of PASS 0.." +
                         std::to_string(passes - 1));
            const auto last = ps.back().at("exit").get<uint64_t>();
            locked.push_back({ps[0].at("enter").get<uint64_t>(), last, agent, tid});
            spans.push_back({w.at("config_enter").get<uint64_t>(), last, agent, tid});
        }
        if(replayed != replayed_per_launch * iterations)
            fail("thread " + std::to_string(index) + ": " + std::to_string(replayed) +
                 " replayed dispatches, expected " +
                 std::to_string(replayed_per_launch * iterations));
        if(ordinary != ordinary_per_launch * iterations)
            fail("thread " + std::to_string(index) + ": " + std::to_string(ordinary) +
                 " dispatches run once, expected " +
                 std::to_string(ordinary_per_launch * iterations));
        result("thread" + std::to_string(index) + "_replayed", replayed);
    }
    if(wrong_agent > 0)
        fail(std::to_string(wrong_agent) + " dispatches or records on the wrong agent");
    result("records_outside_their_pass", outside);
    result("ordinary_records_delivered_inside_a_pass", inside_pass);

    auto same = 0, same_spans = 0, across = 0;
    for(size_t i = 0; i < locked.size(); ++i)
        for(size_t j = i + 1; j < locked.size(); ++j)
        {
            const bool same_agent = locked[i].agent == locked[j].agent;
            if(same_agent && overlaps(locked[i], locked[j])) ++same;
            if(same_agent && overlaps(spans[i], spans[j])) ++same_spans;
            if(!same_agent && overlaps(locked[i], locked[j])) ++across;
        }
    auto per_agent = std::map<uint64_t, std::vector<interval>>{};
    for(const auto& w : locked)
        per_agent[w.agent].push_back(w);
    result("windows", locked.size());
    result("agents_with_windows", per_agent.size());
    result("same_agent_window_overlaps", same);
    // CONFIG fires before the isolation lock is taken, so these may be > 0 (informational).
    result("same_agent_config_span_overlaps", same_spans);
    result("cross_agent_window_overlap_pairs", across);
    if(same > 0)
        fail(std::to_string(same) + " pairs of replay windows (PASS 0 ENTER .. last PASS EXIT) "
                                    "overlap on one agent: the isolation lock did not hold");

    if(expect == "overlap")
    {
        if(per_agent.size() != 2)
            fail("expected replay windows on 2 agents, found " + std::to_string(per_agent.size()));
        else
        {
            auto it    = per_agent.begin();
            auto first = it->second;
            ++it;
            const auto both = common_time(first, it->second);
            // Of the time the less busy device spent in windows, the share the other device was
            // in a window too (1: fully concurrent; near 0: the devices mostly took turns).
            const auto busy =
                std::min(common_time(first, first), common_time(it->second, it->second));
            char buf[64];
            std::snprintf(buf, sizeof(buf), "%.3f", static_cast<double>(both) / 1e6);
            result_text("cross_agent_overlap_ms", buf);
            std::snprintf(
                buf, sizeof(buf), "%.2f", busy > 0 ? static_cast<double>(both) / busy : 0.0);
            result_text("cross_agent_overlap_fraction", buf);
            if(across == 0)
                fail("no replay window of one device overlaps one of the other: the devices did "
                     "not replay concurrently");
        }
    }
    else
    {
        if(per_agent.size() != 1)
            fail("expected replay windows on 1 agent, found " + std::to_string(per_agent.size()));
        // The premise: the threads contended. A dispatch whose CONFIG ENTER (before the lock)
        // fell inside another thread's window had to wait for it.
        auto waited = 0;
        for(size_t i = 0; i < locked.size(); ++i)
            for(size_t j = 0; j < locked.size(); ++j)
                if(locked[j].thread != spans[i].thread && locked[j].begin <= spans[i].begin &&
                   spans[i].begin < locked[j].end)
                {
                    ++waited;
                    break;
                }
        auto sorted = locked;
        std::sort(sorted.begin(), sorted.end(), [](auto& l, auto& r) { return l.begin < r.begin; });
        auto switches = 0;
        for(size_t i = 1; i < sorted.size(); ++i)
            switches += sorted[i].thread != sorted[i - 1].thread;
        result("thread_switches", switches);
        result("dispatches_that_waited_for_the_other_thread", waited);
        if(waited == 0)
            fail("no dispatch of one thread waited for a window of the other: the threads did not "
                 "contend, so the check shows nothing");
    }
    return failures == 0 ? 0 : 1;
}

// --- counters ----------------------------------------------------------------------------------

const std::string group1 = "smsp__inst_executed.sum";
const std::string group2 = "smsp__warps_launched.sum";

int
check_counters(const char* results_path, const char* program_path, const std::string& mode)
{
    auto doc = json{}, prog = json{};
    if(!load(results_path, doc) || !load(program_path, prog)) return 1;
    for(const auto& t : prog.at("threads"))
        for(const auto& e : t.value("errors", json::array()))
            fail("program thread " + std::to_string(t.at("index").get<int>()) + ": " +
                 e.get<std::string>());
    const auto& tool = doc.at("rocprofiler-sdk-tool").at(0);
    if(!tool.at("metadata").value("kernel_replay", false))
        fail("results.json metadata.kernel_replay is not true");

    // Devices and the groups each must collect.
    const auto filtered = (mode == "filtered1") ? 1 : -1; // the device without group 2
    auto       devices  = std::vector<int>{};
    for(const auto& d : prog.at("devices"))
        devices.push_back(d.at("ordinal").get<int>());
    auto agent_of = std::map<int, uint64_t>{};
    for(const auto& a : tool.at("agents"))
        if(a.value("type", "") == "GPU")
            agent_of[a.value("logical_node_type_id", -1)] = a.at("id").at("handle").get<uint64_t>();
    auto counter_name = std::map<uint64_t, std::string>{};
    auto listed       = std::map<uint64_t, std::set<std::string>>{}; // agent -> names
    for(const auto& c : tool.at("counters"))
    {
        counter_name[c.at("id").at("handle").get<uint64_t>()] = c.value("name", "");
        listed[c.at("agent_id").at("handle").get<uint64_t>()].insert(c.value("name", ""));
    }
    auto kernel_name = std::map<uint64_t, std::string>{};
    for(const auto& [id, sym] : tool.at("kernel_symbols").items())
        kernel_name[std::stoull(id)] = sym.value("kernel_name", "");

    // Records by agent, then by dispatch id.
    auto by_agent = std::map<uint64_t, std::map<uint64_t, std::vector<const json*>>>{};
    for(const auto& r : tool.at("callback_records").at("counter_collection"))
    {
        const auto& info = r.at("dispatch_data").at("dispatch_info");
        by_agent[info.at("agent_id").at("handle").get<uint64_t>()]
                [info.at("dispatch_id").get<uint64_t>()]
                    .push_back(&r);
    }

    const auto iterations = prog.at("iterations").get<uint64_t>();
    auto       threads_on = std::map<int, uint64_t>{};
    for(const auto& t : prog.at("threads"))
        ++threads_on[t.at("device").get<int>()];
    const auto kernels = prog.at("kernels").size();

    for(int d : devices)
    {
        const auto key = "dev" + std::to_string(d);
        if(!agent_of.count(d))
        {
            fail("no GPU agent with logical_node_type_id " + std::to_string(d));
            continue;
        }
        const auto agent  = agent_of.at(d);
        const auto groups = (d == filtered) ? std::vector<std::string>{group1}
                                            : std::vector<std::string>{group1, group2};
        // The filter: group 2's metric is not listed on the filtered device, listed elsewhere.
        const bool lists2 = listed[agent].count(group2) != 0;
        result(key + "_lists_" + group2, lists2);
        if(!listed[agent].count(group1))
            fail("device " + std::to_string(d) + " does not list " + group1);
        if(d == filtered && lists2)
            fail("device " + std::to_string(d) + " still lists " + group2 +
                 ": ROCPROFILER_CUDA_METRIC_FILTER_DEVICE" + std::to_string(d) + " had no effect");
        if(d != filtered && !lists2)
            fail("device " + std::to_string(d) + " does not list " + group2);

        const auto& dispatches = by_agent[agent];
        const auto  expected   = threads_on[d] * iterations * kernels;
        result(key + "_dispatches", dispatches.size());
        // rocprofv3's plan for the agent (results.json kernel_replay_plan): which counters each
        // pass's record reports. Group by group (pass i: group i), or, where CUPTI schedules
        // both groups into fewer passes, one configuration of both reported by pass 0.
        auto reports = std::map<int64_t, std::vector<std::string>>{};
        auto planned = uint64_t{0};
        if(tool.contains("kernel_replay_plan"))
            for(const auto& p : tool.at("kernel_replay_plan"))
            {
                if(p.at("agent_id").at("handle").get<uint64_t>() != agent) continue;
                planned          = p.at("passes").get<uint64_t>();
                const auto& plan = p.at("pass_plan");
                for(size_t i = 0; i < plan.size(); ++i)
                    for(auto g : plan[i].at("reports_groups"))
                        for(const auto& name : p.at("groups").at(g.get<size_t>()))
                            reports[static_cast<int64_t>(i)].push_back(name.get<std::string>());
            }
        result(key + "_planned_passes", planned);
        auto reported = std::vector<std::string>{};
        for(const auto& [pass, names] : reports)
            reported.insert(reported.end(), names.begin(), names.end());
        if(reported != groups)
            fail("device " + std::to_string(d) + ": the plan reports " + json(reported).dump() +
                 ", expected the groups " + json(groups).dump() + " once each, in order");
        if(dispatches.size() != expected)
            fail("device " + std::to_string(d) + ": " + std::to_string(dispatches.size()) +
                 " dispatches with counter records, expected " + std::to_string(expected));
        auto bad = 0, bad_warps = 0, zero_inst = 0;
        auto pass_histogram = std::map<size_t, uint64_t>{}; // records per dispatch -> dispatches
        for(const auto& [id, recs] : dispatches)
        {
            ++pass_histogram[recs.size()];
            auto by_pass = std::map<int64_t, const json*>{};
            auto ok      = recs.size() == reports.size();
            for(const auto* r : recs)
            {
                if(!r->contains("replay_pass"))
                {
                    ok = false;
                    continue;
                }
                ok = by_pass.emplace(r->at("replay_pass").get<int64_t>(), r).second && ok;
            }
            for(const auto& [pass, want] : reports)
            {
                if(!ok) break;
                auto itr = by_pass.find(pass);
                if(itr == by_pass.end())
                {
                    ok = false;
                    break;
                }
                auto names = std::vector<std::string>{};
                for(const auto& v : itr->second->at("records"))
                {
                    const auto name = counter_name[v.at("counter_id").at("handle").get<uint64_t>()];
                    names.push_back(name);
                    const auto value = v.at("value").get<double>();
                    if(name == group1 && !(value > 0)) ++zero_inst;
                    if(name == group2)
                    {
                        const auto& info = itr->second->at("dispatch_data").at("dispatch_info");
                        const auto  grid = info.at("grid_size").at("x").get<uint64_t>();
                        const auto  wg   = info.at("workgroup_size").at("x").get<uint64_t>();
                        const auto  want_warps = (wg > 0 ? grid / wg : 0) * ((wg + 31) / 32);
                        if(static_cast<uint64_t>(value) != want_warps ||
                           value != static_cast<double>(want_warps))
                            if(bad_warps++ < 5)
                                fail("dispatch " + std::to_string(id) + " (" +
                                     kernel_name[info.at("kernel_id").get<uint64_t>()] +
                                     "): " + group2 + " = " + json(value).dump() + ", expected " +
                                     std::to_string(want_warps) + " warps");
                    }
                }
                ok = names == want;
                if(!ok && bad < 5)
                    fail("device " + std::to_string(d) + " dispatch " + std::to_string(id) +
                         ": pass " + std::to_string(pass) + " collected " + json(names).dump() +
                         ", the plan says " + json(want).dump());
            }
            if(!ok && bad++ < 5)
            {
                auto passes = std::vector<int64_t>{};
                for(const auto* r : recs)
                    passes.push_back(r->value("replay_pass", int64_t{-1}));
                fail("device " + std::to_string(d) + " dispatch " + std::to_string(id) + ": " +
                     std::to_string(recs.size()) + " counter records with replay_pass " +
                     json(passes).dump() + ", expected one per reporting pass of the plan (" +
                     std::to_string(reports.size()) + ")");
            }
        }
        auto hist = std::string{};
        for(const auto& [records, count] : pass_histogram)
            hist +=
                (hist.empty() ? "" : ",") + std::to_string(records) + "x" + std::to_string(count);
        result_text(key + "_records_per_dispatch", hist.empty() ? "none" : hist);
        result(key + "_bad_dispatches", bad);
        if(zero_inst > 0)
            fail("device " + std::to_string(d) + ": " + std::to_string(zero_inst) +
                 " records with " + group1 + " <= 0");
    }
    // Nothing on agents the program did not use.
    for(const auto& [agent, dispatches] : by_agent)
    {
        auto known = false;
        for(int d : devices)
            known = known || (agent_of.count(d) && agent_of.at(d) == agent);
        if(!known)
            fail(std::to_string(dispatches.size()) + " dispatches on agent " +
                 std::to_string(agent) + ", which the program did not use");
    }
    return failures == 0 ? 0 : 1;
}
} // namespace

int
main(int argc, char** argv)
{
    const auto mode = std::string{argc > 1 ? argv[1] : ""};
    try
    {
        if(mode == "windows" && argc == 6)
            return check_windows(argv[2], argv[3], argv[4], std::stoull(argv[5]));
        if(mode == "counters" && argc == 5) return check_counters(argv[2], argv[3], argv[4]);
    }
    catch(const std::exception& e)
    {
        fail(std::string{"validator: "} + e.what());
        return 1;
    }
    std::fprintf(stderr,
                 "usage: %s windows <tool.json> <program.json> <overlap|serial> <passes>\n"
                 "       %s counters <results.json> <program.json> <filtered1|unfiltered>\n",
                 argv[0],
                 argv[0]);
    return 2;
}
