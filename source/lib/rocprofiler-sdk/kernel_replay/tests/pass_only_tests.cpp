// A context subscribed to the replay domain's PASS operation only: the domain is configured (the
// tracker is on), but replay activation is keyed on CONFIG, so no dispatch is replayed.
#include "dispatch/dispatch.hpp"
#include "host/memory.hpp"
#include "kernel_replay/engine.hpp"

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <atomic>

#include "sdk_test.hpp"

namespace
{
std::atomic<int> replay_callbacks = 0;

void
replay_callback(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
    ++replay_callbacks;
}

void
add_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* a = *static_cast<int**>(args);
    a[item->global_linear_id] += 1;
}

// The tool: one context subscribed to the replay domain's PASS operation only.
class replay_pass_only : public ::testing::Test
{
protected:
    void SetUp() override
    {
        replay_callbacks = 0;
        ASSERT_EQ(sdk_test::configure_tool("kernel-replay-pass-only",
                                           []
                                           {
                                               sdk_test::start({sdk_test::callback_tracing_context(
                                                   ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                   replay_callback,
                                                   nullptr,
                                                   {ROCPROFILER_KERNEL_REPLAY_PASS})});
                                           }),
                  ROCPROFILER_STATUS_SUCCESS);
    }
};

TEST_F(replay_pass_only, does_not_activate_replay)
{
    EXPECT_TRUE(rocprofiler::kernel_replay::is_configured());
    void* mem = nullptr;
    ASSERT_EQ(rocprofiler_host_malloc(4096 * sizeof(int), &mem), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_GE(rocprofiler::host::tracked().allocations, 1u) << "configuring the domain tracks";
    auto* a = static_cast<int*>(mem);
    for(int i = 0; i < 4096; ++i)
        a[i] = i;
    auto kernel = sdk_test::register_kernel("pass_only_add", add_kernel);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &a, sizeof(a), 64, 64}), 0);
    EXPECT_EQ(replay_callbacks.load(), 0) << "no CONFIG coverage: no candidate, no PASS";
    for(int i = 0; i < 4096; ++i)
        ASSERT_EQ(a[i], i + 1);
    rocprofiler_host_free(mem);
}
} // namespace
