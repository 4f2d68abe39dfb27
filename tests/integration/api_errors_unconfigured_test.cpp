// Bad input to the C API before configuration is locked (misc queries, contexts, tracing
// services, buffers, callback threads, external correlation, names), in-process (linked with
// rocprofiler-sdk-static). Each test asserts the exact status its header documents.
#include "api_errors_support.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace api_errors;

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
