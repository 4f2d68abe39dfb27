// CUDA graph kernels in the kernel trace (cuda/tracing/graph_kernels.hpp), without a GPU:
// hand-built CUPTI kernel activity records (CUpti_ActivityKernel10, graph and node ids set) and
// graph launch callbacks (CUpti_CallbackData with cuGraphLaunch_params), walked through a
// hand-written activity table (cuda/cupti/cupti_call.hpp) and turned into dispatches by the tracer,
// whose pipeline sink and agent and kernel lookups are the test's.
#include "cuda/cupti/cupti_call.hpp"
#include "cuda/tracing/graph_kernels.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

namespace gk = rocprofiler::cuda::graph_kernels;
using rocprofiler::dispatch::observed_dispatch;

namespace
{
CUpti_ActivityKernel10
kernel_record(uint32_t correlation, uint32_t graph, uint64_t node, const char* name)
{
    auto k                 = CUpti_ActivityKernel10{};
    k.kind                 = CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL;
    k.correlationId        = correlation;
    k.graphId              = graph;
    k.graphNodeId          = node;
    k.deviceId             = 0;
    k.streamId             = 13;
    k.name                 = name;
    k.gridX                = 4;
    k.gridY                = 2;
    k.gridZ                = 1;
    k.blockX               = 128;
    k.blockY               = 1;
    k.blockZ               = 1;
    k.staticSharedMemory   = 1024;
    k.dynamicSharedMemory  = 512;
    k.localMemoryPerThread = 16;
    k.start                = 1000 + node * 100;
    k.end                  = 1050 + node * 100;
    return k;
}

struct recorder
{
    std::vector<observed_dispatch> dispatches = {};
    std::vector<uint64_t>          nodes      = {};
    uint64_t                       next_id    = 0;

    gk::tracer make(size_t max_launches = 16)
    {
        return gk::tracer{[this](const observed_dispatch& d, const gk::kernel_node& n)
                          {
                              dispatches.push_back(d);
                              nodes.push_back(n.node_id);
                              return ++next_id;
                          },
                          [](uint32_t device) -> std::optional<rocprofiler_agent_id_t>
                          {
                              if(device > 1) return std::nullopt;
                              return rocprofiler_agent_id_t{100 + device};
                          },
                          [](const gk::kernel_node& n, rocprofiler_agent_id_t) {
                              return gk::kernel_ref{std::strlen(n.name), "a_kernel"};
                          },
                          max_launches};
    }
};

gk::graph_launch
launch(uint64_t internal, CUstream stream)
{
    auto l        = gk::graph_launch{};
    l.internal_id = internal;
    l.ancestor_id = 3;
    l.thread_id   = 77;
    l.stream      = stream;
    return l;
}

const auto stream_a = reinterpret_cast<CUstream>(uintptr_t{0x7f0000001000});

// A buffer of kernel records laid out one after another, walked by a hand-written
// cuptiActivityGetNextRecord that ends with CUPTI_ERROR_MAX_LIMIT_REACHED as CUPTI documents.

CUptiResult CUPTIAPI
fake_next_record(uint8_t* buffer, size_t valid, CUpti_Activity** record)
{
    auto*      first = reinterpret_cast<CUpti_ActivityKernel10*>(buffer);
    const auto count = valid / sizeof(CUpti_ActivityKernel10);
    auto*      next =
        (*record == nullptr) ? first : reinterpret_cast<CUpti_ActivityKernel10*>(*record) + 1;
    if(next >= first + count) return CUPTI_ERROR_MAX_LIMIT_REACHED;
    *record = reinterpret_cast<CUpti_Activity*>(next);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_result_string(CUptiResult result, const char** text)
{
    *text = result == CUPTI_ERROR_NOT_SUPPORTED ? "the operation is not supported" : nullptr;
    return CUPTI_SUCCESS;
}
} // namespace

TEST(graph_kernels, decode_reads_a_graph_node_from_a_kernel_record)
{
    auto rec  = kernel_record(41, 7, 42, "_Z4stepPf");
    auto node = gk::decode(reinterpret_cast<const CUpti_Activity&>(rec));
    ASSERT_TRUE(node.has_value());
    EXPECT_EQ(node->correlation_id, 41u);
    EXPECT_EQ(node->graph_id, 7u);
    EXPECT_EQ(node->node_id, 42u);
    EXPECT_EQ(node->stream_id, 13u);
    EXPECT_STREQ(node->name, "_Z4stepPf");
    EXPECT_EQ(node->grid[0], 4u);
    EXPECT_EQ(node->grid[1], 2u);
    EXPECT_EQ(node->block[0], 128u);
    EXPECT_EQ(node->shared_bytes, 1536u);
    EXPECT_EQ(node->local_bytes, 16u);
    EXPECT_EQ(node->start_ns, 5200u);
    EXPECT_EQ(node->end_ns, 5250u);
}

TEST(graph_kernels, decode_leaves_launched_kernels_and_other_records_alone)
{
    auto plain = kernel_record(41, 0, 0, "_Z4stepPf");
    EXPECT_FALSE(gk::decode(reinterpret_cast<const CUpti_Activity&>(plain)).has_value());
    auto copy = kernel_record(41, 7, 1, "x");
    copy.kind = CUPTI_ACTIVITY_KIND_MEMCPY;
    EXPECT_FALSE(gk::decode(reinterpret_cast<const CUpti_Activity&>(copy)).has_value());
    auto legacy = kernel_record(41, 7, 1, "x");
    legacy.kind = CUPTI_ACTIVITY_KIND_KERNEL;
    EXPECT_TRUE(gk::decode(reinterpret_cast<const CUpti_Activity&>(legacy)).has_value());
}

TEST(graph_kernels, each_node_of_a_launch_is_a_dispatch_with_the_launchs_correlation)
{
    auto rec = recorder{};
    auto t   = rec.make();
    t.on_launch(500, launch(9001, stream_a));
    auto a = kernel_record(500, 3, 1, "_Z1av");
    auto b = kernel_record(500, 3, 2, "_Z1bv");
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(a)));
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(b)));
    ASSERT_EQ(rec.dispatches.size(), 2u);
    EXPECT_EQ(rec.nodes, (std::vector<uint64_t>{1, 2}));
    for(const auto& d : rec.dispatches)
    {
        EXPECT_EQ(d.internal_id, 9001u);
        EXPECT_EQ(d.ancestor_id, 3u);
        EXPECT_EQ(d.thread_id, 77u);
        EXPECT_EQ(d.info.agent.handle, 100u);
        EXPECT_EQ(d.info.queue.handle, reinterpret_cast<uint64_t>(stream_a));
        EXPECT_EQ(d.info.grid_size.x, 4u * 128u);
        EXPECT_EQ(d.info.grid_size.y, 2u);
        EXPECT_EQ(d.info.workgroup_size.x, 128u);
        EXPECT_EQ(d.info.group_segment_size, 1536u);
        EXPECT_EQ(d.info.private_segment_size, 16u);
        EXPECT_STREQ(d.info.kernel_name, "a_kernel");
        EXPECT_EQ(d.info.kernel_id, 5u); // the test's lookup: the mangled name's length
    }
    EXPECT_EQ(rec.dispatches[0].start_ns, 1100u);
    EXPECT_EQ(rec.dispatches[1].end_ns, 1250u);
    // Each dispatch names its graph and node (experimental/graph.h reads them from the record).
    ASSERT_TRUE(rec.dispatches[0].graph.has_value());
    EXPECT_EQ(rec.dispatches[0].graph->graph_id, 3u);
    EXPECT_EQ(rec.dispatches[0].graph->node_id, 1u);
    ASSERT_TRUE(rec.dispatches[1].graph.has_value());
    EXPECT_EQ(rec.dispatches[1].graph->node_id, 2u);
    const auto s = t.stats();
    EXPECT_EQ(s.launches, 1u);
    EXPECT_EQ(s.nodes, 2u);
    EXPECT_EQ(s.delivered, 2u);
    EXPECT_EQ(s.unmatched, 0u);
}

