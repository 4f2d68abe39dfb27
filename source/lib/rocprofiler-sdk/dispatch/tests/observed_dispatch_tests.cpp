// A dispatch the adapter only observed after it ran (a CUDA graph's kernel node,
// dispatch::deliver_observed): a tool that traces kernel dispatches receives its COMPLETE callback
// with a dispatch id of its own and the correlation id, thread and times of the call that ran
// it, and no ENQUEUE.
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "dispatch/dispatch.hpp"
#include "sdk_test.hpp"

#include <mutex>
#include <vector>

namespace
{
struct seen
{
    int                                                 operation = 0;
    uint64_t                                            thread    = 0;
    uint64_t                                            internal  = 0;
    rocprofiler_callback_tracing_kernel_dispatch_data_t data      = {};
};
std::mutex        seen_mutex;
std::vector<seen> records;

void
on_dispatch(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    auto s      = seen{};
    s.operation = static_cast<int>(record.operation);
    s.thread    = record.thread_id;
    s.internal  = record.correlation_id.internal;
    s.data =
        *static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    auto lock = std::lock_guard{seen_mutex};
    records.push_back(s);
}

class observed_dispatch : public sdk_test::tool_fixture
{
protected:
    observed_dispatch()
        : tool_fixture{"observed-dispatch-tool",
                       []
                       {
                           sdk_test::start({sdk_test::callback_tracing_context(
                               ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, on_dispatch)});
                       }}
    {
    }
};
} // namespace

TEST_F(observed_dispatch, a_traced_observed_dispatch_completes_with_the_callers_ids)
{
    {
        auto lock = std::lock_guard{seen_mutex};
        records.clear();
    }
    auto observed                = rocprofiler::dispatch::observed_dispatch{};
    observed.info.agent          = sdk_test::gpu_agent();
    observed.info.queue          = rocprofiler_queue_id_t{0x1234};
    observed.info.kernel_id      = 42;
    observed.info.workgroup_size = {128, 1, 1};
    observed.info.grid_size      = {512, 2, 1};
    observed.info.kernel_name    = "graph_node";
    observed.internal_id         = rocprofiler::dispatch::next_correlation_id();
    observed.thread_id           = 777;
    observed.start_ns            = 1000;
    observed.end_ns              = 2000;
    const auto first             = rocprofiler::dispatch::deliver_observed(observed);
    const auto second            = rocprofiler::dispatch::deliver_observed(observed);
    EXPECT_NE(first, 0u);
    EXPECT_EQ(second, first + 1);
    auto lock = std::lock_guard{seen_mutex};
    ASSERT_EQ(records.size(), 2u);
    for(const auto& r : records)
    {
        EXPECT_EQ(r.operation, ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
        EXPECT_EQ(r.thread, 777u);
        EXPECT_EQ(r.internal, observed.internal_id);
        EXPECT_EQ(r.data.start_timestamp, 1000u);
        EXPECT_EQ(r.data.end_timestamp, 2000u);
        EXPECT_EQ(r.data.dispatch_info.kernel_id, 42u);
        EXPECT_EQ(r.data.dispatch_info.queue_id.handle, 0x1234u);
        EXPECT_EQ(r.data.dispatch_info.grid_size.x, 512u);
        EXPECT_EQ(r.data.dispatch_info.workgroup_size.x, 128u);
    }
    EXPECT_EQ(records[0].data.dispatch_info.dispatch_id, first);
    EXPECT_EQ(records[1].data.dispatch_info.dispatch_id, second);
}
