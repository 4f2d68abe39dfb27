#include "replay_report.hpp"

#include <algorithm>
#include <set>
#include <sstream>

namespace rocprofiler::tool
{
namespace
{
std::string
counted(uint64_t n, std::string_view one, std::string_view many)
{
    return std::to_string(n) + " " + std::string{n == 1 ? one : many};
}

// " (footprint_budget: 2, untracked_memory: 1)" for one kind, empty when it has no dispatch.
std::string
reasons_of(const replay_report& report, rocprofiler_kernel_replay_outcome_kind_t kind)
{
    auto out = std::string{};
    for(const auto& [key, count] : report.by_reason)
    {
        if(key.first != static_cast<int>(kind)) continue;
        out += (out.empty() ? " (" : ", ") + key.second + ": " + std::to_string(count.dispatches);
    }
    return out.empty() ? out : out + ")";
}

// The counters of group @p group of @p agent, blank-separated.
std::string
group_counters(const results& data, rocprofiler_agent_id_t agent, uint64_t group)
{
    auto it = data.replay_groups.find(agent.handle);
    if(it == data.replay_groups.end() || group >= it->second.size()) return {};
    auto out = std::string{};
    for(const auto& name : it->second[group])
        out += (out.empty() ? "" : " ") + name;
    return out;
}
} // namespace

std::string_view
outcome_name(rocprofiler_kernel_replay_outcome_kind_t kind)
{
    switch(kind)
    {
    case ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED:
        return "REPLAYED";
    case ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED:
        return "DECLINED";
    case ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY:
        return "ENDED_EARLY";
    case ROCPROFILER_KERNEL_REPLAY_OUTCOME_LAST:
        break;
    }
    return "UNKNOWN";
}

// Every counter record of a replay pass, kept whole or as a replay_pass_record, in arrival order
// within each list.
template <typename Fn>
void
for_each_pass_record(const results& data, Fn&& fn)
{
    for(const auto& rec : data.counter_records)
        if(rec.replay_pass)
            fn(replay_pass_record{rec.data.dispatch_info.dispatch_id,
                                  rec.data.dispatch_info.agent_id,
                                  rec.data.dispatch_info.kernel_id,
                                  *rec.replay_pass});
    for(const auto& rec : data.replay_pass_records)
        fn(rec);
}

void
add_unoffered_dispatches(results& data)
{
    auto known = std::set<uint64_t>{};
    for(const auto& o : data.replay_outcomes)
        known.insert(o.dispatch_id);
    auto unoffered = std::vector<replay_outcome>{};
    for_each_pass_record(data,
                         [&](const replay_pass_record& rec)
                         {
                             const auto planned = planned_passes(data, rec.agent);
                             if(planned < 2 || !known.insert(rec.dispatch_id).second) return;
                             auto o           = replay_outcome{};
                             o.dispatch_id    = rec.dispatch_id;
                             o.agent          = rec.agent;
                             o.kernel_id      = rec.kernel_id;
                             o.kind           = ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED;
                             o.reason         = std::string{not_offered_reason};
                             o.passes_run     = 1;
                             o.passes_planned = planned; // what rocprofv3 would have asked for
                             unoffered.emplace_back(std::move(o));
                         });
    for(auto& o : unoffered)
        data.replay_outcomes.emplace_back(std::move(o));
}

replay_report
make_replay_report(const results& data)
{
    // The groups that arrived, per dispatch: a declined dispatch runs once and collects what pass
    // 0 reports (its record has replay_pass 0), a replay what each of its passes' records report.
    auto collected = std::map<uint64_t, std::set<uint64_t>>{};
    for_each_pass_record(
        data,
        [&](const replay_pass_record& rec)
        {
            auto& got = collected[rec.dispatch_id];
            auto  it  = data.replay_pass_groups.find(rec.agent.handle);
            if(it == data.replay_pass_groups.end() || rec.replay_pass >= it->second.size()) return;
            got.insert(it->second[rec.replay_pass].begin(), it->second[rec.replay_pass].end());
        });

    auto report = replay_report{};
    report.missing.reserve(data.replay_outcomes.size());
    report.by_reason[{ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none"}] = {};
    for(const auto& o : data.replay_outcomes)
    {
        auto groups = uint64_t{0};
        if(auto it = data.replay_groups.find(o.agent.handle); it != data.replay_groups.end())
            groups = it->second.size();
        auto        missing = std::vector<uint64_t>{};
        const auto* got     = static_cast<const std::set<uint64_t>*>(nullptr);
        if(auto it = collected.find(o.dispatch_id); it != collected.end()) got = &it->second;
        for(uint64_t g = 0; g < groups; ++g)
            if(got == nullptr || got->count(g) == 0) missing.push_back(g);

        if(o.kind < ROCPROFILER_KERNEL_REPLAY_OUTCOME_LAST) ++report.dispatches[o.kind];
        auto& count = report.by_reason[{static_cast<int>(o.kind), o.reason}];
        ++count.dispatches;
        count.missing_groups += missing.size();
        report.missing_groups += missing.size();
        if(!missing.empty()) ++report.dispatches_missing_groups;
        report.missing.emplace_back(std::move(missing));
    }
    return report;
}

std::string
format_replay_line(const replay_report& report)
{
    const auto& n   = report.dispatches;
    auto        out = std::string{"kernel replay: "};
    out += counted(n[ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED], "dispatch", "dispatches") +
           " replayed, " + std::to_string(n[ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED]) +
           " declined" + reasons_of(report, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED) + ", " +
           std::to_string(n[ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY]) + " ended early" +
           reasons_of(report, ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY) + "; ";
    if(report.missing_groups == 0)
        out += "no counter groups missing";
    else
        out += counted(report.missing_groups, "counter group", "counter groups") + " missing in " +
               counted(report.dispatches_missing_groups, "dispatch", "dispatches");
    return out;
}

std::string
replay_summary_csv(const replay_report& report)
{
    auto out = std::ostringstream{};
    out << "\"Outcome\",\"Reason\",\"Dispatches\",\"Missing_Groups\"\n";
    for(const auto& [key, count] : report.by_reason)
        out << csv_quote(
                   outcome_name(static_cast<rocprofiler_kernel_replay_outcome_kind_t>(key.first)))
            << ',' << csv_quote(key.second) << ',' << count.dispatches << ','
            << count.missing_groups << '\n';
    return out.str();
}

std::string
missing_groups_csv(const results& data, const replay_report& report)
{
    auto out = std::ostringstream{};
    out << "\"Dispatch_Id\",\"Agent_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Counter_Group\","
           "\"Counter_Names\",\"Outcome\",\"Reason\",\"Passes_Run\",\"Passes_Planned\"\n";
    for(size_t i = 0; i < data.replay_outcomes.size() && i < report.missing.size(); ++i)
    {
        const auto& o = data.replay_outcomes[i];
        for(auto group : report.missing[i])
            out << o.dispatch_id << ',' << csv_quote(agent_label(data, o.agent)) << ','
                << o.kernel_id << ',' << csv_quote(data.kernel_name(o.kernel_id)) << ',' << group
                << ',' << csv_quote(group_counters(data, o.agent, group)) << ','
                << csv_quote(outcome_name(o.kind)) << ',' << csv_quote(o.reason) << ','
                << o.passes_run << ',' << o.passes_planned << '\n';
    }
    return out.str();
}

nlohmann::ordered_json
replay_outcomes_json(const results& data, const replay_report& report)
{
    auto out = nlohmann::ordered_json::array();
    for(size_t i = 0; i < data.replay_outcomes.size() && i < report.missing.size(); ++i)
    {
        const auto& o     = data.replay_outcomes[i];
        auto        entry = nlohmann::ordered_json{{"dispatch_id", o.dispatch_id},
                                            {"agent_id", {{"handle", o.agent.handle}}},
                                            {"kernel_id", o.kernel_id},
                                            {"outcome", outcome_name(o.kind)},
                                            {"reason", o.reason},
                                            {"passes_run", o.passes_run},
                                            {"passes_planned", o.passes_planned},
                                            {"missing_groups", report.missing[i]},
                                            {"snapshot_bytes", o.snapshot_bytes},
                                            {"written_bytes", o.written_bytes},
                                            {"verified_bytes", o.verified_bytes}};
        if(o.reason == "write_outside_snapshot") entry["failed_pass"] = o.failed_pass;
        out.push_back(std::move(entry));
    }
    return out;
}

nlohmann::ordered_json
replay_summary_json(const replay_report& report)
{
    auto reasons = nlohmann::ordered_json::object();
    for(const auto& [key, count] : report.by_reason)
    {
        if(count.dispatches == 0) continue;
        auto kind = std::string{
            outcome_name(static_cast<rocprofiler_kernel_replay_outcome_kind_t>(key.first))};
        reasons[kind][key.second] = count.dispatches;
    }
    const auto& n = report.dispatches;
    return nlohmann::ordered_json{{"replayed", n[ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED]},
                                  {"declined", n[ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED]},
                                  {"ended_early", n[ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY]},
                                  {"reasons", reasons},
                                  {"missing_groups", report.missing_groups},
                                  {"dispatches_missing_groups", report.dispatches_missing_groups}};
}
uint64_t
planned_passes(const results& data, rocprofiler_agent_id_t agent)
{
    auto it = data.replay_pass_groups.find(agent.handle);
    return it == data.replay_pass_groups.end() ? 1 : std::max<uint64_t>(it->second.size(), 1);
}

bool
pass_reports(const results& data, rocprofiler_agent_id_t agent, uint64_t pass)
{
    auto it = data.replay_pass_groups.find(agent.handle);
    return it == data.replay_pass_groups.end() || pass >= it->second.size() ||
           !it->second[pass].empty();
}

nlohmann::ordered_json
replay_plan_json(const results& data)
{
    auto out = nlohmann::ordered_json::array();
    for(const auto& [agent, groups] : data.replay_groups)
    {
        auto passes = nlohmann::ordered_json::array();
        if(auto it = data.replay_pass_groups.find(agent); it != data.replay_pass_groups.end())
            for(const auto& reported : it->second)
                passes.push_back(nlohmann::ordered_json{{"reports_groups", reported}});
        out.push_back(
            nlohmann::ordered_json{{"agent_id", {{"handle", agent}}},
                                   {"passes", planned_passes(data, rocprofiler_agent_id_t{agent})},
                                   {"groups", groups},
                                   {"pass_plan", std::move(passes)}});
    }
    return out;
}
} // namespace rocprofiler::tool
