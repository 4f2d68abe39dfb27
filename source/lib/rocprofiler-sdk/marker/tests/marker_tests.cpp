// Marker tracing (ROCPROFILER_*_TRACING_MARKER_CORE_API, _CONTROL_API, _NAME_API) of the calls a
// program makes to librocprofiler-sdk-roctx: callback records with arguments at ENTER and return
// values at EXIT, one buffer record per call, one correlation id per call, the operation filter,
// external correlation ids, ROCTx's documented results with and without tracing, and a context
// whose callback throws is stopped while the program's calls go on.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk-roctx/api_trace.h>
#include <rocprofiler-sdk-roctx/roctx.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstddef>
#include <cstring>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace
{
struct call_seen
{
    rocprofiler_callback_tracing_kind_t kind      = ROCPROFILER_CALLBACK_TRACING_NONE;
    int32_t                             operation = -1;
    rocprofiler_callback_phase_t        phase     = ROCPROFILER_CALLBACK_PHASE_NONE;
    uint64_t                            internal  = 0;
    uint64_t                            external  = 0;
    uint64_t                            thread    = 0;
    std::string                         message   = {};
    uint64_t                            range_id  = 0; // roctxRangeStop's argument
    rocprofiler_marker_api_retval_t     retval    = {};
    uint64_t                            user      = 0; // user_data seen at this phase
};

struct collected
{
    std::mutex                                                  mutex   = {};
    std::vector<call_seen>                                      calls   = {};
    std::vector<rocprofiler_buffer_tracing_marker_api_record_t> records = {};
};

collected&
seen()
{
    static auto* value = new collected{};
    return *value;
}

std::string
message_of(int32_t kind, int32_t op, const rocprofiler_marker_api_args_t& args)
{
    const char* text = nullptr;
    if(kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API)
    {
        if(op == ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA) text = args.roctxMarkA.message;
        if(op == ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA)
            text = args.roctxRangePushA.message;
        if(op == ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA)
            text = args.roctxRangeStartA.message;
    }
    if(kind == ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API &&
       op == ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread)
        text = args.roctxNameOsThread.name;
    return text != nullptr ? std::string{text} : std::string{};
}

void
on_marker(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t* user, void*)
{
    const auto* data =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
    auto c      = call_seen{};
    c.kind      = record.kind;
    c.operation = record.operation;
    c.phase     = record.phase;
    c.internal  = record.correlation_id.internal;
    c.external  = record.correlation_id.external.value;
    c.thread    = record.thread_id;
    c.message   = message_of(record.kind, record.operation, data->args);
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API &&
       record.operation == ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop)
        c.range_id = data->args.roctxRangeStop.id;
    c.retval = data->retval;
    // user_data is kept from ENTER to EXIT of one call
    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        user->value = record.correlation_id.internal;
    c.user    = user->value;
    auto lock = std::lock_guard{seen().mutex};
    seen().calls.push_back(c);
}

void
collect(rocprofiler_context_id_t,
        rocprofiler_buffer_id_t,
        rocprofiler_record_header_t** headers,
        size_t                        count,
        void*,
        uint64_t)
{
    auto lock = std::lock_guard{seen().mutex};
    for(size_t i = 0; i < count; ++i)
    {
        const auto* h = headers[i];
        if(h->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
        if(h->kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API ||
           h->kind == ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API ||
           h->kind == ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API)
            seen().records.push_back(
                *static_cast<const rocprofiler_buffer_tracing_marker_api_record_t*>(h->payload));
    }
}

rocprofiler_buffer_id_t marker_buffer = {};

void
configure_all_kinds(rocprofiler_context_id_t                     ctx,
                    std::vector<rocprofiler_tracing_operation_t> core_ops)
{
    for(auto kind : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                     ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
                     ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API})
    {
        const auto& ops = kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API
                              ? core_ops
                              : std::vector<rocprofiler_tracing_operation_t>{};
        SDK_TEST_CHECK(rocprofiler_configure_callback_tracing_service(
            ctx, kind, ops.empty() ? nullptr : ops.data(), ops.size(), on_marker, nullptr));
    }
    marker_buffer = sdk_test::create_buffer(ctx, 1 << 16, 1 << 15, collect);
    for(auto kind : {ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
                     ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API,
                     ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API})
    {
        const auto& ops = kind == ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API
                              ? core_ops
                              : std::vector<rocprofiler_tracing_operation_t>{};
        SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
            ctx, kind, ops.empty() ? nullptr : ops.data(), ops.size(), marker_buffer));
    }
}

