// Unit tests of rocprofv3's parsing and validation and of the tool library's configuration,
// filters and output formatting. Nothing here runs an application or loads the SDK.
#include "callback_guard.hpp"
#include "config.hpp"
#include "csv_rows.hpp"
#include "kernel_filter.hpp"
#include "options.hpp"
#include "output.hpp"
#include "parse.hpp"
#include "placeholders.hpp"
#include "replay_report.hpp"
#include "run_end.hpp"

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

TEST(kernel_names, demangle_and_truncate_as_upstream)
{
    const auto mangled = std::string{"_Z10vector_addIfEvPT_PKS0_i"};
    EXPECT_EQ(parse::format_kernel_name(mangled, true, false),
              "void vector_add<float>(float*, float const*, int)");
    EXPECT_EQ(parse::format_kernel_name(mangled, false, false), mangled);     // -M
    EXPECT_EQ(parse::format_kernel_name(mangled, true, true), "vector_add");  // -T
    EXPECT_EQ(parse::format_kernel_name(mangled, false, true), "vector_add"); // -T with -M
    EXPECT_EQ(parse::format_kernel_name("scale,with_comma", true, true), "scale,with_comma");
    EXPECT_EQ(parse::truncate_name("ns::inner::kern<int, 2>(int*)"), "kern");
    EXPECT_EQ(parse::truncate_name("void kern(float)"), "kern");
    EXPECT_EQ(parse::demangle("not_mangled"), "not_mangled");
}

TEST(placeholders, expanded_with_the_process_values)
{
    namespace ph = rocprofiler::tool::placeholders;
    auto env     = std::map<std::string, std::string>{{"OMPI_COMM_WORLD_RANK", "3"}, {"TAG", "t1"}};
    auto getenv  = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto values = ph::process_values(getenv, {"./bin/my_app", "-n", "4"});
    auto why    = std::string{};
    auto pid    = std::to_string(getpid());
    EXPECT_EQ(*ph::expand("out/%pid%_%rank%", values, &why), "out/" + pid + "_3");
    EXPECT_EQ(*ph::expand("%p.%r.%env{TAG}%.$ENV{TAG}", values, &why), pid + ".3.t1.t1");
    EXPECT_EQ(*ph::expand("%env{UNSET_VARIABLE}%x", values, &why), "x");
    // As upstream condenses them: '/' becomes '_', leading '.' and '_' are dropped.
    EXPECT_EQ(*ph::expand("%tag%/%args%/%argv%", values, &why), "my_app/-n_4/bin_my_app_-n_4");
    EXPECT_EQ(*ph::expand("%ppid%", values, &why), std::to_string(getppid()));
    EXPECT_EQ(*ph::expand("100%", values, &why), "100%"); // a '%' that starts nothing stays
    EXPECT_FALSE(ph::expand("%pidd%", values, &why));
    EXPECT_NE(why.find("unknown placeholder '%pidd%'"), std::string::npos) << why;
    // SLURM_PROCID comes first; without any rank variable the rank is 0.
    env["SLURM_PROCID"] = "7";
    EXPECT_EQ(*ph::expand("%rank%", ph::process_values(getenv, {}), &why), "7");
    env.clear();
    EXPECT_EQ(*ph::expand("%rank%", ph::process_values(getenv, {}), &why), "0");
    EXPECT_TRUE(ph::has_placeholder("a/%hostname%"));
    EXPECT_FALSE(ph::has_placeholder("a/b%"));
    EXPECT_EQ(rocprofv3::fixed_directory_part("out/%hostname%/x"), "out");
    EXPECT_EQ(rocprofv3::fixed_directory_part("/abs/dir"), "/abs/dir");
}

TEST(tool_config, reads_and_validates)
{
    auto env = std::map<std::string, std::string>{{"ROCPROF_KERNEL_TRACE", "1"},
                                                  {"ROCPROF_COUNTER_COLLECTION", "1"},
                                                  {"ROCPROF_KERNEL_REPLAY", "1"},
                                                  {"ROCPROF_COUNTER_GROUPS", "A B;C"},
                                                  {"ROCPROF_OUTPUT_FORMAT", "csv,json"},
                                                  {"ROCPROF_KERNEL_FILTER_RANGE", "[1-2]"}};
    auto get = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto r = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.kernel_replay);
    EXPECT_TRUE(r.cfg.json && r.cfg.csv);
    EXPECT_FALSE(r.cfg.pftrace);
    EXPECT_EQ(r.cfg.collected_groups().size(), 2u);

    env["ROCPROF_OUTPUT_FORMAT"] = "pftrace";
    r                            = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.pftrace && !r.cfg.csv && !r.cfg.json);
    env["ROCPROF_OUTPUT_FORMAT"] = "csv,json,pftrace";
    r                            = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.cfg.pftrace && r.cfg.csv && r.cfg.json);

    env["ROCPROF_OUTPUT_FORMAT"] = "csv,json,pftrace,rocpd";
    r                            = rocprofiler::tool::read_config(get);
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.pftrace && r.cfg.csv && r.cfg.json && r.cfg.rocpd);
#else
    ASSERT_EQ(r.errors.size(), 1u);
    EXPECT_NE(r.errors[0].find("rocpd output was not built: SQLite3 missing"), std::string::npos);
