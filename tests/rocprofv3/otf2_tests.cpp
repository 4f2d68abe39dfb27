// The OTF2 trace model (otf2/otf2_trace.hpp): where records go, how overlapping intervals are
// split into nesting lanes, and what write() answers for a place it cannot use. The archive
// itself is read back by otf2-print in the rocprofv3.otf2_* and rocpd.otf2_* tests.
#include "otf2/otf2_sink.hpp"
#include "otf2/otf2_trace.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace rocprofiler::tool;

namespace
{
using interval = otf2_trace::interval;

std::vector<std::vector<std::pair<uint64_t, uint64_t>>>
spans(const std::vector<std::vector<interval>>& lanes)
{
    auto out = std::vector<std::vector<std::pair<uint64_t, uint64_t>>>{};
    for(const auto& lane : lanes)
    {
        out.emplace_back();
        for(const auto& iv : lane)
            out.back().emplace_back(iv.start, iv.end);
    }
    return out;
}
// Results with one GPU agent: handle 7, shown as "Agent 1".
results
results_with_one_gpu()
{
    auto data                = results{};
    auto gpu                 = agent_entry{};
    gpu.info.id.handle       = 7;
    gpu.info.logical_node_id = 1;
    gpu.info.type            = ROCPROFILER_AGENT_TYPE_GPU;
    data.agents.push_back(gpu);
    return data;
}
} // namespace

TEST(otf2_lanes, nested_and_disjoint_intervals_stay_on_one_lane)
{
    // Arrival order is not time order: the enclosing range arrives after what it encloses.
    const auto lanes =
        otf2_lanes({{20, 30, 0}, {12, 15, 1}, {10, 40, 2}, {40, 40, 3}, {50, 60, 4}});
    using v = std::vector<std::pair<uint64_t, uint64_t>>;
    ASSERT_EQ(lanes.size(), 1U);
    EXPECT_EQ(spans(lanes)[0], (v{{10, 40}, {12, 15}, {20, 30}, {40, 40}, {50, 60}}));
}

TEST(otf2_lanes, overlapping_intervals_that_do_not_nest_go_to_another_lane)
{
    const auto lanes = otf2_lanes({{10, 30, 0}, {20, 40, 1}, {35, 50, 2}, {41, 45, 3}});
    using v          = std::vector<std::pair<uint64_t, uint64_t>>;
    ASSERT_EQ(lanes.size(), 2U);
    EXPECT_EQ(spans(lanes)[0], (v{{10, 30}, {35, 50}, {41, 45}}));
    EXPECT_EQ(spans(lanes)[1], (v{{20, 40}}));
    // An end before its start (a broken record) is taken as a mark at its start.
    const auto broken = otf2_lanes({{10, 5, 0}});
    ASSERT_EQ(broken.size(), 1U);
    EXPECT_EQ(spans(broken)[0], (v{{10, 10}}));
}

TEST(otf2_trace, records_go_to_queue_copy_and_thread_locations)
{
    auto data     = results_with_one_gpu();
    auto sym      = kernel_symbol{};
    sym.kernel_id = 3;
    sym.name      = "vector_add";
    data.kernel_symbols.emplace(3, sym);

    auto       trace                = otf2_trace{};
    const auto p                    = trace.add_process("app (pid 1)", "node");
    auto       k                    = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    k.dispatch_info.agent_id        = {7};
    k.dispatch_info.queue_id.handle = 2;
    k.dispatch_info.kernel_id       = 3;
    k.start_timestamp               = 100;
    k.end_timestamp                 = 200;
    trace.dispatch(p, data, k);
    k.dispatch_info.kernel_id = 9; // never reported: named kernel_9
    trace.dispatch(p, data, k);
    auto c            = rocprofiler_buffer_tracing_memory_copy_record_t{};
    c.operation       = ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE;
    c.dst_agent_id    = {7};
    c.start_timestamp = 50;
    c.end_timestamp   = 60;
    trace.memory_copy(p, data, c);
    c.operation    = ROCPROFILER_MEMORY_COPY_HOST_TO_HOST;
    c.dst_agent_id = {0};
    trace.memory_copy(p, data, c);
    auto m = marker_event{"MARKER_CORE_API", "range", 42, 1, 10, 300, false};
    trace.marker(p, m);
    m.process_range = true;
    trace.marker(p, m);
    trace.api_call(p, marker_event{"CUDA_RUNTIME_API", "cudaMalloc", 42, 2, 20, 30, false});

    EXPECT_EQ(trace.records(), 7U);
    auto names = std::vector<std::string>{};
    auto count = size_t{0};
    for(const auto& [key, loc] : trace.processes().at(p).locations)
    {
        names.push_back(loc.name);
        count += loc.intervals.size();
    }
    EXPECT_EQ(names,
              (std::vector<std::string>{"Agent 1 Queue 2",
                                        "Host memory copies",
                                        "Agent 1 memory copies",
                                        "Thread 42",
                                        "Process ranges"}));
    EXPECT_EQ(count, 7U);
    auto regions = std::vector<std::string>{};
    for(const auto& r : trace.regions())
        regions.push_back(r.name);
    // The same marker name is one region, used twice.
    EXPECT_EQ(regions,
              (std::vector<std::string>{"vector_add",
                                        "kernel_9",
                                        "MEMORY_COPY_HOST_TO_DEVICE",
                                        "MEMORY_COPY_HOST_TO_HOST",
                                        "range",
                                        "cudaMalloc"}));
}

