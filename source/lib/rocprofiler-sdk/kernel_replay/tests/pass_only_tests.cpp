// A context subscribed to the replay domain's PASS operation only: the domain is configured (the
// tracker is on), but replay activation is keyed on CONFIG, so no dispatch is replayed.
#include "dispatch/dispatch.hpp"
#include "host/memory.hpp"
#include "kernel_replay/engine.hpp"

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>

namespace
{
std::atomic<int> replay_callbacks = 0;

void
replay_callback(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
    ++replay_callbacks;
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    auto ctx = rocprofiler_context_id_t{};
    if(rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS) std::abort();
    rocprofiler_tracing_operation_t ops[] = {ROCPROFILER_KERNEL_REPLAY_PASS};
    if(rocprofiler_configure_callback_tracing_service(
           ctx, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, ops, 1, replay_callback, nullptr) !=
       ROCPROFILER_STATUS_SUCCESS)
        std::abort();
    if(rocprofiler_start_context(ctx) != ROCPROFILER_STATUS_SUCCESS) std::abort();
    return 0;
}

rocprofiler_tool_configure_result_t*
tool_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "kernel-replay-pass-only";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_initialize, nullptr, nullptr};
    return &result;
}

void
add_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* a = *static_cast<int**>(args);
    a[item->global_linear_id] += 1;
}

TEST(replay_pass_only, does_not_activate_replay)
{
    EXPECT_TRUE(rocprofiler::kernel_replay::is_configured());
    void* mem = nullptr;
    ASSERT_EQ(rocprofiler_host_malloc(4096 * sizeof(int), &mem), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_GE(rocprofiler::host::tracked().allocations, 1u) << "configuring the domain tracks";
    auto* a = static_cast<int*>(mem);
    for(int i = 0; i < 4096; ++i)
        a[i] = i;
    auto kernel = rocprofiler_host_kernel_t{};
    ASSERT_EQ(rocprofiler_host_register_kernel("pass_only_add", add_kernel, 0, 0, &kernel),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto sig = rocprofiler_host_signal_t{};
    ASSERT_EQ(rocprofiler_host_create_signal(1, &sig), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = kernel;
    params.grid              = {64, 1, 1};
    params.workgroup_size    = {64, 1, 1};
    params.args              = &a;
    params.args_size         = sizeof(a);
    params.completion_signal = sig;
    ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, nullptr),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto value = int64_t{-99};
    rocprofiler_host_signal_load(sig, &value);
    EXPECT_EQ(value, 0);
    EXPECT_EQ(replay_callbacks.load(), 0) << "no CONFIG coverage: no candidate, no PASS";
    for(int i = 0; i < 4096; ++i)
        ASSERT_EQ(a[i], i + 1);
    rocprofiler_host_free(mem);
}
} // namespace

int
main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    if(rocprofiler_force_configure(&tool_configure) != ROCPROFILER_STATUS_SUCCESS) return 2;
    return RUN_ALL_TESTS();
}