#endif

    env["ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX"] = "(";
    env["ROCPROF_OUTPUT_FORMAT"]               = "otf2";
    r                                          = rocprofiler::tool::read_config(get);
    EXPECT_EQ(r.errors.size(), 2u);
}

// Each silently ignored value of issue 17 is now an error naming the variable, the value and
// what is accepted.
TEST(tool_config, rejects_values_that_would_silently_do_nothing)
{
    auto env = std::map<std::string, std::string>{};
    auto get = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto only_error = [&](const std::map<std::string, std::string>& vars) -> std::string
    {
        env    = vars;
        auto r = rocprofiler::tool::read_config(get);
        EXPECT_EQ(r.errors.size(), 1u);
        return r.errors.empty() ? std::string{} : r.errors.front();
    };
    auto e = only_error({{"ROCPROF_KERNEL_TRACE", "2"}});
    EXPECT_NE(e.find("ROCPROF_KERNEL_TRACE='2'"), std::string::npos) << e;
    EXPECT_NE(e.find("accepted: 1, 0, true, false"), std::string::npos) << e;
    e = only_error({{"ROCPROF_OUTPUT_FORMAT", ""}});
    EXPECT_NE(e.find("ROCPROF_OUTPUT_FORMAT=''"), std::string::npos) << e;
    EXPECT_NE(e.find("accepted: csv, json"), std::string::npos) << e;
    e = only_error({{"ROCPROF_OUTPUT_FORMAT", " , "}});
    EXPECT_NE(e.find("names no format"), std::string::npos) << e;
    e = only_error({{"ROCPROF_COUNTERS", "pmc: A B"}, {"ROCPROF_COUNTER_GROUPS", "A;NOPE"}});
    EXPECT_NE(e.find("group 2 names 'NOPE'"), std::string::npos) << e;
    e = only_error({{"ROCPROF_COUNTER_GROUPS", "A;;B"}});
    EXPECT_NE(e.find("group 2 is empty"), std::string::npos) << e;

    // The accepted spellings, and unset or empty, still work without a message.
    env    = {{"ROCPROF_KERNEL_TRACE", "on"}, {"ROCPROF_STATS", ""}, {"ROCPROF_SUMMARY", "No"}};
    auto r = rocprofiler::tool::read_config(get);
    EXPECT_TRUE(r.errors.empty());
    EXPECT_TRUE(r.cfg.kernel_trace);
    EXPECT_FALSE(r.cfg.stats || r.cfg.summary);
}

// The name filters survive what overflowed std::regex's recursion: a 90,000-character pattern and
// a 30,000-character name (with RE2), or refuse/bound them (std::regex fallback).
TEST(name_regex, long_patterns_and_names_do_not_exhaust_the_stack)
{
    using rocprofiler::tool::name_regex;
    auto why          = std::string{};
    auto long_pattern = name_regex::compile(std::string(90000, 'A'), &why);
    if(std::string{name_regex::engine()} == "RE2")
    {
        ASSERT_TRUE(long_pattern) << why;
        EXPECT_FALSE(long_pattern->search("vector_add"));
    }
    else
    {
        EXPECT_FALSE(long_pattern);
        EXPECT_NE(why.find("90000 characters"), std::string::npos) << why;
    }
    auto re = name_regex::compile("vector_add.*x$", &why);
    ASSERT_TRUE(re) << why;
    EXPECT_TRUE(re->search("vector_add" + std::string(30000, 'x')));
    auto alt = name_regex::compile("(x|y)+z", &why);
    ASSERT_TRUE(alt) << why;
    EXPECT_FALSE(alt->search(std::string(30000, 'x')));
    // Search anywhere in the name, as documented.
    EXPECT_TRUE(name_regex::compile("add", nullptr)->search("vector_add_kernel"));
    EXPECT_FALSE(name_regex::compile("^add", nullptr)->search("vector_add_kernel"));
}

