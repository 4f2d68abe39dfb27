/**
 * @file experimental/graph.h
 * @brief Which graph node a kernel dispatch ran as (an extension of this SDK; AMD's
 * rocprofiler-sdk has no equivalent).
 *
 * On CUDA agents each kernel node of a graph launch (`cuGraphLaunch`, a captured stream, PyTorch's
 * CUDA graphs) is a kernel dispatch of its own: its own dispatch id, the graph launch's
 * correlation id, traced (callback and buffer) but never counted or replayed (under kernel replay
 * the graph launch is declined as `graph_launch`). This query tells such a dispatch from one
 * launched directly and names the graph and the node.
 *
 * The ids travel inside the dispatch info's `reserved_padding`, so records keep AMD's layout and
 * size, and the query below is an inline function of this header (a tool needs no library call to
 * read a record it keeps): the padding of a graph node starts with
 * @ref ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER, then the graph id and the node id (8 bytes each, in
 * the host's byte order); the rest stays zero. Every dispatch that is not a graph node keeps its
 * padding zero.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stdint.h>
#include <string.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @addtogroup BUFFER_TRACING_SERVICE
 * @{
 */

/** @brief The graph node a kernel dispatch ran as. */
typedef struct rocprofiler_dispatch_graph_node_t
{
    uint64_t size;     ///< Size of this struct
    uint64_t graph_id; ///< The graph's id (CUDA: CUPTI's graphId; unique in the process)
    uint64_t node_id;  ///< The node's id (CUDA: CUPTI's graphNodeId; unique in the process)
} rocprofiler_dispatch_graph_node_t;

/** @brief The first 8 bytes of a graph node's `reserved_padding`. */
#define ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER ROCPROFILER_UINT64_C(0x6e6f646567726170)

/**
 * @brief The graph node of a kernel dispatch, when it ran as one.
 * @param [in] dispatch_info The dispatch info of a record or callback of this SDK.
 * @param [out] node Receives the graph and node ids; its size is set.
 * @retval ROCPROFILER_STATUS_SUCCESS The dispatch is a kernel node of a graph launch.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE The dispatch was launched directly; `node` is
 * zeroed but for its size.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT An argument is NULL.
 */
static inline rocprofiler_status_t
rocprofiler_query_dispatch_graph_node(const rocprofiler_kernel_dispatch_info_t* dispatch_info,
                                      rocprofiler_dispatch_graph_node_t*        node)
{
    uint64_t marker = 0;
    if(dispatch_info == NULL || node == NULL) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    memset(node, 0, sizeof(*node));
    node->size = sizeof(*node);
    memcpy(&marker, dispatch_info->reserved_padding, sizeof(marker));
    if(marker != ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER)
        return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
    memcpy(&node->graph_id, dispatch_info->reserved_padding + 8, sizeof(node->graph_id));
    memcpy(&node->node_id, dispatch_info->reserved_padding + 16, sizeof(node->node_id));
    return ROCPROFILER_STATUS_SUCCESS;
}

/** @} */

ROCPROFILER_EXTERN_C_FINI
