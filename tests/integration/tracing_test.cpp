// Integration tests: real programs (tests/programs, samples/host_demo) run as subprocesses with
// real tools (tests/tools) named in ROCP_TOOL_LIBRARIES; the files the tools and programs wrote
// are then validated field by field. CTest passes the paths of the binaries in environment
// variables (tests/CMakeLists.txt).
#include "run_support.hpp"

#include <gtest/gtest.h>

#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace
{
namespace fs = std::filesystem;
using json   = nlohmann::json;
using rocprofiler::integration::describe;
using rocprofiler::integration::make_temp_dir;
using rocprofiler::integration::read_json;
using rocprofiler::integration::read_text;
using rocprofiler::integration::required_env;
using rocprofiler::integration::run;

// Mirrors of the constants of test-tool-cxx.
constexpr uint64_t kPushedBase   = 4242;
constexpr uint64_t kUserDataBase = 1000000;
uint64_t
tool_external_id_for(uint64_t internal)
{
    return 100000 + internal;
}

constexpr int kDispatchesPerThread = 12;

std::string
test_name()
{
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    return std::string{info->test_suite_name()} + "." + info->name();
}

// One run of a program with tools; the output files live in a fresh directory.
struct session
{
    fs::path dir            = make_temp_dir(test_name());
    fs::path tool_output    = dir / "tool_cxx.json";
    fs::path tool_c_output  = dir / "tool_c.txt";
    fs::path lifecycle_base = dir / "lifecycle";
    fs::path program_output = dir / "program.json";

    std::map<std::string, std::string> env(const std::string& tool_list) const
    {
        return {{"ROCP_TOOL_LIBRARIES", tool_list},
                {"TEST_TOOL_OUTPUT", tool_output.string()},
                {"TEST_TOOL_C_OUTPUT", tool_c_output.string()},
                {"TEST_TOOL_LIFECYCLE_OUTPUT", lifecycle_base.string()},
                {"TEST_PROGRAM_OUTPUT", program_output.string()}};
    }

    fs::path lifecycle(const char* mode) const { return lifecycle_base.string() + "." + mode; }

    ~session() { fs::remove_all(dir); }
};

rocprofiler::integration::run_result
run_two_thread_program(const session& s, const std::string& tools)
{
    return run(
        {required_env("TWO_THREAD_PROGRAM"), "--dispatches", std::to_string(kDispatchesPerThread)},
        s.env(tools));
}

json
load(const fs::path& path)
{
    auto why   = std::string{};
    auto value = read_json(path, &why);
    EXPECT_TRUE(value.has_value()) << why;
    return value.value_or(json::object());
}

std::vector<json>
select(const json& records, int operation, int phase)
{
    auto out = std::vector<json>{};
    for(const auto& r : records)
        if(r.at("operation") == operation && r.at("phase") == phase) out.push_back(r);
    return out;
}

uint64_t
host_agent_id(const json& tool)
{
    for(const auto& a : tool.at("agents"))
        if(a.at("type") == ROCPROFILER_AGENT_TYPE_GPU &&
           a.at("vendor_name").get<std::string>().find("host reference device") !=
               std::string::npos)
            return a.at("id").get<uint64_t>();
    ADD_FAILURE() << "no GPU agent of the host reference device in " << tool.at("agents").dump();
    return 0;
}

// Checks every field of one dispatch_info against what the program submitted.
void
expect_dispatch_info(const json&        info,
                     const json&        submitted,
                     const json&        kernels,
                     uint64_t           queue,
                     uint64_t           agent,
                     const std::string& where)
{
    SCOPED_TRACE(where);
    const auto& kernel = kernels.at(submitted.at("kernel").get<std::string>());
    EXPECT_EQ(info.at("size"), sizeof(rocprofiler_kernel_dispatch_info_t));
    EXPECT_EQ(info.at("agent_id"), agent);
    EXPECT_EQ(info.at("queue_id"), queue);
    EXPECT_EQ(info.at("kernel_id"), submitted.at("kernel_id"));
    EXPECT_EQ(info.at("kernel_id"), kernel.at("id"));
    EXPECT_EQ(info.at("kernel_name"), submitted.at("kernel"));
    EXPECT_EQ(info.at("private_segment_size"), kernel.at("private_segment_size"));
    EXPECT_EQ(info.at("group_segment_size").get<uint64_t>(),
              kernel.at("group_segment_size").get<uint64_t>() +
                  submitted.at("dynamic_group_segment_size").get<uint64_t>());
    for(const char* d : {"x", "y", "z"})
    {
        EXPECT_EQ(info.at("workgroup_size").at(d), submitted.at("workgroup_size").at(d)) << d;
        // grid_size is in work-items: workgroups times workgroup size.
        EXPECT_EQ(info.at("grid_size").at(d).get<uint64_t>(),
                  submitted.at("grid").at(d).get<uint64_t>() *
                      submitted.at("workgroup_size").at(d).get<uint64_t>())
            << d;
    }
    EXPECT_EQ(info.at("reserved_padding_zero"), true);
}

// The common checks of a test-tool-cxx output of a two-thread-program run: every record of every
// dispatch, field by field. `expected_priority` is the tool's position in ROCP_TOOL_LIBRARIES.
void
validate_cxx_tool_on_program(const json& tool, const json& prog, uint32_t expected_priority)
{
    // ---- lifecycle ----
    EXPECT_TRUE(tool.at("errors").empty()) << tool.at("errors").dump();
    EXPECT_EQ(tool.at("configure_calls"), 1);
    EXPECT_EQ(tool.at("initialize_calls"), 1);
    EXPECT_EQ(tool.at("finalize_calls"), 1);
    const auto& conf = tool.at("configure");
    EXPECT_EQ(conf.at("priority"), expected_priority);
    EXPECT_EQ(conf.at("version"), ROCPROFILER_VERSION);
    EXPECT_EQ(conf.at("runtime_version"), ROCPROFILER_VERSION_STRING);
    EXPECT_EQ(conf.at("client_size"), sizeof(rocprofiler_client_id_t));
    EXPECT_NE(conf.at("client_handle"), 0);
    EXPECT_EQ(conf.at("is_finalized"), 0);
    const auto& init = tool.at("initialize");
    EXPECT_EQ(init.at("is_initialized"), 1);
    EXPECT_EQ(init.at("is_finalized"), 0);
    EXPECT_EQ(init.at("tool_data_ok"), true);
    EXPECT_EQ(init.at("context_valid"), 1);
    EXPECT_EQ(init.at("active_before"), 0);
    EXPECT_EQ(init.at("active_after"), 1);
    EXPECT_EQ(init.at("second_start"), "ROCPROFILER_STATUS_SUCCESS");
    const auto main_tid = prog.at("threads").at(0).at("tid").get<uint64_t>();
    // initialize runs on the thread that first used the device: the program's main thread.
    EXPECT_EQ(init.at("thread"), main_tid);
    EXPECT_EQ(conf.at("thread"), main_tid);
    EXPECT_EQ(tool.at("popped_external_id"), kPushedBase + 1);
    for(auto& [call, status] : tool.at("after_lock_status").items())
        EXPECT_EQ(status, "ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED") << call;
    const auto& fini = tool.at("finalize");
    EXPECT_EQ(fini.at("is_initialized"), 1);
    EXPECT_EQ(fini.at("is_finalized"), 1);
    EXPECT_EQ(fini.at("tool_data_ok"), true);
    EXPECT_EQ(fini.at("flush_status"), "ROCPROFILER_STATUS_SUCCESS");
    EXPECT_EQ(fini.at("start_context_status"), "ROCPROFILER_STATUS_ERROR_FINALIZED");
    EXPECT_EQ(fini.at("active_after_start"), 0);

    const auto  agent   = host_agent_id(tool);
    const auto  context = tool.at("context_id").get<uint64_t>();
    const auto  t_begin = prog.at("t_begin").get<uint64_t>();
    const auto  t_end   = prog.at("t_end").get<uint64_t>();
    const auto& kernels = prog.at("kernels");
    const auto& threads = prog.at("threads");
    const auto  init_ts = init.at("timestamp").get<uint64_t>();
    const auto  fini_ts = fini.at("timestamp").get<uint64_t>();
    EXPECT_LE(init_ts, fini_ts);

    auto program_tids = std::set<uint64_t>{};
    auto total        = size_t{0};
    for(const auto& t : threads)
    {
        program_tids.insert(t.at("tid").get<uint64_t>());
        total += t.at("dispatches").size();
    }
    ASSERT_EQ(program_tids.size(), 2u) << "the two program threads have distinct ids";
    ASSERT_EQ(total, 2u * kDispatchesPerThread);
    EXPECT_NE(threads.at(0).at("queue"), threads.at(1).at("queue")) << "one queue per thread";

    const auto& records = tool.at("callback_records");
    for(const auto& r : records)
    {
        EXPECT_EQ(r.at("kind"), ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH);
        EXPECT_EQ(r.at("context_id"), context);
        EXPECT_EQ(r.at("callback_data_ok"), true);
        EXPECT_EQ(r.at("correlation_ancestor"), 0);
        EXPECT_EQ(r.at("payload_size"),
                  sizeof(rocprofiler_callback_tracing_kernel_dispatch_data_t));
    }
    const auto enters =
        select(records, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, ROCPROFILER_CALLBACK_PHASE_ENTER);
    const auto exits =
        select(records, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, ROCPROFILER_CALLBACK_PHASE_EXIT);
    const auto completes =
        select(records, ROCPROFILER_KERNEL_DISPATCH_COMPLETE, ROCPROFILER_CALLBACK_PHASE_NONE);
    ASSERT_EQ(enters.size(), total);
    ASSERT_EQ(exits.size(), total);
    ASSERT_EQ(completes.size(), total);
    ASSERT_EQ(records.size(), 3 * total) << "no record of another operation or phase";

    // Records of each dispatch, by dispatch id; each phase exactly once.
    auto by_id = [](const std::vector<json>& list)
    {
        auto out = std::map<uint64_t, json>{};
        for(const auto& r : list)
        {
            auto id = r.at("dispatch_info").at("dispatch_id").get<uint64_t>();
            EXPECT_TRUE(out.emplace(id, r).second) << "dispatch id " << id << " seen twice";
        }
        return out;
    };
    const auto enter_of    = by_id(enters);
    const auto exit_of     = by_id(exits);
    const auto complete_of = by_id(completes);

    // Dispatch ids: unique and consecutive from 1.
    auto expected_ids = std::set<uint64_t>{};
    for(uint64_t i = 1; i <= total; ++i)
        expected_ids.insert(i);
    auto keys = [](const std::map<uint64_t, json>& m)
    {
        auto out = std::set<uint64_t>{};
        for(const auto& [k, v] : m)
            out.insert(k);
        return out;
    };
    EXPECT_EQ(keys(enter_of), expected_ids);
    EXPECT_EQ(keys(exit_of), expected_ids);
    EXPECT_EQ(keys(complete_of), expected_ids);

    // Buffer records: all delivered, one per dispatch, none dropped.
    const auto& buffered = tool.at("buffer_records");
    ASSERT_EQ(buffered.size(), total) << "LOSSLESS buffer lost or duplicated records";
    auto buffer_of = std::map<uint64_t, json>{};
    for(const auto& b : buffered)
    {
        EXPECT_EQ(b.at("category"), ROCPROFILER_BUFFER_CATEGORY_TRACING);
        EXPECT_EQ(b.at("kind"), ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
        EXPECT_EQ(b.at("record_kind"), ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
        EXPECT_EQ(b.at("operation"), ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
        EXPECT_EQ(b.at("size"), sizeof(rocprofiler_buffer_tracing_kernel_dispatch_record_t));
        auto id = b.at("dispatch_info").at("dispatch_id").get<uint64_t>();
        EXPECT_TRUE(buffer_of.emplace(id, b).second)
            << "buffer record of dispatch " << id << " twice";
    }
    EXPECT_EQ(keys(buffer_of), expected_ids);
    auto delivered        = uint64_t{0};
    auto delivery_threads = std::set<uint64_t>{};
    for(const auto& d : tool.at("buffer_deliveries"))
    {
        EXPECT_EQ(d.at("drop_count"), 0);
        EXPECT_EQ(d.at("data_ok"), true);
        EXPECT_EQ(d.at("buffer_id"), tool.at("buffer_id"));
        EXPECT_EQ(d.at("context_id"), context);
        delivered += d.at("num_headers").get<uint64_t>();
        delivery_threads.insert(d.at("thread").get<uint64_t>());
    }
    EXPECT_EQ(delivered, total);
    // The buffer holds only a few records, so a run fills it several times.
    EXPECT_GE(tool.at("buffer_deliveries").size(), 2u);
    // Every delivery on the one callback thread the tool created, never on a program thread.
    EXPECT_EQ(delivery_threads.size(), 1u);
    for(auto tid : delivery_threads)
        EXPECT_EQ(program_tids.count(tid), 0u) << "buffer delivered on a program thread";

    // External correlation requests: one per dispatch, on the submitting thread.
    auto requested = std::map<uint64_t, json>{};
    for(const auto& q : tool.at("external_requests"))
    {
        EXPECT_EQ(q.at("kind"), ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH);
        EXPECT_EQ(q.at("operation"), ROCPROFILER_KERNEL_DISPATCH_ENQUEUE);
        EXPECT_EQ(q.at("context_id"), context);
        EXPECT_EQ(q.at("data_ok"), true);
        EXPECT_EQ(q.at("thread_id"), q.at("calling_thread"));
        EXPECT_TRUE(requested.emplace(q.at("internal").get<uint64_t>(), q).second);
    }
    EXPECT_EQ(requested.size(), total);

    // Per program thread, the k-th ENQUEUE ENTER on that thread is its k-th dispatch: ENTER
    // fires synchronously inside rocprofiler_host_dispatch.
    auto internal_ids = std::set<uint64_t>{};
    auto queue_ids    = std::set<uint64_t>{};
    for(size_t t = 0; t < threads.size(); ++t)
    {
        const auto  tid       = threads.at(t).at("tid").get<uint64_t>();
        const auto  queue     = threads.at(t).at("queue").get<uint64_t>();
        const auto& submitted = threads.at(t).at("dispatches");
        auto        on_thread = std::vector<json>{};
        for(const auto& e : enters)
            if(e.at("thread_id") == tid) on_thread.push_back(e);
        ASSERT_EQ(on_thread.size(), submitted.size()) << "thread " << t;

        for(size_t k = 0; k < on_thread.size(); ++k)
        {
            auto where = "thread " + std::to_string(t) + " dispatch " + std::to_string(k);
            SCOPED_TRACE(where);
            const auto& enter    = on_thread[k];
            const auto  id       = enter.at("dispatch_info").at("dispatch_id").get<uint64_t>();
            const auto& exit     = exit_of.at(id);
            const auto& complete = complete_of.at(id);
            const auto& buffer   = buffer_of.at(id);
            const auto& sub      = submitted.at(k);

            expect_dispatch_info(enter.at("dispatch_info"), sub, kernels, queue, agent, "enter");
            // The same dispatch_info in every record of the dispatch.
            EXPECT_EQ(exit.at("dispatch_info"), enter.at("dispatch_info"));
            EXPECT_EQ(complete.at("dispatch_info"), enter.at("dispatch_info"));
            EXPECT_EQ(buffer.at("dispatch_info"), enter.at("dispatch_info"));
            queue_ids.insert(enter.at("dispatch_info").at("queue_id").get<uint64_t>());

            // ENQUEUE ENTER/EXIT: on the submitting thread, with zero timestamps.
            for(const auto* r : {&enter, &exit})
            {
                EXPECT_EQ(r->at("thread_id"), tid);
                EXPECT_EQ(r->at("callback_thread"), tid);
                EXPECT_EQ(r->at("start_timestamp"), 0);
                EXPECT_EQ(r->at("end_timestamp"), 0);
            }
            // ENTER order: EXIT is received after ENTER.
            EXPECT_LE(enter.at("received_at").get<uint64_t>(),
                      exit.at("received_at").get<uint64_t>());
            // user_data written at ENTER reaches EXIT.
            EXPECT_EQ(enter.at("user_data_in"), 0);
            EXPECT_EQ(exit.at("user_data_in"), kUserDataBase + id);

            // COMPLETE and the buffer record: the submitting thread's id, real timestamps inside
            // the program's run and the tool's lifetime.
            for(const auto* r : {&complete, &buffer})
            {
                EXPECT_EQ(r->at("thread_id"), tid);
                const auto start = r->at("start_timestamp").get<uint64_t>();
                const auto end   = r->at("end_timestamp").get<uint64_t>();
                EXPECT_GT(start, 0u);
                EXPECT_LE(start, end);
                EXPECT_LE(t_begin, start);
                EXPECT_LE(end, t_end);
                EXPECT_LE(init_ts, start);
                EXPECT_LE(end, fini_ts);
            }
            EXPECT_EQ(buffer.at("start_timestamp"), complete.at("start_timestamp"));
            EXPECT_EQ(buffer.at("end_timestamp"), complete.at("end_timestamp"));
            // The kernel ran after it was enqueued.
            EXPECT_LE(enter.at("received_at").get<uint64_t>(),
                      complete.at("start_timestamp").get<uint64_t>());

            // Correlation ids: one internal id per dispatch, the same in every record.
            const auto internal = enter.at("correlation_internal").get<uint64_t>();
            EXPECT_NE(internal, 0u);
            EXPECT_TRUE(internal_ids.insert(internal).second) << "internal id reused";
            EXPECT_EQ(exit.at("correlation_internal"), internal);
            EXPECT_EQ(complete.at("correlation_internal"), internal);
            EXPECT_EQ(buffer.at("correlation_internal"), internal);
            ASSERT_EQ(requested.count(internal), 1u) << "no external id request for " << internal;
            EXPECT_EQ(requested.at(internal).at("thread_id"), tid);

            // External ids: the request service's value for even internal ids; otherwise the top
            // of the thread's stack (the program's push, or the tool's push on the main thread).
            auto expected_external = uint64_t{0};
            if(internal % 2 == 0)
                expected_external = tool_external_id_for(internal);
            else if(auto pushed = sub.at("program_pushed").get<uint64_t>(); pushed != 0)
                expected_external = pushed;
            else if(tid == main_tid)
                expected_external = kPushedBase;
            EXPECT_EQ(requested.at(internal).at("provided"), internal % 2 == 0);
            EXPECT_EQ(enter.at("correlation_external"), expected_external);
            EXPECT_EQ(exit.at("correlation_external"), expected_external);
            EXPECT_EQ(complete.at("correlation_external"), expected_external);
            EXPECT_EQ(buffer.at("correlation_external"), expected_external);
        }
    }
    EXPECT_EQ(queue_ids.size(), 2u) << "queue ids distinct per queue";
}
} // namespace

// ---- test-tool-cxx on the two-thread program: every record of every dispatch -------------------

TEST(cxx_tool, field_by_field)
{
    auto s      = session{};
    auto result = run_two_thread_program(s, required_env("TEST_TOOL_CXX"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto prog = load(s.program_output);
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());
    EXPECT_NE(prog.at("tool_context"), 0) << "the program found the tool's exported context";
    EXPECT_EQ(prog.at("tool_context"), tool.at("context_id"));
    validate_cxx_tool_on_program(tool, prog, 0);
}

TEST(cxx_tool, queries_and_names)
{
    auto s      = session{};
    auto result = run_two_thread_program(s, required_env("TEST_TOOL_CXX"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());

    // Agents: ids unique; the host device is a GPU agent with its names filled in.
    auto ids = std::set<uint64_t>{};
    for(const auto& a : tool.at("agents"))
    {
        EXPECT_EQ(a.at("size"), sizeof(rocprofiler_agent_v0_t));
        EXPECT_NE(a.at("id"), 0);
        EXPECT_TRUE(ids.insert(a.at("id").get<uint64_t>()).second);
    }
    auto host = host_agent_id(tool);
    for(const auto& a : tool.at("agents"))
    {
        if(a.at("id") != host) continue;
        EXPECT_EQ(a.at("name"), "host");
        EXPECT_FALSE(a.at("product_name").get<std::string>().empty());
        EXPECT_GE(a.at("cu_count").get<uint64_t>(), 1u);
        EXPECT_EQ(a.at("workgroup_max_size"), 1024);
    }

    // Every kind and every operation has a non-empty name; kinds come in enum order.
    auto check_kinds = [](const json& kinds, int last, const char* what)
    {
        SCOPED_TRACE(what);
        ASSERT_EQ(kinds.size(), static_cast<size_t>(last - 1));
        auto names = std::set<std::string>{};
        for(size_t i = 0; i < kinds.size(); ++i)
        {
            const auto& k = kinds.at(i);
            EXPECT_EQ(k.at("kind"), static_cast<int>(i) + 1);
            EXPECT_EQ(k.at("status"), "ROCPROFILER_STATUS_SUCCESS");
            EXPECT_EQ(k.at("iterate_status"), "ROCPROFILER_STATUS_SUCCESS");
            const auto name = k.at("name").get<std::string>();
            EXPECT_FALSE(name.empty()) << "kind " << i + 1;
            EXPECT_EQ(k.at("length"), name.size());
            EXPECT_TRUE(names.insert(name).second) << "kind name " << name << " twice";
            for(const auto& op : k.at("operations"))
            {
                EXPECT_EQ(op.at("status"), "ROCPROFILER_STATUS_SUCCESS") << name;
                EXPECT_FALSE(op.at("name").get<std::string>().empty()) << name;
                EXPECT_EQ(op.at("length"), op.at("name").get<std::string>().size());
                // Operation 0 is NONE except in the marker kinds, whose ids are ROCTx function
                // indices from 0 (as in rocprofiler-sdk).
                if(name.rfind("MARKER_", 0) != 0)
                {
                    EXPECT_NE(op.at("operation"), 0) << "NONE is not iterated";
                }
                else
                {
                    EXPECT_GE(op.at("operation"), 0) << name;
                }
            }
        }
    };
    check_kinds(tool.at("callback_kinds"), ROCPROFILER_CALLBACK_TRACING_LAST, "callback kinds");
    check_kinds(tool.at("buffer_kinds"), ROCPROFILER_BUFFER_TRACING_LAST, "buffer kinds");

    auto ops_of = [](const json& kinds, int kind)
    {
        auto out = std::vector<std::pair<int, std::string>>{};
        for(const auto& op : kinds.at(kind - 1).at("operations"))
            out.emplace_back(op.at("operation").get<int>(), op.at("name").get<std::string>());
        return out;
    };
    const auto cb_kinds = tool.at("callback_kinds");
    EXPECT_EQ(cb_kinds.at(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH - 1).at("name"),
              "KERNEL_DISPATCH");
    EXPECT_EQ(ops_of(cb_kinds, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH),
              (std::vector<std::pair<int, std::string>>{{1, "ENQUEUE"}, {2, "COMPLETE"}}));
    EXPECT_EQ(cb_kinds.at(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY - 1).at("name"),
              "KERNEL_REPLAY");
    EXPECT_EQ(ops_of(cb_kinds, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY),
              (std::vector<std::pair<int, std::string>>{{1, "CONFIG"}, {2, "PASS"}}));
    const auto buf_kinds = tool.at("buffer_kinds");
    EXPECT_EQ(buf_kinds.at(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH - 1).at("name"),
              "KERNEL_DISPATCH");

    // Every status code has a distinct name with the prefix, and a message.
    const auto& statuses = tool.at("statuses");
    ASSERT_EQ(statuses.size(), static_cast<size_t>(ROCPROFILER_STATUS_LAST));
    auto status_names = std::set<std::string>{};
    for(const auto& st : statuses)
    {
        const auto name = st.at("name").get<std::string>();
        EXPECT_EQ(name.rfind("ROCPROFILER_STATUS_", 0), 0u) << name;
        EXPECT_TRUE(status_names.insert(name).second) << name;
        EXPECT_FALSE(st.at("string").get<std::string>().empty()) << name;
    }
    EXPECT_EQ(statuses.at(0).at("name"), "ROCPROFILER_STATUS_SUCCESS");
    EXPECT_EQ(statuses.at(ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO).at("name"),
              "ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO");
    EXPECT_EQ(statuses.at(ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED).at("name"),
              "ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED");

    EXPECT_EQ(tool.at("library_version").at("major"), ROCPROFILER_VERSION_MAJOR);
    EXPECT_EQ(tool.at("library_version").at("minor"), ROCPROFILER_VERSION_MINOR);
    EXPECT_EQ(tool.at("library_version").at("patch"), ROCPROFILER_VERSION_PATCH);
}

// ---- the demo under a tool: results stay correct, every dispatch is seen -----------------------

TEST(host_demo, correct_under_tracing)
{
    auto s      = session{};
    auto result = run({required_env("HOST_DEMO"), "--iterations", "4", "--size", "1000"},
                      s.env(required_env("TEST_TOOL_CXX")));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    EXPECT_NE(result.out.find("host_demo: OK: 4 iterations, size 1000, 20 dispatches"),
              std::string::npos)
        << result.out;
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());
    EXPECT_TRUE(tool.at("errors").empty()) << tool.at("errors").dump();
    const auto enters = select(tool.at("callback_records"),
                               ROCPROFILER_KERNEL_DISPATCH_ENQUEUE,
                               ROCPROFILER_CALLBACK_PHASE_ENTER);
    ASSERT_EQ(enters.size(), 20u);
    EXPECT_EQ(tool.at("buffer_records").size(), 20u);
    auto names  = std::map<std::string, int>{};
    auto queues = std::map<std::string, std::set<uint64_t>>{};
    for(size_t i = 0; i < enters.size(); ++i)
    {
        const auto& info = enters[i].at("dispatch_info");
        // One submitting thread: ids in submission order.
        EXPECT_EQ(info.at("dispatch_id"), i + 1);
        const auto name = info.at("kernel_name").get<std::string>();
        ++names[name];
        queues[name].insert(info.at("queue_id").get<uint64_t>());
        EXPECT_EQ(info.at("workgroup_size").at("x"), 64);
        EXPECT_EQ(info.at("grid_size").at("x"), 16 * 64) << "ceil(1000 / 64) workgroups of 64";
        EXPECT_EQ(info.at("group_segment_size"), name == "histogram" ? 64 : 0);
    }
    EXPECT_EQ(names,
              (std::map<std::string, int>{{"vector_add", 4},
                                          {"saxpy", 4},
                                          {"accumulate", 4},
                                          {"histogram", 4},
                                          {"scale_inplace", 4}}));
    EXPECT_EQ(queues["vector_add"], queues["accumulate"]);
    EXPECT_NE(queues["vector_add"], queues["histogram"]);
}

TEST(host_demo, runs_without_tool_and_rejects_bad_options)
{
    auto ok = run({required_env("HOST_DEMO"), "--iterations", "2"}, {{"ROCP_TOOL_LIBRARIES", ""}});
    EXPECT_EQ(ok.exit_code, 0) << describe(ok);
    auto bad = run({required_env("HOST_DEMO"), "--size", "0"}, {{"ROCP_TOOL_LIBRARIES", ""}});
    EXPECT_EQ(bad.exit_code, 2) << describe(bad);
    EXPECT_NE(bad.err.find("invalid --size"), std::string::npos) << bad.err;
}

// ---- ROCP_TOOL_LIBRARIES parsing and priorities ---------------------------------------------

TEST(tool_list, trailing_colon_and_empty_entries)
{
    for(const auto& pattern : {std::string{"%:"}, std::string{"::%::"}})
    {
        SCOPED_TRACE(pattern);
        auto s     = session{};
        auto tools = pattern;
        tools.replace(tools.find('%'), 1, required_env("TEST_TOOL_CXX"));
        auto result = run_two_thread_program(s, tools);
        ASSERT_EQ(result.exit_code, 0) << describe(result);
        auto tool = load(s.tool_output);
        ASSERT_FALSE(tool.empty());
        EXPECT_EQ(tool.at("configure").at("priority"), 0);
        EXPECT_EQ(tool.at("callback_records").size(), 3u * 2 * kDispatchesPerThread);
    }
}

TEST(tool_list, duplicate_entry_configured_once)
{
    auto s      = session{};
    auto cxx    = required_env("TEST_TOOL_CXX");
    auto result = run_two_thread_program(s, cxx + ":" + cxx);
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());
    EXPECT_EQ(tool.at("configure_calls"), 1);
    EXPECT_EQ(tool.at("configure").at("priority"), 0);
    EXPECT_EQ(tool.at("buffer_records").size(), 2u * kDispatchesPerThread);
}

TEST(tool_list, unloadable_entry_is_skipped)
{
    auto s = session{};
    auto result =
        run_two_thread_program(s, "/nonexistent/libnothing.so:" + required_env("TEST_TOOL_CXX"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());
    EXPECT_EQ(tool.at("configure").at("priority"), 0)
        << "a library that fails to load is no client";
    EXPECT_EQ(tool.at("buffer_records").size(), 2u * kDispatchesPerThread);
}

// The last entry is loaded too; priorities follow the list; both tools see every dispatch.
TEST(tool_list, last_entry_loaded_with_priority_order)
{
    auto s      = session{};
    auto result = run_two_thread_program(
        s, required_env("TEST_TOOL_DECLINE") + ":" + required_env("TEST_TOOL_CXX"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto prog  = load(s.program_output);
    auto tool  = load(s.tool_output);
    auto first = load(s.lifecycle("decline"));
    ASSERT_FALSE(tool.empty());
    ASSERT_FALSE(first.empty());
    EXPECT_EQ(first.at("priority"), 0);
    EXPECT_EQ(first.at("declined"), false);
    EXPECT_EQ(first.at("initialize_calls"), 1);
    EXPECT_EQ(first.at("finalize_calls"), 1);
    EXPECT_EQ(first.at("enqueue_enters"), 2 * kDispatchesPerThread);
    EXPECT_NE(first.at("context_id"), tool.at("context_id"));
    // The second tool: full validation at priority 1.
    validate_cxx_tool_on_program(tool, prog, 1);
}

TEST(tool_list, secondary_tool_declines)
{
    auto s      = session{};
    auto result = run_two_thread_program(
        s, required_env("TEST_TOOL_CXX") + ":" + required_env("TEST_TOOL_DECLINE"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto prog     = load(s.program_output);
    auto tool     = load(s.tool_output);
    auto declined = load(s.lifecycle("decline"));
    ASSERT_FALSE(declined.empty());
    EXPECT_EQ(declined.at("priority"), 1);
    EXPECT_EQ(declined.at("declined"), true);
    EXPECT_EQ(declined.at("configure_calls"), 1);
    EXPECT_EQ(declined.at("initialize_calls"), 0) << "a NULL configure result deactivates";
    EXPECT_EQ(declined.at("finalize_calls"), 0);
    EXPECT_EQ(declined.at("callbacks"), 0);
    validate_cxx_tool_on_program(tool, prog, 0);
}

// ---- lifecycle --------------------------------------------------------------------------------

TEST(lifecycle, initialize_failure_deactivates)
{
    auto s      = session{};
    auto result = run_two_thread_program(
        s, required_env("TEST_TOOL_INIT_FAIL") + ":" + required_env("TEST_TOOL_CXX"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto failed = load(s.lifecycle("init_fail"));
    ASSERT_FALSE(failed.empty());
    EXPECT_EQ(failed.at("priority"), 0);
    EXPECT_EQ(failed.at("initialize_calls"), 1);
    // Inside its initialize everything succeeded, including the start...
    EXPECT_EQ(failed.at("create_context"), "ROCPROFILER_STATUS_SUCCESS");
    EXPECT_EQ(failed.at("configure"), "ROCPROFILER_STATUS_SUCCESS");
    EXPECT_EQ(failed.at("start_context"), "ROCPROFILER_STATUS_SUCCESS");
    // ...but the failure deactivated it: nothing was ever delivered.
    EXPECT_EQ(failed.at("callbacks"), 0);
    EXPECT_EQ(failed.at("active_at_exit"), 0);
    EXPECT_EQ(failed.at("valid_at_exit"), 0);
    EXPECT_EQ(failed.at("sdk_finalized_at_exit"), 1);
    // The other tool is unaffected.
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());
    EXPECT_EQ(tool.at("configure").at("priority"), 1);
    EXPECT_EQ(tool.at("buffer_records").size(), 2u * kDispatchesPerThread);
    EXPECT_EQ(tool.at("callback_records").size(), 3u * 2 * kDispatchesPerThread);
}

// fini_func called from a callback: the tool is finalized then, once, and never again at exit;
// nothing is delivered to it afterwards; the SDK itself is not finalized by it.
TEST(lifecycle, early_finalize_runs_once)
{
    auto s = session{};
    // host_demo submits from one thread, so "the 3rd dispatch" is deterministic.
    auto result = run({required_env("HOST_DEMO"), "--iterations", "3", "--size", "500"},
                      s.env(required_env("TEST_TOOL_EARLY_FINI")));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto doc = load(s.lifecycle("early_fini"));
    ASSERT_FALSE(doc.empty());
    EXPECT_EQ(doc.at("initialize_calls"), 1);
    EXPECT_EQ(doc.at("finalize_calls"), 1) << "finalize must run exactly once";
    EXPECT_EQ(doc.at("fini_called_at_dispatch"), 3);
    EXPECT_EQ(doc.at("enqueue_enters"), 3);
    EXPECT_EQ(doc.at("enqueue_enters_at_finalize"), 3);
    EXPECT_EQ(doc.at("dispatch_ids"), (json::array({1, 2, 3})));
    EXPECT_TRUE(doc.at("callbacks_after_fini").empty())
        << "callbacks after the tool's finalize: " << doc.at("callbacks_after_fini").dump();
    EXPECT_EQ(doc.at("is_finalized_in_finalize"), 0) << "only the client was finalized";
    EXPECT_EQ(doc.at("sdk_finalized_after_fini"), 0);
    EXPECT_EQ(doc.at("active_after_fini"), 0);
    EXPECT_EQ(doc.at("restart_after_fini"), "ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID");
    EXPECT_EQ(doc.at("sdk_finalized_at_exit"), 1);
}

// ---- the C tool -------------------------------------------------------------------------------

namespace
{
// "key=value key=value" after a leading word.
std::map<std::string, std::string>
fields(const std::string& line)
{
    auto out = std::map<std::string, std::string>{};
    auto in  = std::istringstream{line};
    auto tok = std::string{};
    in >> tok;
    while(in >> tok)
    {
        auto eq = tok.find('=');
        if(eq != std::string::npos) out[tok.substr(0, eq)] = tok.substr(eq + 1);
    }
    return out;
}

uint64_t
num(const std::map<std::string, std::string>& f, const char* key)
{
    auto itr = f.find(key);
    EXPECT_NE(itr, f.end()) << key;
    return itr == f.end() ? 0 : std::stoull(itr->second);
}

std::string
dim(const json& d)
{
    return std::to_string(d.at("x").get<uint64_t>()) + "," +
           std::to_string(d.at("y").get<uint64_t>()) + "," +
           std::to_string(d.at("z").get<uint64_t>());
}

std::string
grid_items(const json& sub)
{
    auto g = sub.at("grid");
    auto w = sub.at("workgroup_size");
    return std::to_string(g.at("x").get<uint64_t>() * w.at("x").get<uint64_t>()) + "," +
           std::to_string(g.at("y").get<uint64_t>() * w.at("y").get<uint64_t>()) + "," +
           std::to_string(g.at("z").get<uint64_t>() * w.at("z").get<uint64_t>());
}

void
validate_c_tool(const fs::path& path, const json& prog, uint32_t expected_priority)
{
    auto text = read_text(path);
    ASSERT_FALSE(text.empty()) << path << " was not written";
    auto lines = std::vector<std::string>{};
    auto in    = std::istringstream{text};
    for(auto line = std::string{}; std::getline(in, line);)
        lines.push_back(line);
    ASSERT_GE(lines.size(), 3u);
    EXPECT_EQ(lines.front(), "tool test-tool-c priority=" + std::to_string(expected_priority));
    EXPECT_EQ(lines.back(), "end");

    const auto total  = 2u * kDispatchesPerThread;
    auto       counts = fields(lines.at(1));
    EXPECT_EQ(num(counts, "enqueue_enter"), total);
    EXPECT_EQ(num(counts, "enqueue_exit"), total);
    EXPECT_EQ(num(counts, "complete"), total);
    EXPECT_EQ(num(counts, "buffer"), total);
    EXPECT_EQ(num(counts, "drops"), 0u);
    EXPECT_EQ(num(counts, "overflow"), 0u);

    // ENQUEUE ENTER lines per thread, in order: the k-th is the thread's k-th dispatch.
    auto enter_ids  = std::map<uint64_t, std::vector<uint64_t>>{}; // tid -> dispatch ids
    auto enter_corr = std::map<uint64_t, uint64_t>{};              // dispatch id -> internal
    auto bufs       = std::map<uint64_t, std::map<std::string, std::string>>{};
    for(const auto& line : lines)
    {
        if(line.rfind("cb ", 0) == 0)
        {
            auto f = fields(line);
            if(num(f, "op") == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE &&
               num(f, "phase") == ROCPROFILER_CALLBACK_PHASE_ENTER)
            {
                enter_ids[num(f, "thread")].push_back(num(f, "dispatch_id"));
                enter_corr[num(f, "dispatch_id")] = num(f, "corr");
                EXPECT_EQ(num(f, "start"), 0u);
            }
        }
        else if(line.rfind("buf ", 0) == 0)
        {
            auto f = fields(line);
            EXPECT_TRUE(bufs.emplace(num(f, "dispatch_id"), f).second) << line;
        }
        else if(line.rfind("name ", 0) == 0)
        {
            EXPECT_EQ(line, "name kind=KERNEL_DISPATCH enqueue=ENQUEUE complete=COMPLETE");
        }
    }
    ASSERT_EQ(bufs.size(), total);
    EXPECT_EQ(bufs.begin()->first, 1u);
    EXPECT_EQ(bufs.rbegin()->first, total) << "dispatch ids consecutive from 1";

    const auto t_begin = prog.at("t_begin").get<uint64_t>();
    const auto t_end   = prog.at("t_end").get<uint64_t>();
    for(const auto& t : prog.at("threads"))
    {
        const auto  tid = t.at("tid").get<uint64_t>();
        const auto& ids = enter_ids[tid];
        ASSERT_EQ(ids.size(), t.at("dispatches").size());
        for(size_t k = 0; k < ids.size(); ++k)
        {
            SCOPED_TRACE("thread " + std::to_string(tid) + " dispatch " + std::to_string(k));
            const auto& sub    = t.at("dispatches").at(k);
            const auto& kernel = prog.at("kernels").at(sub.at("kernel").get<std::string>());
            const auto& f      = bufs.at(ids[k]);
            EXPECT_EQ(num(f, "kernel_id"), sub.at("kernel_id").get<uint64_t>());
            EXPECT_EQ(num(f, "queue_id"), t.at("queue").get<uint64_t>());
            EXPECT_NE(num(f, "agent_id"), 0u);
            EXPECT_EQ(f.at("wg"), dim(sub.at("workgroup_size")));
            EXPECT_EQ(f.at("grid"), grid_items(sub));
            EXPECT_EQ(num(f, "private"), kernel.at("private_segment_size").get<uint64_t>());
            EXPECT_EQ(num(f, "group"),
                      kernel.at("group_segment_size").get<uint64_t>() +
                          sub.at("dynamic_group_segment_size").get<uint64_t>());
            EXPECT_EQ(num(f, "thread"), tid);
            EXPECT_EQ(num(f, "corr"), enter_corr.at(ids[k]));
            EXPECT_EQ(num(f, "kind"), ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH);
            EXPECT_EQ(num(f, "op"), ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
            EXPECT_LE(t_begin, num(f, "start"));
            EXPECT_LE(num(f, "start"), num(f, "end"));
            EXPECT_LE(num(f, "end"), t_end);
        }
    }
}
} // namespace

TEST(c_tool, records_field_by_field)
{
    auto s      = session{};
    auto result = run_two_thread_program(s, required_env("TEST_TOOL_C"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto prog = load(s.program_output);
    EXPECT_EQ(prog.at("tool_context"), 0) << "test-tool-cxx is not loaded";
    validate_c_tool(s.tool_c_output, prog, 0);
}

// Two tools in one process: each has its own context and receives every dispatch.
TEST(c_tool, alongside_cxx_tool)
{
    auto s      = session{};
    auto result = run_two_thread_program(
        s, required_env("TEST_TOOL_C") + ":" + required_env("TEST_TOOL_CXX"));
    ASSERT_EQ(result.exit_code, 0) << describe(result);
    auto prog = load(s.program_output);
    auto tool = load(s.tool_output);
    ASSERT_FALSE(tool.empty());
    validate_c_tool(s.tool_c_output, prog, 0);
    validate_cxx_tool_on_program(tool, prog, 1);
}
