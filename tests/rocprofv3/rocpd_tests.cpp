// Unit tests of the rocpd writer (rocpd_writer.hpp): AMD's layout (tables named with the run's
// UUID, AMD's metadata, every copy and dispatch visible through AMD's views), a process that ends
// in the middle of a batch leaves a valid database with every committed batch, a kernel trace
// record replaces the row a counter record made first, and the end of the run (outcomes, how it
// ended) is written by finish().
#include "rocpd/rocpd_writer.hpp"
#include "rocpd/run_uuid.hpp"
#include "scratch_dir.hpp"

#include <rocprofiler-sdk/experimental/graph.h>

#include <gtest/gtest.h>
#include <sqlite3.h>

#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>

namespace fs   = std::filesystem;
namespace tool = rocprofiler::tool;

namespace
{
struct scratch : rocprofv3_test::scratch_dir
{
    scratch()
        : scratch_dir{"rocprofv3-rocpd-"}
    {
    }
};

tool::results
one_gpu()
{
    auto data                  = tool::results{};
    data.pid                   = 1234;
    data.init_time             = 100;
    auto agent                 = tool::agent_entry{};
    agent.info.id.handle       = 42;
    agent.info.type            = ROCPROFILER_AGENT_TYPE_GPU;
    agent.info.logical_node_id = 0;
    agent.name                 = "host-gpu";
    data.agents.push_back(agent);
    auto sym               = tool::kernel_symbol{};
    sym.kernel_id          = 7;
    sym.name               = "vector_add";
    data.kernel_symbols[7] = sym;
    return data;
}

rocprofiler_buffer_tracing_kernel_dispatch_record_t
trace_record(uint64_t dispatch_id)
{
    auto r                          = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    r.thread_id                     = 11;
    r.start_timestamp               = 1000 * dispatch_id;
    r.end_timestamp                 = 1000 * dispatch_id + 500;
    r.dispatch_info.dispatch_id     = dispatch_id;
    r.dispatch_info.agent_id.handle = 42;
    r.dispatch_info.kernel_id       = 7;
    r.dispatch_info.queue_id.handle = 3;
    r.dispatch_info.grid_size       = {64, 1, 1};
    r.dispatch_info.workgroup_size  = {16, 1, 1};
    return r;
}

std::string
scalar(const std::string& path, const std::string& sql)
{
    sqlite3* db = nullptr;
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READWRITE, nullptr), SQLITE_OK);
    sqlite3_stmt* stmt = nullptr;
    EXPECT_EQ(sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, nullptr), SQLITE_OK)
        << sqlite3_errmsg(db);
    auto out = std::string{"(no row)"};
    if(sqlite3_step(stmt) == SQLITE_ROW)
    {
        const auto* text = sqlite3_column_text(stmt, 0);
        out              = text != nullptr ? reinterpret_cast<const char*>(text) : "NULL";
    }
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return out;
}
} // namespace

