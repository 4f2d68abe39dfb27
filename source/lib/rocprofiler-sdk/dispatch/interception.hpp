// The dispatch pipeline's interception point. One component (kernel replay) may install itself to
// be offered every logical dispatch before the pipeline runs it; the pipeline includes and calls
// nothing of that component otherwise.
//
// The backends' side of the same point: what a backend adapter needs from that component (turning
// allocation tracking on, reporting a launch it keeps out of the pipeline, holding off a replay
// window while memory is freed) it asks here, so that an adapter talks to the core through the
// dispatch contract only (dispatch/backend.hpp, this file) and includes nothing of kernel_replay/.
// Each call does nothing until an interceptor is installed.
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/decline_reason.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <functional>
#include <memory>
#include <shared_mutex>
#include <string_view>
#include <vector>

namespace rocprofiler::dispatch
{
struct logical_dispatch;

// What the interceptor holds across the submit of an ordinary dispatch: the lock it took shared
// (if any) and whether it counted the dispatch. A value on the submitting thread's stack: an
// ordinary dispatch allocates nothing for it.
struct ordinary_hold
{
    std::shared_mutex* shared_lock = nullptr;
    bool               counted     = false;
};

class dispatch_interceptor
{
public:
    virtual ~dispatch_interceptor() = default;

    // Offered every logical dispatch, on the submitting thread. Returns true when it took the
    // dispatch: it then runs it (through run_execution_sync / run_execution_async) and the
    // application's completion is signalled exactly once. False: the pipeline runs it once.
    virtual bool take(const logical_dispatch&          dispatch,
                      std::shared_ptr<launch_backend>& backend) = 0;

    // Bracket the submit of a dispatch that take() left to the pipeline (kernel replay holds the
    // agent's isolation lock shared meanwhile). end gets what begin returned, on the same thread.
    virtual ordinary_hold begin_ordinary(const logical_dispatch& dispatch,
                                         const launch_backend&   backend) = 0;
    virtual void          end_ordinary(const ordinary_hold& hold)       = 0;

    // report_excluded_launch() below, once installed.
    virtual void report_excluded(std::string_view       kernel_name,
                                 decline_reason         reason,
                                 rocprofiler_agent_id_t agent) = 0;

    // Takes shared, in a fixed order, the locks that keep a replay window of any of `agents` from
    // running while the application frees memory, and appends each to `taken` (none on a thread
    // inside a window of that agent).
    virtual void hold_for_release(std::vector<rocprofiler_agent_id_t> agents,
                                  std::vector<std::shared_mutex*>&    taken) = 0;
};

// Installs the interceptor; one per process, never removed (it must outlive every dispatch).
// Any thread; later dispatches see it. A second, different interceptor is refused (false).
// Runs every allocation-tracking request registered so far (see below).
bool install_interceptor(dispatch_interceptor& interceptor);

// The installed interceptor, or nullptr. Any thread.
dispatch_interceptor* installed_interceptor();

// True once an interceptor is installed: a backend may skip work only it would use.
bool interception_active();

// A backend registers how to turn allocation tracking on for its devices; `enable` runs once,
// when an interceptor is installed (at once when one already is), on that thread.
void on_interception_installed(std::function<void()> enable);

// Reports a launch that a backend hands to the device without making it a dispatch, because it
// can never be replayed and is not traced (a launch into a CUDA stream capture), or a CUDA graph
// launch: the interceptor reports it as it reports its own declines. Any thread.
void report_excluded_launch(std::string_view       kernel_name,
                            decline_reason         reason,
                            rocprofiler_agent_id_t agent = {});

// Held while the application releases device memory of `agents` (the allocation backends' free
// calls): no replay window of those agents runs meanwhile, so that no restore writes into memory
// freed under it. Does nothing without an interceptor.
class memory_release_scope
{
public:
    explicit memory_release_scope(std::vector<rocprofiler_agent_id_t> agents);
    ~memory_release_scope();

    memory_release_scope(const memory_release_scope&)            = delete;
    memory_release_scope& operator=(const memory_release_scope&) = delete;

private:
    std::vector<std::shared_mutex*> m_locks = {};
};
} // namespace rocprofiler::dispatch