TEST(kernel_filter, regex_and_iterations_are_decided_once_per_dispatch)
{
    auto cfg            = rocprofiler::tool::config{};
    cfg.include_regex   = rocprofiler::tool::name_regex::compile("^k", nullptr);
    cfg.exclude_regex   = rocprofiler::tool::name_regex::compile("skip", nullptr);
    cfg.iteration_range = *parse::parse_iteration_range("[2-3]", nullptr);
    auto filter         = rocprofiler::tool::kernel_filter{cfg};
    EXPECT_FALSE(filter.accept(1, "k_a")); // iteration 1 of k_a
    EXPECT_FALSE(filter.accept(2, "other"));
    EXPECT_FALSE(filter.accept(3, "k_skip"));
    EXPECT_TRUE(filter.accept(4, "k_a"));  // iteration 2
    EXPECT_TRUE(filter.accept(4, "k_a"));  // same dispatch (another pass / service): same answer
    EXPECT_TRUE(filter.accept(5, "k_a"));  // iteration 3
    EXPECT_FALSE(filter.accept(6, "k_a")); // iteration 4
    EXPECT_FALSE(filter.accept(1, "k_a"));
}

// ncu's --launch-skip / --launch-count: across all kernels, counting only what the other filters
// selected, decided once per dispatch.
TEST(kernel_filter, dispatch_skip_and_count_follow_the_other_filters)
{
    auto cfg           = rocprofiler::tool::config{};
    cfg.include_regex  = rocprofiler::tool::name_regex::compile("^k", nullptr);
    cfg.dispatch_skip  = 1;
    cfg.dispatch_count = 2;
    auto filter        = rocprofiler::tool::kernel_filter{cfg};
    EXPECT_FALSE(filter.accept(1, "other")); // not selected: not counted
    EXPECT_FALSE(filter.accept(2, "k_a"));   // selected #1: skipped
    EXPECT_FALSE(filter.accept(3, "other"));
    EXPECT_TRUE(filter.accept(4, "k_b"));  // selected #2
    EXPECT_TRUE(filter.accept(4, "k_b"));  // the same dispatch again (a replay pass)
    EXPECT_TRUE(filter.accept(5, "k_a"));  // selected #3
    EXPECT_FALSE(filter.accept(6, "k_a")); // past the count
    EXPECT_FALSE(filter.accept(2, "k_a"));

    auto only_skip          = rocprofiler::tool::config{};
    only_skip.dispatch_skip = 2;
    auto skip               = rocprofiler::tool::kernel_filter{only_skip};
    EXPECT_FALSE(skip.accepts_all());
    EXPECT_FALSE(skip.accept(10, "a"));
    EXPECT_FALSE(skip.accept(11, "b"));
    EXPECT_TRUE(skip.accept(12, "a"));
    EXPECT_TRUE(skip.accept(13, "c"));
}

// Decisions are remembered for the last decision_window dispatch ids, in memory that does not grow
// past it: within the window a dispatch keeps its first answer; a dispatch seen again after a later
// one took its slot is decided again (and counted), never answered with the later one's decision.
TEST(kernel_filter, decisions_are_kept_for_a_window_of_dispatch_ids)
{
    using rocprofiler::tool::kernel_filter;
    auto cfg           = rocprofiler::tool::config{};
    cfg.dispatch_count = 1;
    auto       filter  = kernel_filter{cfg};
    const auto window  = kernel_filter::decision_window;
    EXPECT_TRUE(filter.accept(1, "k"));  // selected #1
    EXPECT_FALSE(filter.accept(2, "k")); // past the count
    EXPECT_TRUE(filter.accept(1, "k"));  // remembered
    // Dispatch 1 + window takes dispatch 1's slot.
    EXPECT_FALSE(filter.accept(1 + window, "k"));
    EXPECT_FALSE(filter.accept(1 + window, "k"));
    EXPECT_EQ(filter.decided_again(), 0u);
    ::testing::internal::CaptureStderr();
    EXPECT_FALSE(filter.accept(1, "k")) << "decided again: the count is spent";
    const auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(filter.decided_again(), 1u);
    EXPECT_NE(err.find("dispatch 1 was seen again more than 1048576 dispatches after"),
              std::string::npos)
        << err;
    // The later dispatch keeps its slot and its answer.
    EXPECT_FALSE(filter.accept(1 + window, "k"));
    EXPECT_EQ(filter.decided_again(), 1u);
    // Dispatch 2's slot is still its own.
    EXPECT_FALSE(filter.accept(2, "k"));
    EXPECT_EQ(filter.decided_again(), 1u);
}

