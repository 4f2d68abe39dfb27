// What kernel replay left out: per replayed dispatch the counter groups that have no counter
// record, and what the outcomes add up to. The ledger works as records and outcomes arrive and
// hands each dispatch on once its account is closed, so the tool writes the missing rows and the
// per-dispatch markers as a stream and keeps only the dispatches in flight (docs/rocprofv3.md,
// "What kernel replay could not collect").
#pragma once

#include "model/results.hpp"

#include <nlohmann/json.hpp>

#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
// An outcome kind as the outputs spell it: REPLAYED, DECLINED, ENDED_EARLY.
std::string_view outcome_name(rocprofiler_kernel_replay_outcome_kind_t kind);

// What the outcomes of a run add up to.
struct replay_report
{
    struct reason_count
    {
        uint64_t dispatches     = 0;
        uint64_t missing_groups = 0;
    };

    // Dispatches per outcome kind.
    std::array<uint64_t, ROCPROFILER_KERNEL_REPLAY_OUTCOME_LAST> dispatches = {};
    // Per (kind, reason), in kind order, then by reason name.
    std::map<std::pair<int, std::string>, reason_count> by_reason = {
        {{ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none"}, {}}};
    uint64_t missing_groups            = 0; // group-collections missing, over all dispatches
    uint64_t dispatches_missing_groups = 0; // dispatches with at least one missing group

    // Counts one closed dispatch.
    void add(const replay_outcome& outcome, size_t missing);
};

// The reason rocprofv3 gives a dispatch the SDK never offered for replay (no CONFIG, so no
// outcome): a launch it never replays (reentrant_dispatch: from a device thread or a replay
// callback; stream_capture, collective_kernel on CUDA). The SDK's [kernel-replay] log names which.
inline constexpr std::string_view not_offered_reason = "not_offered";

// The account of each dispatch rocprofv3 asked to replay, kept from its first counter record or
// its outcome until both are known, then handed to the sink with the groups of its agent
// (0-based: the replay pass that collects the group) for which no counter record arrived.
//
// The order it relies on is the SDK's (kernel_replay_outcome.h): the records of a replay's passes
// arrive before its outcome, which closes it; a declined dispatch's outcome comes before its single
// run, whose record closes it; a dispatch the SDK never offered has a record and no outcome, and
// that record closes it as DECLINED with reason not_offered. What is open at finish() (a declined
// dispatch whose record never came) closes there. Memory: the dispatches in flight. Not
// thread-safe: the tool calls it with its mutex held.
class replay_ledger
{
public:
    using sink_fn = std::function<void(const replay_outcome&, const std::vector<uint64_t>&)>;

    // A counter record of @p dispatch_id on an agent that plans several passes. @p replay_pass:
    // the pass it was collected in, or nullopt for the dispatch's single run (not replayed).
    void counter_record(const results&          data,
                        uint64_t                dispatch_id,
                        rocprofiler_agent_id_t  agent,
                        uint64_t                kernel_id,
                        std::optional<uint64_t> replay_pass,
                        const sink_fn&          sink);

    // The SDK's outcome of a dispatch rocprofv3 asked to replay.
    void outcome(const results& data, const replay_outcome& outcome, const sink_fn& sink);

    // At the end of the run: closes the declined dispatches whose record never came (every group
    // missing), in dispatch order. Replays without an outcome were in flight: they are dropped.
    void finish(const results& data, const sink_fn& sink);

    const replay_report& report() const { return m_report; }
    // Dispatches open now.
    size_t open() const { return m_open.size(); }

private:
    struct open_dispatch
    {
        std::optional<replay_outcome> outcome   = {};
        std::vector<bool>             collected = {}; // per group of the agent
    };

    void collect(const results&          data,
                 open_dispatch&          entry,
                 rocprofiler_agent_id_t  agent,
                 std::optional<uint64_t> replay_pass) const;
    void close(const results& data, const open_dispatch& entry, const sink_fn& sink);

    std::unordered_map<uint64_t, open_dispatch> m_open   = {};
    replay_report                               m_report = {};
};

// One line, e.g. "kernel replay: 58 dispatches replayed, 2 declined (footprint_budget: 2), 1 ended
// early (write_outside_snapshot: 1); 3 counter groups missing in 3 dispatches".
std::string format_replay_line(const replay_report& report);

// <prefix>_kernel_replay_summary.csv: Outcome, Reason, Dispatches, Missing_Groups; one row per
// (outcome, reason) seen, and always the REPLAYED row.
std::string replay_summary_csv(const replay_report& report);

// <prefix>_counter_collection_missing.csv: one row per missing (dispatch, group), streamed.
std::string missing_groups_csv_header();
std::string missing_groups_csv_rows(const results&               data,
                                    const replay_outcome&        outcome,
                                    const std::vector<uint64_t>& missing);

// results.json: one element of callback_records.kernel_replay_outcome (spilled like the records),
// and the tool-level kernel_replay_summary.
nlohmann::ordered_json replay_outcome_json(const replay_outcome&        outcome,
                                           const std::vector<uint64_t>& missing);
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
