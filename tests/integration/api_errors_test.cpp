// Bad input to every entry point of the C API, in-process (linked with rocprofiler-sdk-static).
// Each test asserts the exact status its header documents.
//
// The SDK's state only moves forward (unconfigured -> locked -> finalized), so CTest runs every
// test in its own process (gtest_discover_tests). Run as one binary, the tests run in file order
// and a test whose precondition is gone (the SDK already configured, or configured without the
// forced test tool) skips itself rather than failing.
#include <gtest/gtest.h>

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace
{
#define EXPECT_STATUS(EXPECTED, CALL)                                                              \
    do                                                                                             \
    {                                                                                              \
        auto _status = (CALL);                                                                     \
        EXPECT_EQ(_status, EXPECTED)                                                               \
            << #CALL << " returned " << rocprofiler_get_status_name(_status) << ", expected "      \
            << rocprofiler_get_status_name(EXPECTED);                                              \
    } while(0)

constexpr auto kSuccess = ROCPROFILER_STATUS_SUCCESS;
constexpr auto kUnknown = uint64_t{0xdead'beef'0000ull};

void
dispatch_cb(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
}

void
buffer_cb(rocprofiler_context_id_t,
          rocprofiler_buffer_id_t,
          rocprofiler_record_header_t**,
          size_t,
          void*,
          uint64_t)
{
}

int
request_cb(rocprofiler_thread_id_t,
           rocprofiler_context_id_t,
           rocprofiler_external_correlation_id_request_kind_t,
           rocprofiler_tracing_operation_t,
           uint64_t,
           rocprofiler_user_data_t*,
           void*)
{
    return 1;
}

void
counting_dispatch_cb(rocprofiler_dispatch_counting_service_data_t,
                     rocprofiler_counter_config_id_t*,
                     rocprofiler_user_data_t*,
                     void*)
{
}

void
counting_record_cb(rocprofiler_dispatch_counting_service_data_t,
                   rocprofiler_counter_record_t*,
                   size_t,
                   rocprofiler_user_data_t,
                   void*)
{
}

void
device_counting_cb(rocprofiler_context_id_t,
                   rocprofiler_agent_id_t,
                   rocprofiler_device_counting_agent_cb_t,
                   void*)
{
}

bool
sdk_initialized()
{
    int value = 0;
    rocprofiler_is_initialized(&value);
    return value != 0;
}

// Pre-lock tests need an unconfigured SDK.
#define REQUIRE_UNCONFIGURED()                                                                     \
    do                                                                                             \
    {                                                                                              \
        if(sdk_initialized()) GTEST_SKIP() << "the SDK is already configured in this process";     \
    } while(0)

rocprofiler_context_id_t
new_context()
{
    auto ctx = rocprofiler_context_id_t{0};
    EXPECT_STATUS(kSuccess, rocprofiler_create_context(&ctx));
    EXPECT_NE(ctx.handle, 0u);
    return ctx;
}

// ---- the tool given to rocprofiler_force_configure ------------------------------------------

struct forced_tool
{
    std::atomic<int>              configure_calls  = 0;
    std::atomic<int>              initialize_calls = 0;
    std::atomic<int>              finalize_calls   = 0;
    std::atomic<int>              callbacks        = 0;
    uint32_t                      priority         = 99;
    rocprofiler_client_id_t*      client           = nullptr;
    rocprofiler_client_finalize_t fini             = nullptr;
    rocprofiler_context_id_t      context          = {};
    rocprofiler_buffer_id_t       buffer           = {};
    rocprofiler_status_t          init_statuses[4] = {};
    bool                          decline          = false;
};

forced_tool&
tool()
{
    static auto* value = new forced_tool{};
    return *value;
}

void
counting_callback(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
    ++tool().callbacks;
}

int
forced_initialize(rocprofiler_client_finalize_t fini, void*)
{
    auto& t = tool();
    ++t.initialize_calls;
    t.fini             = fini;
    t.init_statuses[0] = rocprofiler_create_context(&t.context);
    t.init_statuses[1] =
        rocprofiler_configure_callback_tracing_service(t.context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       nullptr,
                                                       0,
                                                       counting_callback,
                                                       nullptr);
    t.init_statuses[2] = rocprofiler_create_buffer(
        t.context, 4096, 1024, ROCPROFILER_BUFFER_POLICY_DISCARD, buffer_cb, nullptr, &t.buffer);
    t.init_statuses[3] = rocprofiler_start_context(t.context);
    return 0;
}

void
forced_finalize(void*)
{
    ++tool().finalize_calls;
}

rocprofiler_tool_configure_result_t*
forced_configure(uint32_t, const char*, uint32_t priority, rocprofiler_client_id_t* client)
{
    auto& t = tool();
    ++t.configure_calls;
    t.priority         = priority;
    t.client           = client;
    client->name       = "api-errors-forced-tool";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), forced_initialize, forced_finalize, nullptr};
    return t.decline ? nullptr : &result;
}