TEST(config, skip_count_names_and_placeholders_from_the_environment)
{
    auto env    = std::map<std::string, std::string>{{"ROCPROF_KERNEL_FILTER_DISPATCH_SKIP", "4"},
                                                     {"ROCPROF_KERNEL_FILTER_DISPATCH_COUNT", "2"},
                                                     {"ROCPROF_DEMANGLE_KERNELS", "0"},
                                                     {"ROCPROF_TRUNCATE_KERNELS", "1"},
                                                     {"ROCPROF_OUTPUT_PATH", "/o/%pid%"},
                                                     {"ROCPROF_OUTPUT_FILE_NAME", "r%rank%"}};
    auto getenv = [&env](const char* name) -> const char*
    {
        auto it = env.find(name);
        return it != env.end() ? it->second.c_str() : nullptr;
    };
    auto r = rocprofiler::tool::read_config(getenv);
    ASSERT_TRUE(r.errors.empty()) << r.errors.front();
    EXPECT_EQ(r.cfg.dispatch_skip, 4u);
    EXPECT_EQ(r.cfg.dispatch_count, std::optional<uint64_t>{2});
    EXPECT_FALSE(r.cfg.demangle_kernels);
    EXPECT_TRUE(r.cfg.truncate_kernels);
    EXPECT_EQ(r.cfg.output_path, "/o/" + std::to_string(getpid()));
    EXPECT_EQ(r.cfg.output_file_name, "r0");
    EXPECT_TRUE(
        rocprofiler::tool::read_config([](const char*) { return nullptr; }).cfg.demangle_kernels);

    env["ROCPROF_KERNEL_FILTER_DISPATCH_COUNT"] = "-1";
    env["ROCPROF_OUTPUT_PATH"]                  = "/o/%nope%";
    r                                           = rocprofiler::tool::read_config(getenv);
    ASSERT_EQ(r.errors.size(), 2u);
    auto all = r.errors[0] + "\n" + r.errors[1];
    EXPECT_NE(all.find("ROCPROF_KERNEL_FILTER_DISPATCH_COUNT='-1'"), std::string::npos) << all;
    EXPECT_NE(all.find("ROCPROF_OUTPUT_PATH='/o/%nope%': unknown placeholder '%nope%'"),
              std::string::npos)
        << all;
}

TEST(outputs, csv_quoting_and_stats)
{
    EXPECT_EQ(rocprofiler::tool::csv_quote("a,b"), "\"a,b\"");
    EXPECT_EQ(rocprofiler::tool::csv_quote("say \"hi\""), "\"say \"\"hi\"\"\"");

    auto data                   = rocprofiler::tool::results{};
    data.kernel_symbols[1].name = "a";
    data.kernel_symbols[2].name = "b,c";
    auto add = [&data](uint64_t dispatch, uint64_t kernel, uint64_t start, uint64_t end)
    {
        auto r                      = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
        r.dispatch_info.dispatch_id = dispatch;
        r.dispatch_info.kernel_id   = kernel;
        r.start_timestamp           = start;
        r.end_timestamp             = end;
        data.kernel_stats.add(r);
    };
    add(1, 1, 100, 200);
    add(1, 1, 250, 290); // a further replay pass of dispatch 1: not another call
    add(2, 1, 300, 500);
    add(3, 2, 0, 700);
    auto stats = rocprofiler::tool::compute_kernel_stats(data);
    ASSERT_EQ(stats.size(), 2u);
    EXPECT_EQ(stats[0].name, "b,c");
    EXPECT_EQ(stats[0].total_ns, 700u);
    EXPECT_EQ(stats[1].calls, 2u);
    EXPECT_EQ(stats[1].total_ns, 300u);
    EXPECT_DOUBLE_EQ(stats[1].average_ns, 150.0);
    EXPECT_DOUBLE_EQ(stats[1].stddev_ns, 50.0);
    EXPECT_EQ(stats[1].min_ns, 100u);
    EXPECT_EQ(stats[1].max_ns, 200u);
    EXPECT_DOUBLE_EQ(stats[0].percentage + stats[1].percentage, 100.0);
}

TEST(outputs, kernel_stats_accumulate_in_bounded_memory)
{
    auto data   = rocprofiler::tool::results{};
    auto record = [](uint64_t dispatch, uint64_t kernel, uint64_t duration)
    {
        auto r                      = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
        r.dispatch_info.dispatch_id = dispatch;
        r.dispatch_info.kernel_id   = kernel;
        r.start_timestamp           = 1000;
        r.end_timestamp             = 1000 + duration;
        return r;
    };
    // Many dispatches of one kernel: one accumulator, whatever the count.
    for(uint64_t i = 1; i <= 100000; ++i)
        data.kernel_stats.add(record(i, 5, i % 2 == 0 ? 30 : 10));
    EXPECT_EQ(data.kernel_stats.kernels().size(), 1u);
    // A kernel whose name arrives after its dispatches is named when the table is made.
    data.kernel_stats.add(record(100001, 6, 40));
    data.kernel_symbols[5].name = "five";
    data.kernel_symbols[6].name = "six";
    // A further pass of a recent dispatch is not another call.
    data.kernel_stats.add(record(100001, 6, 999));
    auto stats = rocprofiler::tool::compute_kernel_stats(data);
    ASSERT_EQ(stats.size(), 2u);
    EXPECT_EQ(stats[0].name, "five");
    EXPECT_EQ(stats[0].calls, 100000u);
    EXPECT_EQ(stats[0].total_ns, 2000000u);
    EXPECT_DOUBLE_EQ(stats[0].stddev_ns, 10.0);
    EXPECT_EQ(stats[1].name, "six");
    EXPECT_EQ(stats[1].calls, 1u);
    EXPECT_EQ(stats[1].max_ns, 40u);
}

