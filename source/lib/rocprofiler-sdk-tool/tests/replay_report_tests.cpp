// Kernel replay's account of each dispatch (replay_report.cpp): the ledger, its summary files and
// rows.
#include "config/config.hpp"
#include "config/parse.hpp"
#include "csv/rows.hpp"
#include "csv_rows.hpp"
#include "files/atomic_file.hpp"
#include "files/csv_stream.hpp"
#include "model/names.hpp"
#include "model/replay_report.hpp"
#include "model/results.hpp"
#include "sinks/whole_files.hpp"
#include "json/record_json.hpp"
#include "json/record_spill.hpp"
#include "json/results_document.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parse = rocprofiler::tool::parse;

namespace
{
namespace tool = rocprofiler::tool;

// What replay_ledger handed on: each closed dispatch with its missing groups, in closing order.
struct closed_dispatches
{
    std::vector<tool::replay_outcome>  outcomes = {};
    std::vector<std::vector<uint64_t>> missing  = {};
    tool::replay_ledger::sink_fn       sink()
    {
        return [this](const auto& o, const auto& m)
        { outcomes.push_back(o), missing.push_back(m); };
    }
    const std::vector<uint64_t>& of(uint64_t dispatch_id) const
    {
        for(size_t i = 0; i < outcomes.size(); ++i)
            if(outcomes[i].dispatch_id == dispatch_id) return missing[i];
        throw std::out_of_range{"dispatch " + std::to_string(dispatch_id) + " was not closed"};
    }
};

// One agent (handle 9) with three groups, pass i reporting group i, and kernel 5 named "k,1".
tool::results
replay_plan()
{
    auto data                   = tool::results{};
    data.kernel_symbols[5].name = "k,1";
    data.replay_groups[9]       = {{"A", "B"}, {"C"}, {"D"}};
    data.replay_pass_groups[9]  = {{0}, {1}, {2}}; // pass i reports group i
    return data;
}

tool::replay_outcome
make_outcome(uint64_t                                 id,
             rocprofiler_kernel_replay_outcome_kind_t kind,
             const char*                              reason,
             uint64_t                                 run)
{
    auto o           = tool::replay_outcome{};
    o.dispatch_id    = id;
    o.agent.handle   = 9;
    o.kernel_id      = 5;
    o.kind           = kind;
    o.reason         = reason;
    o.passes_run     = run;
    o.passes_planned = 3;
    o.failed_pass    = run - 1;
    return o;
}

// Feeds the ledger in the SDK's order: a replay's pass records, then its outcome; a declined
// dispatch's outcome, then the record of its single run.
struct replay_run
{
    tool::results       data   = replay_plan();
    tool::replay_ledger ledger = {};
    closed_dispatches   closed = {};