// Configures the SDK through force_configure (once per process), which locks configuration.
// False when the SDK was configured otherwise in this process (the tool is not ours).
bool
lock_configuration()
{
    if(tool().configure_calls.load() == 0 && !sdk_initialized())
    {
        EXPECT_EQ(rocprofiler_force_configure(forced_configure), kSuccess);
    }
    return tool().configure_calls.load() > 0;
}

#define LOCK_CONFIGURATION()                                                                       \
    do                                                                                             \
    {                                                                                              \
        if(!lock_configuration()) GTEST_SKIP() << "the SDK was configured without the test tool";  \
    } while(0)

rocprofiler_agent_id_t
host_agent()
{
    auto found = rocprofiler_agent_id_t{0};
    auto cb    = [](rocprofiler_agent_version_t, const void** agents, size_t n, void* data)
    {
        for(size_t i = 0; i < n; ++i)
        {
            const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
            if(a->type == ROCPROFILER_AGENT_TYPE_GPU)
                *static_cast<rocprofiler_agent_id_t*>(data) = a->id;
        }
        return ROCPROFILER_STATUS_SUCCESS;
    };
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t), &found));
    EXPECT_NE(found.handle, 0u);
    return found;
}
} // namespace

// =================================== before configuration ====================================

TEST(api_errors, misc_queries)
{
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, rocprofiler_get_timestamp(nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, rocprofiler_get_thread_id(nullptr));
    // Every non-NULL pointer is written; NULL ones are skipped.
    EXPECT_STATUS(kSuccess, rocprofiler_get_version(nullptr, nullptr, nullptr));
    uint32_t major = 99;
    EXPECT_STATUS(kSuccess, rocprofiler_get_version(&major, nullptr, nullptr));
    EXPECT_EQ(major, ROCPROFILER_VERSION_MAJOR);
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_get_version_triplet(nullptr));
    auto triplet = rocprofiler_version_triplet_t{99, 99, 99};
    EXPECT_STATUS(kSuccess, rocprofiler_get_version_triplet(&triplet));
    EXPECT_EQ(triplet.major, ROCPROFILER_VERSION_MAJOR);
    EXPECT_EQ(triplet.minor, ROCPROFILER_VERSION_MINOR);
    EXPECT_EQ(triplet.patch, ROCPROFILER_VERSION_PATCH);
    // The header hash is the union of category (low word) and kind (high word).
    auto header     = rocprofiler_record_header_t{};
    header.category = ROCPROFILER_BUFFER_CATEGORY_TRACING;
    header.kind     = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    EXPECT_EQ(rocprofiler_record_header_compute_hash(header.category, header.kind), header.hash);
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, rocprofiler_is_initialized(nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, rocprofiler_is_finalized(nullptr));
    // Names and messages are never NULL, even for values outside the enum.
    for(int code : {0, 5, int{ROCPROFILER_STATUS_LAST} - 1, int{ROCPROFILER_STATUS_LAST}, 1000, -1})
    {
        EXPECT_NE(rocprofiler_get_status_name(static_cast<rocprofiler_status_t>(code)), nullptr);
        EXPECT_NE(rocprofiler_get_status_string(static_cast<rocprofiler_status_t>(code)), nullptr);
    }
    EXPECT_STREQ(rocprofiler_get_status_name(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED),
                 "ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED");
}

TEST(api_errors, lifecycle_state_before_configuration)
{
    REQUIRE_UNCONFIGURED();
    int value = -1;
    EXPECT_STATUS(kSuccess, rocprofiler_is_initialized(&value));
    EXPECT_EQ(value, 0);
    EXPECT_STATUS(kSuccess, rocprofiler_is_finalized(&value));
    EXPECT_EQ(value, 0);
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, rocprofiler_force_configure(nullptr));
    EXPECT_FALSE(sdk_initialized()) << "a rejected force_configure initializes nothing";
}

