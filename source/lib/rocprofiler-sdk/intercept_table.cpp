// C entry points of intercept_table.h.
#include "common/api_guard.hpp"

#include <rocprofiler-sdk/intercept_table.h>

#include <cstring>

namespace
{
// The name of each flag, in flag order (bit i is names[i]).
constexpr const char* table_names[] = {"HSA_TABLE",
                                       "HIP_RUNTIME_TABLE",
                                       "HIP_COMPILER_TABLE",
                                       "MARKER_CORE_TABLE",
                                       "MARKER_CONTROL_TABLE",
                                       "MARKER_NAME_TABLE",
                                       "RCCL_TABLE",
                                       "ROCDECODE_TABLE",
                                       "ROCJPEG_TABLE"};
static_assert(ROCPROFILER_TABLE_LAST == (1 << (sizeof(table_names) / sizeof(table_names[0]) - 1)),
              "one name per rocprofiler_intercept_table_t flag");
} // namespace

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

    rocprofiler_status_t rocprofiler_query_intercept_table_name(rocprofiler_intercept_table_t kind,
                                                                const char**                  name,
                                                                uint64_t* name_len)
    {
        ROCP_API_GUARD_BEGIN
        if(name == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto flags = static_cast<unsigned>(kind);
        for(size_t bit = 0; bit < sizeof(table_names) / sizeof(table_names[0]); ++bit)
        {
            if(flags != (1U << bit)) continue;
            *name = table_names[bit];
            if(name_len != nullptr) *name_len = std::strlen(table_names[bit]);
            return ROCPROFILER_STATUS_SUCCESS;
        }
        return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        ROCP_API_GUARD_END("rocprofiler_query_intercept_table_name")
    }
}
