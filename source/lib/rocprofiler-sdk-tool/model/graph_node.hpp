// The graph node a dispatch ran as (a CUDA graph's kernel node), for every output that shows it:
// the SDK's experimental/graph.h query, as an optional.
#pragma once

#include <rocprofiler-sdk/experimental/graph.h>
#include <rocprofiler-sdk/fwd.h>

#include <optional>

namespace rocprofiler::tool
{
inline std::optional<rocprofiler_dispatch_graph_node_t>
graph_node_of(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto node = rocprofiler_dispatch_graph_node_t{};
    if(rocprofiler_query_dispatch_graph_node(&info, &node) != ROCPROFILER_STATUS_SUCCESS)
        return std::nullopt;
    return node;
}
} // namespace rocprofiler::tool