TEST(api_errors, contexts)
{
    REQUIRE_UNCONFIGURED();
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT, rocprofiler_create_context(nullptr));
    auto nonzero = rocprofiler_context_id_t{7};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO,
                  rocprofiler_create_context(&nonzero));
    EXPECT_EQ(nonzero.handle, 7u) << "left unchanged";

    int  status  = -1;
    auto none    = ROCPROFILER_CONTEXT_NONE;
    auto unknown = rocprofiler_context_id_t{kUnknown};
    for(auto bad : {none, unknown})
    {
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND, rocprofiler_start_context(bad));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND, rocprofiler_stop_context(bad));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                      rocprofiler_context_is_active(bad, &status));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                      rocprofiler_context_is_valid(bad, &status));
    }

    auto ctx = new_context();
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_context_is_active(ctx, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_context_is_valid(ctx, nullptr));
    // No service: not valid, cannot start.
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_valid(ctx, &status));
    EXPECT_EQ(status, 0);
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID, rocprofiler_start_context(ctx));
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_active(ctx, &status));
    EXPECT_EQ(status, 0);
    // Stopping a context that never started is not an error.
    EXPECT_STATUS(kSuccess, rocprofiler_stop_context(ctx));

    // With a service: valid; start twice is SUCCESS both times; stop twice too.
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_configure_callback_tracing_service(
            ctx, ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, nullptr, 0, dispatch_cb, nullptr));
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_valid(ctx, &status));
    EXPECT_EQ(status, 1);
    EXPECT_STATUS(kSuccess, rocprofiler_start_context(ctx));
    EXPECT_STATUS(kSuccess, rocprofiler_start_context(ctx));
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_active(ctx, &status));
    EXPECT_EQ(status, 1);
    EXPECT_STATUS(kSuccess, rocprofiler_stop_context(ctx));
    EXPECT_STATUS(kSuccess, rocprofiler_stop_context(ctx));
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_active(ctx, &status));
    EXPECT_EQ(status, 0);
    // Distinct contexts get distinct ids.
    auto other = new_context();
    EXPECT_NE(other.handle, ctx.handle);
}

TEST(api_errors, callback_tracing_service)
{
    REQUIRE_UNCONFIGURED();
    auto       ctx = new_context();
    const auto kd  = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH;
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_callback_tracing_service(
                      rocprofiler_context_id_t{kUnknown}, kd, nullptr, 0, dispatch_cb, nullptr));
    for(int kind :
        {int{ROCPROFILER_CALLBACK_TRACING_NONE}, int{ROCPROFILER_CALLBACK_TRACING_LAST}, 9999, -1})
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                      rocprofiler_configure_callback_tracing_service(
                          ctx,
                          static_cast<rocprofiler_callback_tracing_kind_t>(kind),
                          nullptr,
                          0,
                          dispatch_cb,
                          nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_configure_callback_tracing_service(ctx, kd, nullptr, 0, nullptr, nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_configure_callback_tracing_service(ctx, kd, nullptr, 1, dispatch_cb, nullptr));
    for(int32_t op : {int32_t{ROCPROFILER_KERNEL_DISPATCH_NONE},
                      int32_t{ROCPROFILER_KERNEL_DISPATCH_LAST},
                      63,
                      -5})
        EXPECT_STATUS(
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
            rocprofiler_configure_callback_tracing_service(ctx, kd, &op, 1, dispatch_cb, nullptr));
    // The marker kinds number operations from 0 (ROCTx function indices): 0 is valid, -1 and
    // LAST are not.
    for(int32_t op : {int32_t{ROCPROFILER_MARKER_CORE_API_ID_NONE},
                      int32_t{ROCPROFILER_MARKER_CORE_API_ID_LAST}})
        EXPECT_STATUS(
            ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
            rocprofiler_configure_callback_tracing_service(
                ctx, ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, &op, 1, dispatch_cb, nullptr));
    // Kinds without a runtime on this platform.
    for(auto kind : {ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,
                     ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,
                     ROCPROFILER_CALLBACK_TRACING_RCCL_API})
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                      rocprofiler_configure_callback_tracing_service(
                          ctx, kind, nullptr, 0, dispatch_cb, nullptr));
    // A failed call configures nothing: the context is still empty.
    int valid = -1;
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_valid(ctx, &valid));
    EXPECT_EQ(valid, 0);

    const auto op = int32_t{ROCPROFILER_KERNEL_DISPATCH_COMPLETE};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_configure_callback_tracing_service(ctx, kd, &op, 1, dispatch_cb, nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
        rocprofiler_configure_callback_tracing_service(ctx, kd, nullptr, 0, dispatch_cb, nullptr));
    // Another context may trace the same kind.
    auto other = new_context();
    EXPECT_STATUS(kSuccess,
                  rocprofiler_configure_callback_tracing_service(
                      other, kd, nullptr, 0, dispatch_cb, nullptr));
}

