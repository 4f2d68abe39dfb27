#include "dispatch/graph_node.hpp"

#include <rocprofiler-sdk/experimental/graph.h>

#include <cstring>

namespace rocprofiler::dispatch
{
// The layout experimental/graph.h reads: the marker, the graph id, the node id.
static_assert(sizeof(rocprofiler_kernel_dispatch_info_t::reserved_padding) >= 24,
              "the padding holds the marker and both ids");

void
set_graph_node(rocprofiler_kernel_dispatch_info_t& info, const graph_node& node)
{
    const uint64_t marker = ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER;
    std::memcpy(info.reserved_padding, &marker, sizeof(marker));
    std::memcpy(info.reserved_padding + 8, &node.graph_id, sizeof(node.graph_id));
    std::memcpy(info.reserved_padding + 16, &node.node_id, sizeof(node.node_id));
}
} // namespace rocprofiler::dispatch
