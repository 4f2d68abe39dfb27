// Validates what test-tool-cuda recorded (and what the program observed) for one GPU test, and
// prints "RESULT key=value" lines that scripts/gpu-suite.sh puts in its table.
// Usage: cuda-gpu-validate <runtime|driver|trace|none> <tool.json> <program.json> <passes>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
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
expect(bool condition, const std::string& what)
{
    if(condition) return;
    ++failures;
    std::printf("FAIL: %s\n", what.c_str());
}

json
load(const std::string& path)
{
    auto file = std::ifstream{path};
    if(!file)
    {
        std::printf("FAIL: cannot read %s\n", path.c_str());
        std::exit(1);
    }
    return json::parse(file);
}

bool
starts_with(const std::string& text, const std::string& prefix)
{
    return text.rfind(prefix, 0) == 0;
}

struct logical
{
    std::string       kernel  = {};
    std::vector<json> records = {};
};

// Records grouped by dispatch id, and the common checks on them.
std::map<uint64_t, logical>
check_dispatches(const json& tool)
{
    auto by_id = std::map<uint64_t, logical>{};
    for(const auto& r : tool["dispatch"])
    {
        auto& entry  = by_id[r["dispatch_id"].get<uint64_t>()];
        entry.kernel = r["kernel"].get<std::string>();
        entry.records.push_back(r);
        expect(!entry.kernel.empty(), "every dispatch has a kernel name");
        expect(r["start"].get<uint64_t>() > 0 &&
                   r["start"].get<uint64_t>() < r["end"].get<uint64_t>(),
               "0 < start < end for " + entry.kernel);
        expect(r["end"].get<uint64_t>() <= r["received_at"].get<uint64_t>(),
               "a completion arrives after the kernel ended (" + entry.kernel + ")");
        expect(r["agent"].get<uint64_t>() >= 1, "agent id set");
    }
    // How long after a kernel's end its completion reached the tool.
    auto latencies = std::vector<double>{};
    for(const auto& r : tool["dispatch"])
        latencies.push_back(static_cast<double>(r["received_at"].get<uint64_t>()) -
                            static_cast<double>(r["end"].get<uint64_t>()));
    std::sort(latencies.begin(), latencies.end());
    if(!latencies.empty())
        std::printf("RESULT completion_latency_us median=%.1f max=%.1f\n",
                    latencies[latencies.size() / 2] / 1e3,
                    latencies.back() / 1e3);
    // Dispatch ids are 1..K: one per logical dispatch, none skipped.
    auto expected = uint64_t{1};
    for(const auto& [id, entry] : by_id)
        expect(id == expected++,
               "dispatch ids are contiguous from 1 (at " + std::to_string(id) + ")");
    std::printf("RESULT dispatches=%zu records=%zu\n", by_id.size(), tool["dispatch"].size());
    return by_id;
}

// Kernel names and symbols came from CODE_OBJECT tracing, before each kernel's first dispatch.
void
check_symbols(const json& tool)
{
    expect(tool.contains("kernels") && !tool["kernels"].empty(), "CODE_OBJECT kernel symbols seen");
    expect(tool.value("names_missing", 0) == 0,
           "every kernel's symbol arrived before its first dispatch record");
    auto with_regs = 0, with_module = 0;
    for(const auto& k : tool.value("kernels", json::array()))
    {
        if(k["registers"].get<uint32_t>() > 0) ++with_regs;
        if(k["code_object_id"].get<uint64_t>() != 0) ++with_module;
        expect(!k["name"].get<std::string>().empty(), "kernel symbol has a name");
    }
    std::printf("RESULT symbols=%zu with_registers=%d with_code_object=%d\n",
                tool.value("kernels", json::array()).size(),
                with_regs,
                with_module);
    expect(with_regs == static_cast<int>(tool["kernels"].size()), "every symbol has registers");
}

