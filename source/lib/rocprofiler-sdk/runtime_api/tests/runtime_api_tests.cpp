// CUDA API tracing (ROCPROFILER_*_TRACING_CUDA_RUNTIME_API, _CUDA_DRIVER_API) through the
// backend-neutral layer, as the CUDA backend reports calls to it: one ENTER and one EXIT per call
// with the payload's name, arguments and return value, user_data kept from ENTER to EXIT, one
// buffer record per call with timestamps around it, nested calls (a runtime call making driver
// calls) with their own correlation ids, the operation filter, external correlation ids, an exit
// that matches no enter ignored, and a tool callback that makes calls of its own.
#include "runtime_api/runtime_api.hpp"

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace
{
namespace api = rocprofiler::runtime_api;

struct call_seen
{
    rocprofiler_callback_tracing_kind_t kind      = ROCPROFILER_CALLBACK_TRACING_NONE;
    int32_t                             operation = -1;
    rocprofiler_callback_phase_t        phase     = ROCPROFILER_CALLBACK_PHASE_NONE;
    uint64_t                            internal  = 0;
    uint64_t                            external  = 0;
    std::string                         function  = {};
    const void*                         args      = nullptr;
    int                                 retval    = -1; // *retval at EXIT
    uint64_t                            user      = 0;  // user_data seen at this phase
};

struct collected
{
    std::mutex                                                mutex   = {};
    std::vector<call_seen>                                    calls   = {};
    std::vector<rocprofiler_buffer_tracing_cuda_api_record_t> records = {};
    // Set by a test: the ENTER callback of this operation reports a nested driver call.
    int32_t nested_from = -1;
};

collected&
seen()
{
    static auto* value = new collected{};
    return *value;
}

constexpr int32_t cuda_malloc    = 20;  // CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020
constexpr int32_t cuda_free      = 22;  // CUPTI_RUNTIME_TRACE_CBID_cudaFree_v3020
constexpr int32_t cu_mem_alloc   = 243; // CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2
constexpr int32_t cu_ctx_get_dev = 19;  // CUPTI_DRIVER_TRACE_CBID_cuCtxGetDevice

void
report_call(api::domain d, int32_t op, uint64_t key, const void* args, int result)
{
    auto info          = api::call_info{};
    info.function_name = d == api::domain::cuda_runtime ? "runtime function" : "driver function";
    info.args          = args;
    api::enter(d, op, key, info);
    api::exit(d, op, key, &result);
}

void
on_call(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t* user, void*)
{
    const auto* data =
        static_cast<const rocprofiler_callback_tracing_cuda_api_data_t*>(record.payload);
    auto c      = call_seen{};
    c.kind      = record.kind;
    c.operation = record.operation;
    c.phase     = record.phase;
    c.internal  = record.correlation_id.internal;
    c.external  = record.correlation_id.external.value;
    c.function  = data->function_name != nullptr ? data->function_name : "";
    c.args      = data->args;
    if(data->retval != nullptr) c.retval = *static_cast<const int*>(data->retval);
    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        user->value = record.correlation_id.internal;
    c.user      = user->value;
    auto nested = false;
    {
        auto lock = std::lock_guard{seen().mutex};
        seen().calls.push_back(c);
        nested = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER &&
                 record.operation == seen().nested_from;
    }
    // A tool that calls CUDA from its callback: the call nests inside the one being reported.
    if(nested) report_call(api::domain::cuda_driver, cu_ctx_get_dev, 9001, nullptr, 0);
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
        if(headers[i]->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
           (headers[i]->kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
            headers[i]->kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API))
            seen().records.push_back(
                *static_cast<const rocprofiler_buffer_tracing_cuda_api_record_t*>(
                    headers[i]->payload));
}

rocprofiler_buffer_id_t api_buffer = {};

int
external_for_runtime(rocprofiler_thread_id_t,
                     rocprofiler_context_id_t,
                     rocprofiler_external_correlation_id_request_kind_t kind,
                     rocprofiler_tracing_operation_t                    operation,
                     uint64_t,
                     rocprofiler_user_data_t* external,
                     void*)
{
    if(kind != ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API) return 1;
    external->value = 7000 + static_cast<uint64_t>(operation);
    return 0;
}

void
configure(std::vector<rocprofiler_tracing_operation_t> runtime_ops)
{
    auto ctx = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_tracing_service(
        ctx,
        ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API,
        runtime_ops.empty() ? nullptr : runtime_ops.data(),
        runtime_ops.size(),
        on_call,
        nullptr));
    SDK_TEST_CHECK(rocprofiler_configure_callback_tracing_service(
        ctx, ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API, nullptr, 0, on_call, nullptr));
    api_buffer = sdk_test::create_buffer(ctx, 1 << 16, 1 << 15, collect);
    for(auto kind :
        {ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API})
        SDK_TEST_CHECK(
            rocprofiler_configure_buffer_tracing_service(ctx, kind, nullptr, 0, api_buffer));
    const auto request = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API;
    SDK_TEST_CHECK(rocprofiler_configure_external_correlation_id_request_service(
        ctx, &request, 1, external_for_runtime, nullptr));
    sdk_test::start({ctx});
}

