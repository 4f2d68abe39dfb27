// CUDA graph kernels in the kernel trace. A graph launch (cuGraphLaunch, which the runtime's
// cudaGraphLaunch, captured streams and PyTorch's CUDA graphs end in) runs its kernel nodes inside
// the driver, past the launch interposers: the adapter sees the launch through CUPTI's API
// callback and each kernel node through CUPTI's kernel activity record, which carries the graph id,
// the node id and the launch's (driver) correlation id. Each node becomes a dispatch of its own
// (dispatch::deliver_observed): its own dispatch id, the graph launch's correlation id and thread,
// the stream of the launch as queue, the kernel's name, grid, block and memory from the record,
// start and end from the record (on the SDK clock). Nodes are traced, never replayed or counted:
// under kernel replay the graph launch is one decline (graph_launch).
//
// Records reach the tracer only while CUPTI's kernel activity runs (cupti_activity.hpp: not when
// a context counts dispatches, nor with ROCPROFILER_CUDA_CUPTI=0, which also leaves graph launches
// unseen). A graph launch while a context counts is still seen: its nodes are in no output, so
// each such launch is counted, the first says so in a warning and the total is reported at exit
// (nothing is lost silently).
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "cuda/cupti/cupti_loader.hpp"
#include "dispatch/dispatch.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>

namespace rocprofiler::cuda::graph_kernels
{
// One kernel node's execution, as a CUPTI kernel activity record gives it.
struct kernel_node
{
    uint32_t    correlation_id = 0; // CUPTI's: the graph launch's driver call
    uint32_t    graph_id       = 0;
    uint64_t    node_id        = 0;
    uint32_t    device         = 0;       // CUDA device ordinal
    uint32_t    stream_id      = 0;       // CUPTI's stream id
    const char* name           = nullptr; // CUPTI's (mangled), valid while the record is
    uint32_t    grid[3]        = {1, 1, 1};
    uint32_t    block[3]       = {1, 1, 1};
    uint32_t    shared_bytes   = 0; // static and dynamic, per block
    uint32_t    local_bytes    = 0; // per thread
    uint64_t    start_ns       = 0;
    uint64_t    end_ns         = 0;
};

// The kernel node of a KERNEL or CONCURRENT_KERNEL activity record (CUpti_ActivityKernel10) that a
// graph launch ran (graphId not 0); nothing for any other record.
std::optional<kernel_node> decode(const CUpti_Activity& record);

// What the graph launch's API callback fixed on the launching thread.
struct graph_launch
{
    uint64_t internal_id = 0; // the SDK's correlation id of the launch
    uint64_t ancestor_id = 0; // the operation the launch was made in, or 0
    uint64_t thread_id   = 0;
    CUstream stream      = nullptr;
    bool     per_thread  = false; // cuGraphLaunch_ptsz: stream 0 is the per-thread stream
};

// Where a node's dispatch goes: dispatch::deliver_observed in the process, a recorder in tests.
// Returns the dispatch id (0: nobody traces).
using dispatch_sink =
    std::function<uint64_t(const dispatch::observed_dispatch&, const kernel_node&)>;
// The agent of a CUDA device ordinal, when the agent list has it.
using agent_lookup = std::function<std::optional<rocprofiler_agent_id_t>(uint32_t device)>;
// The kernel id of a node's kernel (registered with CODE_OBJECT tracing for `agent`), and its
// name as records give it (valid for the process).
struct kernel_ref
{
    uint64_t    id   = 0;
    const char* name = "";
};
using kernel_lookup = std::function<kernel_ref(const kernel_node&, rocprofiler_agent_id_t)>;

// Counts, for the report at exit and for tests.
struct tracer_stats
{
    uint64_t launches  = 0; // graph launches seen
    uint64_t nodes     = 0; // kernel node records
    uint64_t delivered = 0; // turned into dispatches
    uint64_t unmatched = 0; // records whose launch was not seen (or forgotten)
    uint64_t no_agent  = 0; // records of a device without agent
    uint64_t untraced  = 0; // launches whose nodes no record shows (kernel activity was off)
};

// Graph launches by CUPTI correlation id, and their kernel records turned into dispatches.
// Thread-safe: launches arrive on application threads, records on CUPTI's buffer thread.
class tracer
{
public:
    // `max_launches`: launches remembered (oldest forgotten first); a launch's records arrive
    // later than it, in buffers CUPTI flushes.
    tracer(dispatch_sink sink, agent_lookup agents, kernel_lookup kernels, size_t max_launches);

    // A graph launch entered the driver, with CUPTI's correlation id. `nodes_traced`: CUPTI's
    // kernel activity runs, so its nodes' records will follow; when it does not (a context counts
    // dispatches), the launch is counted as untraced and not remembered. Returns true for the
    // first untraced launch (the caller warns once).
    bool on_launch(uint32_t cupti_id, const graph_launch& launch, bool nodes_traced = true);

    // One activity record; true when it is a graph's kernel node (then handled here, also when
    // its launch is unknown), false for every other record.
    bool on_record(const CUpti_Activity& record);

    tracer_stats stats() const;

private:
    mutable std::mutex                         m_mutex    = {};
    std::unordered_map<uint32_t, graph_launch> m_launches = {};
    std::deque<uint32_t>                       m_order    = {};
    size_t                                     m_max      = 0;
    tracer_stats                               m_stats    = {};
    dispatch_sink                              m_sink;
    agent_lookup                               m_agents;
    kernel_lookup                              m_kernels;
};

// The launch fields of a CUPTI driver API callback of cuGraphLaunch or cuGraphLaunch_ptsz at its
// ENTER site (its parameters: cuGraphLaunch_params), with the SDK's ids given; nothing for
// another callback or site.
std::optional<graph_launch> launch_of(CUpti_CallbackId          cbid,
                                      const CUpti_CallbackData& data,
                                      uint64_t                  internal_id,
                                      uint64_t                  ancestor_id,
                                      uint64_t                  thread_id);

// The process's tracer: started once some context may want dispatches (routes the graph launch
// callbacks; later calls return at once). Under kernel replay each graph launch is reported as a
// graph_launch decline.
void start();

// CUPTI's buffer callback hands each record here first: true when the process's tracer took it.
bool on_record(const CUpti_Activity& record);
} // namespace rocprofiler::cuda::graph_kernels