void
check_agents(const json& tool)
{
    auto cuda = 0;
    for(const auto& a : tool["agents"])
    {
        if(!starts_with(a["name"].get<std::string>(), "sm_")) continue;
        ++cuda;
        expect(a["cu_count"].get<int>() > 0, "agent has SMs");
        expect(a["wave_front_size"].get<int>() == 32, "warp size 32");
        expect(a["local_mem_size"].get<uint64_t>() > (uint64_t{1} << 30), "device memory size");
        expect(a["vendor_id"].get<int>() == 0x10de, "NVIDIA vendor id");
        std::printf("RESULT agent=%s product=\"%s\" sms=%d mem_gib=%.1f pci_device=0x%x\n",
                    a["name"].get<std::string>().c_str(),
                    a["product"].get<std::string>().c_str(),
                    a["cu_count"].get<int>(),
                    static_cast<double>(a["local_mem_size"].get<uint64_t>()) / (1 << 30),
                    a["device_id"].get<int>());
    }
    expect(cuda >= 1, "at least one CUDA agent");
    if(!tool["agents"].empty())
        expect(starts_with(tool["agents"][0]["name"].get<std::string>(), "sm_"),
               "CUDA agents come before the host agent");
}

// Replay callbacks: CONFIG once per candidate; PASS ENTER/EXIT 0..N-1 for replayed ones.
void
check_replay(const json&                        tool,
             const std::map<uint64_t, logical>& by_id,
             uint64_t                           passes,
             const std::set<std::string>&       single)
{
    auto config = std::map<uint64_t, int>{};
    auto pass   = std::map<uint64_t, std::vector<uint64_t>>{};
    for(const auto& r : tool["replay"])
    {
        auto id = r["dispatch_id"].get<uint64_t>();
        if(r["operation"].get<int>() == 1) config[id]++;
        if(r["operation"].get<int>() == 2 && r["phase"].get<int>() == 1)
        {
            pass[id].push_back(r["current_pass"].get<uint64_t>());
            expect(r["total_passes"].get<uint64_t>() == passes, "total_passes == N");
        }
    }
    auto replayed = 0;
    for(const auto& [id, entry] : by_id)
    {
        const bool once = single.count(entry.kernel.substr(0, entry.kernel.find('('))) != 0;
        expect(config[id] == 2, "CONFIG ENTER+EXIT once for dispatch " + std::to_string(id));
        const auto want = once ? 1u : passes;
        expect(entry.records.size() == want,
               entry.kernel + " dispatch " + std::to_string(id) + ": " + std::to_string(want) +
                   " completion records (got " + std::to_string(entry.records.size()) + ")");
        if(once)
        {
            expect(pass[id].empty(), "no PASS for a non-replayed dispatch");
            continue;
        }
        ++replayed;
        for(uint64_t p = 0; p < passes; ++p)
            expect(p < pass[id].size() && pass[id][p] == p, "PASS callbacks 0..N-1 in order");
        for(size_t p = 0; p < entry.records.size(); ++p)
            expect(entry.records[p]["pass"].get<int64_t>() == static_cast<int64_t>(p),
                   "each pass's record is delivered inside its PASS");
    }
    // Between passes: the end of pass k to the start of pass k+1 (wait, restore, relaunch).
    auto gaps = std::vector<double>{};
    for(const auto& [id, entry] : by_id)
        for(size_t p = 1; p < entry.records.size(); ++p)
            if(starts_with(entry.kernel, "accumulate") || starts_with(entry.kernel, "increment"))
                gaps.push_back(static_cast<double>(entry.records[p]["start"].get<uint64_t>()) -
                               static_cast<double>(entry.records[p - 1]["end"].get<uint64_t>()));
    auto kernel_ns = std::vector<double>{};
    auto period_ns = std::vector<double>{};
    for(const auto& [id, entry] : by_id)
        if(entry.records.size() > 1 &&
           (starts_with(entry.kernel, "accumulate") || starts_with(entry.kernel, "increment")))
            for(size_t p = 0; p < entry.records.size(); ++p)
            {
                kernel_ns.push_back(static_cast<double>(entry.records[p]["end"].get<uint64_t>()) -
                                    static_cast<double>(entry.records[p]["start"].get<uint64_t>()));
                if(p > 0)
                    period_ns.push_back(
                        static_cast<double>(entry.records[p]["start"].get<uint64_t>()) -
                        static_cast<double>(entry.records[p - 1]["start"].get<uint64_t>()));
            }
    std::sort(gaps.begin(), gaps.end());
    std::sort(kernel_ns.begin(), kernel_ns.end());
    std::sort(period_ns.begin(), period_ns.end());
    if(!gaps.empty())
        std::printf("RESULT pass_gap_us median=%.1f max=%.1f\n",
                    gaps[gaps.size() / 2] / 1e3,
                    gaps.back() / 1e3);
    if(!kernel_ns.empty() && !period_ns.empty())
        std::printf("RESULT pass_detail kernel_us_median=%.2f period_us_median=%.1f "
                    "period_us_min=%.1f\n",
                    kernel_ns[kernel_ns.size() / 2] / 1e3,
                    period_ns[period_ns.size() / 2] / 1e3,
                    period_ns.front() / 1e3);
    std::printf("RESULT replayed_dispatches=%d passes=%llu\n",
                replayed,
                static_cast<unsigned long long>(passes));
}