    void record(uint64_t id, std::optional<uint64_t> pass, uint64_t agent = 9)
    {
        ledger.counter_record(data, id, rocprofiler_agent_id_t{agent}, 5, pass, closed.sink());
    }
    void outcome(const tool::replay_outcome& o) { ledger.outcome(data, o, closed.sink()); }
    void replayed(uint64_t                                 id,
                  const std::vector<uint64_t>&             passes,
                  uint64_t                                 run,
                  rocprofiler_kernel_replay_outcome_kind_t kind,
                  const char*                              reason)
    {
        for(auto p : passes)
            record(id, p);
        outcome(make_outcome(id, kind, reason, run));
    }
    void declined(uint64_t id, const char* reason, bool record_arrives = true)
    {
        outcome(make_outcome(id, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED, reason, 1));
        if(record_arrives) record(id, std::nullopt);
    }
    // The four dispatches of the reports below.
    void standard()
    {
        replayed(1, {0, 1, 2}, 3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none");
        declined(2, "footprint_budget"); // runs once and collects group 0
        replayed(
            3, {0, 1}, 2, ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY, "write_outside_snapshot");
        declined(4, "untracked_memory");
    }
};
} // namespace

TEST(replay_report, missing_groups_are_planned_groups_without_records)
{
    auto run = replay_run{};
    run.standard();
    EXPECT_EQ(run.ledger.open(), 0u) << "every dispatch closed as it completed";
    ASSERT_EQ(run.closed.outcomes.size(), 4u);
    EXPECT_TRUE(run.closed.of(1).empty());
    EXPECT_EQ(run.closed.of(2), (std::vector<uint64_t>{1, 2}));
    EXPECT_EQ(run.closed.of(3), (std::vector<uint64_t>{2}));
    EXPECT_EQ(run.closed.of(4), (std::vector<uint64_t>{1, 2}));
    const auto& report = run.ledger.report();
    EXPECT_EQ(report.missing_groups, 5u);
    EXPECT_EQ(report.dispatches_missing_groups, 3u);
    EXPECT_EQ(tool::format_replay_line(report),
              "kernel replay: 1 dispatch replayed, 2 declined (footprint_budget: 1, "
              "untracked_memory: 1), 1 ended early (write_outside_snapshot: 1); 5 counter groups "
              "missing in 3 dispatches");
    EXPECT_EQ(tool::replay_summary_csv(report),
              "\"Outcome\",\"Reason\",\"Dispatches\",\"Missing_Groups\"\n"
              "\"REPLAYED\",\"none\",1,0\n"
              "\"DECLINED\",\"footprint_budget\",1,2\n"
              "\"DECLINED\",\"untracked_memory\",1,2\n"
              "\"ENDED_EARLY\",\"write_outside_snapshot\",1,1\n");
    // Agent_Id as the other CSV files write it: an agent the list does not know by its handle.
    const auto declined =
        make_outcome(2, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED, "footprint_budget", 1);
    EXPECT_EQ(tool::missing_groups_csv_rows(run.data, declined, run.closed.of(2)),
              "2,\"Agent 9\",5,\"k,1\",1,\"C\",\"DECLINED\",\"footprint_budget\",1,3\n"
              "2,\"Agent 9\",5,\"k,1\",2,\"D\",\"DECLINED\",\"footprint_budget\",1,3\n");
    EXPECT_EQ(
        tool::missing_groups_csv_rows(
            run.data,
            make_outcome(
                3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY, "write_outside_snapshot", 2),
            run.closed.of(3)),
        "3,\"Agent 9\",5,\"k,1\",2,\"D\",\"ENDED_EARLY\",\"write_outside_snapshot\",2,3\n");
    EXPECT_EQ(tool::missing_groups_csv_header(),
              "\"Dispatch_Id\",\"Agent_Id\",\"Kernel_Id\",\"Kernel_Name\",\"Counter_Group\","
              "\"Counter_Names\",\"Outcome\",\"Reason\",\"Passes_Run\",\"Passes_Planned\"\n");
    // A listed agent by its logical node id, or as -A absolute / type-relative says.
    {
        auto agent                      = tool::agent_entry{};
        agent.info.id                   = rocprofiler_agent_id_t{9};
        agent.info.type                 = ROCPROFILER_AGENT_TYPE_GPU;
        agent.info.node_id              = 7;
        agent.info.logical_node_id      = 3;
        agent.info.logical_node_type_id = 1;
        auto listed                     = run.data;
        listed.agents                   = {agent};
        const auto row = std::string{",5,\"k,1\",1,\"C\",\"DECLINED\",\"footprint_budget\",1,3\n"};
        const auto missing = std::vector<uint64_t>{1};
        EXPECT_EQ(tool::missing_groups_csv_rows(listed, declined, missing), "2,\"Agent 3\"" + row);
        listed.agent_index_mode = tool::agent_index::absolute;
        EXPECT_EQ(tool::missing_groups_csv_rows(listed, declined, missing), "2,\"Agent 7\"" + row);
        listed.agent_index_mode = tool::agent_index::type_relative;
        EXPECT_EQ(tool::missing_groups_csv_rows(listed, declined, missing), "2,\"GPU 1\"" + row);
    }

    auto marker = tool::replay_outcome_json(
        make_outcome(3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY, "write_outside_snapshot", 2),
        run.closed.of(3));
    EXPECT_EQ(marker["outcome"], "ENDED_EARLY");
    EXPECT_EQ(marker["failed_pass"], 1u);
    EXPECT_EQ(marker["missing_groups"], (std::vector<uint64_t>{2}));
    EXPECT_FALSE(tool::replay_outcome_json(declined, {1, 2}).contains("failed_pass"));
    auto summary = tool::replay_summary_json(report);
    EXPECT_EQ(summary["declined"], 2u);
    EXPECT_EQ(summary["reasons"]["DECLINED"]["untracked_memory"], 1u);
    EXPECT_EQ(summary["missing_groups"], 5u);
}

// The report follows the records, not the outcome alone: a replay whose record of one pass did not
// arrive is missing that pass's group.
TEST(replay_report, a_pass_whose_record_did_not_arrive_is_missing_its_group)
{
    auto run = replay_run{};
    run.replayed(1, {0, 2}, 3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none");
    EXPECT_EQ(run.closed.of(1), (std::vector<uint64_t>{1}));
    EXPECT_EQ(tool::replay_summary_json(run.ledger.report())["missing_groups"], 1u);
}

// A declined dispatch stays open until its single run reports; one whose run never reports (its
// counters failed, or the run ended first) closes at finish() with every group missing.
TEST(replay_report, a_declined_dispatch_closes_at_its_record_or_at_finish)
{
    auto run = replay_run{};
    run.declined(2, "footprint_budget", false);
    EXPECT_EQ(run.ledger.open(), 1u);
    EXPECT_TRUE(run.closed.outcomes.empty()) << "its run has not reported yet";
    run.record(2, std::nullopt);
    EXPECT_EQ(run.ledger.open(), 0u);
    EXPECT_EQ(run.closed.of(2), (std::vector<uint64_t>{1, 2}));

    run.declined(5, "untracked_memory", false);
    run.declined(4, "untracked_memory", false);
    run.ledger.finish(run.data, run.closed.sink());
    EXPECT_EQ(run.ledger.open(), 0u);
    ASSERT_EQ(run.closed.outcomes.size(), 3u);
    EXPECT_EQ(run.closed.outcomes[1].dispatch_id, 4u) << "finish closes in dispatch order";
    EXPECT_EQ(run.closed.of(4), (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_EQ(run.closed.of(5), (std::vector<uint64_t>{0, 1, 2}));
    EXPECT_EQ(run.ledger.report().missing_groups, 8u);
}

// A CUDA graph launch is declined as a whole with dispatch id 0 (no dispatch of its own): every
// one is reported, at once, with every planned group missing; none waits for a record.
TEST(replay_report, every_graph_launch_decline_is_reported_at_once)
{
    auto run = replay_run{};
    for(int launch = 0; launch < 3; ++launch)
        run.declined(0, "graph_launch", false);
    EXPECT_EQ(run.ledger.open(), 0u);
    ASSERT_EQ(run.closed.outcomes.size(), 3u);
    for(const auto& o : run.closed.outcomes)
    {
        EXPECT_EQ(o.dispatch_id, 0u);
        EXPECT_EQ(o.reason, "graph_launch");
    }
    run.ledger.finish(run.data, run.closed.sink());
    EXPECT_EQ(run.closed.outcomes.size(), 3u) << "nothing left to close at finish";
    EXPECT_EQ(run.ledger.report().dispatches[ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED], 3u);
}

// A replay still in flight when the run ends has no outcome: it is not reported (its passes may
// have reported part of it, the rest never ran), as no other dispatch in flight is.
TEST(replay_report, a_replay_without_an_outcome_at_finish_is_dropped)
{
    auto run = replay_run{};
    run.record(8, 0);
    run.record(8, 1);
    EXPECT_EQ(run.ledger.open(), 1u);
    run.ledger.finish(run.data, run.closed.sink());
    EXPECT_EQ(run.ledger.open(), 0u);
    EXPECT_TRUE(run.closed.outcomes.empty());
}

// Memory follows the dispatches in flight, not the run's length.
TEST(replay_report, the_ledger_holds_only_the_dispatches_in_flight)
{
    auto run = replay_run{};
    for(uint64_t id = 1; id <= 10000; ++id)
    {
        if(id % 10 == 0)
            run.declined(id, "footprint_budget");
        else
            run.replayed(id, {0, 1, 2}, 3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none");
        ASSERT_EQ(run.ledger.open(), 0u) << "dispatch " << id;
    }
    EXPECT_EQ(run.ledger.report().dispatches[ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED], 9000u);
    EXPECT_EQ(run.ledger.report().dispatches[ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED], 1000u);
    EXPECT_EQ(run.ledger.report().missing_groups, 2000u);
}

TEST(replay_report, a_group_of_several_passes_is_reported_by_the_first_of_its_passes)
{
    auto run                       = replay_run{};
    run.data.replay_groups[9]      = {{"A", "B"}, {"X.pct"}};
    run.data.replay_pass_groups[9] = {{0}, {1}, {}}; // X.pct takes passes 1 and 2
    EXPECT_EQ(tool::planned_passes(run.data, rocprofiler_agent_id_t{9}), 3u);
    // Complete: pass 2's record repeats pass 1's values and reports nothing.
    run.replayed(1, {0, 1, 2}, 3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none");
    // Ended after pass 1: the cycle of X.pct never finished, no record.
    run.replayed(
        2, {0}, 2, ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY, "write_outside_snapshot");
    EXPECT_TRUE(run.closed.of(1).empty());
    EXPECT_EQ(run.closed.of(2), (std::vector<uint64_t>{1}));

    // One configuration of both groups, collected in two passes, reports both from pass 0.
    run.data.replay_pass_groups[9] = {{0, 1}, {}};
    run.replayed(3, {0, 1}, 2, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none");
    EXPECT_TRUE(run.closed.of(3).empty());
    auto plan = tool::replay_plan_json(run.data);
    ASSERT_EQ(plan.size(), 1u);
    EXPECT_EQ(plan[0]["passes"], 2u);
    EXPECT_EQ(plan[0]["pass_plan"][0]["reports_groups"], (std::vector<uint64_t>{0, 1}));
}

TEST(replay_report, a_dispatch_never_offered_for_replay_is_declined_not_offered)
{
    auto run = replay_run{};
    run.standard();
    // A single run with no outcome before it (a launch the SDK never offers for replay).
    run.record(7, std::nullopt);
    // An agent of one group: never replayed, never reported.
    run.data.replay_groups[3]      = {{"A"}};
    run.data.replay_pass_groups[3] = {{0}};
    run.record(8, std::nullopt, 3);

    ASSERT_EQ(run.closed.outcomes.size(), 5u) << "only dispatch 7 is added";
    const auto& added = run.closed.outcomes.back();
    EXPECT_EQ(added.dispatch_id, 7u);
    EXPECT_EQ(added.kind, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED);
    EXPECT_EQ(added.reason, "not_offered");
    EXPECT_EQ(added.passes_run, 1u);
    EXPECT_EQ(added.passes_planned, 3u);
    EXPECT_EQ(run.closed.of(7), (std::vector<uint64_t>{1, 2}));
    EXPECT_EQ(run.ledger.open(), 0u);
}

TEST(replay_report, a_complete_replay_reports_nothing_missing)
{
    auto run = replay_run{};
    run.replayed(1, {0, 1, 2}, 3, ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED, "none");
    EXPECT_EQ(tool::format_replay_line(run.ledger.report()),
              "kernel replay: 1 dispatch replayed, 0 declined, 0 ended early; no counter groups "
              "missing");
    EXPECT_TRUE(run.closed.of(1).empty());
    EXPECT_EQ(tool::missing_groups_csv_rows(run.data, run.closed.outcomes[0], run.closed.of(1)), "")
        << "no row";
    EXPECT_EQ(tool::replay_summary_json(tool::replay_report{})["replayed"], 0u);
}
