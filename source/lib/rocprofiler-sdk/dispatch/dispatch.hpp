// The dispatch pipeline: the backend-neutral path every kernel launch takes.
//
// A runtime adapter (host device, CUDA) intercepts a launch on the submitting thread, describes it
// with a launch_info and a launch_backend, and calls dispatch::intercept(). The pipeline reserves
// the dispatch id, captures correlation ids, hands candidates to the kernel replay engine, and
// otherwise runs the kernel once through the services (callback and buffer kernel dispatch
// tracing, external correlation). The adapter never signals the application's completion itself:
// the pipeline calls launch_backend::signal_application() exactly once per logical dispatch.
#pragma once

#include "context/context.hpp"
#include "counters/counters.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::dispatch
{
// What the adapter knows about a launch before the SDK sees it.
struct launch_info
{
    rocprofiler_agent_id_t  agent                = {};
    rocprofiler_queue_id_t  queue                = {};
    rocprofiler_kernel_id_t kernel_id            = 0;
    uint32_t                private_segment_size = 0;
    uint32_t                group_segment_size   = 0;
    rocprofiler_dim3_t      workgroup_size       = {};
    rocprofiler_dim3_t      grid_size            = {}; // work-items, as in HSA
    const char*             kernel_name          = ""; // valid for the life of the process
};

// Counters one execution must measure: the union of the configurations of every context that
// counts this execution.
struct execution_request
{
    std::vector<const counters::counter_definition*> counters = {};
    // Set for the passes of a replayed dispatch: which pass this is, how many passes are planned
    // (0 when replay_continue may end the loop early or the loop is indefinite; a failed pass or
    // restore still ends a planned loop early, so backends must not rely on reaching the last
    // one: finish_counting() is always called), and the number of this counted execution among
    // the dispatch's counted executions (deferred_counters::execution names it). A backend may
    // defer the values of such an execution (execution_result::counters_deferred) and deliver them
    // with a later execution of the same dispatch, or from launch_backend::finish_counting().
    bool     replayed   = false;
    uint64_t pass       = 0;
    uint64_t pass_count = 0;
    uint64_t execution  = 0;
};

// A measured counter value.
struct counter_value
{
    rocprofiler_counter_id_t id    = {};
    double                   value = 0.0;
};

// Counter values of an earlier (or the current) counted execution of the same logical dispatch,
// which the backend measured later than that execution ran (NVIDIA GPUs: one CUPTI replay cycle
// spans several passes, and its values are decoded after the last of them).
struct deferred_counters
{
    uint64_t                   execution = 0;  // execution_request::execution
    std::vector<counter_value> counters  = {}; // one per counter of that execution's request
    std::string                error     = {}; // as execution_result::counters_error
};

// Outcome of one execution of a kernel. Timestamps on the SDK's clock, ns.
struct execution_result
{
    uint64_t                   start_ns = 0;
    uint64_t                   end_ns   = 0;
    bool                       ok       = true;
    std::string                error    = {};
    std::vector<counter_value> counters = {}; // one per requested counter, when ok
    // Why the requested counters could not be measured although the kernel ran (no permission,
    // another profiler holds the counters, ...); empty when they were measured or not requested.
    std::string counters_error = {};
    // The values of this execution come later, in `resolved` of this or a later execution of the
    // dispatch, or from finish_counting() (replayed executions only).
    bool counters_deferred = false;
    // Values of deferred executions of this dispatch that are known now.
    std::vector<deferred_counters> resolved = {};
};

using completion_fn = std::function<void(const execution_result&)>;

class memory_backend;

// The adapter's operations on one logical dispatch. Owned through a shared_ptr by the pipeline
// until the application has been signalled.
class launch_backend
{
public:
    virtual ~launch_backend() = default;

    // Puts one execution of the kernel into its queue, behind earlier work of that queue, and
    // returns. on_complete is called exactly once, on any thread, when the kernel finished. Must
    // not signal the application's completion. May be called several times (kernel replay).
    virtual void enqueue(completion_fn on_complete) = 0;

    // The same, measuring the requested counters around the execution. Backends whose agents
    // have counters override it; the registry never lets a configuration of an agent without
    // counters exist, so the default is never asked for counters.
    virtual void enqueue_counted(completion_fn                            on_complete,
                                 std::shared_ptr<const execution_request> request)
    {
        (void)request;
        enqueue(std::move(on_complete));
    }

    // After the last pass of a replayed dispatch: the values of every execution still deferred
    // (with an error when they cannot be measured any more). Backends that never defer keep the
    // default.
    virtual std::vector<deferred_counters> finish_counting() { return {}; }

    // Signals the application's completion of the logical dispatch. Called exactly once, after the
    // last execution finished (on the thread that observed it, or the submitting thread).
    virtual void signal_application(const execution_result& last) = 0;

    // Why this launch can never be replayed (stream capture, graph launch, collective kernel), or
    // nothing. Checked before the CONFIG callback.
    virtual std::optional<std::string_view> replay_exclusion() const { return std::nullopt; }

    // The memory of the launch's agent, for snapshots; nullptr when the backend cannot replay.
    virtual memory_backend* memory() { return nullptr; }

    // The kernel's argument bytes (valid while the backend lives), for snapshots that cover only
    // what the kernel can reach; empty when the backend does not know them.
    virtual std::pair<const void*, size_t> kernel_arguments() const { return {nullptr, 0}; }
};

// Device memory of one agent, as kernel replay needs it. Called on the submitting thread while the
// replaying dispatch holds the agent's isolation lock exclusively.
class memory_backend
{
public:
    virtual ~memory_backend() = default;

    // Waits until no earlier work of the agent is queued or running. False on timeout.
    virtual bool drain(uint64_t timeout_ns) = 0;

    // Copies aside the tracked allocations of the agent that the kernel may touch (every tracked
    // allocation when the backend cannot tell; the host device: those reachable from the kernel
    // arguments). On failure returns the decline reason (footprint_budget, snapshot_failed,
    // untracked_memory) and keeps nothing.
    virtual std::optional<std::string> snapshot(const void* kernel_args, size_t args_size) = 0;

    // Copies the snapshot back. False on failure (fatal to the replay).
    virtual bool restore() = 0;

    // Frees the snapshot.
    virtual void release() = 0;
};

// One context's share of one execution, fixed on the submitting thread at submit time.
struct participant
{
    context::context*       ctx            = nullptr;
    rocprofiler_user_data_t external       = {};
    rocprofiler_user_data_t callback_data  = {};    // user_data of the KERNEL_DISPATCH callbacks
    bool                    callback_trace = false; // KERNEL_DISPATCH COMPLETE callback wanted
    bool                    buffer_trace   = false; // KERNEL_DISPATCH buffer record wanted
    std::shared_ptr<const counters::config> counter_config     = {}; // dispatch counting
    rocprofiler_user_data_t                 counting_user_data = {};
};

// The logical dispatch: fixed before CONFIG (kernel replay) or before the single execution.
struct logical_dispatch
{
    rocprofiler_kernel_dispatch_info_t info        = {};
    uint64_t                           thread_id   = 0;
    uint64_t                           internal_id = 0; // internal correlation id
    uint64_t                           ancestor_id = 0; // enclosing operation, or 0
    const char*                        kernel_name = "";
};

// Entry point for adapters; called on the submitting thread. Takes ownership of the backend.
void intercept(const launch_info& info, std::shared_ptr<launch_backend> backend);

// True when some active context could want to see a dispatch (any dispatch-related service or
// kernel replay configured). Adapters may skip building a launch_backend when false and launch
// directly.
bool any_consumer();

// Builds the logical dispatch: reserves the dispatch id, captures correlation ids and the thread.
logical_dispatch make_logical_dispatch(const launch_info& info);

// The counting of one replayed dispatch across its passes: the executions whose counter values
// the backend deferred, with what their records need (participants, timestamps), until the values
// arrive. Owned by the replay loop; `pass` is set before each pass.
struct replay_counting
{
    // A replayed execution whose counter values the backend deferred.
    struct pending_execution
    {
        uint64_t                 execution    = 0;
        uint64_t                 pass         = 0;
        std::vector<participant> participants = {};
        execution_result         result       = {}; // timestamps of its own pass
    };

    uint64_t                       pass_count     = 0; // planned passes, or 0 (execution_request)
    uint64_t                       pass           = 0; // the pass being run
    uint64_t                       next_execution = 0; // execution_request::execution to give next
    std::vector<pending_execution> pending        = {};

    // After the last pass: delivers the values the backend still holds, and reports executions
    // whose values never came. Called once, on the submitting thread.
    void finish(const logical_dispatch& dispatch, launch_backend& backend);
};

// Runs one execution through the services and waits for it, on the calling thread; its
// completion callbacks and buffer records are delivered on the calling thread before it returns.
// Used by kernel replay for every pass; honours the thread's local context override. `replay`,
// when given, lets the backend defer counter values to later passes of the dispatch.
execution_result run_execution_sync(const logical_dispatch& dispatch,
                                    launch_backend&         backend,
                                    replay_counting*        replay = nullptr);

// Runs one execution through the services asynchronously and signals the application after it.
void run_execution_async(const logical_dispatch& dispatch, std::shared_ptr<launch_backend> backend);

// The internal correlation id of the operation the calling thread is inside, or 0.
uint64_t current_ancestor();

// Number of logical dispatches so far (the dispatch counter).
uint64_t dispatch_count();
} // namespace rocprofiler::dispatch