TEST(graph_kernels, the_default_streams_of_a_launch_are_queues_as_for_launches)
{
    auto rec           = recorder{};
    auto t             = rec.make();
    auto legacy        = launch(1, nullptr);
    auto per_thr       = launch(2, nullptr);
    per_thr.per_thread = true;
    t.on_launch(10, legacy);
    t.on_launch(11, per_thr);
    auto a     = kernel_record(10, 1, 1, "k");
    auto b     = kernel_record(11, 1, 1, "k");
    b.deviceId = 1;
    t.on_record(reinterpret_cast<const CUpti_Activity&>(a));
    t.on_record(reinterpret_cast<const CUpti_Activity&>(b));
    ASSERT_EQ(rec.dispatches.size(), 2u);
    EXPECT_EQ(rec.dispatches[0].info.queue.handle, 0x10u);                      // legacy, device 0
    EXPECT_EQ(rec.dispatches[1].info.queue.handle, (uint64_t{77} << 8) | 0x81); // thread 77, dev 1
    EXPECT_EQ(rec.dispatches[1].info.agent.handle, 101u);
}

TEST(graph_kernels, records_of_unknown_launches_or_devices_are_counted_not_delivered)
{
    auto rec = recorder{};
    auto t   = rec.make(2);
    t.on_launch(1, launch(11, stream_a));
    t.on_launch(2, launch(12, stream_a));
    t.on_launch(3, launch(13, stream_a)); // launch 1 is forgotten
    auto forgotten = kernel_record(1, 1, 1, "k");
    auto unknown   = kernel_record(99, 1, 1, "k");
    auto far       = kernel_record(3, 1, 1, "k");
    far.deviceId   = 5; // no agent
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(forgotten)));
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(unknown)));
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(far)));
    auto plain = kernel_record(2, 0, 0, "k");
    EXPECT_FALSE(t.on_record(reinterpret_cast<const CUpti_Activity&>(plain)));
    EXPECT_TRUE(rec.dispatches.empty());
    const auto s = t.stats();
    EXPECT_EQ(s.nodes, 3u);
    EXPECT_EQ(s.unmatched, 2u);
    EXPECT_EQ(s.no_agent, 1u);
    EXPECT_EQ(s.delivered, 0u);
}

