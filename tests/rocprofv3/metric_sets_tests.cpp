// The metric set reader (metric_sets.hpp), the shipped metrics.json, and how rocprofv3's
// validation and group expansion treat set names (options.hpp).
#include "config/metric_sets.hpp"
#include "options.hpp"
#include "scratch_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <set>
#include <string>
#include <vector>

namespace
{
namespace metric_sets = rocprofiler::tool::metric_sets;

metric_sets::catalog
parsed(const std::string& text)
{
    auto out   = metric_sets::catalog{};
    auto error = std::string{};
    EXPECT_TRUE(metric_sets::parse(text, "t.json", out, error)) << error;
    return out;
}

std::string
parse_error(const std::string& text)
{
    auto out   = metric_sets::catalog{};
    auto error = std::string{};
    EXPECT_FALSE(metric_sets::parse(text, "t.json", out, error)) << text;
    EXPECT_TRUE(out.empty());
    return error;
}

void
write(const std::filesystem::path& file, const std::string& text)
{
    std::ofstream{file} << text;
}

auto
has_of(std::set<std::string> counters)
{
    return [counters](const std::string& name) { return counters.count(name) != 0; };
}
} // namespace

TEST(metric_sets, parse_reads_sets_and_ignores_derived)
{
    auto sets = parsed(R"({"version": 1, "derived": [{"whatever": [1, 2]}], "sets": [
        {"name": "a", "agents": ["host"], "description": "d", "metrics": ["X", "Y", "X"]},
        {"name": "a", "metrics": ["Z"]}]})");
    ASSERT_EQ(sets.size(), 2u);
    EXPECT_EQ(sets[0].name, "a");
    EXPECT_EQ(sets[0].description, "d");
    ASSERT_TRUE(sets[0].agents.has_value());
    EXPECT_EQ(*sets[0].agents, std::vector<std::string>{"host"});
    EXPECT_EQ(sets[0].metrics, (std::vector<std::string>{"X", "Y"})); // repeats dropped
    EXPECT_EQ(sets[0].file, "t.json");
    EXPECT_FALSE(sets[1].agents.has_value());
    EXPECT_TRUE(parsed(R"({"derived": []})").empty());
}

TEST(metric_sets, bad_documents_are_errors_naming_the_file)
{
    struct bad
    {
        const char* text;
        const char* says;
    };
    for(const auto& b :
        {bad{R"({"sets": [)", "t.json: not valid JSON"},
         // A number too large for a double: nlohmann throws out_of_range, not parse_error (found by
         // the metric_sets fuzzer, which aborted on it before).
         bad{R"({"sets": [{"name": "x", "metrics": [1e999999999]}]})", "t.json: not valid JSON"},
         bad{"222e2222222222orCC1Cca(", "t.json: not valid JSON"},
         bad{R"([])", "t.json: the document is a array"},
         bad{R"({"version": 2, "sets": []})", "t.json: version 2 is not supported"},
         bad{R"({"sets": {}})", "t.json: sets is a object, not an array"},
         bad{R"({"sets": [7]})", "t.json: sets[0] is a number, not an object"},
         bad{R"({"sets": [{"metrics": ["X"]}]})", "t.json: sets[0] has no name"},
         bad{R"({"sets": [{"name": 3, "metrics": ["X"]}]})", "t.json: sets[0] has no name"},
         bad{R"({"sets": [{"name": "s"}]})", "t.json: set 's' has no metrics"},
         bad{R"({"sets": [{"name": "s", "metrics": []}]})", "t.json: set 's' has no metrics"},
         bad{R"({"sets": [{"name": "s", "metrics": "X"}]})",
             "t.json: sets[0].metrics is a string, not an array of strings"},
         bad{R"({"sets": [{"name": "s", "metrics": ["X", 4]}]})",
             "t.json: sets[0].metrics[1] is a number, not a name"},
         bad{R"({"sets": [{"name": "s", "metrics": [""]}]})", "metrics[0] is an empty string"},
         bad{R"({"sets": [{"name": "s", "agents": [], "metrics": ["X"]}]})", "agents is empty"},
         bad{R"({"sets": [{"name": "s", "agents": "host", "metrics": ["X"]}]})",
             "sets[0].agents is a string"},
         bad{R"({"sets": [{"name": "s", "description": 1, "metrics": ["X"]}]})",
             "set 's': description is a number"},
         bad{R"({"sets": [{"name": "s", "metric": ["X"]}]})", "unknown field 'metric'"}})
    {
        auto error = parse_error(b.text);
        EXPECT_NE(error.find(b.says), std::string::npos) << b.text << " -> " << error;
    }
}

