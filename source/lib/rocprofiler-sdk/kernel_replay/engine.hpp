// The kernel replay engine. Backend-neutral: it sees a dispatch::logical_dispatch, a
// dispatch::launch_backend (submit one execution, signal the application) and a
// dispatch::memory_backend (drain, snapshot, restore). It installs itself as the dispatch
// pipeline's interceptor (dispatch/interception.hpp) when the replay domain is first claimed; the
// pipeline never calls into this folder otherwise. No device header is included anywhere here.
#pragma once

#include "dispatch/dispatch.hpp"

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
// allocation tracker on and installs the engine as the dispatch pipeline's interceptor.
rocprofiler_status_t claim_domain(uint64_t context_id);

// Adapters register how to switch their allocation tracker on. Each function runs once: at
// registration if the domain is already claimed, else when claim_domain() first succeeds.
void on_tracking_enabled(std::function<void()> enable);

// The interceptor's take(): runs the dispatch under replay when it is a candidate and returns true;
// the application's completion has then been signalled (or will be by the fall-through run).
// Returns false when the dispatch is not a candidate: no CONFIG callback fired and the caller runs
// it normally. Called on the submitting thread. The whole replay window (CONFIG, drain, snapshot,
// every pass, the completion) runs inside this call.
bool try_replay(const dispatch::logical_dispatch&          dispatch,
                std::shared_ptr<dispatch::launch_backend>& backend);

// Reports a launch that a backend hands to the device without making it a dispatch, because it can
// never be replayed and is not traced (a launch into a CUDA stream capture), or a CUDA graph
// launch (graph_launch, also an outcome with dispatch_id 0 and `agent`): one diagnostic line, as
// for a declined dispatch (dispatch_id=0). Only while replay is configured; any thread.
void report_excluded_launch(std::string_view         kernel_name,
                            dispatch::decline_reason reason,
                            rocprofiler_agent_id_t   agent = {});

// rocprofiler_set_kernel_replay_outcome_callback: the callback every candidate's outcome goes to
// (NULL: none). Thread-safe.
void set_outcome_callback(rocprofiler_kernel_replay_outcome_cb_t callback, void* data);

// Holds the agent's isolation lock shared for an ordinary dispatch's submit, only while replay is
// configured; otherwise does nothing. Re-entrant dispatches never take it: those the calling
// thread makes while it holds the lock exclusively (from inside its replay callbacks), and those
// the backend reports as "reentrant_dispatch" (made on a device thread).
class ordinary_dispatch_guard
{
public:
    ordinary_dispatch_guard(rocprofiler_agent_id_t agent, const dispatch::launch_backend& backend);
    ~ordinary_dispatch_guard();

    ordinary_dispatch_guard(const ordinary_dispatch_guard&)            = delete;
    ordinary_dispatch_guard& operator=(const ordinary_dispatch_guard&) = delete;

private:
    std::shared_mutex* m_lock    = nullptr;
    bool               m_counted = false; // counted as work between windows (engine.cpp)
};

// Holds the agents' isolation locks shared while the application releases device memory, only
// while replay is configured, and never on a thread that holds one of them exclusively: a replay
// window's snapshot may cover that memory, and the window's restores must not write into memory
// that another thread freed meanwhile. The locks are taken in agent order.
class memory_release_guard
{
public:
    explicit memory_release_guard(std::vector<rocprofiler_agent_id_t> agents);
    ~memory_release_guard();

    memory_release_guard(const memory_release_guard&)            = delete;
    memory_release_guard& operator=(const memory_release_guard&) = delete;

private:
    std::vector<std::shared_mutex*> m_locks = {};
};
} // namespace rocprofiler::kernel_replay
