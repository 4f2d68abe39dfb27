#include "model/replay_report.hpp"
#include "csv/rows.hpp"

#include <algorithm>
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

void
replay_report::add(const replay_outcome& outcome, size_t missing)
{
    if(outcome.kind < ROCPROFILER_KERNEL_REPLAY_OUTCOME_LAST) ++dispatches[outcome.kind];
    auto& count = by_reason[{static_cast<int>(outcome.kind), outcome.reason}];
    ++count.dispatches;
    count.missing_groups += missing;
    missing_groups += missing;
    if(missing > 0) ++dispatches_missing_groups;
}

void
replay_ledger::collect(const results&          data,
                       open_dispatch&          entry,
                       rocprofiler_agent_id_t  agent,
                       std::optional<uint64_t> replay_pass) const
{
    // A dispatch's single run collects what pass 0 reports.
    const auto pass = replay_pass.value_or(0);
    auto       it   = data.replay_pass_groups.find(agent.handle);
    if(it == data.replay_pass_groups.end() || pass >= it->second.size()) return;
    for(auto group : it->second[pass])
    {
        if(group >= entry.collected.size()) entry.collected.resize(group + 1, false);
        entry.collected[group] = true;
    }
}

void
replay_ledger::close(const results& data, const open_dispatch& entry, const sink_fn& sink)
{
    const auto& o      = *entry.outcome;
    auto        groups = size_t{0};
    if(auto it = data.replay_groups.find(o.agent.handle); it != data.replay_groups.end())
        groups = it->second.size();
    auto missing = std::vector<uint64_t>{};
    for(size_t g = 0; g < groups; ++g)
        if(g >= entry.collected.size() || !entry.collected[g]) missing.push_back(g);
    m_report.add(o, missing.size());
    if(sink) sink(o, missing);
}

void
replay_ledger::counter_record(const results&          data,
                              uint64_t                dispatch_id,
                              rocprofiler_agent_id_t  agent,
                              uint64_t                kernel_id,
                              std::optional<uint64_t> replay_pass,
                              const sink_fn&          sink)
{
    const auto planned = planned_passes(data, agent);
    if(planned < 2) return;
    auto& entry = m_open[dispatch_id];
    collect(data, entry, agent, replay_pass);
    if(replay_pass) return; // the outcome closes a replay
    if(!entry.outcome)
    {
        // A single run without an outcome before it: the SDK never offered the dispatch.
        auto o           = replay_outcome{};
        o.dispatch_id    = dispatch_id;
        o.agent          = agent;
        o.kernel_id      = kernel_id;
        o.kind           = ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED;
        o.reason         = std::string{not_offered_reason};
        o.passes_run     = 1;
        o.passes_planned = planned; // what rocprofv3 would have asked for
        entry.outcome    = std::move(o);
    }
    close(data, entry, sink);
    m_open.erase(dispatch_id);
}

void
replay_ledger::outcome(const results& data, const replay_outcome& outcome, const sink_fn& sink)
{
    // Dispatch id 0: no dispatch was made (a CUDA graph launch, declined as a whole; its kernel
    // nodes are traced under ids of their own). No record will close it and the next one would
    // share its key: each is reported at once.
    if(outcome.dispatch_id == 0)
    {
        auto entry    = open_dispatch{};
        entry.outcome = outcome;
        close(data, entry, sink);
        return;
    }
    auto& entry   = m_open[outcome.dispatch_id];
    entry.outcome = outcome;
    // A declined dispatch runs after its outcome: its record closes it.
    if(outcome.kind == ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED) return;
    close(data, entry, sink);
    m_open.erase(outcome.dispatch_id);
}

void
replay_ledger::finish(const results& data, const sink_fn& sink)
{
    auto ids = std::vector<uint64_t>{};
    for(const auto& [id, entry] : m_open)
        if(entry.outcome) ids.push_back(id);
    std::sort(ids.begin(), ids.end());
    for(auto id : ids)
        close(data, m_open.at(id), sink);
    m_open.clear();
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
missing_groups_csv_header()
{
    return "\"Dispatch_Id\",\"Agent_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Counter_Group\","
           "\"Counter_Names\",\"Outcome\",\"Reason\",\"Passes_Run\",\"Passes_Planned\"\n";
}

std::string
missing_groups_csv_rows(const results&               data,
                        const replay_outcome&        o,
                        const std::vector<uint64_t>& missing)
{
    auto out = std::ostringstream{};
    for(auto group : missing)
        out << o.dispatch_id << ',' << csv_quote(agent_label(data, o.agent)) << ',' << o.kernel_id
            << ',' << csv_quote(data.kernel_name(o.kernel_id)) << ',' << group << ','
            << csv_quote(group_counters(data, o.agent, group)) << ','
            << csv_quote(outcome_name(o.kind)) << ',' << csv_quote(o.reason) << ',' << o.passes_run
            << ',' << o.passes_planned << '\n';
    return out.str();
}

nlohmann::ordered_json
replay_outcome_json(const replay_outcome& o, const std::vector<uint64_t>& missing)
{
    auto entry = nlohmann::ordered_json{{"dispatch_id", o.dispatch_id},
                                        {"agent_id", {{"handle", o.agent.handle}}},
                                        {"kernel_id", o.kernel_id},
                                        {"outcome", outcome_name(o.kind)},
                                        {"reason", o.reason},
                                        {"passes_run", o.passes_run},
                                        {"passes_planned", o.passes_planned},
                                        {"missing_groups", missing},
                                        {"snapshot_bytes", o.snapshot_bytes},
                                        {"written_bytes", o.written_bytes},
                                        {"verified_bytes", o.verified_bytes}};
    if(o.reason == "write_outside_snapshot") entry["failed_pass"] = o.failed_pass;
    return entry;
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