void
init_all()
{
    configure({});
}

void
init_malloc_only()
{
    configure({cuda_malloc});
}

class api_fixture : public sdk_test::tool_fixture
{
protected:
    api_fixture(const char* name, void (*init)())
        : tool_fixture{name, init}
    {
    }
    void SetUp() override
    {
        {
            auto lock = std::lock_guard{seen().mutex};
            seen().calls.clear();
            seen().records.clear();
            seen().nested_from = -1;
        }
        tool_fixture::SetUp();
        // Any host-device call initializes the SDK with the tool.
        void* p = nullptr;
        ASSERT_EQ(rocprofiler_host_malloc(16, &p), ROCPROFILER_HOST_STATUS_SUCCESS);
        rocprofiler_host_free(p);
    }

    static std::vector<call_seen> calls()
    {
        auto lock = std::lock_guard{seen().mutex};
        return seen().calls;
    }

    static std::vector<rocprofiler_buffer_tracing_cuda_api_record_t> records()
    {
        EXPECT_EQ(rocprofiler_flush_buffer(api_buffer), ROCPROFILER_STATUS_SUCCESS);
        auto lock = std::lock_guard{seen().mutex};
        return seen().records;
    }
};

class cuda_api_tracing : public api_fixture
{
protected:
    cuda_api_tracing()
        : api_fixture{"cuda_api_tracing", init_all}
    {
    }
};

class cuda_api_operation_filter : public api_fixture
{
protected:
    cuda_api_operation_filter()
        : api_fixture{"cuda_api_operation_filter", init_malloc_only}
    {
    }
};