void
check_runtime(const json& tool, const json& program, uint64_t passes)
{
    check_agents(tool);
    check_symbols(tool);
    auto by_id = check_dispatches(tool);
    auto names = std::set<std::string>{};
    for(const auto& [id, entry] : by_id)
        names.insert(entry.kernel.substr(0, entry.kernel.find('(')));
    for(const char* k : {"fill", "accumulate", "shared_and_local", "timed_spin", "host_increment"})
        expect(names.count(k) != 0, std::string{"kernel seen: "} + k);
    expect(by_id.size() == 12, "12 logical dispatches (got " + std::to_string(by_id.size()) + ")");

    if(passes > 0) check_replay(tool, by_id, passes, {"timed_spin", "host_increment"});

    // Geometry, segments, queues.
    auto queues = std::set<uint64_t>{};
    for(const auto& [id, entry] : by_id)
    {
        const auto& r = entry.records.front();
        if(starts_with(entry.kernel, "accumulate"))
        {
            queues.insert(r["queue"].get<uint64_t>());
            expect(r["workgroup"] == json::array({256, 1, 1}), "accumulate workgroup 256");
            if(r["grid"][0].get<uint64_t>() != 132 * 256)
                expect(r["grid"] == json::array({(1 << 22), 1, 1}), "grid in work-items");
        }
        if(starts_with(entry.kernel, "shared_and_local"))
        {
            expect(r["group_segment_size"].get<uint32_t>() == 2048,
                   "group segment = 1 KiB static + 1 KiB dynamic (got " +
                       std::to_string(r["group_segment_size"].get<uint32_t>()) + ")");
            expect(r["private_segment_size"].get<uint32_t>() > 0, "local memory reported");
            std::printf("RESULT shared_and_local group_segment=%u private_segment=%u\n",
                        r["group_segment_size"].get<uint32_t>(),
                        r["private_segment_size"].get<uint32_t>());
        }
    }
    expect(queues.size() >= 3,
           "legacy, created and per-thread streams are distinct queues (got " +
               std::to_string(queues.size()) + ")");

    // Timestamps. timed_spin spins until the GPU's global timer has advanced by the requested
    // time, so the GPU's own duration is that plus the time to the loop's first read of the timer,
    // the last read's overshoot (up to one step of the timer, which can be 1 us) and the exit: the
    // SDK's duration must be within [requested, requested + 2 us] (measured on an H100: 0.93 to
    // 1.01 us over, the timer's step). The program's events bracket the
    // kernel together with the SDK's own two events and the launch gap, so they can only be
    // longer: they give an upper bound (sdk <= event + 1 us) and their difference is printed.
    auto timed = std::vector<const json*>{};
    for(const auto& [id, entry] : by_id)
        if(starts_with(entry.kernel, "timed_spin")) timed.push_back(&entry.records.front());
    const auto& events    = program["event_ms"];
    const auto& requested = program["requested_ns"];
    expect(timed.size() == events.size() && timed.size() == requested.size(),
           "one timed record per event pair");
    auto max_diff_ns  = 0.0;
    auto max_delay_ns = 0.0;
    for(size_t i = 0; i < timed.size() && i < events.size() && i < requested.size(); ++i)
    {
        const auto ours  = static_cast<double>((*timed[i])["end"].get<uint64_t>() -
                                              (*timed[i])["start"].get<uint64_t>());
        const auto event = events[i].get<double>() * 1.0e6;
        const auto want  = requested[i].get<double>();
        const auto diff  = ours - want;
        max_diff_ns      = std::max(max_diff_ns, std::fabs(diff));
        std::printf("RESULT timed_%zu sdk_us=%.3f gpu_spin_us=%.3f diff_us=%.3f event_us=%.3f "
                    "event_minus_sdk_us=%.3f\n",
                    i,
                    ours / 1e3,
                    want / 1e3,
                    diff / 1e3,
                    event / 1e3,
                    (event - ours) / 1e3);
        expect(diff >= 0.0 && diff <= 2000.0, "SDK duration within [spin, spin + 2 us]");
        expect(ours <= event + 1000.0, "SDK duration <= event duration + 1 us");
        // The program's events bracket the kernel behind a 20 ms host function: anything the SDK
        // holds the launch up for beyond that delays the kernel's start on the GPU.
        max_delay_ns = std::max(max_delay_ns, event - want);
    }
    std::printf("RESULT max_timestamp_diff_us=%.3f\n", max_diff_ns / 1e3);
    std::printf("RESULT gpu_start_delay_us max=%.1f\n", max_delay_ns / 1e3);
    expect(max_delay_ns < 100000.0, "no kernel start delayed by the SDK (event - spin < 100 us)");

    expect(program["wrong_elements"].get<int>() == 0, "non-idempotent kernels left one-run state");
    expect(program["host_value"].get<int>() == 1, "host-memory kernel ran once (declined)");
    expect(program["host_func_calls"].get<int>() == 1, "host function after a kernel ran once");
    std::printf("RESULT one_run_state=%s host_func_calls=%d\n",
                program["wrong_elements"].get<int>() == 0 ? "yes" : "NO",
                program["host_func_calls"].get<int>());
}

