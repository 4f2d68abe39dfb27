// A dispatch the adapter only observed after it ran (a CUDA graph's kernel node,
// dispatch::deliver_observed): a tool that traces kernel dispatches receives its COMPLETE callback
// with a dispatch id of its own and the correlation id, thread and times of the call that ran
// it, and no ENQUEUE.
#include <rocprofiler-sdk/experimental/graph.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "dispatch/dispatch.hpp"

#include "correlation/correlation.hpp"
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
    observed.internal_id         = rocprofiler::correlation::next_id();
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

// A graph's kernel node names its graph and node through experimental/graph.h; a dispatch
// observed without a graph (and every launched dispatch) answers NOT_AVAILABLE, and the record
// keeps AMD's layout (the ids ride in the reserved padding).
TEST_F(observed_dispatch, a_graph_node_names_its_graph_and_node_through_the_query)
{
    {
        auto lock = std::lock_guard{seen_mutex};
        records.clear();
    }
    auto observed             = rocprofiler::dispatch::observed_dispatch{};
    observed.info.agent       = sdk_test::gpu_agent();
    observed.info.kernel_name = "graph_node";
    observed.internal_id      = rocprofiler::correlation::next_id();
    observed.graph            = rocprofiler::dispatch::graph_node{7, 0x1'0000'0002ULL};
    ASSERT_NE(rocprofiler::dispatch::deliver_observed(observed), 0u);
    observed.graph = std::nullopt;
    ASSERT_NE(rocprofiler::dispatch::deliver_observed(observed), 0u);

    auto lock = std::lock_guard{seen_mutex};
    ASSERT_EQ(records.size(), 2u);
    auto node = rocprofiler_dispatch_graph_node_t{};
    ASSERT_EQ(rocprofiler_query_dispatch_graph_node(&records[0].data.dispatch_info, &node),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(node.size, sizeof(node));
    EXPECT_EQ(node.graph_id, 7u);
    EXPECT_EQ(node.node_id, 0x1'0000'0002ULL);
    node.graph_id = 99;
    EXPECT_EQ(rocprofiler_query_dispatch_graph_node(&records[1].data.dispatch_info, &node),
              ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
    EXPECT_EQ(node.graph_id, 0u); // zeroed, not left as it was
    EXPECT_EQ(rocprofiler_query_dispatch_graph_node(nullptr, &node),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_query_dispatch_graph_node(&records[0].data.dispatch_info, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    // A zeroed info (every launched dispatch's padding) is not a graph node.
    const auto zero = rocprofiler_kernel_dispatch_info_t{};
    EXPECT_EQ(rocprofiler_query_dispatch_graph_node(&zero, &node),
              ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
}
