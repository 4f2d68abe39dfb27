// The counter planner (planner/counter_planner.hpp) over hand-built agents: a host-like agent with
// a fixed number of counters per pass, and a CUDA-like agent that schedules passes itself and has
// counters that take several passes alone. The probes stand for rocprofiler_create_counter_config.
#include "config/amd_names.hpp"
#include "planner/counter_planner.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace planner = rocprofiler::tool::planner;

namespace
{
using groups_t = std::vector<std::vector<std::string>>;

// At most four counters per pass; "BROKEN" cannot be configured at all.
planner::probe_result
host_probe(const std::vector<std::string>& counters)
{
    for(const auto& c : counters)
        if(c == "BROKEN") return {};
    if(counters.size() > 4) return {std::nullopt, true};
    return {1, false};
}

planner::agent_description
host_agent()
{
    auto a              = planner::agent_description{};
    a.logical_id        = "0";
    a.product_name      = "host";
    a.name              = "host";
    a.counters          = {"A", "B", "C", "D", "E", "F", "BROKEN"};
    a.counters_per_pass = 4;
    return a;
}

// Up to three ".sum" counters share a pass; a ".pct" counter takes two passes by itself;
// "z.bad" exceeds the agent's limit even alone.
planner::probe_result
cuda_probe(const std::vector<std::string>& counters)
{
    auto sums = uint64_t{0};
    auto pcts = uint64_t{0};
    for(const auto& c : counters)
    {
        if(c == "z.bad") return {std::nullopt, true};
        if(c.find(".pct") != std::string::npos)
            ++pcts;
        else
            ++sums;
    }
    return {(sums + 2) / 3 + 2 * pcts, false};
}

planner::agent_description
cuda_agent()
{
    auto a         = planner::agent_description{};
    a.logical_id   = "1";
    a.product_name = "CUDA-like GPU";
    a.name         = "sm_90";
    a.counters     = {"a.sum", "b.sum", "c.sum", "d.sum", "e.pct", "z.bad"};
    return a;
}
} // namespace

TEST(planner, split_puts_each_counter_in_the_first_pass_it_fits)
{
    auto split = planner::split_group({"A", "B", "C", "D", "E", "F"}, host_probe);
    EXPECT_EQ(split.groups, (std::vector<std::vector<size_t>>{{0, 1, 2, 3}, {4, 5}}));
    EXPECT_TRUE(split.multi_pass.empty());
    EXPECT_TRUE(split.impossible.empty());

    split = planner::split_group({"a.sum", "e.pct", "b.sum", "z.bad"}, cuda_probe);
    EXPECT_EQ(split.groups, (std::vector<std::vector<size_t>>{{0, 2}, {1}}));
    EXPECT_EQ(split.multi_pass, (std::vector<std::pair<size_t, uint64_t>>{{1, 2}}));
    EXPECT_EQ(split.impossible, (std::vector<size_t>{3}));
}

TEST(planner, a_host_group_over_the_limit_is_split_for_application_replay)
{
    auto       agent  = host_agent();
    const auto groups = groups_t{{"A"}, {"A", "B", "C", "D", "E"}};
    planner::probe_groups(agent, groups, {}, host_probe);
    EXPECT_EQ(agent.groups_exceeding, (std::vector<size_t>{1}));
    ASSERT_EQ(agent.group_splits.count(1), 1u);
    EXPECT_EQ(agent.group_splits[1], (groups_t{{"A", "B", "C", "D"}, {"E"}}));
    EXPECT_TRUE(agent.group_passes.empty()); // a fixed-slot agent creates no such configuration

    EXPECT_TRUE(planner::validate(groups, {agent}).empty());
    auto notes = std::vector<std::string>{};
    EXPECT_EQ(planner::expand_groups(groups, {agent}, notes),
              (groups_t{{"A"}, {"A", "B", "C", "D"}, {"E"}}));
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_EQ(notes[0],
              "counter group 2 (5 counters) does not fit in one pass on agent 0 (host); collected "
              "as 2 groups: [A B C D] [E]");
}

