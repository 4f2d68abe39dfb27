// C entry points of intercept_table.h.
#include "common/api_guard.hpp"

#include <rocprofiler-sdk/intercept_table.h>

extern "C"
{
    rocprofiler_status_t rocprofiler_at_intercept_table_registration(
        rocprofiler_intercept_library_cb_t callback, int libs, void*)
    {
        ROCP_API_GUARD_BEGIN
        constexpr int known = (ROCPROFILER_TABLE_LAST << 1) - 1;
        if(callback == nullptr || (libs & known) == 0)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        // No runtime here offers its API table: HSA, HIP, RCCL, rocDecode and rocJPEG do not run,
        // and ROCTx's tables are wrapped by this SDK (marker/).
        return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        ROCP_API_GUARD_END("rocprofiler_at_intercept_table_registration")
    }
}