TEST(outputs, memory_copy_rows_and_records)
{
    auto data = rocprofiler::tool::results{};
    auto cpu = rocprofiler::tool::agent_entry{}, gpu = rocprofiler::tool::agent_entry{};
    cpu.info.id              = rocprofiler_agent_id_t{500};
    cpu.info.type            = ROCPROFILER_AGENT_TYPE_CPU;
    cpu.info.logical_node_id = 0;
    gpu.info.id              = rocprofiler_agent_id_t{600};
    gpu.info.type            = ROCPROFILER_AGENT_TYPE_GPU;
    gpu.info.logical_node_id = 1;
    data.agents              = {cpu, gpu};

    auto r                          = rocprofiler_buffer_tracing_memory_copy_record_t{};
    r.size                          = sizeof(r);
    r.kind                          = ROCPROFILER_BUFFER_TRACING_MEMORY_COPY;
    r.operation                     = ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE;
    r.correlation_id.internal       = 42;
    r.correlation_id.external.value = 7;
    r.thread_id                     = 1234;
    r.start_timestamp               = 1000;
    r.end_timestamp                 = 1500;
    r.src_agent_id                  = cpu.info.id;
    r.dst_agent_id                  = gpu.info.id;
    r.bytes                         = 4096;
    r.src_address.value             = 0xabc0;
    r.dst_address.value             = 0x7f0000001000;
    // Agents named as kernel_trace.csv names them ("Agent <logical node id>", quoted); addresses
    // in hexadecimal.
    EXPECT_EQ(
        rocprofiler::tool::memory_copy_trace_csv_row(data, r),
        "\"MEMORY_COPY\",\"MEMORY_COPY_HOST_TO_DEVICE\",0,\"Agent 0\",\"Agent 1\",42,1000,1500,"
        "4096,0xabc0,0x7f0000001000,1234\n");
    // Host memory (agent handle 0, no agent listed) is "host", quoted too; the Perfetto trace's
    // annotations keep the numbers.
    r.src_agent_id = rocprofiler_agent_id_t{0};
    EXPECT_EQ(rocprofiler::tool::memory_copy_trace_csv_row(data, r),
              "\"MEMORY_COPY\",\"MEMORY_COPY_HOST_TO_DEVICE\",0,\"host\",\"Agent 1\",42,1000,1500,"
              "4096,0xabc0,0x7f0000001000,1234\n");
    EXPECT_EQ(rocprofiler::tool::memory_copy_agent(data, r.src_agent_id), "host");
    EXPECT_EQ(rocprofiler::tool::memory_copy_agent(data, r.dst_agent_id), "1");
    // Under -A type-relative the GPU side is "GPU <n>".
    data.agent_index_mode = rocprofiler::tool::agent_index::type_relative;
    EXPECT_EQ(rocprofiler::tool::memory_copy_trace_csv_row(data, r),
              "\"MEMORY_COPY\",\"MEMORY_COPY_HOST_TO_DEVICE\",0,\"host\",\"GPU 0\",42,1000,1500,"
              "4096,0xabc0,0x7f0000001000,1234\n");
    data.agent_index_mode = rocprofiler::tool::agent_index::relative;
    r.src_agent_id        = cpu.info.id;
    EXPECT_EQ(rocprofiler::tool::memory_copy_trace_csv_header(),
              "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\",\"Destination_Agent_Id\","
              "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"Bytes\","
              "\"Source_Address\",\"Destination_Address\",\"Thread_Id\"\n");

    const auto j = rocprofiler::tool::memory_copy_record_json(r);
    EXPECT_EQ(j.at("kind"), "MEMORY_COPY");
    EXPECT_EQ(j.at("operation"), "MEMORY_COPY_HOST_TO_DEVICE");
    EXPECT_EQ(j.at("correlation_id").at("internal"), 42u);
    EXPECT_EQ(j.at("correlation_id").at("external"), 7u);
    EXPECT_EQ(j.at("src_agent_id").at("handle"), 500u);
    EXPECT_EQ(j.at("dst_agent_id").at("handle"), 600u);
    EXPECT_EQ(j.at("bytes"), 4096u);
    EXPECT_EQ(j.at("dst_address").at("handle"), 0x7f0000001000u);

    // Every direction has upstream's name; a value out of range is named, not dropped.
    EXPECT_EQ(rocprofiler::tool::memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_NONE),
              "MEMORY_COPY_NONE");
    EXPECT_EQ(rocprofiler::tool::memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_HOST_TO_HOST),
              "MEMORY_COPY_HOST_TO_HOST");
    EXPECT_EQ(rocprofiler::tool::memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST),
              "MEMORY_COPY_DEVICE_TO_HOST");
    EXPECT_EQ(
        rocprofiler::tool::memory_copy_direction_name(ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE),
        "MEMORY_COPY_DEVICE_TO_DEVICE");
    EXPECT_EQ(rocprofiler::tool::memory_copy_direction_name(
                  static_cast<rocprofiler_memory_copy_operation_t>(77)),
              "MEMORY_COPY_77");
}