// A runtime call that makes a driver call: four callbacks in nesting order, two correlation ids,
// two buffer records whose times nest.
TEST_F(cuda_api_tracing, nested_calls_are_reported_in_order_with_their_payloads)
{
    const int args     = 42;
    auto      info     = api::call_info{};
    info.function_name = "cudaMalloc";
    info.args          = &args;
    api::enter(api::domain::cuda_runtime, cuda_malloc, 11, info);
    report_call(api::domain::cuda_driver, cu_mem_alloc, 12, nullptr, 0);
    const int result = 2;
    api::exit(api::domain::cuda_runtime, cuda_malloc, 11, &result);

    const auto c = calls();
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].kind, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API);
    EXPECT_EQ(c[0].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
    EXPECT_EQ(c[0].function, "cudaMalloc");
    EXPECT_EQ(c[0].args, &args);
    EXPECT_EQ(c[0].retval, -1) << "no return value at ENTER";
    EXPECT_EQ(c[1].kind, ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API);
    EXPECT_EQ(c[1].operation, cu_mem_alloc);
    EXPECT_EQ(c[1].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
    EXPECT_EQ(c[2].kind, ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API);
    EXPECT_EQ(c[2].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(c[2].retval, 0);
    EXPECT_EQ(c[3].kind, ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API);
    EXPECT_EQ(c[3].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(c[3].retval, 2);
    EXPECT_EQ(c[0].internal, c[3].internal);
    EXPECT_EQ(c[1].internal, c[2].internal);
    EXPECT_NE(c[0].internal, c[1].internal);
    EXPECT_EQ(c[3].user, c[0].internal) << "user_data kept from ENTER to EXIT";
    EXPECT_EQ(c[0].external, 7000u + cuda_malloc) << "the tool's external id of a runtime call";
    EXPECT_EQ(c[1].external, 0u) << "no request for driver calls";

    const auto r = records();
    ASSERT_EQ(r.size(), 2u);
    // Records are written at exit: the driver call first.
    EXPECT_EQ(r[0].kind, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API);
    EXPECT_EQ(r[0].operation, cu_mem_alloc);
    EXPECT_EQ(r[1].kind, ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API);
    EXPECT_EQ(r[1].operation, cuda_malloc);
    EXPECT_EQ(r[1].correlation_id.internal, c[0].internal);
    EXPECT_EQ(r[1].correlation_id.external.value, 7000u + cuda_malloc);
    for(const auto& rec : r)
    {
        EXPECT_EQ(rec.size, sizeof(rocprofiler_buffer_tracing_cuda_api_record_t));
        EXPECT_LE(rec.start_timestamp, rec.end_timestamp);
        EXPECT_NE(rec.thread_id, 0u);
    }
    EXPECT_LE(r[1].start_timestamp, r[0].start_timestamp) << "the runtime call encloses";
    EXPECT_GE(r[1].end_timestamp, r[0].end_timestamp);
}

// An exit without its enter (tracing began while the call ran) or with another call's key is
// not reported, and does not disturb the call in progress.
TEST_F(cuda_api_tracing, an_exit_that_matches_no_enter_is_ignored)
{
    const int result = 0;
    api::exit(api::domain::cuda_runtime, cuda_free, 5, &result);
    api::enter(api::domain::cuda_runtime, cuda_malloc, 6, api::call_info{});
    api::exit(api::domain::cuda_runtime, cuda_malloc, 7, &result); // another key
    api::exit(api::domain::cuda_driver, cuda_malloc, 6, &result);  // another domain
    api::exit(api::domain::cuda_runtime, cuda_malloc, 6, &result);
    const auto c = calls();
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].phase, ROCPROFILER_CALLBACK_PHASE_ENTER);
    EXPECT_EQ(c[1].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(c[0].internal, c[1].internal);
    EXPECT_EQ(records().size(), 1u);
}

// A tool's ENTER callback that calls CUDA itself: that call is reported inside the first, and the
// first one's EXIT still arrives with its own id.
TEST_F(cuda_api_tracing, a_call_from_a_tool_callback_nests)
{
    {
        auto lock          = std::lock_guard{seen().mutex};
        seen().nested_from = cuda_malloc;
    }
    report_call(api::domain::cuda_runtime, cuda_malloc, 20, nullptr, 0);
    const auto c = calls();
    ASSERT_EQ(c.size(), 4u);
    EXPECT_EQ(c[0].operation, cuda_malloc);
    EXPECT_EQ(c[1].operation, cu_ctx_get_dev);
    EXPECT_EQ(c[2].operation, cu_ctx_get_dev);
    EXPECT_EQ(c[3].operation, cuda_malloc);
    EXPECT_EQ(c[3].phase, ROCPROFILER_CALLBACK_PHASE_EXIT);
    EXPECT_EQ(c[0].internal, c[3].internal);
    EXPECT_EQ(records().size(), 2u);
}

// Only the configured runtime operation is reported in callback form; the buffer form (all
// operations) still records both calls.
TEST_F(cuda_api_operation_filter, only_the_configured_operations_get_callbacks)
{
    report_call(api::domain::cuda_runtime, cuda_free, 30, nullptr, 0);
    report_call(api::domain::cuda_runtime, cuda_malloc, 31, nullptr, 0);
    const auto c = calls();
    ASSERT_EQ(c.size(), 2u);
    EXPECT_EQ(c[0].operation, cuda_malloc);
    EXPECT_EQ(c[1].operation, cuda_malloc);
    const auto r = records();
    ASSERT_EQ(r.size(), 2u);
    EXPECT_EQ(r[0].operation, cuda_free);
    EXPECT_EQ(r[1].operation, cuda_malloc);
}

// The kinds and their operations are named in every build, CUDA or not.
TEST(cuda_api_kinds, are_named_and_configurable_without_cuda)
{
    const char* name = nullptr;
    ASSERT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                  ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API, cuda_malloc, &name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_STREQ(name, "cudaMalloc");
    ASSERT_EQ(rocprofiler_query_buffer_tracing_kind_operation_name(
                  ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, cu_mem_alloc, &name, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_STREQ(name, "cuMemAlloc_v2");
}
} // namespace
