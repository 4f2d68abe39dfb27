// Counter names against the agents' (close matches for unknown ones) and the counter checks and
// splits rocprofv3 makes before the application runs (planner/counter_planner.hpp, through
// options.hpp's names).
#include "config/parse.hpp"
#include "options.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

namespace parse = rocprofiler::tool::parse;

TEST(counter_match, edit_distance_is_case_insensitive_levenshtein)
{
    EXPECT_EQ(parse::edit_distance("SQ_WAVES", "SQ_WAVES"), 0u);
    EXPECT_EQ(parse::edit_distance("sq_waves", "SQ_WAVES"), 0u);
    EXPECT_EQ(parse::edit_distance("SQ_WAVE", "SQ_WAVES"), 1u);
    EXPECT_EQ(parse::edit_distance("SQ_WVAES", "SQ_WAVES"), 2u);
    EXPECT_EQ(parse::edit_distance("", "ABC"), 3u);
}

TEST(counter_match, close_matches_best_first_and_bounded)
{
    auto all = std::vector<std::string>{
        "SQ_WAVES", "SQ_WAVE_CYCLES", "GRBM_COUNT", "GRBM_GUI_ACTIVE", "SQ_INSTS_VALU", "TCC_HIT"};
    auto m = parse::close_matches("SQ_WAVE", all);
    ASSERT_FALSE(m.empty());
    EXPECT_EQ(m.front(), "SQ_WAVES");
    EXPECT_NE(std::find(m.begin(), m.end(), "SQ_WAVE_CYCLES"), m.end()); // contains the name
    EXPECT_EQ(std::find(m.begin(), m.end(), "TCC_HIT"), m.end());
    EXPECT_EQ(parse::close_matches("grbm_count", all).front(), "GRBM_COUNT");
    EXPECT_TRUE(parse::close_matches("COMPLETELY_DIFFERENT", all).empty());
    EXPECT_LE(parse::close_matches("S", all, 2).size(), 2u);
    // An exact match is not "close".
    auto exact = parse::close_matches("TCC_HIT", all);
    EXPECT_EQ(std::find(exact.begin(), exact.end(), "TCC_HIT"), exact.end());
}

TEST(counter_match, validate_counters_reports_unknown_with_suggestions)
{
    auto agents = std::vector<rocprofv3::agent_counters>{
        {"1", "gpu-a", std::nullopt, {"SQ_WAVES", "GRBM_COUNT"}},
        {"2", "gpu-b", std::nullopt, {"TCC_HIT"}}};
    EXPECT_TRUE(rocprofv3::validate_counters({{"SQ_WAVES"}, {"TCC_HIT"}}, agents).empty());
    auto errors = rocprofv3::validate_counters({{"SQ_WAVE", "GRBM_COUNT"}}, agents);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("unknown counter 'SQ_WAVE'; did you mean SQ_WAVES?"),
              std::string::npos)
        << errors[0];
    auto none = rocprofv3::validate_counters({{"ZZZZZZZZZZ"}}, agents);
    ASSERT_EQ(none.size(), 1u);
    EXPECT_NE(none[0].find("rocprofv3 -L"), std::string::npos);
}

TEST(counter_match, validate_counters_agent_without_counters)
{
    auto agents = std::vector<rocprofv3::agent_counters>{
        {"1", "host", std::string{"ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED"}, {}}};
    auto errors = rocprofv3::validate_counters({{"A"}}, agents);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("reports no counters (ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)"),
              std::string::npos);
    // One agent with counters is enough; the other is skipped.
    agents.push_back({"2", "gpu", std::nullopt, {"A"}});
    EXPECT_TRUE(rocprofv3::validate_counters({{"A"}}, agents).empty());
    EXPECT_FALSE(rocprofv3::validate_counters({{"A"}}, {}).empty());
}

TEST(counter_match, groups_too_large_are_split_where_the_agent_says_how)
{
    auto agent             = rocprofv3::agent_counters{};
    agent.logical_id       = "0";
    agent.product_name     = "host";
    agent.counters         = {"A", "B", "C", "D", "E"};
    agent.groups_exceeding = {1};
    agent.group_splits[1]  = {{"A", "B", "C"}, {"D", "E"}};
    const auto groups = std::vector<std::vector<std::string>>{{"A"}, {"A", "B", "C", "D", "E"}};
    EXPECT_TRUE(rocprofv3::validate_counters(groups, {agent}).empty());
    auto notes    = std::vector<std::string>{};
    auto expanded = rocprofv3::expand_groups(groups, {agent}, notes);
    ASSERT_EQ(expanded.size(), 3u);
    EXPECT_EQ(expanded[0], (std::vector<std::string>{"A"}));
    EXPECT_EQ(expanded[1], (std::vector<std::string>{"A", "B", "C"}));
    EXPECT_EQ(expanded[2], (std::vector<std::string>{"D", "E"}));
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("counter group 2 (5 counters) does not fit in one pass on agent 0 "
                            "(host); collected as 2 groups: [A B C] [D E]"),
              std::string::npos)
        << notes[0];
    // Nothing to split: the groups stay, and nothing is said.
    notes.clear();
    agent.groups_exceeding.clear();
    agent.group_splits.clear();
    EXPECT_EQ(rocprofv3::expand_groups({{"A"}, {"B"}}, {agent}, notes).size(), 2u);
    EXPECT_TRUE(notes.empty());
}