// The CSV files name an agent as upstream's -A/--agent-index says, with numbers that differ per
// mode here (the SDK's own agents have node id = logical node id).
TEST(outputs, agent_labels_in_the_three_agent_index_modes)
{
    namespace tool = rocprofiler::tool;
    auto data      = tool::results{};
    auto agent     = [&data](uint64_t                 handle,
                         rocprofiler_agent_type_t type,
                         uint32_t                 node,
                         int32_t                  logical,
                         int32_t                  type_index)
    {
        auto a                      = tool::agent_entry{};
        a.info.id                   = rocprofiler_agent_id_t{handle};
        a.info.type                 = type;
        a.info.node_id              = node;
        a.info.logical_node_id      = logical;
        a.info.logical_node_type_id = type_index;
        data.agents.push_back(a);
        return a.info.id;
    };
    const auto cpu     = agent(10, ROCPROFILER_AGENT_TYPE_CPU, 4, 0, 0);
    const auto gpu     = agent(20, ROCPROFILER_AGENT_TYPE_GPU, 7, 1, 0);
    const auto gpu2    = agent(30, ROCPROFILER_AGENT_TYPE_GPU, 9, 2, 1);
    const auto unknown = rocprofiler_agent_id_t{77};
    using labels       = std::vector<std::string>;
    auto all           = [&]
    {
        return labels{tool::agent_label(data, cpu),
                      tool::agent_label(data, gpu),
                      tool::agent_label(data, gpu2),
                      tool::agent_label(data, unknown)};
    };
    // relative, the default: "Agent <logical node id>".
    EXPECT_EQ(data.agent_index_mode, tool::agent_index::relative);
    EXPECT_EQ(all(), (labels{"Agent 0", "Agent 1", "Agent 2", "Agent 77"}));
    data.agent_index_mode = tool::agent_index::absolute;
    EXPECT_EQ(all(), (labels{"Agent 4", "Agent 7", "Agent 9", "Agent 77"}));
    data.agent_index_mode = tool::agent_index::type_relative;
    EXPECT_EQ(all(), (labels{"CPU 0", "GPU 0", "GPU 1", "Agent 77"}));

    // The rows that carry an agent: kernel_trace.csv's and counter_collection.csv's Agent_Id,
    // quoted.
    data.kernel_symbols[5].name             = "k,1";
    data.kernel_symbols[5].arch_vgpr_count  = 8;
    data.kernel_symbols[5].accum_vgpr_count = 4;
    data.kernel_symbols[5].sgpr_count       = 16;
    data.pid                                = 4321;
    auto d                                  = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    d.thread_id                             = 99;
    d.correlation_id.internal               = 11;
    d.start_timestamp                       = 1000;
    d.end_timestamp                         = 2000;
    d.dispatch_info.agent_id                = gpu2;
    d.dispatch_info.queue_id.handle         = 3;
    d.dispatch_info.dispatch_id             = 12;
    d.dispatch_info.kernel_id               = 5;
    d.dispatch_info.group_segment_size      = 256;
    d.dispatch_info.private_segment_size    = 16;
    d.dispatch_info.workgroup_size          = {64, 2, 1};
    d.dispatch_info.grid_size               = {256, 4, 1};
    const auto tail =
        std::string{",3,0,99,12,5,\"k,1\",11,1000,2000,256,16,8,4,16,64,2,1,256,4,1\n"};
    data.agent_index_mode = tool::agent_index::relative;
    EXPECT_EQ(tool::kernel_trace_csv_row(data, d), "\"KERNEL_DISPATCH\",\"Agent 2\"" + tail);
    data.agent_index_mode = tool::agent_index::absolute;
    EXPECT_EQ(tool::kernel_trace_csv_row(data, d), "\"KERNEL_DISPATCH\",\"Agent 9\"" + tail);
    data.agent_index_mode = tool::agent_index::type_relative;
    EXPECT_EQ(tool::kernel_trace_csv_row(data, d), "\"KERNEL_DISPATCH\",\"GPU 1\"" + tail);

    auto c                         = tool::counter_dispatch{};
    c.thread_id                    = 99;
    c.data.correlation_id.internal = 11;
    c.data.start_timestamp         = 1000;
    c.data.end_timestamp           = 2000;
    c.data.dispatch_info           = d.dispatch_info;
    c.values                       = {{1, "WORK_ITEMS", 1024.0}, {2, "RATIO", 0.5}};
    data.agent_index_mode          = tool::agent_index::relative;
    const auto middle              = std::string{",3,4321,99,1024,5,\"k,1\",128,256,16,8,4,16,"};
    EXPECT_EQ(tool::counter_collection_csv_rows(data, c),
              "11,12,\"Agent 2\"" + middle + "\"WORK_ITEMS\",1024.000000,1000,2000\n" +
                  "11,12,\"Agent 2\"" + middle + "\"RATIO\",5.00000000e-01,1000,2000\n");
    data.agent_index_mode = tool::agent_index::type_relative;
    EXPECT_EQ(tool::counter_collection_csv_rows(data, c),
              "11,12,\"GPU 1\"" + middle + "\"WORK_ITEMS\",1024.000000,1000,2000\n" +
                  "11,12,\"GPU 1\"" + middle + "\"RATIO\",5.00000000e-01,1000,2000\n");
}