TEST(api_errors, buffers)
{
    REQUIRE_UNCONFIGURED();
    auto       ctx      = new_context();
    auto       id       = rocprofiler_buffer_id_t{};
    const auto lossless = ROCPROFILER_BUFFER_POLICY_LOSSLESS;
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
        rocprofiler_create_buffer(
            rocprofiler_context_id_t{kUnknown}, 4096, 1024, lossless, buffer_cb, nullptr, &id));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_buffer(ctx, 0, 0, lossless, buffer_cb, nullptr, &id));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_buffer(ctx, 4096, 4097, lossless, buffer_cb, nullptr, &id));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_buffer(
                      ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LAST, buffer_cb, nullptr, &id));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_buffer(ctx, 4096, 1024, lossless, nullptr, nullptr, &id));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_create_buffer(ctx, 4096, 1024, lossless, buffer_cb, nullptr, nullptr));

    auto unknown = rocprofiler_buffer_id_t{kUnknown};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND, rocprofiler_flush_buffer(unknown));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND, rocprofiler_destroy_buffer(unknown));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                  rocprofiler_flush_buffer(rocprofiler_buffer_id_t{0}));

    // Watermark equal to size, and 0, are valid; so is POLICY_NONE.
    EXPECT_STATUS(kSuccess,
                  rocprofiler_create_buffer(ctx, 4096, 4096, lossless, buffer_cb, nullptr, &id));
    auto other = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(kSuccess,
                  rocprofiler_create_buffer(
                      ctx, 4096, 0, ROCPROFILER_BUFFER_POLICY_NONE, buffer_cb, nullptr, &other));
    EXPECT_NE(id.handle, other.handle);
    EXPECT_STATUS(kSuccess, rocprofiler_flush_buffer(id));
    EXPECT_STATUS(kSuccess, rocprofiler_destroy_buffer(id));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND, rocprofiler_destroy_buffer(id));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND, rocprofiler_flush_buffer(id));
}

TEST(api_errors, buffer_tracing_service)
{
    REQUIRE_UNCONFIGURED();
    auto ctx = new_context();
    auto buf = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    const auto kd = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_buffer_tracing_service(
                      rocprofiler_context_id_t{kUnknown}, kd, nullptr, 0, buf));
    for(int kind :
        {int{ROCPROFILER_BUFFER_TRACING_NONE}, int{ROCPROFILER_BUFFER_TRACING_LAST}, 777})
        EXPECT_STATUS(
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
            rocprofiler_configure_buffer_tracing_service(
                ctx, static_cast<rocprofiler_buffer_tracing_kind_t>(kind), nullptr, 0, buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                  rocprofiler_configure_buffer_tracing_service(
                      ctx, kd, nullptr, 0, rocprofiler_buffer_id_t{kUnknown}));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_buffer_tracing_service(ctx, kd, nullptr, 2, buf));
    const auto bad_op = int32_t{ROCPROFILER_KERNEL_DISPATCH_LAST};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
                  rocprofiler_configure_buffer_tracing_service(ctx, kd, &bad_op, 1, buf));
    for(auto kind :
        {ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API, ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY})
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,
                      rocprofiler_configure_buffer_tracing_service(ctx, kind, nullptr, 0, buf));
    EXPECT_STATUS(kSuccess, rocprofiler_configure_buffer_tracing_service(ctx, kd, nullptr, 0, buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
                  rocprofiler_configure_buffer_tracing_service(ctx, kd, nullptr, 0, buf));
}

TEST(api_errors, callback_threads)
{
    REQUIRE_UNCONFIGURED();
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_callback_thread(nullptr));
    auto thread = rocprofiler_callback_thread_t{};
    EXPECT_STATUS(kSuccess, rocprofiler_create_callback_thread(&thread));
    EXPECT_NE(thread.handle, 0u);
    auto ctx = new_context();
    auto buf = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                  rocprofiler_assign_callback_thread(rocprofiler_buffer_id_t{kUnknown}, thread));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
                  rocprofiler_assign_callback_thread(buf, rocprofiler_callback_thread_t{kUnknown}));
    EXPECT_STATUS(kSuccess, rocprofiler_assign_callback_thread(buf, thread));
}

