// The dispatch pipeline: the backend-neutral path every kernel launch takes.
//
// A runtime adapter (host device, CUDA) intercepts a launch on the submitting thread, describes it
// with a launch_info and a launch_backend (dispatch/backend.hpp), and calls dispatch::intercept().
// The pipeline reserves the dispatch id, captures correlation ids, offers the dispatch to the
// installed interceptor (kernel replay, dispatch/interception.hpp), and otherwise runs the kernel
// once through the services (callback and buffer kernel dispatch tracing, dispatch counting,
// external correlation). The adapter never signals the application's completion itself: the
// pipeline (or the interceptor, through it) calls launch_backend::signal_application() exactly
// once per logical dispatch.
#pragma once

#include "context/context.hpp"
#include "counters/counters.hpp"
#include "dispatch/backend.hpp"
#include "dispatch/graph_node.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace rocprofiler::dispatch
{
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
    kernel_arguments                   arguments   = {}; // launch_info::arguments
};

// A dispatch the adapter saw only after it ran, not as a launch call it intercepted: a kernel node
// of a CUDA graph launch, known from the kernel's activity record. It is neither replayed nor
// counted; tracing sees its completion.
struct observed_dispatch
{
    launch_info info        = {};
    uint64_t    internal_id = 0; // correlation id of the call that ran it (the graph launch)
    uint64_t    ancestor_id = 0; // enclosing operation of that call, or 0
    uint64_t    thread_id   = 0; // thread of that call
    uint64_t    start_ns    = 0;
    uint64_t    end_ns      = 0;
    // The graph node it ran as (a graph launch's kernel node), or nothing (graph_node.hpp).
    std::optional<graph_node> graph = std::nullopt;
};

// Reserves a dispatch id for an observed dispatch and delivers its completion (COMPLETE callback,
// buffer record) to every active context that traces kernel dispatches; any thread. Returns the
// dispatch id, or 0 when no context traces dispatches (no id is reserved then).
uint64_t deliver_observed(const observed_dispatch& observed);

// Entry point for adapters; called on the submitting thread. Takes ownership of the backend.
void intercept(const launch_info& info, std::shared_ptr<launch_backend> backend);

// True when some active context could want to see a dispatch (any dispatch-related service, or an
// installed interceptor). Adapters may skip building a launch_backend when false and launch
// directly.
bool any_consumer();

// Builds the logical dispatch: reserves the dispatch id, captures correlation ids and the thread.
logical_dispatch make_logical_dispatch(const launch_info& info);

// One pass of a replayed dispatch, as the interceptor numbers it (execution_request's fields).
struct replay_pass
{
    uint64_t pass           = 0;
    uint64_t pass_count     = 0; // planned passes, or 0
    uint64_t next_execution = 0; // the number the next counted execution gets; advanced here
    uint64_t timeout_ns     = 0; // how long run_execution_sync waits for the pass; 0: no limit
};

// An execution that run_execution_sync stopped waiting for (replay_pass::timeout_ns): it is still
// queued or running. When it finishes, its completion records are delivered and the function
// given to hand_off() runs, on the backend's completion thread, or on the thread of hand_off()
// when the execution finished before it.
class late_execution
{
public:
    late_execution(const logical_dispatch& dispatch, std::vector<participant> participants);

    void hand_off(std::function<void(const execution_result&)> then);
    void complete(const execution_result& result); // the backend's completion

private:
    void finish(std::unique_lock<std::mutex>& lock);

    std::mutex                                   m_mutex        = {};
    logical_dispatch                             m_dispatch     = {}; // a copy: outlives the call
    std::vector<participant>                     m_participants = {};
    std::optional<execution_result>              m_result       = {};
    std::function<void(const execution_result&)> m_then         = {};
    bool                                         m_handed_off   = false;
};

// The outcome of a synchronous execution, with what a later delivery of its counter values needs.
struct sync_outcome
{
    execution_result         result       = {};
    std::vector<participant> participants = {};
    std::optional<uint64_t>  counted      = {}; // execution_request::execution, when counted
    // Set when the wait timed out: `result` is then a failure (ok false) that says so, and the
    // execution finishes later through it.
    std::shared_ptr<late_execution> late = {};
};

// Runs one execution through the services and waits for it, on the calling thread; its
// completion callbacks and buffer records are delivered on the calling thread before it returns,
// except counter values the backend deferred (result.counters_deferred), which the caller delivers
// with deliver_counters() once they arrive. Used by kernel replay for every pass (`pass` given);
// honours the thread's local context override. With pass->timeout_ns, waits at most that long
// (sync_outcome::late).
sync_outcome run_execution_sync(const logical_dispatch& dispatch,
                                launch_backend&         backend,
                                replay_pass*            pass = nullptr);

// Runs one execution through the services asynchronously and signals the application after it.
void run_execution_async(const logical_dispatch& dispatch, std::shared_ptr<launch_backend> backend);

// Delivers counter values of an execution to each participant whose client is still there, in
// callback or buffer form (for values a backend delivered after the execution).
void deliver_counters(const logical_dispatch&         dispatch,
                      const std::vector<participant>& participants,
                      const execution_result&         result);

// Number of logical dispatches so far (the dispatch counter).
uint64_t dispatch_count();

// The external correlation id of an operation for `ctx`: what the context's request callback gives
// for `kind` (when it asks for that kind), else the top of the thread's pushed ids.
rocprofiler_user_data_t request_external_id(context::context& ctx,
                                            uint64_t          thread_id,
                                            rocprofiler_external_correlation_id_request_kind_t kind,
                                            int32_t  operation,
                                            uint64_t internal_id);
} // namespace rocprofiler::dispatch
