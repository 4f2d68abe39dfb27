// A program whose tool traces dispatches but never configures kernel replay: the tracker stays
// off, no dispatch is a candidate, and the isolation lock is never taken.
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
std::atomic<int> completes        = 0;
std::atomic<int> replay_callbacks = 0;

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) ++replay_callbacks;
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE) ++completes;
}

// The tool: one context tracing dispatches, no replay.
void
initialize_tool()
{
    completes        = 0;
    replay_callbacks = 0;
    sdk_test::start({sdk_test::callback_tracing_context(
        ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, dispatch_callback)});
}

constexpr char tool_name[] = "kernel-replay-unconfigured";
using replay_unconfigured  = sdk_test::tool_test<tool_name, initialize_tool>;

TEST_F(replay_unconfigured, tracker_is_off_and_dispatch_runs_once)
{
    EXPECT_FALSE(rocprofiler::kernel_replay::is_configured());
    const auto a = sdk_test::device_ints{4096};
    EXPECT_EQ(rocprofiler::host::tracked().allocations, 0u) << "the tracker is off";
    EXPECT_EQ(rocprofiler::host::tracked().bytes, 0u);

    auto kernel = sdk_test::register_kernel("unconfigured_add", sdk_test::increment_each);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto before = rocprofiler::dispatch::dispatch_count();
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &a.data(), sizeof(int*), 64, 64}), 0);
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), before + 1);
    EXPECT_EQ(completes.load(), 1);
    EXPECT_EQ(replay_callbacks.load(), 0);
    EXPECT_TRUE(a.incremented_once());
    EXPECT_EQ(rocprofiler::host::tracked().allocations, 0u);
}

// Without replay configured, try_replay declines before anything else and the ordinary
// dispatch bracket is a no-op.
TEST_F(replay_unconfigured, guard_is_free)
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
    // The bracket of an ordinary dispatch takes no lock and counts nothing.
    const auto hold =
        rocprofiler::kernel_replay::begin_ordinary(rocprofiler_agent_id_t{1}, *backend);
    EXPECT_EQ(hold.shared_lock, nullptr);
    EXPECT_FALSE(hold.counted);
    rocprofiler::kernel_replay::end_ordinary(hold);
    // Nor does a free hold any lock: no interceptor is installed.
    EXPECT_FALSE(rocprofiler::dispatch::interception_active());
}
} // namespace
