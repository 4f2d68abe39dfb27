// The outputs written from plain data (output.cpp): CSV rows and files, results.json, stats.
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

#include <rocprofiler-sdk/experimental/graph.h>

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace parse = rocprofiler::tool::parse;

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

namespace
{
// A CPU (handle 10) and two GPUs (20, 30) whose node id, logical node id and index among their
// type all differ, so that each -A mode names them differently.
struct three_agents
{
    rocprofiler::tool::results data = {};
    rocprofiler_agent_id_t     cpu  = {};
    rocprofiler_agent_id_t     gpu  = {};
    rocprofiler_agent_id_t     gpu2 = {};
};

three_agents
make_three_agents()
{
    namespace tool = rocprofiler::tool;
    auto out       = three_agents{};
    auto agent     = [&data = out.data](uint64_t                 handle,
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
    out.cpu  = agent(10, ROCPROFILER_AGENT_TYPE_CPU, 4, 0, 0);
    out.gpu  = agent(20, ROCPROFILER_AGENT_TYPE_GPU, 7, 1, 0);
    out.gpu2 = agent(30, ROCPROFILER_AGENT_TYPE_GPU, 9, 2, 1);
    return out;
}
} // namespace

// The CSV files name an agent as upstream's -A/--agent-index says, with numbers that differ per
// mode here (the SDK's own agents have node id = logical node id).
TEST(outputs, agent_labels_in_the_three_agent_index_modes)
{
    namespace tool              = rocprofiler::tool;
    auto [data, cpu, gpu, gpu2] = make_three_agents();
    const auto unknown          = rocprofiler_agent_id_t{77};
    using labels                = std::vector<std::string>;
    auto all                    = [&]
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
}

// The rows that carry an agent: kernel_trace.csv's and counter_collection.csv's Agent_Id, quoted.
TEST(outputs, agent_columns_of_the_rows_in_each_agent_index_mode)
{
    namespace tool                          = rocprofiler::tool;
    auto       agents                       = make_three_agents();
    auto&      data                         = agents.data;
    const auto gpu2                         = agents.gpu2;
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
TEST(outputs, validators_check_the_forms_of_counter_values)
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
}

// The validators' reading of "Agent <n>" accepts only that form.
TEST(outputs, validators_check_the_form_of_agent_numbers)
{
    namespace v = rocprofv3_validate;
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
}

// The validators' names of agent_info.csv's agents in each mode, and their refusals.
TEST(outputs, validators_name_agents_as_the_writer_does)
{
    namespace v     = rocprofv3_validate;
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

// A CUDA graph's kernel node carries its graph and node ids in the dispatch info's padding
// (experimental/graph.h's documented layout): results.json shows them, a launched dispatch has
// no such keys.
TEST(outputs, a_graph_nodes_ids_reach_results_json)
{
    auto r                      = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    r.size                      = sizeof(r);
    r.dispatch_info.size        = sizeof(r.dispatch_info);
    r.dispatch_info.dispatch_id = 5;
    const auto plain            = rocprofiler::tool::dispatch_record_json(r);
    EXPECT_FALSE(plain["dispatch_info"].contains("graph_id"));
    EXPECT_FALSE(plain["dispatch_info"].contains("graph_node_id"));

    const uint64_t words[] = {ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER, 12, 0x1'0000'0003ULL};
    std::memcpy(r.dispatch_info.reserved_padding, words, sizeof(words));
    auto node = rocprofiler_dispatch_graph_node_t{};
    ASSERT_EQ(rocprofiler_query_dispatch_graph_node(&r.dispatch_info, &node),
              ROCPROFILER_STATUS_SUCCESS);
    const auto j = rocprofiler::tool::dispatch_record_json(r);
    EXPECT_EQ(j["dispatch_info"]["graph_id"], 12u);
    EXPECT_EQ(j["dispatch_info"]["graph_node_id"], 0x1'0000'0003ULL);
}