TEST(api_errors, external_correlation)
{
    REQUIRE_UNCONFIGURED();
    auto ctx     = new_context();
    auto unknown = rocprofiler_context_id_t{kUnknown};
    auto tid     = rocprofiler_thread_id_t{0};
    ASSERT_EQ(rocprofiler_get_thread_id(&tid), kSuccess);
    auto value = rocprofiler_user_data_t{.value = 11};

    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_push_external_correlation_id(unknown, tid, value));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
                  rocprofiler_push_external_correlation_id(ctx, 0, value));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_pop_external_correlation_id(unknown, tid, &value));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
                  rocprofiler_pop_external_correlation_id(ctx, 0, &value));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
                  rocprofiler_pop_external_correlation_id(ctx, tid, &value)); // nothing pushed

    // A stack per thread and context: last in, first out; the output may be NULL.
    EXPECT_STATUS(kSuccess, rocprofiler_push_external_correlation_id(ctx, tid, {.value = 1}));
    EXPECT_STATUS(kSuccess, rocprofiler_push_external_correlation_id(ctx, tid, {.value = 2}));
    EXPECT_STATUS(kSuccess, rocprofiler_push_external_correlation_id(ctx, tid + 1, {.value = 3}));
    EXPECT_STATUS(kSuccess, rocprofiler_pop_external_correlation_id(ctx, tid, &value));
    EXPECT_EQ(value.value, 2u);
    EXPECT_STATUS(kSuccess, rocprofiler_pop_external_correlation_id(ctx, tid, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,
                  rocprofiler_pop_external_correlation_id(ctx, tid, &value));
    EXPECT_STATUS(kSuccess, rocprofiler_pop_external_correlation_id(ctx, tid + 1, &value));
    EXPECT_EQ(value.value, 3u);

    // The request service.
    const auto kd   = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH;
    const auto none = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE;
    const auto last = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST;
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_external_correlation_id_request_service(
                      unknown, &kd, 1, request_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_external_correlation_id_request_service(
                      ctx, &kd, 1, nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_external_correlation_id_request_service(
                      ctx, nullptr, 1, request_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                  rocprofiler_configure_external_correlation_id_request_service(
                      ctx, &none, 1, request_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                  rocprofiler_configure_external_correlation_id_request_service(
                      ctx, &last, 1, request_cb, nullptr));
    EXPECT_STATUS(kSuccess,
                  rocprofiler_configure_external_correlation_id_request_service(
                      ctx, &kd, 1, request_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
                  rocprofiler_configure_external_correlation_id_request_service(
                      ctx, nullptr, 0, request_cb, nullptr));
}

TEST(api_errors, name_queries_and_iteration)
{
    // These work in every phase.
    const char* name = nullptr;
    uint64_t    len  = 0;
    const auto  kd   = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH;
    for(int kind :
        {int{ROCPROFILER_CALLBACK_TRACING_NONE}, int{ROCPROFILER_CALLBACK_TRACING_LAST}, 4096, -3})
    {
        auto k = static_cast<rocprofiler_callback_tracing_kind_t>(kind);
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                      rocprofiler_query_callback_tracing_kind_name(k, &name, &len));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                      rocprofiler_query_callback_tracing_kind_operation_name(k, 1, &name, &len));
        EXPECT_STATUS(
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
            rocprofiler_iterate_callback_tracing_kind_operations(
                k, [](rocprofiler_callback_tracing_kind_t, int32_t, void*) { return 0; }, nullptr));
    }
    for(int kind :
        {int{ROCPROFILER_BUFFER_TRACING_NONE}, int{ROCPROFILER_BUFFER_TRACING_LAST}, 4096})
    {
        auto k = static_cast<rocprofiler_buffer_tracing_kind_t>(kind);
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                      rocprofiler_query_buffer_tracing_kind_name(k, &name, &len));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
                      rocprofiler_query_buffer_tracing_kind_operation_name(k, 1, &name, &len));
        EXPECT_STATUS(
            ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,
            rocprofiler_iterate_buffer_tracing_kind_operations(
                k, [](rocprofiler_buffer_tracing_kind_t, int32_t, void*) { return 0; }, nullptr));
    }
    for(int32_t op :
        {int32_t{ROCPROFILER_KERNEL_DISPATCH_NONE}, int32_t{ROCPROFILER_KERNEL_DISPATCH_LAST}, 100})
    {
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
                      rocprofiler_query_callback_tracing_kind_operation_name(kd, op, &name, &len));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND,
                      rocprofiler_query_buffer_tracing_kind_operation_name(
                          ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, op, &name, &len));
    }
    // Outputs may be NULL.
    EXPECT_STATUS(kSuccess, rocprofiler_query_callback_tracing_kind_name(kd, nullptr, nullptr));
    EXPECT_STATUS(kSuccess,
                  rocprofiler_query_callback_tracing_kind_operation_name(kd, 1, nullptr, nullptr));
    EXPECT_STATUS(kSuccess,
                  rocprofiler_query_buffer_tracing_kind_name(
                      ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, nullptr));
    EXPECT_STATUS(kSuccess,
                  rocprofiler_query_callback_tracing_kind_operation_name(
                      ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                      ROCPROFILER_KERNEL_REPLAY_PASS,
                      &name,
                      &len));
    EXPECT_STREQ(name, "PASS");
    EXPECT_EQ(len, 4u);

    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_iterate_callback_tracing_kinds(nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_iterate_buffer_tracing_kinds(nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_iterate_callback_tracing_kind_operations(kd, nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_iterate_buffer_tracing_kind_operations(
                      ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, nullptr));

    // A non-zero return stops the iteration.
    int calls = 0;
    EXPECT_STATUS(kSuccess,
                  rocprofiler_iterate_callback_tracing_kinds(
                      [](rocprofiler_callback_tracing_kind_t, void* data)
                      {
                          ++*static_cast<int*>(data);
                          return 1;
                      },
                      &calls));
    EXPECT_EQ(calls, 1);
    calls = 0;
    EXPECT_STATUS(kSuccess,
                  rocprofiler_iterate_callback_tracing_kind_operations(
                      kd,
                      [](rocprofiler_callback_tracing_kind_t, int32_t, void* data)
                      {
                          ++*static_cast<int*>(data);
                          return 0;
                      },
                      &calls));
    EXPECT_EQ(calls, ROCPROFILER_KERNEL_DISPATCH_LAST - 1);
}

// Counting services. Dispatch counting may or may not be built for the host device (both are
// documented); agent-wide counting is NOT_IMPLEMENTED everywhere.
TEST(api_errors, counting_services)
{
    REQUIRE_UNCONFIGURED();
    auto ctx     = new_context();
    auto unknown = rocprofiler_context_id_t{kUnknown};
    auto buf     = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_buffer_dispatch_counting_service(
                      unknown, buf, counting_dispatch_cb, nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_configure_buffer_dispatch_counting_service(ctx, buf, nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,
                  rocprofiler_configure_buffer_dispatch_counting_service(
                      ctx, rocprofiler_buffer_id_t{kUnknown}, counting_dispatch_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      unknown, counting_dispatch_cb, nullptr, counting_record_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      ctx, nullptr, nullptr, counting_record_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      ctx, counting_dispatch_cb, nullptr, nullptr, nullptr));

    auto first = rocprofiler_configure_buffer_dispatch_counting_service(
        ctx, buf, counting_dispatch_cb, nullptr);
    EXPECT_TRUE(first == kSuccess || first == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << rocprofiler_get_status_name(first);
    if(first == kSuccess)
    {
        // One dispatch counting service per context, in either form.
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
                      rocprofiler_configure_buffer_dispatch_counting_service(
                          ctx, buf, counting_dispatch_cb, nullptr));
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED,
                      rocprofiler_configure_callback_dispatch_counting_service(
                          ctx, counting_dispatch_cb, nullptr, counting_record_cb, nullptr));
    }

    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_configure_device_counting_service(
                      unknown, buf, {1}, device_counting_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_configure_device_counting_service(ctx, buf, {1}, nullptr, nullptr));
    size_t count = 0;
    auto   rec   = rocprofiler_counter_record_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,
                  rocprofiler_sample_device_counting_service(
                      unknown, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, &count));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_sample_device_counting_service(
                      ctx, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, nullptr));
    // A context without the service.
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID,
                  rocprofiler_sample_device_counting_service(
                      ctx, {}, ROCPROFILER_COUNTER_FLAG_NONE, &rec, &count));

    // Counter queries: argument checks.
    auto info0 = rocprofiler_counter_info_v0_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_counter_info({1}, ROCPROFILER_COUNTER_INFO_VERSION_0, nullptr));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_query_counter_info({1}, ROCPROFILER_COUNTER_INFO_VERSION_NONE, &info0));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_query_counter_info({1}, ROCPROFILER_COUNTER_INFO_VERSION_LAST, &info0));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_record_counter_id(1, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_record_dimension_position(1, 0, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND,
                  rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t{kUnknown}));
}