TEST(counter_match, a_counter_of_several_passes_needs_kernel_replay)
{
    auto agent             = rocprofv3::agent_counters{};
    agent.logical_id       = "1";
    agent.product_name     = "NVIDIA H200";
    agent.counters         = {"a.sum", "b.pct"};
    agent.groups_exceeding = {0};
    agent.group_splits[0]  = {{"a.sum"}, {"b.pct"}};
    agent.multi_pass       = {{"b.pct", 2}};
    auto errors            = rocprofv3::validate_counters({{"a.sum", "b.pct"}}, {agent});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("counter 'b.pct' takes 2 passes on agent 1 (NVIDIA H200) even by "
                             "itself"),
              std::string::npos)
        << errors[0];
    EXPECT_NE(errors[0].find("--replay-mode kernel"), std::string::npos) << errors[0];
    // Kernel replay collects it: no error, and the split names its passes.
    EXPECT_TRUE(
        rocprofv3::validate_counters({{"a.sum", "b.pct"}}, {agent}, nullptr, {}, true).empty());
    auto notes  = std::vector<std::string>{};
    auto groups = rocprofv3::expand_groups({{"a.sum", "b.pct"}}, {agent}, notes);
    ASSERT_EQ(groups.size(), 2u);
    EXPECT_EQ(groups[1], std::vector<std::string>{"b.pct"});
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("b.pct takes 2 passes by itself"), std::string::npos) << notes[0];
}

TEST(counter_match, a_counter_that_cannot_be_configured_is_an_error_naming_it)
{
    auto agent             = rocprofv3::agent_counters{};
    agent.logical_id       = "1";
    agent.product_name     = "NVIDIA H200";
    agent.counters         = {"a.sum", "b.pct"};
    agent.groups_exceeding = {0};
    agent.exceeding_alone  = {"b.pct"};
    for(auto replay : {false, true})
    {
        auto errors =
            rocprofv3::validate_counters({{"a.sum", "b.pct"}}, {agent}, nullptr, {}, replay);
        ASSERT_EQ(errors.size(), 1u);
        EXPECT_NE(errors[0].find("counter 'b.pct' cannot be collected on agent 1 (NVIDIA H200)"),
                  std::string::npos)
            << errors[0];
    }
}

TEST(counter_match, validate_counters_names_the_pass_limit_of_a_group_too_large)
{
    auto agent              = rocprofv3::agent_counters{};
    agent.logical_id        = "0";
    agent.product_name      = "host";
    agent.counters          = {"A", "B", "C", "D", "E"};
    agent.counters_per_pass = 4;
    agent.groups_exceeding  = {1};
    auto errors = rocprofv3::validate_counters({{"A"}, {"A", "B", "C", "D", "E"}}, {agent});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("counter group 2 (A B C D E) has 5 counters"), std::string::npos)
        << errors[0];
    EXPECT_NE(errors[0].find("at most 4 counters per pass"), std::string::npos) << errors[0];
}

TEST(counter_match, counters_of_an_agent_without_counters_are_warnings_when_the_caller_runs_anyway)
{
    auto host         = rocprofv3::agent_counters{};
    host.logical_id   = "1";
    host.product_name = "host";
    host.counters     = {"WORK_ITEMS"};
    auto gpu          = rocprofv3::agent_counters{};
    gpu.logical_id    = "0";
    gpu.product_name  = "NVIDIA H200";
    gpu.error         = "ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED";
    const auto groups = std::vector<std::vector<std::string>>{{"smsp__inst_executed.sum"}};
    // Without a place for warnings: an unknown counter is an error.
    EXPECT_EQ(rocprofv3::validate_counters(groups, {gpu, host}).size(), 1u);
    auto warnings = std::vector<std::string>{};
    EXPECT_TRUE(rocprofv3::validate_counters(groups, {gpu, host}, &warnings).empty());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("counter 'smsp__inst_executed.sum' is listed by no agent"),
              std::string::npos)
        << warnings[0];
    EXPECT_NE(warnings[0].find("agent 0 (NVIDIA H200) reports no counters"), std::string::npos)
        << warnings[0];
    // A counter the agents do list stays fine, and with every agent reporting counters an unknown
    // counter is still an error.
    warnings.clear();
    EXPECT_FALSE(rocprofv3::validate_counters(groups, {host}, &warnings).empty());
    EXPECT_TRUE(warnings.empty());
}