// The child commits 10 dispatches, inserts 1000 more in an open batch (large enough to spill
// pages into the journal) and ends with _exit: opened again, the database holds exactly the
// committed 10 and passes integrity_check.
TEST(rocpd, a_process_ended_mid_batch_leaves_the_committed_batches)
{
    auto dir  = scratch{};
    auto path = (dir.path / "run_results.db").string();
    auto pid  = fork();
    ASSERT_GE(pid, 0);
    if(pid == 0)
    {
        auto data   = one_gpu();
        auto writer = tool::rocpd_writer{};
        if(!writer.open(path, data)) _exit(2);
        for(uint64_t i = 1; i <= 10; ++i)
            writer.dispatch(data, trace_record(i));
        writer.commit();
        for(uint64_t i = 11; i <= 1010; ++i)
            writer.dispatch(data, trace_record(i));
        _exit(writer.error().empty() ? 0 : 3);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    ASSERT_TRUE(WIFEXITED(status));
    ASSERT_EQ(WEXITSTATUS(status), 0);
    EXPECT_EQ(scalar(path, "PRAGMA integrity_check"), "ok");
    EXPECT_EQ(scalar(path, "SELECT COUNT(*) FROM rocpd_kernel_dispatch"), "10");
    EXPECT_EQ(scalar(path, "SELECT COUNT(*) FROM kernels WHERE name = 'vector_add'"), "10");
    EXPECT_EQ(scalar(path, "SELECT MAX(dispatch_id) FROM kernels"), "10");
}

TEST(rocpd, a_kernel_trace_record_replaces_the_row_of_an_earlier_counter_record)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.db").string();
    auto data   = one_gpu();
    auto writer = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    auto rec                 = tool::counter_dispatch{};
    rec.data.dispatch_info   = trace_record(1).dispatch_info;
    rec.data.start_timestamp = 1;
    rec.data.end_timestamp   = 2;
    rec.thread_id            = 99;
    rec.replay_pass          = 1;
    rec.values.push_back(tool::counter_value{5, "WORK_ITEMS", 64.0});
    writer.counters(data, rec);
    writer.dispatch(data, trace_record(1));
    // A second trace record of the dispatch (a replay pass) keeps the row, adds its times.
    auto pass            = trace_record(1);
    pass.start_timestamp = 3000;
    pass.end_timestamp   = 3400;
    writer.dispatch(data, pass);
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;
    EXPECT_EQ(scalar(path, "SELECT tid || ' ' || start || ' ' || \"end\" FROM kernels"),
              "11 1000 1500");
    EXPECT_EQ(scalar(path,
                     "SELECT json_extract(extdata, '$.kernel_trace_records') FROM "
                     "rocpd_kernel_dispatch"),
              "[{\"start\":3000,\"end\":3400}]");
    EXPECT_EQ(scalar(path, "SELECT json_extract(extdata, '$.source') FROM rocpd_kernel_dispatch"),
              "kernel_trace");
    EXPECT_EQ(scalar(path, "SELECT counter_name || '=' || value FROM counters_collection"),
              "WORK_ITEMS=64.0");
    EXPECT_EQ(scalar(path, "SELECT json_extract(extdata, '$.replay_pass') FROM rocpd_pmc_event"),
              "1");
    // The counter record's own thread and times stay, for counter_collection.csv.
    EXPECT_EQ(scalar(path,
                     "SELECT json_extract(extdata, '$.counter_records') FROM "
                     "rocpd_kernel_dispatch"),
              "[{\"tid\":99,\"start\":1,\"end\":2,\"replay_pass\":1}]");
}

// counter_collection.csv shows each counter record's thread and times; the dispatch's row holds
// one record's. A counter record that finds the row made (by the kernel trace record or another
// pass) adds its thread and times to counter_records when they are not the row's, and only then.
TEST(rocpd, a_counter_record_after_the_row_keeps_its_thread_and_times)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.db").string();
    auto data   = one_gpu();
    auto writer = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    writer.dispatch(data, trace_record(1));
    writer.dispatch(data, trace_record(2));
    auto rec                 = tool::counter_dispatch{};
    rec.data.dispatch_info   = trace_record(1).dispatch_info;
    rec.data.start_timestamp = 1000;
    rec.data.end_timestamp   = 1500;
    rec.thread_id            = 12; // the completing thread, not the submitting one (11)
    rec.values.push_back(tool::counter_value{5, "WORK_ITEMS", 64.0});
    writer.counters(data, rec);
    // Dispatch 2's counter record has the trace record's thread and times: nothing to keep.
    auto same                 = rec;
    same.data.dispatch_info   = trace_record(2).dispatch_info;
    same.data.start_timestamp = 2000;
    same.data.end_timestamp   = 2500;
    same.thread_id            = 11;
    writer.counters(data, same);
    // Under kernel replay, passes 0 and 1 of dispatch 3 with counters only: pass 0 makes the row,
    // pass 1 (later times) is kept with its pass.
    auto pass0                 = rec;
    pass0.data.dispatch_info   = trace_record(3).dispatch_info;
    pass0.data.start_timestamp = 3000;
    pass0.data.end_timestamp   = 3500;
    pass0.replay_pass          = 0;
    writer.counters(data, pass0);
    auto pass1                 = pass0;
    pass1.data.start_timestamp = 4000;
    pass1.data.end_timestamp   = 4600;
    pass1.replay_pass          = 1;
    pass1.values               = {tool::counter_value{6, "DURATION_NS", 600.0}};
    writer.counters(data, pass1);
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;
    const auto kept = [&](int id)
    {
        return scalar(path,
                      "SELECT json_extract(extdata, '$.counter_records') FROM "
                      "rocpd_kernel_dispatch WHERE id = " +
                          std::to_string(id));
    };
    EXPECT_EQ(kept(1), "[{\"tid\":12,\"start\":1000,\"end\":1500}]");
    EXPECT_EQ(kept(2), "NULL");
    EXPECT_EQ(kept(3), "[{\"tid\":12,\"start\":4000,\"end\":4600,\"replay_pass\":1}]");
    EXPECT_EQ(
        scalar(path, "SELECT tid || ' ' || start || ' ' || \"end\" FROM kernels WHERE id = 3"),
        "12 3000 3500");
}

