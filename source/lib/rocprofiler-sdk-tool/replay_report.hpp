// What kernel replay left out: per replayed dispatch the counter groups that have no counter
// record, and what the outcomes add up to, computed from the collected data (output.hpp) when the
// outputs are written. Pure functions over plain data, like the writers of output.hpp;
// docs/rocprofv3.md describes the formats.
#pragma once

#include "output.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
// An outcome kind as the outputs spell it: REPLAYED, DECLINED, ENDED_EARLY.
std::string_view outcome_name(rocprofiler_kernel_replay_outcome_kind_t kind);

struct replay_report
{
    struct reason_count
    {
        uint64_t dispatches     = 0;
        uint64_t missing_groups = 0;
    };

    // Per entry of results::replay_outcomes (same index): the groups of the dispatch's agent
    // (0-based: the replay pass that collects the group) for which no counter record arrived.
    std::vector<std::vector<uint64_t>> missing = {};
    // Dispatches per outcome kind.
    std::array<uint64_t, ROCPROFILER_KERNEL_REPLAY_OUTCOME_LAST> dispatches = {};
    // Per (kind, reason), in kind order, then by reason name.
    std::map<std::pair<int, std::string>, reason_count> by_reason = {};
    uint64_t missing_groups            = 0; // group-collections missing, over all dispatches
    uint64_t dispatches_missing_groups = 0; // dispatches with at least one missing group
};

// The reason rocprofv3 gives a dispatch the SDK never offered for replay (no CONFIG, so no
// outcome): a launch it never replays (reentrant_dispatch: from a device thread or a replay
// callback; stream_capture, collective_kernel on CUDA). The SDK's [kernel-replay] log names which.
inline constexpr std::string_view not_offered_reason = "not_offered";

// Adds a DECLINED outcome with reason not_offered for each dispatch that has counter records on
// an agent of several groups but no outcome: it ran once, and its other groups are missing just
// as a declined dispatch's are. Called once, before the outputs are written.
void add_unoffered_dispatches(results& data);

// Compares each outcome's planned groups (results::replay_groups of its agent) with the
// replay_pass of the dispatch's counter records.
replay_report make_replay_report(const results& data);

// One line, e.g. "kernel replay: 58 dispatches replayed, 2 declined (footprint_budget: 2), 1 ended
// early (write_outside_snapshot: 1); 3 counter groups missing in 3 dispatches".
std::string format_replay_line(const replay_report& report);

// <prefix>_kernel_replay_summary.csv: Outcome, Reason, Dispatches, Missing_Groups; one row per
// (outcome, reason) seen, and always the REPLAYED row.
std::string replay_summary_csv(const replay_report& report);

// <prefix>_counter_collection_missing.csv: one row per missing (dispatch, group).
std::string missing_groups_csv(const results& data, const replay_report& report);

// results.json: callback_records.kernel_replay_outcome (one marker per dispatch) and the
// tool-level kernel_replay_summary.
nlohmann::ordered_json replay_outcomes_json(const results& data, const replay_report& report);
nlohmann::ordered_json replay_summary_json(const replay_report& report);

// results.json: kernel_replay_plan, one entry per agent that collects counters: the passes each
// of its dispatches is replayed, its groups, and the groups each pass reports.
nlohmann::ordered_json replay_plan_json(const results& data);

// The passes each dispatch of @p agent is planned to take (1: not replayed).
uint64_t planned_passes(const results& data, rocprofiler_agent_id_t agent);

// Whether the record of replay pass @p pass of @p agent's dispatches reports values (false for the
// later passes of a configuration of several passes; true where no plan says otherwise).
bool pass_reports(const results& data, rocprofiler_agent_id_t agent, uint64_t pass);
} // namespace rocprofiler::tool
