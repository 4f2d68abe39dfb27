// C entry points of registration.h.
#include "registration/registration.hpp"
#include "common/api_guard.hpp"

#include <rocprofiler-sdk/registration.h>

extern "C"
{
    rocprofiler_status_t rocprofiler_force_configure(rocprofiler_configure_func_t configure_func)
    {
        ROCP_API_GUARD_BEGIN
        return rocprofiler::registration::force_configure(configure_func);
        ROCP_API_GUARD_END("rocprofiler_force_configure")
    }

    rocprofiler_status_t rocprofiler_is_initialized(int* status)
    {
        if(status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *status = rocprofiler::registration::initialized_status();
        return ROCPROFILER_STATUS_SUCCESS;
    }

    rocprofiler_status_t rocprofiler_is_finalized(int* status)
    {
        if(status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *status = rocprofiler::registration::finalized_status();
        return ROCPROFILER_STATUS_SUCCESS;
    }
}