// Agent-wide counting is built on the host device (the last GPU agent); an unknown agent is
// refused. (Looking the agent up creates the device, which initializes the SDK: a test of its
// own.)
TEST(api_errors, device_counting_on_the_host_agent)
{
    REQUIRE_UNCONFIGURED();
    auto ctx = new_context();
    auto buf = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        kSuccess,
        rocprofiler_create_buffer(
            ctx, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_configure_device_counting_service(
                      ctx, buf, {kUnknown}, device_counting_cb, nullptr));
    EXPECT_STATUS(kSuccess,
                  rocprofiler_configure_device_counting_service(
                      ctx, buf, host_agent(), device_counting_cb, nullptr));
}

// ==================================== after configuration ====================================

TEST(api_errors, force_configure_then_locked)
{
    LOCK_CONFIGURATION();
    auto& t = tool();
    EXPECT_EQ(t.configure_calls.load(), 1);
    EXPECT_EQ(t.priority, 0u) << "the forced tool is the first client";
    EXPECT_EQ(t.initialize_calls.load(), 1);
    for(auto status : t.init_statuses)
        EXPECT_EQ(status, kSuccess) << rocprofiler_get_status_name(status);

    int value = -1;
    EXPECT_STATUS(kSuccess, rocprofiler_is_initialized(&value));
    EXPECT_EQ(value, 1);
    EXPECT_STATUS(kSuccess, rocprofiler_is_finalized(&value));
    EXPECT_EQ(value, 0);

    // Configuration calls are refused now.
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_force_configure(forced_configure));
    auto ctx = rocprofiler_context_id_t{0};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED, rocprofiler_create_context(&ctx));
    EXPECT_EQ(ctx.handle, 0u);
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
        rocprofiler_configure_callback_tracing_service(t.context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                       nullptr,
                                                       0,
                                                       dispatch_cb,
                                                       nullptr));
    auto buf = rocprofiler_buffer_id_t{};
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
        rocprofiler_create_buffer(
            t.context, 4096, 1024, ROCPROFILER_BUFFER_POLICY_LOSSLESS, buffer_cb, nullptr, &buf));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_configure_buffer_tracing_service(
                      t.context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, t.buffer));
    auto thread = rocprofiler_callback_thread_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_create_callback_thread(&thread));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_assign_callback_thread(t.buffer, rocprofiler_callback_thread_t{0}));
    const auto kd = ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH;
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_configure_external_correlation_id_request_service(
                      t.context, &kd, 1, request_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_configure_buffer_dispatch_counting_service(
                      t.context, t.buffer, counting_dispatch_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_configure_callback_dispatch_counting_service(
                      t.context, counting_dispatch_cb, nullptr, counting_record_cb, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,
                  rocprofiler_configure_device_counting_service(
                      t.context, t.buffer, {1}, device_counting_cb, nullptr));

    // What is not configuration still works.
    int active = -1;
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_active(t.context, &active));
    EXPECT_EQ(active, 1) << "started in initialize";
    // Starting an active context is SUCCESS.
    EXPECT_STATUS(kSuccess, rocprofiler_start_context(t.context));
    EXPECT_STATUS(kSuccess, rocprofiler_stop_context(t.context));
    EXPECT_STATUS(kSuccess, rocprofiler_stop_context(t.context));
    EXPECT_STATUS(kSuccess, rocprofiler_start_context(t.context));
    EXPECT_STATUS(kSuccess, rocprofiler_flush_buffer(t.buffer));
    auto tid = rocprofiler_thread_id_t{0};
    ASSERT_EQ(rocprofiler_get_thread_id(&tid), kSuccess);
    EXPECT_STATUS(kSuccess, rocprofiler_push_external_correlation_id(t.context, tid, {.value = 5}));
    EXPECT_STATUS(kSuccess, rocprofiler_pop_external_correlation_id(t.context, tid, nullptr));
}