void
init_all()
{
    auto ctx = sdk_test::create_context();
    configure_all_kinds(ctx, {});
    sdk_test::start({ctx});
}

void
init_push_only()
{
    auto ctx = sdk_test::create_context();
    configure_all_kinds(ctx, {ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA});
    sdk_test::start({ctx});
}

int
external_for_marker(rocprofiler_thread_id_t,
                    rocprofiler_context_id_t,
                    rocprofiler_external_correlation_id_request_kind_t kind,
                    rocprofiler_tracing_operation_t                    operation,
                    uint64_t                                           internal_id,
                    rocprofiler_user_data_t*                           external,
                    void*)
{
    if(kind != ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_API) return 1;
    external->value = 5000 + static_cast<uint64_t>(operation) * 100 + (internal_id % 100);
    return 0;
}

void
init_with_requests()
{
    auto ctx = sdk_test::create_context();
    configure_all_kinds(ctx, {});
    const auto kind = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_API;
    SDK_TEST_CHECK(rocprofiler_configure_external_correlation_id_request_service(
        ctx, &kind, 1, external_for_marker, nullptr));
    sdk_test::start({ctx});
}

void
throwing_marker(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
    throw std::runtime_error{"marker callback failed"};
}

void
init_throwing()
{
    auto ctx = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_tracing_service(
        ctx, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, nullptr, 0, throwing_marker, nullptr));
    auto other = sdk_test::create_context();
    configure_all_kinds(other, {});
    sdk_test::start({ctx, other});
}

void
init_nothing()
{
}

uint64_t
this_thread()
{
    return static_cast<uint64_t>(::syscall(SYS_gettid));
}

class marker_fixture : public sdk_test::tool_fixture
{
protected:
    marker_fixture(const char* name, void (*init)())
        : tool_fixture{name, init}
    {
    }
    void SetUp() override
    {
        {
            auto lock = std::lock_guard{seen().mutex};
            seen().calls.clear();
            seen().records.clear();
        }
        tool_fixture::SetUp();
        // Any host-device call initializes the SDK with the tool (the ROCTx library registered
        // itself once, in the first test, and is not asked again).
        void* p = nullptr;
        ASSERT_EQ(rocprofiler_host_malloc(16, &p), ROCPROFILER_HOST_STATUS_SUCCESS);
        rocprofiler_host_free(p);
    }

    static std::vector<call_seen> calls()
    {
        auto lock = std::lock_guard{seen().mutex};
        return seen().calls;
    }

    static std::vector<rocprofiler_buffer_tracing_marker_api_record_t> records()
    {
        EXPECT_EQ(rocprofiler_flush_buffer(marker_buffer), ROCPROFILER_STATUS_SUCCESS);
        auto lock = std::lock_guard{seen().mutex};
        return seen().records;
    }
};