// Counter records: values summed by name (instances), one metric class per list of names, a
// list longer than OTF2's 255 members split into several classes and points.
TEST(otf2_trace, counter_records_are_metric_points_on_the_agent_s_location)
{
    auto data = results_with_one_gpu();

    auto       trace                = otf2_trace{};
    const auto p                    = trace.add_process("app (pid 1)", "node");
    auto       rec                  = counter_dispatch{};
    rec.data.dispatch_info.agent_id = {7};
    rec.data.end_timestamp          = 500;
    rec.values                      = {{1, "A", 2.0}, {2, "B", 3.0}, {1, "A", 5.0}};
    trace.counters(p, data, rec);
    rec.data.end_timestamp = 400; // arrives later, ends earlier: the archive sorts by time
    trace.counters(p, data, rec);
    rec.values.clear();
    trace.counters(p, data, rec); // no values: nothing
    for(size_t i = 0; i < 300; ++i)
        rec.values.push_back({i, "C" + std::to_string(i), static_cast<double>(i)});
    rec.data.end_timestamp = 600;
    trace.counters(p, data, rec);

    EXPECT_EQ(trace.records(), 3U);
    ASSERT_EQ(trace.processes().at(p).locations.size(), 1U);
    const auto& loc = trace.processes().at(p).locations.begin()->second;
    EXPECT_EQ(loc.name, "Agent 1 counters");
    EXPECT_EQ(loc.kind, otf2_trace::location_kind::metric);
    ASSERT_EQ(loc.metrics.size(), 4U);
    EXPECT_EQ(loc.metrics[0].time, 500U);
    EXPECT_EQ(loc.metrics[0].values, (std::vector<double>{7.0, 3.0}));
    EXPECT_EQ(loc.metrics[1].metric_class, loc.metrics[0].metric_class);
    EXPECT_EQ(loc.metrics[2].values.size(), otf2_trace::max_metric_members);
    EXPECT_EQ(loc.metrics[3].values.size(), 300U - otf2_trace::max_metric_members);
    EXPECT_EQ(loc.metrics[3].values.front(), 255.0);
    ASSERT_EQ(trace.metric_classes().size(), 3U);
    EXPECT_EQ(trace.metric_classes()[0], (std::vector<uint32_t>{0, 1}));
    EXPECT_EQ(trace.metric_members().size(), 302U);
    EXPECT_EQ(trace.metric_members()[2], "C0");
}

TEST(otf2_trace, process_names_carry_pid_rank_and_host)
{
    EXPECT_EQ(otf2_process_name("/usr/bin/app", "12", "3", "node7"),
              "app (pid 12, rank 3, host node7)");
    EXPECT_EQ(otf2_process_name("", "12", "", ""), "process (pid 12)");
}

TEST(otf2_trace, a_place_that_cannot_be_written_is_an_error_naming_it)
{
    const auto dir = std::filesystem::path{testing::TempDir()} / "otf2-trace-errors";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    auto trace = otf2_trace{};
    trace.add_process("app (pid 1)", "node");
    auto error = std::string{};
    // A folder that does not exist.
    EXPECT_FALSE(trace.write((dir / "missing").string(), "run_results", error));
    EXPECT_NE(error.find("could not write the OTF2 archive"), std::string::npos) << error;
    EXPECT_NE(error.find("run_results.otf2"), std::string::npos) << error;
    if(!otf2_available())
    {
        EXPECT_NE(error.find("built without OTF2 support"), std::string::npos) << error;
        return;
    }
    // The archive's folder name taken by a file: refused, the file kept, nothing left behind.
    {
        auto blocker = std::ofstream{dir / "run_results"};
        blocker << "keep\n";
    }
    error.clear();
    EXPECT_FALSE(trace.write(dir.string(), "run_results", error));
    EXPECT_NE(error.find("in the way"), std::string::npos) << error;
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / "run_results"));
    EXPECT_FALSE(std::filesystem::exists(dir / "run_results.otf2"));
    auto entries = size_t{0};
    for([[maybe_unused]] const auto& e : std::filesystem::directory_iterator{dir})
        ++entries;
    EXPECT_EQ(entries, 1U);
    // Once the place is free the archive is written, and written again over itself.
    std::filesystem::remove(dir / "run_results");
    EXPECT_TRUE(trace.write(dir.string(), "run_results", error)) << error;
    EXPECT_TRUE(trace.write(dir.string(), "run_results", error)) << error;
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / "run_results.otf2"));
    EXPECT_TRUE(std::filesystem::is_regular_file(dir / "run_results.def"));
    EXPECT_TRUE(std::filesystem::is_directory(dir / "run_results"));
}
