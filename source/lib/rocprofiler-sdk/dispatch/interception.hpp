// The dispatch pipeline's interception point. One component (kernel replay) may install itself to
// be offered every logical dispatch before the pipeline runs it; the pipeline includes and calls
// nothing of that component otherwise.
#pragma once

#include "dispatch/backend.hpp"

#include <memory>

namespace rocprofiler::dispatch
{
struct logical_dispatch;

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
    // agent's isolation lock shared meanwhile). begin's token is handed to end, on the same thread.
    virtual void* begin_ordinary(const logical_dispatch& dispatch,
                                 const launch_backend&   backend) = 0;
    virtual void  end_ordinary(void* token)                     = 0;
};

// Installs the interceptor; one per process, never removed (it must outlive every dispatch).
// Any thread; later dispatches see it. A second, different interceptor is refused (false).
bool install_interceptor(dispatch_interceptor& interceptor);
} // namespace rocprofiler::dispatch