void
check_driver(const json& tool, uint64_t passes)
{
    check_symbols(tool);
    auto by_id = check_dispatches(tool);
    expect(by_id.size() == 3, "3 logical dispatches");
    for(const auto& [id, entry] : by_id)
        expect(entry.kernel == "increment", "kernel name 'increment' (got '" + entry.kernel + "')");
    if(passes > 0) check_replay(tool, by_id, passes, {});
}
// Host time of the program's launch calls: the first, and the largest of those that ran once.
void
check_launch_times(const json& program, const std::set<std::string>& once)
{
    if(!program.contains("launch") || program["launch"].empty()) return;
    const auto& l     = program["launch"];
    auto        worst = 0.0;
    auto        which = std::string{};
    for(const auto& e : l)
    {
        const auto k = e["kernel"].get<std::string>();
        if(!once.empty() && once.count(k) == 0) continue;
        if(e["us"].get<double>() > worst)
        {
            worst = e["us"].get<double>();
            which = k;
        }
    }
    std::printf("RESULT launch_call_us first=%.1f max_run_once=%.1f (%s)\n",
                l[0]["us"].get<double>(),
                worst,
                which.c_str());
}

// PyTorch under replay (N passes): kernels traced with names; replayed ones have N records, each
// inside its PASS.
void
check_torch(const json& tool, uint64_t passes)
{
    check_symbols(tool);
    auto by_id    = check_dispatches(tool);
    auto replayed = 0, once = 0, in_pass = 0;
    auto names = std::set<std::string>{};
    for(const auto& [id, entry] : by_id)
    {
        names.insert(entry.kernel.substr(0, 60));
        if(entry.records.size() == passes)
        {
            ++replayed;
            auto ok = true;
            for(size_t p = 0; p < entry.records.size(); ++p)
                ok = ok && entry.records[p]["pass"].get<int64_t>() == static_cast<int64_t>(p);
            if(ok) ++in_pass;
        }
        else if(entry.records.size() == 1)
            ++once;
        else
            expect(false,
                   "dispatch " + std::to_string(id) + " has " +
                       std::to_string(entry.records.size()) + " records");
    }
    expect(by_id.size() >= 5, "PyTorch kernels traced (got " + std::to_string(by_id.size()) + ")");
    expect(replayed >= 1, "PyTorch kernels replayed");
    expect(in_pass == replayed, "each replayed pass's record delivered inside its PASS");
    std::printf("RESULT dispatches=%zu replayed=%d run_once=%d distinct_kernels=%zu\n",
                by_id.size(),
                replayed,
                once,
                names.size());
    auto count = 0;
    for(const auto& n : names)
        if(count++ < 4) std::printf("RESULT kernel_name %s\n", n.c_str());
}
// Every dispatch replayed with N passes (replay_program): nonidem (>= 13 dispatches), streams
// (exactly 48: 4 threads x 2 streams x 6), capture (exactly 1 replayed: the captured launches are
// not dispatches; the 2 graph launches' 3 kernel nodes each are 6 traced dispatches, one record
// each and never offered for replay).
void
check_replay_all(const json& tool, const std::string& mode, uint64_t passes)
{
    auto by_id = check_dispatches(tool);
    if(mode == "capture")
    {
        auto offered = std::set<uint64_t>{};
        for(const auto& r : tool["replay"])
            offered.insert(r["dispatch_id"].get<uint64_t>());
        auto nodes = size_t{0};
        for(auto itr = by_id.begin(); itr != by_id.end();)
        {
            if(offered.count(itr->first) != 0)
            {
                ++itr;
                continue;
            }
            ++nodes;
            expect(itr->second.records.size() == 1,
                   "capture: a graph kernel node has one record (dispatch " +
                       std::to_string(itr->first) + ")");
            itr = by_id.erase(itr);
        }
        std::printf("RESULT capture_graph_node_dispatches=%zu\n", nodes);
        expect(nodes == 6,
               "capture: 2 graph launches x 3 kernel nodes traced (got " + std::to_string(nodes) +
                   ")");
    }
    check_replay(tool, by_id, passes, {});
    if(mode == "nonidem")
        expect(by_id.size() >= 13,
               "nonidem: >= 13 dispatches (got " + std::to_string(by_id.size()) + ")");
    if(mode == "streams")
        expect(by_id.size() == 48,
               "streams: 48 dispatches (got " + std::to_string(by_id.size()) + ")");
    if(mode == "capture")
        expect(by_id.size() == 1,
               "capture: only the plain launch is replayed (got " + std::to_string(by_id.size()) +
                   ")");
    auto queues = std::set<uint64_t>{};
    for(const auto& r : tool["dispatch"])
        queues.insert(r["queue"].get<uint64_t>());
    std::printf("RESULT %s_queues=%zu\n", mode.c_str(), queues.size());
    if(mode == "streams") expect(queues.size() == 8, "streams: 8 distinct queues");
}
} // namespace