namespace
{
void
noop_kernel(const rocprofiler_host_work_item_t*, void*)
{
}

// Dispatches one kernel on a fresh queue and waits for it.
void
dispatch_once()
{
    auto kernel = rocprofiler_host_kernel_t{};
    ASSERT_EQ(rocprofiler_host_register_kernel("api_errors_noop", noop_kernel, 0, 0, &kernel),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = kernel;
    params.grid           = {2, 1, 1};
    params.workgroup_size = {8, 1, 1};
    ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
}
} // namespace

// A stopped context delivers nothing; a started one delivers ENTER, EXIT and COMPLETE.
TEST(api_errors, stopped_context_delivers_nothing)
{
    LOCK_CONFIGURATION();
    auto& t = tool();
    ASSERT_EQ(rocprofiler_stop_context(t.context), kSuccess);
    auto before = t.callbacks.load();
    dispatch_once();
    EXPECT_EQ(t.callbacks.load(), before);
    ASSERT_EQ(rocprofiler_start_context(t.context), kSuccess);
    dispatch_once();
    EXPECT_EQ(t.callbacks.load(), before + 3);
}

// fini_func finalizes the client once; its context can no longer start; the SDK stays up.
TEST(api_errors, client_finalize)
{
    LOCK_CONFIGURATION();
    auto& t = tool();
    ASSERT_NE(t.fini, nullptr);
    t.fini(*t.client);
    EXPECT_EQ(t.finalize_calls.load(), 1);
    t.fini(*t.client);
    EXPECT_EQ(t.finalize_calls.load(), 1) << "a client is finalized once";
    int value = -1;
    EXPECT_STATUS(kSuccess, rocprofiler_context_is_active(t.context, &value));
    EXPECT_EQ(value, 0);
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID, rocprofiler_start_context(t.context));
    EXPECT_STATUS(kSuccess, rocprofiler_is_finalized(&value));
    EXPECT_EQ(value, 0) << "finalizing one client does not finalize the SDK";
    auto before = t.callbacks.load();
    dispatch_once();
    EXPECT_EQ(t.callbacks.load(), before);
}