#define MARKER_TEST(NAME, INIT)                                                                    \
    class NAME : public marker_fixture                                                             \
    {                                                                                              \
    protected:                                                                                     \
        NAME()                                                                                     \
            : marker_fixture{#NAME, INIT}                                                          \
        {                                                                                          \
        }                                                                                          \
    }

MARKER_TEST(marker_tracing, init_all);
MARKER_TEST(marker_operation_filter, init_push_only);
MARKER_TEST(marker_external_ids, init_with_requests);
MARKER_TEST(marker_throwing_tool, init_throwing);
MARKER_TEST(marker_untraced, init_nothing);

TEST_F(marker_tracing, each_call_is_one_enter_and_one_exit_with_its_arguments_and_result)
{
    roctxMarkA("instant");
    EXPECT_EQ(roctxRangePushA("outer"), 0);
    EXPECT_EQ(roctxRangePushA("inner"), 1);
    EXPECT_EQ(roctxRangePop(), 1);
    EXPECT_EQ(roctxRangePop(), 0);
    EXPECT_LT(roctxRangePop(), 0) << "a pop with no open range";
    const auto id = roctxRangeStartA("process range");
    EXPECT_NE(id, 0u);
    roctxRangeStop(id);

    const auto c = calls();
    ASSERT_EQ(c.size(), 16u);
    const int32_t ops[]      = {ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA,
                                ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop};
    const char*   messages[] = {"instant", "outer", "inner", "", "", "", "process range", ""};
    for(size_t i = 0; i < 8; ++i)
    {
        const auto& enter = c[2 * i];
        const auto& exit  = c[2 * i + 1];
        SCOPED_TRACE("call " + std::to_string(i));
        EXPECT_EQ(enter.kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
        EXPECT_EQ(enter.operation, ops[i]);
        EXPECT_EQ(exit.operation, ops[i]);
        EXPECT_EQ(enter.phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
        EXPECT_EQ(exit.phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
        EXPECT_EQ(enter.message, messages[i]);
        EXPECT_EQ(exit.message, messages[i]);
        EXPECT_NE(enter.internal, 0u);
        EXPECT_EQ(enter.internal, exit.internal);
        EXPECT_EQ(exit.user, enter.internal) << "user_data kept from ENTER to EXIT";
        EXPECT_EQ(enter.thread, this_thread());
        if(i > 0)
        {
            EXPECT_GT(enter.internal, c[2 * i - 2].internal) << "ids in call order";
        }
    }
    EXPECT_EQ(c[3].retval.int32_t_retval, 0);
    EXPECT_EQ(c[5].retval.int32_t_retval, 1);
    EXPECT_EQ(c[7].retval.int32_t_retval, 1);
    EXPECT_EQ(c[9].retval.int32_t_retval, 0);
    EXPECT_LT(c[11].retval.int32_t_retval, 0);
    EXPECT_EQ(c[13].retval.roctx_range_id_t_retval, id);
    EXPECT_EQ(c[14].range_id, id);

    const auto r = records();
    ASSERT_EQ(r.size(), 8u);
    for(size_t i = 0; i < r.size(); ++i)
    {
        SCOPED_TRACE("record " + std::to_string(i));
        EXPECT_EQ(r[i].size, sizeof(rocprofiler_buffer_tracing_marker_api_record_t));
        EXPECT_EQ(r[i].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API);
        EXPECT_EQ(r[i].operation, ops[i]);
        EXPECT_EQ(r[i].correlation_id.internal, c[2 * i].internal);
        EXPECT_EQ(r[i].thread_id, this_thread());
        EXPECT_NE(r[i].start_timestamp, 0u);
        EXPECT_LE(r[i].start_timestamp, r[i].end_timestamp);
        if(i > 0)
        {
            EXPECT_LE(r[i - 1].end_timestamp, r[i].start_timestamp);
        }
    }
}

TEST_F(marker_tracing, control_and_naming_calls_are_their_own_kinds)
{
    EXPECT_EQ(roctxProfilerPause(0), 0);
    EXPECT_EQ(roctxProfilerResume(0), 0);
    EXPECT_EQ(roctxNameOsThread("worker"), 0);
    auto tid = roctx_thread_id_t{0};
    EXPECT_EQ(roctxGetThreadId(&tid), 0);
    EXPECT_EQ(tid, this_thread());

    const auto c = calls();
    ASSERT_EQ(c.size(), 8u);
    EXPECT_EQ(c[0].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API);
    EXPECT_EQ(c[0].operation, ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause);
    EXPECT_EQ(c[2].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API);
    EXPECT_EQ(c[2].operation, ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume);
    EXPECT_EQ(c[4].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API);
    EXPECT_EQ(c[4].operation, ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread);
    EXPECT_EQ(c[4].message, "worker");
    EXPECT_EQ(c[6].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
    EXPECT_EQ(c[6].operation, ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId);

    const auto r = records();
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API);
    EXPECT_EQ(r[1].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API);
    EXPECT_EQ(r[2].kind, ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API);
    EXPECT_EQ(r[3].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API);
}

TEST_F(marker_tracing, ranges_nest_per_thread_and_process_ranges_cross_threads)
{
    EXPECT_EQ(roctxRangePushA("main"), 0);
    const auto id    = roctxRangeStartA("handed over");
    auto       depth = -2;
    auto       other = uint64_t{0};
    std::thread{[&]
                {
                    depth = roctxRangePushA("other thread");
                    roctxRangePop();
                    roctxRangeStop(id);
                    other = this_thread();
                }}
        .join();
    EXPECT_EQ(depth, 0) << "the other thread's stack is its own";
    EXPECT_EQ(roctxRangePop(), 0);

    const auto r = records();
    ASSERT_EQ(r.size(), 6u);
    EXPECT_EQ(r[4].operation, ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop);
    EXPECT_EQ(r[4].thread_id, other);
    EXPECT_EQ(r[5].thread_id, this_thread());
}

TEST_F(marker_operation_filter, only_the_listed_operations_are_traced)
{
    roctxMarkA("not traced");
    EXPECT_EQ(roctxRangePushA("traced"), 0);
    EXPECT_EQ(roctxRangePop(), 0);
    EXPECT_EQ(roctxProfilerPause(0), 0); // the control kind has no filter

    const auto c = calls();
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].operation, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA);
    EXPECT_EQ(c[0].message, "traced");
    EXPECT_EQ(c[2].kind, ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API);
    const auto r = records();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].operation, ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA);
    EXPECT_EQ(r[1].kind, ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API);
}