TEST(metric_sets, find_takes_the_last_definition_for_the_agent)
{
    auto sets = parsed(R"({"sets": [
        {"name": "s", "agents": ["host"], "metrics": ["A"]},
        {"name": "s", "agents": ["sm_90"], "metrics": ["B"]},
        {"name": "s", "agents": ["host", "sm_80"], "metrics": ["C"]},
        {"name": "t", "metrics": ["D"]}]})");
    ASSERT_NE(metric_sets::find(sets, "s", "host"), nullptr);
    EXPECT_EQ(metric_sets::find(sets, "s", "host")->metrics[0], "C");
    EXPECT_EQ(metric_sets::find(sets, "s", "sm_90")->metrics[0], "B");
    EXPECT_EQ(metric_sets::find(sets, "s", "sm_100"), nullptr);
    EXPECT_EQ(metric_sets::find(sets, "t", "anything")->metrics[0], "D"); // no agents: every one
    EXPECT_EQ(metric_sets::find(sets, "u", "host"), nullptr);
    EXPECT_EQ(metric_sets::names(sets), (std::vector<std::string>{"s", "t"}));
}

TEST(metric_sets, expand_replaces_sets_keeps_counters_and_unknowns)
{
    auto sets = parsed(R"({"sets": [
        {"name": "s", "metrics": ["A", "B"]},
        {"name": "A", "metrics": ["C"]},
        {"name": "lacking", "metrics": ["A", "Z"]}]})");
    auto has  = has_of({"A", "B", "C"});
    // The set's metrics join the group in place; a metric already there is not repeated.
    EXPECT_EQ(metric_sets::expand({"B", "s", "C"}, sets, "host", has),
              (std::vector<std::string>{"B", "A", "C"}));
    // A counter wins over a set of its name.
    EXPECT_EQ(metric_sets::expand({"A"}, sets, "host", has), std::vector<std::string>{"A"});
    // A set the agent lacks metrics of, and an unknown name, stay for the caller to report.
    EXPECT_EQ(metric_sets::expand({"lacking", "nope"}, sets, "host", has),
              (std::vector<std::string>{"lacking", "nope"}));
    EXPECT_EQ(metric_sets::missing(sets[2], has), std::vector<std::string>{"Z"});
}

TEST(metric_sets, load_reads_shipped_then_path_file_or_directory_in_name_order)
{
    auto        scratch = rocprofv3_test::scratch_dir("metric_sets_load");
    const auto& dir     = scratch.path;
    write(dir / "shipped.json", R"({"sets": [{"name": "s", "metrics": ["SHIPPED"]}]})");
    std::filesystem::create_directories(dir / "more");
    write(dir / "more" / "b.json", R"({"sets": [{"name": "s", "metrics": ["B"]}]})");
    write(dir / "more" / "a.json",
          R"({"sets": [{"name": "s", "metrics": ["A"]}, {"name": "n", "metrics": ["N"]}]})");
    write(dir / "more" / "ignored.txt", "not json");
    auto error = std::string{};

    auto only_shipped = metric_sets::load(dir / "shipped.json", nullptr, error);
    ASSERT_TRUE(only_shipped) << error;
    EXPECT_EQ(metric_sets::find(*only_shipped, "s", "host")->metrics[0], "SHIPPED");

    auto with_file =
        metric_sets::load(dir / "shipped.json", (dir / "more" / "a.json").c_str(), error);
    ASSERT_TRUE(with_file) << error;
    EXPECT_EQ(metric_sets::find(*with_file, "s", "host")->metrics[0], "A");

    auto with_dir = metric_sets::load(dir / "shipped.json", (dir / "more").c_str(), error);
    ASSERT_TRUE(with_dir) << error;
    EXPECT_EQ(with_dir->size(), 4u);
    EXPECT_EQ(metric_sets::find(*with_dir, "s", "host")->metrics[0], "B"); // b.json after a.json
    EXPECT_NE(metric_sets::find(*with_dir, "n", "host"), nullptr);

    // No shipped file: no shipped sets, not an error.
    auto none = metric_sets::load(dir / "absent.json", "", error);
    ASSERT_TRUE(none) << error;
    EXPECT_TRUE(none->empty());

    EXPECT_FALSE(metric_sets::load({}, (dir / "absent.json").c_str(), error));
    EXPECT_NE(error.find("absent.json (ROCPROFILER_METRICS_PATH): no such file"), std::string::npos)
        << error;

    write(dir / "more" / "c.json", "{");
    EXPECT_FALSE(metric_sets::load({}, (dir / "more").c_str(), error));
    EXPECT_NE(error.find("c.json: not valid JSON"), std::string::npos) << error;
}

