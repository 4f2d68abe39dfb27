// Each sink fed hand-built records: its files hold exactly what the writers of output.hpp make of
// them; the fan-out feeds every sink; the factory knows the four formats.
#include "csv/csv_sink.hpp"
#include "model/replay_report.hpp"
#include "otf2/otf2_sink.hpp"
#include "pftrace/pftrace_sink.hpp"
#include "scratch_dir.hpp"
#include "sinks/factory.hpp"
#include "sinks/fan_out.hpp"
#include "json/json_sink.hpp"
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
#    include "csv/rows.hpp"
#    include "rocpd/rocpd_sink.hpp"

#    include <sqlite3.h>
#endif

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace
{
using namespace rocprofiler::tool;

std::string
read(const std::filesystem::path& path)
{
    auto in = std::ifstream{path, std::ios::binary};
    return {std::istreambuf_iterator<char>{in}, std::istreambuf_iterator<char>{}};
}

struct fixture : ::testing::Test
{
    rocprofv3_test::scratch_dir dir{"rocprofv3-sinks-"};
    config                      cfg  = {};
    results                     data = {};

    void SetUp() override
    {
        cfg.output_path        = dir.path.string();
        cfg.output_file_name   = "run";
        data.pid               = 4242;
        auto sym               = kernel_symbol{};
        sym.kernel_id          = 7;
        sym.name               = "vector_add";
        data.kernel_symbols[7] = sym;
    }

    static rocprofiler_buffer_tracing_kernel_dispatch_record_t dispatch(uint64_t id)
    {
        auto r                         = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
        r.size                         = sizeof(r);
        r.kind                         = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
        r.thread_id                    = 11;
        r.correlation_id.internal      = id;
        r.start_timestamp              = 1000 * id;
        r.end_timestamp                = 1000 * id + 500;
        r.dispatch_info.dispatch_id    = id;
        r.dispatch_info.kernel_id      = 7;
        r.dispatch_info.grid_size      = {64, 1, 1};
        r.dispatch_info.workgroup_size = {32, 1, 1};
        return r;
    }

    static marker_event marker(const char* name, uint64_t start, uint64_t end)
    {
        auto e     = marker_event{};
        e.domain   = "MARKER_CORE_API";
        e.function = name;
        e.start    = start;
        e.end      = end;
        return e;
    }

    std::filesystem::path file(const char* suffix) const
    {
        return dir.path / (std::string{"run_"} + suffix);
    }
};

TEST_F(fixture, csv_sink_streams_the_rows_of_each_record)
{
    cfg.kernel_trace = true;
    cfg.marker_trace = true;
    auto errors      = std::vector<std::string>{};
    auto sink        = csv_sink{cfg, data, errors};
    ASSERT_TRUE(errors.empty()) << errors.front();
    const auto a = dispatch(1), b = dispatch(2);
    const auto m = marker("phase", 10, 20);
    sink.dispatch(data, a);
    sink.dispatch(data, b);
    sink.marker(data, m);
    sink.checkpoint();
    EXPECT_EQ(read(file("kernel_trace.csv")),
              kernel_trace_csv_header() + kernel_trace_csv_row(data, a) +
                  kernel_trace_csv_row(data, b));
    auto written = std::vector<std::string>{};
    sink.finish(data, written, errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(written,
              (std::vector<std::string>{file("kernel_trace.csv").string(),
                                        file("marker_api_trace.csv").string()}));
    EXPECT_EQ(read(file("marker_api_trace.csv")),
              marker_api_trace_csv_header() + marker_api_trace_csv_row(data, m));
    EXPECT_FALSE(std::filesystem::exists(file("counter_collection.csv")));
}

TEST_F(fixture, csv_sink_lists_missing_groups_only)
{
    cfg.kernel_replay      = true;
    cfg.counter_collection = true;
    auto errors            = std::vector<std::string>{};
    auto sink              = csv_sink{cfg, data, errors};
    auto outcome           = replay_outcome{};
    outcome.dispatch_id    = 3;
    outcome.kernel_id      = 7;
    outcome.reason         = "footprint_budget";
    data.replay_groups[0]  = {{"WORK_ITEMS"}, {"DURATION_NS"}};
    sink.replay_outcome(data, outcome, {});
    sink.replay_outcome(data, outcome, {1});
    auto written = std::vector<std::string>{};
    sink.finish(data, written, errors);
    EXPECT_EQ(read(file("counter_collection_missing.csv")),
              missing_groups_csv_header() + missing_groups_csv_rows(data, outcome, {1}));
}

TEST_F(fixture, json_sink_spills_each_record_and_removes_its_parts)
{
    cfg.kernel_trace = true;
    cfg.marker_trace = true;
    cfg.json         = true;
    auto errors      = std::vector<std::string>{};
    auto sink        = json_sink{cfg, data, errors};
    ASSERT_TRUE(errors.empty()) << errors.front();
    const auto spills = sink.spills();
    ASSERT_NE(spills.kernel_dispatch, nullptr);
    ASSERT_NE(spills.marker_api, nullptr);
    EXPECT_EQ(spills.counter_collection, nullptr);
    sink.dispatch(data, dispatch(1));
    sink.marker(data, marker("m", 1, 2));
    sink.marker(data, marker("n", 3, 4));
    EXPECT_EQ(spills.kernel_dispatch->size(), 1u);
    EXPECT_EQ(spills.marker_api->size(), 2u);
    const auto part = file("results.json.kernel_dispatch.part");
    EXPECT_TRUE(std::filesystem::exists(part));
    sink.discard_parts(errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_FALSE(std::filesystem::exists(part));
}

TEST_F(fixture, pftrace_sink_appends_what_the_builder_encodes)
{
    cfg.pftrace      = true;
    cfg.kernel_trace = true;
    auto errors      = std::vector<std::string>{};
    auto sink        = pftrace_sink{cfg, data, errors};
    ASSERT_TRUE(errors.empty()) << errors.front();
    const auto header = std::filesystem::file_size(file("results.pftrace"));
    sink.dispatch(data, dispatch(1));
    sink.api_call(data, marker("cudaMalloc", 5, 6));
    sink.batch_end();
    sink.checkpoint();
    const auto after = std::filesystem::file_size(file("results.pftrace"));
    EXPECT_GT(after, header);
    auto written = std::vector<std::string>{};
    sink.finish(data, written, errors);
    EXPECT_TRUE(errors.empty());
    EXPECT_EQ(written, std::vector<std::string>{file("results.pftrace").string()});
    EXPECT_NE(read(file("results.pftrace")).find("vector_add"), std::string::npos);
}

#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
TEST_F(fixture, rocpd_sink_inserts_a_row_per_dispatch)
{
    cfg.rocpd        = true;
    cfg.kernel_trace = true;
    auto errors      = std::vector<std::string>{};
    {
        auto sink = rocpd_sink{cfg, data, errors};
        ASSERT_TRUE(errors.empty()) << errors.front();
        sink.dispatch(data, dispatch(1));
        sink.dispatch(data, dispatch(2));
        sink.checkpoint();
        auto written = std::vector<std::string>{};
        sink.finish(data, written, errors);
        EXPECT_TRUE(errors.empty());
        EXPECT_EQ(written, std::vector<std::string>{file("results.db").string()});
    }
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open_v2(file("results.db").c_str(), &db, SQLITE_OPEN_READONLY, nullptr),
              SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    ASSERT_EQ(
        sqlite3_prepare_v2(db, "SELECT COUNT(*) FROM rocpd_kernel_dispatch", -1, &stmt, nullptr),
        SQLITE_OK);
    ASSERT_EQ(sqlite3_step(stmt), SQLITE_ROW);
    EXPECT_EQ(sqlite3_column_int(stmt, 0), 2);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
}
#endif

// A sink that counts what it receives.
struct counting_sink final : sink
{
    int* dispatches;
    int* markers;
    int* checkpoints;
    counting_sink(int* d, int* m, int* c)
        : dispatches{d}
        , markers{m}
        , checkpoints{c}
    {
    }
    void dispatch(const results&,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t&) override
    {
        ++*dispatches;
    }
    void marker(const results&, const marker_event&) override { ++*markers; }
    void checkpoint() override { ++*checkpoints; }
};

TEST_F(fixture, fan_out_feeds_every_sink)
{
    int  d = 0, m = 0, c = 0;
    auto out = fan_out{};
    EXPECT_TRUE(out.empty());
    out.add(std::make_unique<counting_sink>(&d, &m, &c));
    out.add(std::make_unique<counting_sink>(&d, &m, &c));
    out.add(nullptr); // a format that could not be made is no sink
    out.dispatch(data, dispatch(1));
    out.marker(data, marker("m", 1, 2));
    out.memory_copy(data, {}); // received by no one: the default does nothing
    out.checkpoint();
    EXPECT_EQ(d, 2);
    EXPECT_EQ(m, 2);
    EXPECT_EQ(c, 2);
}

// -f otf2: nothing on disk until finish, then the archive's three entries; a finish that cannot
// write reports the error instead of the path.
TEST_F(fixture, otf2_sink_writes_the_archive_at_finish)
{
    if(!otf2_available()) GTEST_SKIP() << "built without OTF2 support";
    cfg.otf2    = true;
    auto errors = std::vector<std::string>{};
    auto sink   = otf2_sink{cfg, data, errors};
    ASSERT_TRUE(errors.empty()) << errors.front();
    sink.dispatch(data, dispatch(1));
    sink.marker(data, marker("range", 5, 6));
    sink.checkpoint();
    EXPECT_FALSE(std::filesystem::exists(file("results.otf2")));
    auto written = std::vector<std::string>{};
    sink.finish(data, written, errors);
    EXPECT_TRUE(errors.empty()) << errors.front();
    EXPECT_EQ(written, std::vector<std::string>{file("results.otf2").string()});
    EXPECT_TRUE(std::filesystem::is_regular_file(file("results.def")));
    EXPECT_TRUE(std::filesystem::is_directory(file("results")));

    // The archive's folder name taken by a file.
    std::filesystem::remove_all(file("results"));
    std::filesystem::remove(file("results.otf2"));
    std::filesystem::remove(file("results.def"));
    {
        auto blocker = std::ofstream{file("results")};
    }
    auto again = otf2_sink{cfg, data, errors};
    again.dispatch(data, dispatch(2));
    written.clear();
    again.finish(data, written, errors);
    EXPECT_TRUE(written.empty());
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("could not write the OTF2 archive"), std::string::npos) << errors[0];
}

TEST_F(fixture, the_factory_makes_the_four_formats)
{
    auto errors = std::vector<std::string>{};
    for(const auto* format : {"csv", "json", "pftrace"})
        EXPECT_TRUE(make_sink(format, cfg, data, errors)) << format;
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
    EXPECT_TRUE(make_sink("rocpd", cfg, data, errors));
#endif
    EXPECT_TRUE(errors.empty());
    // otf2 always has a sink; in a build without the library it says so when made.
    EXPECT_TRUE(make_sink("otf2", cfg, data, errors));
#if defined(ROCPROFILER_TOOL_HAVE_OTF2)
    EXPECT_TRUE(errors.empty());
#else
    ASSERT_EQ(errors.size(), 1u);
    EXPECT_NE(errors[0].find("built without OTF2 support"), std::string::npos) << errors[0];
#endif
    EXPECT_FALSE(make_sink("xml", cfg, data, errors));
}

TEST_F(fixture, a_run_without_formats_keeps_its_records)
{
    cfg.csv     = false;
    auto errors = std::vector<std::string>{};
    auto out    = open_sinks(cfg, data, errors);
    out.dispatch(data, dispatch(1));
    out.marker(data, marker("m", 1, 2));
    EXPECT_EQ(data.dispatches.size(), 1u);
    EXPECT_EQ(data.markers.size(), 1u);
}
} // namespace
