// C entry point of experimental/kernel_replay_outcome.h.
#include "common/api_guard.hpp"
#include "kernel_replay/engine.hpp"

#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>

extern "C"
{
    rocprofiler_status_t
    rocprofiler_set_kernel_replay_outcome_callback(rocprofiler_kernel_replay_outcome_cb_t callback,
                                                   void*                                  data)
    {
        ROCP_API_GUARD_BEGIN
        rocprofiler::kernel_replay::set_outcome_callback(callback, data);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_set_kernel_replay_outcome_callback")
    }
}