TEST(metric_sets, shipped_file_is_next_to_the_prefix)
{
    EXPECT_EQ(metric_sets::shipped_file("/opt/x/bin/rocprofv3"),
              std::filesystem::path{"/opt/x/share/rocprofiler-sdk/metrics.json"});
    EXPECT_EQ(metric_sets::shipped_file("/opt/x/lib/librocprofiler-sdk-tool.so"),
              std::filesystem::path{"/opt/x/share/rocprofiler-sdk/metrics.json"});
}

// The shipped file: readable, one definition per set name and agent, host sets over host
// counters only, and each agent's "full" the union of its other sets.
TEST(metric_sets, shipped_file_is_consistent)
{
    auto sets  = metric_sets::catalog{};
    auto error = std::string{};
    ASSERT_TRUE(metric_sets::read_file(ROCPROFV3_SHIPPED_METRICS, sets, error)) << error;
    const auto host_counters = std::set<std::string>{"DURATION_NS",
                                                     "CPU_TIME_NS",
                                                     "WORKERS_ACTIVE",
                                                     "WORK_ITEMS",
                                                     "WORKGROUPS",
                                                     "PERF_CPU_CYCLES",
                                                     "PERF_INSTRUCTIONS",
                                                     "PERF_CACHE_REFERENCES",
                                                     "PERF_CACHE_MISSES",
                                                     "PERF_BRANCH_INSTRUCTIONS",
                                                     "PERF_BRANCH_MISSES",
                                                     "PERF_TASK_CLOCK_NS",
                                                     "PERF_PAGE_FAULTS",
                                                     "PERF_CONTEXT_SWITCHES",
                                                     "PERF_CPU_MIGRATIONS"};
    auto       seen          = std::set<std::pair<std::string, std::string>>{};
    for(const auto& s : sets)
    {
        ASSERT_TRUE(s.agents.has_value()) << s.name;
        EXPECT_FALSE(s.description.empty()) << s.name;
        for(const auto& agent : *s.agents)
        {
            EXPECT_TRUE(seen.insert({s.name, agent}).second) << s.name << " twice for " << agent;
            if(agent == "host")
                for(const auto& m : s.metrics)
                    EXPECT_EQ(host_counters.count(m), 1u) << s.name << ": " << m;
            if(agent == "sm_90")
                for(const auto& m : s.metrics)
                    EXPECT_EQ(m.rfind("launch__", 0), std::string::npos)
                        << s.name << ": launch attributes are not counters";
        }
    }
    for(const auto* agent : {"host", "sm_90"})
    {
        for(const auto* name :
            {"speed_of_light", "memory_workload", "compute_workload", "occupancy"})
            EXPECT_NE(metric_sets::find(sets, name, agent), nullptr) << name << " " << agent;
        const auto* full = metric_sets::find(sets, "full", agent);
        ASSERT_NE(full, nullptr) << agent;
        auto others = std::set<std::string>{};
        for(const auto& s : sets)
            if(s.name != "full" && metric_sets::find(sets, s.name, agent) == &s)
                others.insert(s.metrics.begin(), s.metrics.end());
        auto in_full = std::set<std::string>{full->metrics.begin(), full->metrics.end()};
        if(std::string{agent} == "host")
            EXPECT_EQ(in_full, host_counters); // every host counter
        else
            EXPECT_EQ(in_full, others);
    }
    // Launch statistics are launch attributes on sm_90 (kernel trace), not counters.
    EXPECT_EQ(metric_sets::find(sets, "launch_statistics", "sm_90"), nullptr);
}

namespace
{
rocprofv3::agent_counters
agent(const char* id, const char* name, std::vector<std::string> counters)
{
    auto a         = rocprofv3::agent_counters{};
    a.logical_id   = id;
    a.product_name = std::string{"product "} + id;
    a.name         = name;
    a.counters     = std::move(counters);
    return a;
}

bool
any_contains(const std::vector<std::string>& lines, const std::string& text)
{
    return std::any_of(lines.begin(),
                       lines.end(),
                       [&](const std::string& l) { return l.find(text) != std::string::npos; });
}
} // namespace