// Counter_Value as upstream writes it: fixed with 6 decimals from 1 up, scientific with 8 below.
TEST(outputs, counter_values_in_upstream_forms)
{
    using rocprofiler::tool::csv_counter_value;
    EXPECT_EQ(csv_counter_value(64), "64.000000");
    EXPECT_EQ(csv_counter_value(1), "1.000000");
    EXPECT_EQ(csv_counter_value(16384), "16384.000000");
    EXPECT_EQ(csv_counter_value(6.271484375), "6.271484");
    EXPECT_EQ(csv_counter_value(0.5), "5.00000000e-01");
    EXPECT_EQ(csv_counter_value(0), "0.00000000e+00");
    EXPECT_EQ(csv_counter_value(0.0248342814), "2.48342814e-02");
    EXPECT_EQ(csv_counter_value(-3), "-3.00000000e+00");
    EXPECT_EQ(csv_counter_value(0.9999999999), "1.00000000e+00"); // below 1: scientific, rounded
}

// The validators' own statement of those forms (csv_rows.hpp) agrees with the writer, and
// rejects every other form.
TEST(outputs, validators_check_the_forms_of_agents_and_counter_values)
{
    namespace v = rocprofv3_validate;
    for(double value : {0.0,
                        -0.0,
                        1.0,
                        64.0,
                        0.5,
                        -3.0,
                        -0.25,
                        6.271484375,
                        0.0248342814,
                        1e-30,
                        0.999999999,
                        0.9999999999,
                        0.99999999,
                        1.0000004,
                        123456789012.0,
                        1e20,
                        1.5e-300})
    {
        const auto text = rocprofiler::tool::csv_counter_value(value);
        EXPECT_EQ(v::counter_value_text(value), text) << value;
        EXPECT_FALSE(v::counter_value_form_error(text))
            << text << ": " << *v::counter_value_form_error(text);
    }
    for(const char* bad : {"64",
                           "64.0",
                           "64.00000",
                           "64.0000000",
                           "064.000000",
                           "+64.000000",
                           "6.40000000e+01", // >= 1 in scientific form
                           "6.4e+01",
                           "0.500000", // < 1 in fixed form
                           "0.000000",
                           "5.0000000e-01",
                           "5.000000000e-01",
                           "0.50000000e+00", // not normalized
                           "5.00000000E-01",
                           "5.00000000e-1",
                           "-1.000000",
                           "",
                           " 1.000000",
                           "1.000000 ",
                           "nan",
                           "inf"})
        EXPECT_TRUE(v::counter_value_form_error(bad)) << "'" << bad << "' accepted";

    EXPECT_EQ(v::number_after("Agent 3", "Agent "), std::optional<std::string>{"3"});
    EXPECT_EQ(v::number_after("Agent 0", "Agent "), std::optional<std::string>{"0"});
    EXPECT_EQ(v::number_after("Agent 12", "Agent "), std::optional<std::string>{"12"});
    for(const char* bad : {"3",
                           "Agent ",
                           "Agent 03",
                           "Agent -1",
                           "Agent 3 ",
                           "agent 3",
                           "GPU 3",
                           "Agent  3",
                           "\"Agent 3\"",
                           "Agent 3x"})
        EXPECT_FALSE(v::number_after(bad, "Agent ")) << "'" << bad << "' accepted";

    // The names of agent_info.csv's agents in each mode.
    const auto rows = v::csv_rows{{"Node_Id", "Logical_Node_Id", "Agent_Type"},
                                  {"9", "2", "GPU"},
                                  {"4", "0", "CPU"},
                                  {"7", "1", "GPU"}};
    using names     = std::map<std::string, std::string>;
    auto fail_here  = [](const std::string& message)
    {
        std::fprintf(stderr, "FAIL: %s\n", message.c_str());
        std::exit(1);
    };
    EXPECT_EQ(v::agent_labels(rows, "agent_info.csv", "relative", fail_here),
              (names{{"Agent 0", "CPU"}, {"Agent 1", "GPU"}, {"Agent 2", "GPU"}}));
    EXPECT_EQ(v::agent_labels(rows, "agent_info.csv", "absolute", fail_here),
              (names{{"Agent 4", "CPU"}, {"Agent 7", "GPU"}, {"Agent 9", "GPU"}}));
    EXPECT_EQ(v::agent_labels(rows, "agent_info.csv", "type-relative", fail_here),
              (names{{"CPU 0", "CPU"}, {"GPU 0", "GPU"}, {"GPU 1", "GPU"}}));
    EXPECT_EXIT(v::agent_labels(rows, "agent_info.csv", "bogus", fail_here),
                testing::ExitedWithCode(1),
                "agent index mode 'bogus': accepted: absolute, relative, type-relative");
    EXPECT_EQ(v::agent_number_of("Agent 3", "row 1", fail_here), "3");
    EXPECT_EXIT(v::agent_number_of("3", "row 1", fail_here),
                testing::ExitedWithCode(1),
                "row 1: '3' is not of the form \"Agent <n>\"");
    EXPECT_EQ(v::copy_side_number_of("host", "row 1", fail_here), "host");
    EXPECT_EQ(v::copy_side_number_of("Agent 1", "row 1", fail_here), "1");
    EXPECT_EXIT(v::copy_side_number_of("Host", "row 1", fail_here),
                testing::ExitedWithCode(1),
                "row 1: 'Host' is neither \"host\" nor \"Agent <n>\"");
    EXPECT_EXIT(v::counter_value_of("0.500000", "row 2", fail_here),
                testing::ExitedWithCode(1),
                "row 2: Counter_Value '0.500000': a value below 1 is written in scientific form");
}

