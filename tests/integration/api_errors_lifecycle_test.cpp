// The configuration lifecycle through rocprofiler_force_configure: locked configuration, a
// stopped context that delivers nothing, and the client's finalize, in-process.
#include "api_errors_support.hpp"

#include <cstring>
#include <string>
#include <vector>

using namespace api_errors;

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
