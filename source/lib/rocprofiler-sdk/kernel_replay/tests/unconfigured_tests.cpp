// A program whose tool traces dispatches but never configures kernel replay: the tracker stays
// off, no dispatch is a candidate, and the isolation lock is never taken.
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
std::atomic<int> completes        = 0;
std::atomic<int> replay_callbacks = 0;

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) ++replay_callbacks;
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE) ++completes;
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    auto ctx = rocprofiler_context_id_t{};
    if(rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS) std::abort();
    if(rocprofiler_configure_callback_tracing_service(ctx,
                                                      ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                      nullptr,
                                                      0,
                                                      dispatch_callback,
                                                      nullptr) != ROCPROFILER_STATUS_SUCCESS)
        std::abort();
    if(rocprofiler_start_context(ctx) != ROCPROFILER_STATUS_SUCCESS) std::abort();
    return 0;
}

rocprofiler_tool_configure_result_t*
tool_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "kernel-replay-unconfigured";
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

TEST(replay_unconfigured, tracker_is_off_and_dispatch_runs_once)
{
    EXPECT_FALSE(rocprofiler::kernel_replay::is_configured());
    void* mem = nullptr;
    ASSERT_EQ(rocprofiler_host_malloc(4096 * sizeof(int), &mem), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler::host::tracked().allocations, 0u) << "the tracker is off";
    EXPECT_EQ(rocprofiler::host::tracked().bytes, 0u);

    auto* a = static_cast<int*>(mem);
    for(int i = 0; i < 4096; ++i)
        a[i] = i;
    auto kernel = rocprofiler_host_kernel_t{};
    ASSERT_EQ(rocprofiler_host_register_kernel("unconfigured_add", add_kernel, 0, 0, &kernel),
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
    auto before              = rocprofiler::dispatch::dispatch_count();
    ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, nullptr),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto value = int64_t{-99};
    rocprofiler_host_signal_load(sig, &value);
    EXPECT_EQ(value, 0);
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), before + 1);
    EXPECT_EQ(completes.load(), 1);
    EXPECT_EQ(replay_callbacks.load(), 0);
    for(int i = 0; i < 4096; ++i)
        ASSERT_EQ(a[i], i + 1);
    EXPECT_EQ(rocprofiler::host::tracked().allocations, 0u);
    rocprofiler_host_free(mem);
}

// Without replay configured, try_replay declines before anything else and the ordinary
// dispatch guard is a no-op.
TEST(replay_unconfigured, guard_is_free)
{
    struct never_used final : rocprofiler::dispatch::launch_backend
    {
        void enqueue(rocprofiler::dispatch::completion_fn,
                     std::shared_ptr<const rocprofiler::dispatch::execution_request>) override
        {
        }
        void signal_application(const rocprofiler::dispatch::execution_result&) override {}
    };
    auto backend =
        std::shared_ptr<rocprofiler::dispatch::launch_backend>{std::make_shared<never_used>()};
    auto dispatch = rocprofiler::dispatch::logical_dispatch{};
    EXPECT_FALSE(rocprofiler::kernel_replay::try_replay(dispatch, backend));
    auto guard =
        rocprofiler::kernel_replay::ordinary_dispatch_guard{rocprofiler_agent_id_t{1}, *backend};
    (void)guard;
}
} // namespace

int
main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    if(rocprofiler_force_configure(&tool_configure) != ROCPROFILER_STATUS_SUCCESS) return 2;
    return RUN_ALL_TESTS();
}
