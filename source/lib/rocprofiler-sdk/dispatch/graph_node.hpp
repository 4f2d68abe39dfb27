// Where a graph node's ids travel in a dispatch's info: the reserved padding of
// rocprofiler_kernel_dispatch_info_t (AMD's layout and size kept), in the layout that
// experimental/graph.h documents and reads; a marker word says "graph node", so that a zero
// padding is "launched directly".
#pragma once

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>

namespace rocprofiler::dispatch
{
struct graph_node
{
    uint64_t graph_id = 0;
    uint64_t node_id  = 0;
};

// Marks `info` as the dispatch of graph node `node`.
void set_graph_node(rocprofiler_kernel_dispatch_info_t& info, const graph_node& node);
} // namespace rocprofiler::dispatch