TEST(planner, a_group_too_large_without_a_split_names_the_limit)
{
    auto agent             = host_agent();
    agent.groups_exceeding = {0};
    auto errors            = planner::validate({{"A", "B", "C", "D", "E"}}, {agent});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0],
              "counter group 1 (A B C D E) has 5 counters and does not fit in one pass on agent 0 "
              "(host), which collects at most 4 counters per pass; split it into several --pmc "
              "groups");
}

TEST(planner, groups_the_agent_cannot_configure_are_left_to_the_tool)
{
    // A configuration error other than the limit is not the planner's to explain.
    auto agent = host_agent();
    planner::probe_groups(agent, {{"A", "BROKEN"}}, {}, host_probe);
    EXPECT_TRUE(agent.groups_exceeding.empty());
    // A group with a counter the agent lacks is not collectable there.
    planner::probe_groups(agent, {{"A", "nope"}}, {}, host_probe);
    EXPECT_TRUE(agent.groups_exceeding.empty());
}

TEST(planner, a_cuda_counter_of_several_passes_needs_kernel_replay)
{
    auto       agent  = cuda_agent();
    const auto groups = groups_t{{"a.sum", "e.pct"}};
    planner::probe_groups(agent, groups, {}, cuda_probe);
    EXPECT_EQ(agent.groups_exceeding, (std::vector<size_t>{0}));
    EXPECT_EQ(agent.group_passes.at(0), 3u);
    EXPECT_EQ(agent.group_splits.at(0), (groups_t{{"a.sum"}, {"e.pct"}}));
    EXPECT_EQ(agent.multi_pass, (std::vector<std::pair<std::string, uint64_t>>{{"e.pct", 2}}));

    auto errors = planner::validate(groups, {agent});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("counter 'e.pct' takes 2 passes on agent 1 (CUDA-like GPU) even by "
                             "itself"),
              std::string::npos)
        << errors[0];
    EXPECT_TRUE(planner::validate(groups, {agent}, nullptr, {}, true).empty());
    auto notes = std::vector<std::string>{};
    EXPECT_EQ(planner::expand_groups(groups, {agent}, notes), (groups_t{{"a.sum"}, {"e.pct"}}));
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("e.pct takes 2 passes by itself"), std::string::npos) << notes[0];
}

TEST(planner, a_counter_that_fits_in_no_pass_is_an_error_naming_it)
{
    auto agent = cuda_agent();
    planner::probe_groups(agent, {{"a.sum", "z.bad"}}, {}, cuda_probe);
    EXPECT_EQ(agent.exceeding_alone, (std::vector<std::string>{"z.bad"}));
    EXPECT_TRUE(agent.group_splits.empty());
    for(auto replay : {false, true})
    {
        auto errors = planner::validate({{"a.sum", "z.bad"}}, {agent}, nullptr, {}, replay);
        ASSERT_EQ(errors.size(), 1u);
        EXPECT_EQ(errors[0],
                  "counter 'z.bad' cannot be collected on agent 1 (CUDA-like GPU): no counter "
                  "configuration of it alone can be created");
    }
}

TEST(planner, both_agents_together)
{
    auto host = host_agent();
    auto cuda = cuda_agent();
    // Each group's counters exist on one agent only; both fit there in one pass.
    const auto groups = groups_t{{"A", "B"}, {"a.sum", "b.sum", "c.sum"}};
    planner::probe_groups(host, groups, {}, host_probe);
    planner::probe_groups(cuda, groups, {}, cuda_probe);
    EXPECT_TRUE(host.groups_exceeding.empty() && cuda.groups_exceeding.empty());
    EXPECT_TRUE(planner::validate(groups, {host, cuda}).empty());
    auto errors = planner::validate({{"a.summ"}}, {host, cuda});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("unknown counter 'a.summ'; did you mean a.sum"), std::string::npos)
        << errors[0];
}