TEST_F(marker_external_ids, the_request_service_names_each_call)
{
    roctxMarkA("a");
    EXPECT_EQ(roctxRangePushA("b"), 0);
    const auto c = calls();
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].external, 5000 + c[0].internal % 100);
    EXPECT_EQ(c[2].external, 5000 + 100 + c[2].internal % 100);
    const auto r = records();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].correlation_id.external.value, c[0].external);
    EXPECT_EQ(r[1].correlation_id.external.value, c[2].external);
    EXPECT_EQ(roctxRangePop(), 0);
}

TEST_F(marker_throwing_tool, a_throwing_callback_stops_its_context_only)
{
    roctxMarkA("first");
    EXPECT_EQ(roctxRangePushA("second"), 0);
    EXPECT_EQ(roctxRangePop(), 0);
    const auto c = calls();
    EXPECT_EQ(c.size(), 6u) << "the other context sees every call";
    const auto r = records();
    EXPECT_EQ(r.size(), 3u);
}

TEST_F(marker_untraced, without_a_tracing_context_the_calls_keep_their_results)
{
    EXPECT_EQ(roctxRangePushA("a"), 0);
    EXPECT_EQ(roctxRangePushA("b"), 1);
    EXPECT_EQ(roctxRangePop(), 1);
    EXPECT_EQ(roctxRangePop(), 0);
    EXPECT_LT(roctxRangePop(), 0);
    const auto first  = roctxRangeStartA("x");
    const auto second = roctxRangeStartA("y");
    EXPECT_NE(first, 0u);
    EXPECT_GT(second, first);
    roctxRangeStop(first);
    roctxRangeStop(second);
    EXPECT_TRUE(calls().empty());
}

TEST(rocprofiler_set_api_table, refuses_what_it_cannot_take)
{
    EXPECT_NE(rocprofiler_set_api_table(nullptr, 0, 0, nullptr, 0), 0);
    EXPECT_NE(rocprofiler_set_api_table("hip", 1, 0, nullptr, 0), 0);
    EXPECT_NE(rocprofiler_set_api_table("roctx", 1, 0, nullptr, 3), 0);
    void* too_few[] = {nullptr};
    EXPECT_NE(rocprofiler_set_api_table("roctx", 1, 0, too_few, 1), 0);
}
} // namespace

// The layouts rocprofiler-sdk tools were compiled against.
static_assert(sizeof(rocprofiler_buffer_tracing_marker_api_record_t) == 64);
static_assert(offsetof(rocprofiler_buffer_tracing_marker_api_record_t, operation) == 12);
static_assert(offsetof(rocprofiler_buffer_tracing_marker_api_record_t, correlation_id) == 16);
static_assert(offsetof(rocprofiler_buffer_tracing_marker_api_record_t, start_timestamp) == 40);
static_assert(offsetof(rocprofiler_buffer_tracing_marker_api_record_t, thread_id) == 56);
static_assert(sizeof(rocprofiler_marker_api_args_t) == 16);
static_assert(offsetof(rocprofiler_callback_tracing_marker_api_data_t, args) == 8);
static_assert(offsetof(rocprofiler_callback_tracing_marker_api_data_t, retval) == 24);
static_assert(sizeof(roctxCoreApiTable_t) == 7 * sizeof(void*));
