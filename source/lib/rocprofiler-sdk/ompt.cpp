// C entry points of ompt.h. No OpenMP runtime reports to this SDK: it never acts as an OMPT tool.
#include "common/api_guard.hpp"

#include <rocprofiler-sdk/ompt.h>

extern "C"
{
    ompt_start_tool_result_t* rocprofiler_ompt_start_tool(unsigned int, const char*)
    {
        // NULL tells the OpenMP runtime that no tool starts here.
        return nullptr;
    }

    rocprofiler_status_t rocprofiler_ompt_is_initialized(int* status)
    {
        if(status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *status = 0;
        return ROCPROFILER_STATUS_SUCCESS;
    }

    rocprofiler_status_t rocprofiler_ompt_is_finalized(int* status)
    {
        if(status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *status = 0;
        return ROCPROFILER_STATUS_SUCCESS;
    }
}
