// Nsight Compute's options: their values and errors, what reaches the tool library, the marker
// range filters' forms and matching, the --cache-control check of the agents, and the summary
// tables of --print-summary per-gpu / per-nvtx.
#include "options.hpp"

#include "config/config.hpp"
#include "config/nvtx_filter.hpp"
#include "contract/environment.hpp"
#include "model/ncu_summary.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace
{
namespace nvtx = rocprofiler::tool::nvtx;

rocprofv3::parse_result
run(std::vector<const char*> args)
{
    args.insert(args.begin(), "rocprofv3");
    args.push_back("--");
    args.push_back("app");
    return rocprofv3::parse_command_line(static_cast<int>(args.size()), args.data());
}

std::map<std::string, std::string>
environment_of(std::vector<const char*> args)
{
    auto parsed = run(std::move(args));
    EXPECT_TRUE(parsed.opts) << parsed.error;
    if(!parsed.opts) return {};
    return rocprofv3::tool_environment(*parsed.opts, 0);
}

bool
accepts(const std::vector<std::string>& includes,
        const std::vector<std::string>& excludes,
        const nvtx::open_ranges&        ranges)
{
    auto why    = std::string{};
    auto filter = nvtx::range_filter::compile(includes, excludes, why);
    EXPECT_TRUE(filter) << why;
    return filter && filter->accept(ranges);
}
} // namespace

TEST(ncu_options, values_reach_the_tool_library)
{
    auto env = environment_of({"--cache-control",
                               "none",
                               "--target-processes",
                               "application-only",
                               "--nvtx",
                               "--nvtx-include",
                               "A/",
                               "--nvtx-include",
                               "B",
                               "--nvtx-exclude",
                               "A/C/",
                               "--print-summary",
                               "per-gpu"});
    EXPECT_EQ(env[rocprofiler::tool::contract::cache_control], "none");
    EXPECT_EQ(env[rocprofiler::tool::contract::target_processes], "application-only");
    EXPECT_EQ(env[rocprofiler::tool::contract::nvtx_ranges], "1");
    EXPECT_EQ(env[rocprofiler::tool::contract::nvtx_include], "A/\nB");
    EXPECT_EQ(env[rocprofiler::tool::contract::nvtx_exclude], "A/C/");
    EXPECT_EQ(env[rocprofiler::tool::contract::print_summary], "per-gpu");
    // Not given: nothing set, so the SDK's and the tool's defaults hold.
    auto none = environment_of({"--kernel-trace"});
    for(const auto* name : {rocprofiler::tool::contract::cache_control,
                            rocprofiler::tool::contract::target_processes,
                            rocprofiler::tool::contract::nvtx_ranges,
                            rocprofiler::tool::contract::print_summary})
        EXPECT_EQ(none.count(name), 0u) << name;
}

TEST(ncu_options, bad_values_are_usage_errors_naming_the_accepted_ones)
{
    struct bad
    {
        std::vector<const char*> args;
        const char*              expected;
    };
    for(const auto& b : std::vector<bad>{
            {{"--cache-control", "some"},
             "--cache-control 'some' is not accepted (accepted: all, none)"},
            {{"--target-processes", "children"},
             "--target-processes 'children' is not accepted (accepted: application-only, all)"},
            {{"--print-summary", "per-thread"},
             "--print-summary 'per-thread' is not accepted (accepted: per-kernel, per-gpu, "
             "per-nvtx)"},
            {{"--nvtx-include", "A/"}, "--nvtx-include and --nvtx-exclude need --nvtx"},
            {{"--nvtx", "--nvtx-include", "A//B/"}, "has an empty range name"},
            {{"--nvtx", "--nvtx-exclude", "@"}, "names no range"},
            {{"--nvtx", "--nvtx-include", "*/"}, "names no range"},
            {{"--nvtx", "--nvtx-include", "regex:(/"}, "is not a regular expression"},
        })
    {
        auto parsed = run(b.args);
        EXPECT_FALSE(parsed.opts) << b.args.front();
        EXPECT_EQ(parsed.exit_code, rocprofv3::exit_usage) << b.args.front();
        EXPECT_NE(parsed.error.find(b.expected), std::string::npos) << parsed.error;
    }
    // A named domain is well formed but cannot match here: exit 2, saying why.
    auto parsed = run({"--nvtx", "--nvtx-include", "Domain A@Range A/"});
    EXPECT_EQ(parsed.exit_code, rocprofv3::exit_configuration);
    EXPECT_NE(parsed.error.find("not supported on this device"), std::string::npos);
    EXPECT_NE(parsed.error.find("have no domain"), std::string::npos) << parsed.error;
}

TEST(ncu_options, an_nvtx_filter_takes_one_value_and_repeats)
{
    // Without "--" the application is not swallowed by a filter.
    const char* argv[] = {
        "rocprofv3", "--nvtx", "--nvtx-include", "A/", "--kernel-trace", "--", "app", "arg"};
    auto parsed = rocprofv3::parse_command_line(8, argv);
    ASSERT_TRUE(parsed.opts) << parsed.error;
    EXPECT_EQ(parsed.opts->nvtx_include, (std::vector<std::string>{"A/"}));
    EXPECT_EQ(parsed.opts->command, (std::vector<std::string>{"app", "arg"}));
}