TEST(outputs, a_kernel_never_reported_gets_a_placeholder_and_one_warning)
{
    auto data                   = rocprofiler::tool::results{};
    data.kernel_symbols[7].name = "reported_kernel";
    auto warning                = std::string{};
    EXPECT_EQ(rocprofiler::tool::ensure_kernel_symbol(data, 7, &warning).name, "reported_kernel");
    EXPECT_TRUE(warning.empty());
    const auto& sym = rocprofiler::tool::ensure_kernel_symbol(data, 42, &warning);
    EXPECT_EQ(sym.name, "kernel_42");
    EXPECT_FALSE(sym.reported);
    EXPECT_EQ(sym.arch_vgpr_count + sym.accum_vgpr_count + sym.sgpr_count, 0u);
    EXPECT_NE(warning.find("kernel id 42"), std::string::npos);
    warning.clear();
    EXPECT_EQ(rocprofiler::tool::ensure_kernel_symbol(data, 42, &warning).name, "kernel_42");
    EXPECT_TRUE(warning.empty()) << "the warning is given once per kernel id";
    EXPECT_EQ(data.kernel_name(42), "kernel_42");
    EXPECT_EQ(data.kernel_name(43), "");
}

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

TEST(callback_guard, exceptions_never_leave_a_guarded_callback)
{
    using rocprofiler::tool::guarded;
    EXPECT_EQ(guarded("test", 5, [] { return 7; }), 7);
    EXPECT_EQ(guarded("test", 5, []() -> int { throw std::runtime_error{"boom"}; }), 5);
    EXPECT_EQ(guarded("test", 5, []() -> int { throw 3; }), 5); // not a std::exception
    auto ran = false;
    EXPECT_NO_THROW(guarded("test",
                            [&]
                            {
                                ran = true;
                                throw std::logic_error{"void callback"};
                            }));
    EXPECT_TRUE(ran);
    static_assert(noexcept(guarded("test", [] {})));
}