// While CUPTI's kernel activity is off (a context counts dispatches) no node record will come: each
// graph launch is counted as untraced (the process warns on the first and reports the total at
// exit), not remembered, and a traced launch afterwards is handled as before.
TEST(graph_kernels, launches_without_kernel_activity_are_counted_as_untraced)
{
    auto rec = recorder{};
    auto t   = rec.make();
    EXPECT_TRUE(t.on_launch(7, launch(70, stream_a), false)) << "the first untraced launch";
    EXPECT_FALSE(t.on_launch(8, launch(80, stream_a), false));
    EXPECT_FALSE(t.on_launch(9, launch(90, stream_a), false));
    auto stray = kernel_record(8, 2, 1, "k"); // not remembered: unmatched, never delivered
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(stray)));
    EXPECT_TRUE(rec.dispatches.empty());
    EXPECT_FALSE(t.on_launch(10, launch(100, stream_a))) << "a traced launch warns nothing";
    auto node = kernel_record(10, 2, 1, "k");
    EXPECT_TRUE(t.on_record(reinterpret_cast<const CUpti_Activity&>(node)));
    ASSERT_EQ(rec.dispatches.size(), 1u);
    EXPECT_EQ(rec.dispatches[0].internal_id, 100u);
    const auto s = t.stats();
    EXPECT_EQ(s.launches, 4u);
    EXPECT_EQ(s.untraced, 3u);
    EXPECT_EQ(s.unmatched, 1u);
    EXPECT_EQ(s.delivered, 1u);
}

TEST(graph_kernels, a_buffer_walked_through_the_activity_table_gives_nodes_in_order)
{
    auto buffer = std::vector<CUpti_ActivityKernel10>{kernel_record(7, 2, 1, "k"),
                                                      kernel_record(7, 0, 0, "launched"),
                                                      kernel_record(7, 2, 2, "k"),
                                                      kernel_record(7, 2, 3, "k")};
    auto table  = rocprofiler::cuda::cupti_activity_table{};
    table.cuptiActivityGetNextRecord = fake_next_record;
    auto rec                         = recorder{};
    auto t                           = rec.make();
    t.on_launch(7, launch(70, stream_a));
    auto       taken = 0;
    const auto walked =
        rocprofiler::cuda::for_each_activity_record(table,
                                                    reinterpret_cast<uint8_t*>(buffer.data()),
                                                    buffer.size() * sizeof(buffer[0]),
                                                    [&](const CUpti_Activity* r)
                                                    {
                                                        if(t.on_record(*r)) ++taken;
                                                    });
    EXPECT_EQ(walked, 4u);
    EXPECT_EQ(taken, 3);
    EXPECT_EQ(rec.nodes, (std::vector<uint64_t>{1, 2, 3}));
}

TEST(graph_kernels, the_graph_launch_callback_gives_stream_and_variant_at_enter_only)
{
    auto params         = cuGraphLaunch_params{};
    params.hStream      = stream_a;
    auto data           = CUpti_CallbackData{};
    data.callbackSite   = CUPTI_API_ENTER;
    data.functionParams = &params;
    data.correlationId  = 12;
    auto l              = gk::launch_of(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, data, 5, 4, 3);
    ASSERT_TRUE(l.has_value());
    EXPECT_EQ(l->stream, stream_a);
    EXPECT_FALSE(l->per_thread);
    EXPECT_EQ(l->internal_id, 5u);
    EXPECT_EQ(l->ancestor_id, 4u);
    EXPECT_EQ(l->thread_id, 3u);
    l = gk::launch_of(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch_ptsz, data, 5, 4, 3);
    ASSERT_TRUE(l.has_value());
    EXPECT_TRUE(l->per_thread);
    EXPECT_FALSE(gk::launch_of(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel, data, 5, 4, 3));
    data.callbackSite = CUPTI_API_EXIT;
    EXPECT_FALSE(gk::launch_of(CUPTI_DRIVER_TRACE_CBID_cuGraphLaunch, data, 5, 4, 3));
}

TEST(cupti_call, a_failure_names_the_call_and_cuptis_message)
{
    EXPECT_EQ(rocprofiler::cuda::cupti_failure(
                  "cuptiPCSamplingEnable(&params)", CUPTI_ERROR_NOT_SUPPORTED, fake_result_string),
              "cuptiPCSamplingEnable(&params) failed: the operation is not supported");
    EXPECT_TRUE(rocprofiler::cuda::cupti_ok(CUPTI_SUCCESS, "x", fake_result_string));
    EXPECT_FALSE(rocprofiler::cuda::cupti_ok(CUPTI_ERROR_NOT_SUPPORTED, "x", fake_result_string));
}

TEST(graph_kernels, an_observed_dispatch_without_tracing_contexts_reserves_nothing)
{
    auto observed             = observed_dispatch{};
    observed.info.kernel_name = "k";
    EXPECT_EQ(rocprofiler::dispatch::deliver_observed(observed), 0u);
}