TEST(nvtx_filter, forms)
{
    auto spec = nvtx::filter_spec{};
    ASSERT_EQ(nvtx::parse("outer/inner/", spec), "");
    EXPECT_TRUE(spec.push_pop);
    EXPECT_EQ(spec.path, (std::vector<std::string>{"outer", "inner"}));
    ASSERT_EQ(nvtx::parse("@handoff", spec), "");
    EXPECT_FALSE(spec.push_pop);
    EXPECT_EQ(spec.path, (std::vector<std::string>{"handoff"}));
    ASSERT_EQ(nvtx::parse("a/b", spec), ""); // a start/end range named "a/b"
    EXPECT_EQ(spec.path, (std::vector<std::string>{"a/b"}));
    ASSERT_EQ(nvtx::parse("regex:st.p/", spec), "");
    EXPECT_TRUE(spec.regex && spec.push_pop);
    auto unsupported = false;
    EXPECT_NE(nvtx::parse("D@A/", spec, &unsupported), "");
    EXPECT_TRUE(unsupported);
}

TEST(nvtx_filter, push_pop_paths_match_anywhere_in_the_stack)
{
    const auto ranges = nvtx::open_ranges{{"main", "outer", "inner"}, {}};
    EXPECT_TRUE(accepts({"outer/"}, {}, ranges));
    EXPECT_TRUE(accepts({"outer/inner/"}, {}, ranges));
    EXPECT_TRUE(accepts({"main/*/inner/"}, {}, ranges));
    EXPECT_TRUE(accepts({"main/*/outer/"}, {}, ranges)); // "*" may be no range
    EXPECT_FALSE(accepts({"main/inner/"}, {}, ranges));  // not directly inside
    EXPECT_FALSE(accepts({"inner/outer/"}, {}, ranges));
    EXPECT_FALSE(accepts({"outer"}, {}, ranges)); // a start/end range: none open
    EXPECT_FALSE(accepts({"out/"}, {}, ranges));  // whole names, not parts
    EXPECT_TRUE(accepts({"regex:^out/"}, {}, ranges));
    EXPECT_TRUE(accepts({"@outer/"}, {}, ranges));
}

TEST(nvtx_filter, start_end_ranges_includes_and_excludes)
{
    const auto in_handoff = nvtx::open_ranges{{"worker"}, {"handoff"}};
    const auto outside    = nvtx::open_ranges{};
    EXPECT_TRUE(accepts({"handoff"}, {}, in_handoff));
    EXPECT_FALSE(accepts({"handoff"}, {}, outside));
    EXPECT_FALSE(accepts({"handoff/"}, {}, in_handoff)); // push/pop form: no such push
    // Any include; then no exclude.
    EXPECT_TRUE(accepts({"nothing/", "worker/"}, {}, in_handoff));
    EXPECT_FALSE(accepts({"worker/"}, {"handoff"}, in_handoff));
    EXPECT_TRUE(accepts({}, {"handoff"}, outside));
    EXPECT_FALSE(accepts({}, {"handoff"}, in_handoff));
    EXPECT_EQ(nvtx::describe(in_handoff), "worker/ + handoff");
    EXPECT_EQ(nvtx::describe(outside), "(no range)");
}

TEST(ncu_options, the_tool_configuration_rejects_filters_without_nvtx)
{
    auto env  = std::map<std::string, std::string>{{"ROCPROF_NVTX_INCLUDE", "A/"}};
    auto read = rocprofiler::tool::read_config(
        [&](const char* name) -> const char*
        {
            auto it = env.find(name);
            return it != env.end() ? it->second.c_str() : nullptr;
        });
    ASSERT_FALSE(read.errors.empty());
    EXPECT_NE(read.errors.front().find("ROCPROF_NVTX=1"), std::string::npos) << read.errors.front();
}

TEST(ncu_options, cache_control_all_needs_an_agent_that_flushes)
{
    auto opts          = rocprofv3::options{};
    opts.cache_control = "all";
    auto host          = nlohmann::json::parse(
        R"({"agents": [{"type": "CPU", "name": "cpu"}, {"type": "GPU", "name": "host", "logical_node_id": 1}]})");
    auto errors = rocprofv3::cache_control_errors(opts, host);
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("not supported on the host device (agent 1)"), std::string::npos)
        << errors[0];
    auto cuda = host;
    cuda["agents"].push_back({{"type", "GPU"}, {"name", "sm_90"}, {"logical_node_id", 2}});
    EXPECT_TRUE(rocprofv3::cache_control_errors(opts, cuda).empty());
    opts.cache_control = "none";
    EXPECT_TRUE(rocprofv3::cache_control_errors(opts, host).empty());
}

TEST(ncu_summary, per_gpu_and_per_nvtx_sum_the_calls_once)
{
    auto summary = rocprofiler::tool::ncu_summary{};
    auto record  = [](uint64_t id, uint64_t agent, uint64_t start, uint64_t end)
    {
        auto r                          = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
        r.dispatch_info.dispatch_id     = id;
        r.dispatch_info.agent_id.handle = agent;
        r.start_timestamp               = start;
        r.end_timestamp                 = end;
        return r;
    };
    summary.add(record(1, 7, 100, 200), "outer/");
    summary.add(record(1, 7, 300, 900), "outer/"); // a replay pass of dispatch 1: not counted
    summary.add(record(2, 7, 0, 300), "(no range)");
    summary.add(record(3, 8, 0, 50), "outer/");
    const auto gpu = summary.per_gpu([](uint64_t id) { return "Agent " + std::to_string(id); });
    EXPECT_NE(gpu.find("rocprofv3 agent summary (2 agents)"), std::string::npos) << gpu;
    EXPECT_NE(gpu.find("Agent 7"), std::string::npos);
    EXPECT_NE(gpu.find("400"), std::string::npos) << gpu; // agent 7: 100 + 300 ns
    const auto ranges = summary.per_nvtx();
    EXPECT_NE(ranges.find("rocprofv3 marker range summary (2 range contexts)"), std::string::npos)
        << ranges;
    EXPECT_NE(ranges.find("outer/"), std::string::npos);
    EXPECT_NE(ranges.find("150"), std::string::npos) << ranges; // outer/: 100 + 50 ns
}