TEST(rocpd, replay_outcomes_are_rows_and_finish_writes_how_the_run_ended)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.db").string();
    auto data   = one_gpu();
    auto writer = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    auto o        = tool::replay_outcome{};
    o.dispatch_id = 3;
    o.agent       = data.agents[0].info.id;
    o.kernel_id   = 7;
    o.kind        = ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED;
    o.reason      = "footprint_budget";
    writer.replay_outcome(data, o, {1, 2});
    data.end   = tool::run_end{tool::run_end::signal, 11};
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;
    EXPECT_EQ(scalar(path,
                     "SELECT outcome || ':' || reason || ':' || dispatch_id FROM "
                     "rocprofv3_kernel_replay_outcome"),
              "DECLINED:footprint_budget:3");
    EXPECT_EQ(scalar(path,
                     "SELECT json_array_length(missing_groups) FROM "
                     "rocprofv3_kernel_replay_outcome"),
              "2");
    EXPECT_EQ(scalar(path,
                     "SELECT json_extract(extdata, '$.end.kind') || ' ' || "
                     "json_extract(extdata, '$.end.signal') FROM rocpd_info_process"),
              "signal 11");
}

// Marker rows are upstream's regions: the function as the name, the domain as the category, the
// row's correlation id, thread and times; their events do not meet a dispatch's.
TEST(rocpd, marker_rows_are_regions)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.db").string();
    auto data   = one_gpu();
    auto writer = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    writer.dispatch(data, trace_record(1));
    auto e           = tool::marker_event{};
    e.domain         = "MARKER_CORE_API";
    e.function       = "step 1";
    e.thread_id      = 77;
    e.correlation_id = 5;
    e.start          = 100;
    e.end            = 250;
    writer.marker(data, e);
    e.function       = "mark";
    e.correlation_id = 6;
    e.start          = 300;
    e.end            = 300;
    writer.marker(data, e);
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;
    EXPECT_EQ(scalar(path, "SELECT COUNT(*) FROM rocpd_region"), "2");
    EXPECT_EQ(scalar(path,
                     "SELECT category || ':' || name || ':' || tid || ':' || corr_id || ':' || "
                     "start || ':' || \"end\" || ':' || duration FROM regions ORDER BY start "
                     "LIMIT 1"),
              "MARKER_CORE_API:step 1:77:5:100:250:150");
    EXPECT_EQ(scalar(path, "SELECT duration FROM regions WHERE name = 'mark'"), "0");
    EXPECT_EQ(scalar(path, "SELECT COUNT(*) FROM kernels"), "1");
    EXPECT_EQ(scalar(path, "SELECT COUNT(*) FROM rocpd_event"), "3");
}

// A child forked without exec has the tool's state, its writer included; SQLite connections must
// not cross fork(), so the child's records are not written into the parent's database.
TEST(rocpd, a_forked_child_does_not_write_the_parents_database)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.db").string();
    auto data   = one_gpu();
    auto writer = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    auto pid = fork();
    ASSERT_GE(pid, 0);
    if(pid == 0)
    {
        writer.dispatch(data, trace_record(1));
        writer.commit();
        _exit(0);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    writer.dispatch(data, trace_record(2));
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;
    EXPECT_EQ(scalar(path, "SELECT group_concat(dispatch_id) FROM rocpd_kernel_dispatch"), "2");
}

// A CUDA graph's kernel node (experimental/graph.h's layout in the dispatch info's padding): its
// row's extdata names the graph and the node; a launched dispatch's has neither.
TEST(rocpd, a_graph_nodes_ids_are_in_its_rows_extdata)
{
    auto dir    = scratch{};
    auto path   = (dir.path / "run_results.db").string();
    auto data   = one_gpu();
    auto writer = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    writer.dispatch(data, trace_record(1));
    auto           node    = trace_record(2);
    const uint64_t words[] = {ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER, 9, 44};
    std::memcpy(node.dispatch_info.reserved_padding, words, sizeof(words));
    writer.dispatch(data, node);
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;
    EXPECT_EQ(scalar(path,
                     "SELECT json_extract(extdata, '$.graph_id') || '/' || "
                     "json_extract(extdata, '$.graph_node_id') FROM rocpd_kernel_dispatch "
                     "WHERE dispatch_id = 2"),
              "9/44");
    EXPECT_EQ(scalar(path,
                     "SELECT COUNT(*) FROM rocpd_kernel_dispatch WHERE dispatch_id = 1 AND "
                     "json_extract(extdata, '$.graph_id') IS NULL"),
              "1");
}