TEST(metric_sets, validate_accepts_sets_that_apply_and_names_what_is_missing)
{
    auto sets     = parsed(R"({"sets": [
        {"name": "sol", "agents": ["host"], "metrics": ["A", "B"]},
        {"name": "sol", "agents": ["sm_90"], "metrics": ["g1", "g2"]},
        {"name": "far", "agents": ["sm_42"], "metrics": ["x"]},
        {"name": "B", "agents": ["host"], "metrics": ["A"]}]})");
    auto host     = agent("0", "host", {"A", "B", "C"});
    auto gpu      = agent("1", "sm_90", {"g1"});
    auto warnings = std::vector<std::string>{};

    EXPECT_TRUE(rocprofv3::validate_counters({{"sol", "C"}}, {host}, &warnings, sets).empty());
    EXPECT_TRUE(warnings.empty());

    // Applies on the host only: collected there, and a warning names what the GPU lacks.
    EXPECT_TRUE(rocprofv3::validate_counters({{"sol"}}, {host, gpu}, &warnings, sets).empty());
    EXPECT_TRUE(any_contains(warnings,
                             "metric set 'sol' is not collected on agent 1 "
                             "(product 1, sm_90) lacks g2"))
        << (warnings.empty() ? "" : warnings.front());

    // Applies nowhere: an error naming the missing metrics.
    auto errors = rocprofv3::validate_counters({{"sol"}}, {gpu}, &warnings, sets);
    EXPECT_TRUE(any_contains(errors,
                             "metric set 'sol' cannot be collected on any agent: agent 1 "
                             "(product 1, sm_90) lacks g2 (t.json)"))
        << (errors.empty() ? "" : errors.front());

    errors = rocprofv3::validate_counters({{"far"}}, {host}, &warnings, sets);
    EXPECT_TRUE(any_contains(errors, "it is defined for agents sm_42 only"));

    // A counter wins over the set of its name, with a warning.
    warnings.clear();
    EXPECT_TRUE(rocprofv3::validate_counters({{"B"}}, {host}, &warnings, sets).empty());
    EXPECT_TRUE(any_contains(warnings, "has a counter named 'B'"));

    // Unknown names get set names among the suggestions.
    errors = rocprofv3::validate_counters({{"sool"}}, {host}, &warnings, sets);
    EXPECT_TRUE(any_contains(errors, "unknown counter 'sool'; did you mean")) << errors.front();
    EXPECT_TRUE(any_contains(errors, "sol"));
}

TEST(metric_sets, expand_groups_gives_each_agent_its_own_split_of_a_set)
{
    auto sets  = parsed(R"({"sets": [
        {"name": "sol", "agents": ["host"], "metrics": ["A", "B", "C"]},
        {"name": "sol", "agents": ["sm_90"], "metrics": ["g1", "g2"]}]})");
    auto host  = agent("0", "host", {"A", "B", "C", "D"});
    auto gpu   = agent("1", "sm_90", {"g1", "g2"});
    auto notes = std::vector<std::string>{};

    // Fits everywhere: the group stays, for the tool library to expand per agent.
    EXPECT_EQ(rocprofv3::expand_groups({{"sol"}}, {host, gpu}, notes, sets),
              (std::vector<std::vector<std::string>>{{"sol"}}));
    EXPECT_TRUE(notes.empty());

    // Split on the host: the host's parts, and the GPU's own group in its metric names.
    host.groups_exceeding = {0};
    host.group_splits[0]  = {{"A", "B"}, {"C"}};
    auto out              = rocprofv3::expand_groups({{"sol"}}, {host, gpu}, notes, sets);
    EXPECT_EQ(out, (std::vector<std::vector<std::string>>{{"A", "B"}, {"C"}, {"g1", "g2"}}));
    ASSERT_EQ(notes.size(), 1u);
    EXPECT_NE(notes[0].find("counter group 1 (3 counters) does not fit in one pass on agent 0"),
              std::string::npos)
        << notes[0];

    // A counter only the host has: the GPU cannot collect the group, so it gets no part of it.
    notes.clear();
    host.group_splits[0] = {{"A", "B"}, {"C", "D"}};
    out                  = rocprofv3::expand_groups({{"sol", "D"}}, {host, gpu}, notes, sets);
    EXPECT_EQ(out, (std::vector<std::vector<std::string>>{{"A", "B"}, {"C", "D"}}));

    // Without sets the old rule holds: the first splitting agent's parts only.
    notes.clear();
    auto twin            = agent("2", "host", {"A", "B", "C", "D"});
    twin.group_splits[0] = {{"A"}, {"B", "C", "D"}};
    out = rocprofv3::expand_groups({{"A", "B", "C", "D"}}, {host, twin}, notes, sets);
    EXPECT_EQ(out, (std::vector<std::vector<std::string>>{{"A", "B"}, {"C", "D"}}));
}