// The agent queries create the device, which initializes the SDK: this test runs last when the
// binary runs as one process.
TEST(api_errors, agents_and_counters_of_agents)
{
    auto cb = [](rocprofiler_agent_version_t, const void**, size_t n, void* data)
    {
        *static_cast<size_t*>(data) = n;
        return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND; // propagated to the caller
    };
    size_t n = 0;
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0, nullptr, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_available_agents(
                      ROCPROFILER_AGENT_INFO_VERSION_NONE, cb, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_query_available_agents(
                      ROCPROFILER_AGENT_INFO_VERSION_LAST, cb, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_STATUS(
        ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI,
        rocprofiler_query_available_agents(
            ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t) + 8, &n));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_query_available_agents(
                      ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t), &n));
    EXPECT_GE(n, 1u);

    const auto agent       = host_agent();
    const auto unknown     = rocprofiler_agent_id_t{kUnknown};
    auto       counters_cb = [](rocprofiler_agent_id_t, rocprofiler_counter_id_t*, size_t, void*)
    { return ROCPROFILER_STATUS_SUCCESS; };
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_iterate_agent_supported_counters(agent, nullptr, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_iterate_agent_supported_counters(unknown, counters_cb, nullptr));
    // The host device's counters may or may not be built yet (both documented).
    auto listed = rocprofiler_iterate_agent_supported_counters(agent, counters_cb, nullptr);
    EXPECT_TRUE(listed == kSuccess || listed == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << rocprofiler_get_status_name(listed);

    auto ids    = std::vector<rocprofiler_counter_id_t>{{1}};
    auto config = rocprofiler_counter_config_id_t{};
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_counter_config(agent, nullptr, 1, &config));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_counter_config(agent, ids.data(), 0, &config));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,
                  rocprofiler_create_counter_config(agent, ids.data(), 1, nullptr));
    EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,
                  rocprofiler_create_counter_config(unknown, ids.data(), 1, &config));
    auto info0 = rocprofiler_counter_info_v0_t{};
    auto bogus = rocprofiler_counter_id_t{kUnknown};
    auto found = rocprofiler_query_counter_info(bogus, ROCPROFILER_COUNTER_INFO_VERSION_0, &info0);
    EXPECT_TRUE(found == ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND ||
                found == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED)
        << rocprofiler_get_status_name(found);
    if(listed == kSuccess)
    {
        auto bad_list = std::vector<rocprofiler_counter_id_t>{bogus};
        EXPECT_STATUS(ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,
                      rocprofiler_create_counter_config(agent, bad_list.data(), 1, &config));
    }
}