// The run's UUID: version 7, variant 10, the time in its first 48 bits, the table suffix its
// digits with '_' for '-'; two processes' UUIDs differ.
TEST(rocpd, the_run_uuid_is_a_version_7_uuid_and_names_the_suffix)
{
    auto random = std::array<uint8_t, 10>{};
    random.fill(0xff);
    const auto uuid = tool::rocpd::format_run_uuid(0x0190b5e26c1dULL, random);
    EXPECT_EQ(uuid, "0190b5e2-6c1d-7fff-bfff-ffffffffffff");
    EXPECT_EQ(tool::rocpd::run_table_suffix(uuid), "_0190b5e2_6c1d_7fff_bfff_ffffffffffff");
    const auto a = tool::rocpd::new_run_uuid();
    const auto b = tool::rocpd::new_run_uuid();
    EXPECT_NE(a, b);
    ASSERT_EQ(a.size(), 36U);
    EXPECT_EQ(a[14], '7');
    EXPECT_NE(std::string{"89ab"}.find(a[19]), std::string::npos) << a;
}

// AMD's layout: every table carries the suffix rocpd_metadata's uuid names, the metadata holds
// schema_version 3, uuid and guid (AMD's three) before this writer's tags, every row's guid is
// the UUID, and a copy from or to host memory has the host's CPU agent as that side, so that
// AMD's memory_copies view (which needs both agents) shows it.
TEST(rocpd, the_database_has_amds_layout)
{
    auto dir                 = scratch{};
    auto path                = (dir.path / "run_results.db").string();
    auto data                = one_gpu();
    auto co                  = tool::code_object_entry{};
    co.id                    = 1;
    co.agent.handle          = 42;
    co.uri                   = "file:///demo";
    data.code_objects[co.id] = co;
    auto writer              = tool::rocpd_writer{};
    ASSERT_TRUE(writer.open(path, data)) << writer.error();
    writer.dispatch(data, trace_record(1));
    auto copy                = rocprofiler_buffer_tracing_memory_copy_record_t{};
    copy.thread_id           = 11;
    copy.start_timestamp     = 10;
    copy.end_timestamp       = 20;
    copy.bytes               = 4096;
    copy.operation           = ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE;
    copy.dst_agent_id.handle = 42;
    writer.memory_copy(data, copy);
    auto error = std::string{};
    ASSERT_TRUE(writer.finish(data, error)) << error;

    const auto guid   = scalar(path, "SELECT value FROM rocpd_metadata WHERE tag = 'guid'");
    const auto suffix = scalar(path, "SELECT value FROM rocpd_metadata WHERE tag = 'uuid'");
    EXPECT_EQ(suffix, tool::rocpd::run_table_suffix(guid));
    EXPECT_EQ(scalar(path,
                     "SELECT group_concat(tag, ',') FROM (SELECT tag FROM rocpd_metadata "
                     "ORDER BY id LIMIT 3)"),
              "schema_version,uuid,guid");
    EXPECT_EQ(scalar(path, "SELECT value FROM rocpd_metadata WHERE tag = 'schema_version'"), "3");
    EXPECT_EQ(scalar(path,
                     "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name LIKE "
                     "'rocpd%' AND substr(name, -length('" +
                         suffix + "')) != '" + suffix + "'"),
              "0");
    EXPECT_EQ(
        scalar(path,
               "SELECT type FROM sqlite_master WHERE name = 'rocpd_kernel_dispatch" + suffix + "'"),
        "table");
    EXPECT_EQ(scalar(path, "SELECT type FROM sqlite_master WHERE name = 'rocpd_kernel_dispatch'"),
              "view");
    EXPECT_EQ(scalar(path, "SELECT COUNT(DISTINCT guid) || guid FROM rocpd_kernel_dispatch"),
              "1" + guid);
    EXPECT_EQ(scalar(path, "SELECT name || ':' || region || ':' || grid_x FROM kernels"),
              "vector_add:vector_add:64");
    EXPECT_EQ(scalar(path,
                     "SELECT name || ':' || src_device || ':' || src_agent_type || ':' || "
                     "dst_agent_type || ':' || size FROM memory_copies"),
              "MEMORY_COPY_HOST_TO_DEVICE:host:CPU:GPU:4096");
    EXPECT_EQ(scalar(path, "SELECT total_calls FROM top WHERE name = 'vector_add'"), "1");
    // A code object's agent is the agent's row, as every reference to an agent.
    EXPECT_EQ(scalar(path, "SELECT uri || ':' || agent_abs_index FROM code_objects"),
              "file:///demo:0");
}
