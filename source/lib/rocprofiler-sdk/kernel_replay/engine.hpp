// The kernel replay engine. Backend-neutral: it sees a dispatch::logical_dispatch, a
// dispatch::launch_backend (submit one execution, signal the application) and a
// dispatch::memory_backend (drain, snapshot, restore). It installs itself as the dispatch
// pipeline's interceptor (dispatch/interception.hpp) when the replay domain is first claimed; the
// pipeline never calls into this folder otherwise. No device header is included anywhere here.
#pragma once

#include "dispatch/dispatch.hpp"
#include "dispatch/interception.hpp"

#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>
#include <rocprofiler-sdk/fwd.h>

#include <functional>
#include <memory>
#include <shared_mutex>
#include <string_view>
#include <vector>

namespace rocprofiler::kernel_replay
{
// True once some context has configured ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY (process-wide;
// a relaxed atomic load, so the launch path pays nothing when replay is never configured).
bool is_configured();

// Called by rocprofiler_configure_callback_tracing_service for the replay domain. Returns
// ERROR_SERVICE_ALREADY_CONFIGURED when another context already configured it. Switches the
// allocation trackers on (dispatch::install_interceptor runs the adapters' hooks) and installs the
// engine as the dispatch pipeline's interceptor.
rocprofiler_status_t claim_domain(uint64_t context_id);

// The interceptor's take(): runs the dispatch under replay when it is a candidate and returns true;
// the application's completion has then been signalled (or will be by the fall-through run).
// Returns false when the dispatch is not a candidate: no CONFIG callback fired and the caller runs
// it normally. Called on the submitting thread. The whole replay window (CONFIG, drain, snapshot,
// every pass, the completion) runs inside this call.
bool try_replay(const dispatch::logical_dispatch&          dispatch,
                std::shared_ptr<dispatch::launch_backend>& backend);

// The interceptor's report_excluded (dispatch::report_excluded_launch): one diagnostic line, as for
// a declined dispatch (dispatch_id=0); a CUDA graph launch is also an outcome with dispatch_id 0
// and `agent`. Only while replay is configured; any thread.
void report_excluded_launch(std::string_view         kernel_name,
                            dispatch::decline_reason reason,
                            rocprofiler_agent_id_t   agent = {});

// rocprofiler_set_kernel_replay_outcome_callback: the callback every candidate's outcome goes to
// (NULL: none). Thread-safe.
void set_outcome_callback(rocprofiler_kernel_replay_outcome_cb_t callback, void* data);

// The interceptor's bracket of an ordinary dispatch's submit: holds the agent's isolation lock
// shared, only while replay is configured; otherwise does nothing. Re-entrant dispatches never
// take it: those the calling thread makes while it holds the lock exclusively (from inside its
// replay callbacks), and those the backend reports as "reentrant_dispatch" (made on a device
// thread). end_ordinary counts the dispatch as work between windows and releases the lock.
dispatch::ordinary_hold begin_ordinary(rocprofiler_agent_id_t          agent,
                                       const dispatch::launch_backend& backend);
void                    end_ordinary(const dispatch::ordinary_hold& hold);

// The same bracket as a scope.
class ordinary_dispatch_guard
{
public:
    ordinary_dispatch_guard(rocprofiler_agent_id_t agent, const dispatch::launch_backend& backend)
        : m_hold{begin_ordinary(agent, backend)}
    {
    }
    ~ordinary_dispatch_guard() { end_ordinary(m_hold); }

    ordinary_dispatch_guard(const ordinary_dispatch_guard&)            = delete;
    ordinary_dispatch_guard& operator=(const ordinary_dispatch_guard&) = delete;

private:
    dispatch::ordinary_hold m_hold;
};

// The interceptor's hold_for_release (dispatch::memory_release_scope): takes the agents' isolation
// locks shared, in agent order, only while replay is configured, and never on a thread that holds
// one of them exclusively: a replay window's snapshot may cover the memory being freed, and the
// window's restores must not write into memory that another thread freed meanwhile.
void hold_for_release(std::vector<rocprofiler_agent_id_t> agents,
                      std::vector<std::shared_mutex*>&    taken);
} // namespace rocprofiler::kernel_replay
