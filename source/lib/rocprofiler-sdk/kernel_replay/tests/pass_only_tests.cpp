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

// The tool: one context subscribed to the replay domain's PASS operation only.
void
initialize_tool()
{
    replay_callbacks = 0;
    sdk_test::start({sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                        replay_callback,
                                                        nullptr,
                                                        {ROCPROFILER_KERNEL_REPLAY_PASS})});
}

constexpr char tool_name[] = "kernel-replay-pass-only";
using replay_pass_only     = sdk_test::tool_test<tool_name, initialize_tool>;

TEST_F(replay_pass_only, does_not_activate_replay)
{
    const auto a = sdk_test::device_ints{4096};
    EXPECT_TRUE(rocprofiler::kernel_replay::is_configured());
    EXPECT_GE(rocprofiler::host::tracked().allocations, 1u) << "configuring the domain tracks";
    auto kernel = sdk_test::register_kernel("pass_only_add", sdk_test::increment_each);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &a.data(), sizeof(int*), 64, 64}), 0);
    EXPECT_EQ(replay_callbacks.load(), 0) << "no CONFIG coverage: no candidate, no PASS";
    EXPECT_TRUE(a.incremented_once());
}
} // namespace
