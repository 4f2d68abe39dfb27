// The model of what the tool collects: plain records as capture/ makes them from the SDK's
// records and every sink reads them. No I/O handle, no format: a record says what happened, the
// sinks (csv/, json/, rocpd/, pftrace/) say how a file shows it.
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
// An agent, with its strings copied (the SDK's pointers are only valid during the query).
struct agent_entry
{
    rocprofiler_agent_v0_t info         = {};
    std::string            name         = {};
    std::string            vendor_name  = {};
    std::string            product_name = {};
    std::string            model_name   = {};
    // Counters the agent reports, or why it reports none (a status name such as
    // ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED).
    std::optional<std::string> counters_error = {};
};

struct counter_entry
{
    uint64_t               id          = 0;
    rocprofiler_agent_id_t agent       = {};
    std::string            name        = {};
    std::string            description = {};
    std::string            block       = {};
    std::string            expression  = {};
    bool                   is_constant = false;
    bool                   is_derived  = false;
};

// A kernel as CODE_OBJECT tracing reported it
// (ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER), or a placeholder for a kernel id that
// was never reported (reported = false, name kernel_<id>, every size and count 0).
struct kernel_symbol
{
    uint64_t    kernel_id                 = 0;
    uint64_t    code_object_id            = 0;
    std::string name                      = {};
    uint64_t    kernel_object             = 0;
    uint32_t    kernarg_segment_size      = 0;
    uint32_t    kernarg_segment_alignment = 0;
    uint32_t    group_segment_size        = 0;
    uint32_t    private_segment_size      = 0;
    uint32_t    sgpr_count                = 0;
    uint32_t    arch_vgpr_count           = 0;
    uint32_t    accum_vgpr_count          = 0;
    bool        reported                  = true;
};

// A code object as CODE_OBJECT tracing reported it (ROCPROFILER_CODE_OBJECT_LOAD).
struct code_object_entry
{
    uint64_t               id         = 0;
    rocprofiler_agent_id_t agent      = {};
    std::string            uri        = {};
    uint64_t               load_base  = 0;
    uint64_t               load_size  = 0;
    int64_t                load_delta = 0;
};

// One counter's value for one dispatch (instances summed), as counter_collection.csv shows it.
struct counter_value
{
    uint64_t    counter_id = 0;
    std::string name       = {};
    double      value      = 0.0;
};

// The counters of one executed pass of one dispatch.
struct counter_dispatch
{
    rocprofiler_dispatch_counting_service_data_t data        = {};
    uint64_t                                     thread_id   = 0;
    std::optional<uint64_t>                      replay_pass = {}; // set under kernel replay
    std::vector<counter_value>                   values      = {};
};

// What became of one dispatch that rocprofv3 asked to replay (its agent collects several groups
// and the filters accept it), as the SDK's outcome callback reported it
// (experimental/kernel_replay_outcome.h).
struct replay_outcome
{
    uint64_t                                 dispatch_id = 0;
    rocprofiler_agent_id_t                   agent       = {};
    uint64_t                                 kernel_id   = 0;
    rocprofiler_kernel_replay_outcome_kind_t kind = ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED;
    std::string reason         = {}; // as the SDK names it: "none", "footprint_budget", ...
    uint64_t    passes_run     = 0;
    uint64_t    passes_planned = 0; // what rocprofv3 asked for: one pass per group
    uint64_t    snapshot_bytes = 0;
    uint64_t    written_bytes  = 0;
    uint64_t    verified_bytes = 0;
    uint64_t    failed_pass    = 0; // meaningful for reason "write_outside_snapshot"
};

// How the run of the outputs ended, as metadata.end of results.json says.
struct run_end
{
    enum kind_t
    {
        running, // a checkpoint written during the run
        exit,    // the tool finalized normally
        signal,  // the tool's signal handler finalized after a fatal or termination signal
    };
    kind_t kind   = running;
    int    number = 0; // the signal
};

// One row of marker_api_trace.csv: a mark (start == end), a range from its push (or start) to its
// pop (or stop), or another marker call around its duration. `domain` is the kind's name
// ("MARKER_CORE_API"), `function` the range's or mark's message, else the function's name.
// The rows of cuda_api_trace.csv have the same columns: a CUDA runtime or driver call, `domain`
// its kind's name ("CUDA_RUNTIME_API"), `function` the entry point ("cudaMalloc").
struct marker_event
{
    std::string domain         = {};
    std::string function       = {};
    uint64_t    thread_id      = 0;
    uint64_t    correlation_id = 0; // the push's, start's or mark's call
    uint64_t    start          = 0;
    uint64_t    end            = 0;
    // A roctxRangeStartA/Stop range: process-wide, so it need not nest with the thread's other
    // rows (the Perfetto trace puts these on a track of their own).
    bool process_range = false;
};

// How the CSV files name an agent (rocprofv3 -A/--agent-index, ROCPROF_AGENT_INDEX), as upstream:
// "Agent <node_id>", "Agent <logical_node_id>" (the default) or "GPU <logical_node_type_id>"
// ("CPU ..." for a CPU agent).
enum class agent_index
{
    absolute,
    relative,
    type_relative,
};
} // namespace rocprofiler::tool