int
main(int argc, char** argv)
{
    if(argc < 5)
    {
        std::printf("usage: %s <runtime|driver|trace|none> <tool.json> <program.json> <passes>\n",
                    argv[0]);
        return 2;
    }
    const std::string mode   = argv[1];
    const auto        passes = std::strtoull(argv[4], nullptr, 10);
    if(mode == "none" && argc > 3)
    {
        auto file = std::ifstream{argv[3]};
        if(file) check_launch_times(json::parse(file), {});
    }
    if(mode != "none")
    {
        const auto tool = load(argv[2]);
        expect(tool["errors"].empty(), "tool reported no errors: " + tool["errors"].dump());
        if(mode == "runtime" || mode == "trace")
        {
            const auto program = load(argv[3]);
            check_runtime(tool, program, passes);
            if(passes > 0)
                check_launch_times(program, {"timed_spin", "host_increment"});
            else
                check_launch_times(program, {});
        }
        if(mode == "driver") check_driver(tool, passes);
        if(mode == "torch") check_torch(tool, passes);
        if(mode == "nonidem" || mode == "streams" || mode == "capture")
            check_replay_all(tool, mode, passes);
        if(mode == "trace") expect(tool["replay"].empty(), "no replay callbacks without replay");
    }
    std::printf("RESULT failures=%d\n", failures);
    return failures == 0 ? 0 : 1;
}