TEST(planner, kernel_replay_passes)
{
    using pass = planner::replay_pass;
    // Group by group, each in as many passes as it takes; its first pass reports it.
    EXPECT_EQ(planner::plan_replay({1, 2}, std::nullopt, true),
              (std::vector<pass>{{0, {0}}, {1, {1}}, {1, {}}}));
    // A fixed-slot agent keeps the user's groups even when all together would take fewer passes.
    EXPECT_EQ(planner::plan_replay({1, 2}, 2, true).size(), 3u);
    // An agent that schedules passes itself collects all groups together when that is fewer.
    EXPECT_EQ(planner::plan_replay({1, 2}, 2, false),
              (std::vector<pass>{{std::nullopt, {0, 1}}, {std::nullopt, {}}}));
    EXPECT_EQ(planner::plan_replay({1, 2}, 3, false).size(), 3u);
    // One group: one pass, no replay.
    EXPECT_EQ(planner::plan_replay({1}, 1, false), (std::vector<pass>{{0, {0}}}));
}

TEST(planner, amd_names_without_an_equivalent_are_their_own_error)
{
    namespace amd_names = rocprofiler::tool::amd_names;
    std::string error;
    auto        table = amd_names::parse(R"({"version": 1, "equivalents": [
        {"name": "AMD_MAPPED", "amd_meaning": "m", "amd_kind": "hardware",
         "definitions": [{"agents": ["host"], "expression": "A", "unit": "u", "description": "d",
                          "notes": "differs"}],
         "absent": [{"agents": ["sm_90"], "reason": "no such unit"}]},
        {"name": "AMD_NEEDS_Z", "amd_meaning": "m", "amd_kind": "derived",
         "definitions": [{"agents": ["host"], "expression": "max(Z, 2) / 1e3 + A",
                          "unit": "u", "description": "d"}], "absent": []},
        {"name": "AMD_ABSENT", "amd_meaning": "m", "amd_kind": "hardware", "definitions": [],
         "absent": [{"agents": ["host", "sm_90"], "reason": "not on this agent"}]},
        {"name": "AMD_BROKEN", "definitions": {}}]})",
                                  "table.json",
                                  error);
    ASSERT_TRUE(table) << error;
    ASSERT_EQ(table->size(), 3u); // the malformed entry is left out
    EXPECT_EQ(amd_names::names_in("max(Z, 2) / 1e3 + A - x.sum*2.5E-3"),
              (std::vector<std::string>{"Z", "A", "x.sum"}));

    // The host agent offers AMD_MAPPED (the SDK lists it as a counter); the others are absent.
    auto host = host_agent();
    host.counters.emplace_back("AMD_MAPPED");
    auto described = amd_names::describe(*table, host.name, host.counters);
    EXPECT_TRUE(described.named);
    EXPECT_EQ(described.equivalent_of.at("AMD_MAPPED"), (std::vector<std::string>{"A"}));
    ASSERT_EQ(described.absent.size(), 2u);
    EXPECT_EQ(described.absent.at("AMD_ABSENT"), "not on this agent");
    EXPECT_NE(described.absent.at("AMD_NEEDS_Z").find("needs Z, which this agent does not offer"),
              std::string::npos);
    EXPECT_FALSE(amd_names::describe(*table, "sm_80", {"A"}).named);
    host.amd_absent = described.absent;

    EXPECT_TRUE(planner::validate({{"AMD_MAPPED", "A"}}, {host}).empty());
    auto errors = planner::validate({{"AMD_ABSENT"}}, {host});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0],
              "counter 'AMD_ABSENT' is AMD's counter name with no equivalent on agent 0 (host, "
              "host): not on this agent");
    errors = planner::validate({{"AMD_UNKNOWN"}}, {host});
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_EQ(errors[0].find("unknown counter 'AMD_UNKNOWN'"), 0u) << errors[0];

    // Not a table: nothing, with the reason.
    EXPECT_FALSE(amd_names::parse("{", "t.json", error));
    EXPECT_NE(error.find("t.json"), std::string::npos);
    EXPECT_FALSE(amd_names::parse(R"({"version": 2, "equivalents": []})", "t.json", error));
}
