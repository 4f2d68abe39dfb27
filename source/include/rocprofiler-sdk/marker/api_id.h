/* Operations of the ROCPROFILER_*_TRACING_MARKER_* kinds: a function's index.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_marker_core_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MARKER_CORE_API_ID_NONE             = -1,
    ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA       = 0,
    ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA  = 1,
    ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop    = 2,
    ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA = 3,
    ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop   = 4,
    ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId = 5,
    ROCPROFILER_MARKER_CORE_API_ID_LAST             = 6,
} rocprofiler_marker_core_api_id_t;

typedef enum rocprofiler_marker_control_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MARKER_CONTROL_API_ID_NONE                = -1,
    ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause  = 0,
    ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume = 1,
    ROCPROFILER_MARKER_CONTROL_API_ID_LAST                = 2,
} rocprofiler_marker_control_api_id_t;

typedef enum rocprofiler_marker_name_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MARKER_NAME_API_ID_NONE               = -1,
    ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread  = 0,
    ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent  = 1,
    ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice = 2,
    ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream = 3,
    ROCPROFILER_MARKER_NAME_API_ID_LAST               = 4,
} rocprofiler_marker_name_api_id_t;

typedef enum rocprofiler_marker_core_range_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MARKER_CORE_RANGE_API_ID_NONE               = -1,
    ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxMarkA         = 0,
    ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxThreadRangeA  = 1,
    ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxProcessRangeA = 2,
    ROCPROFILER_MARKER_CORE_RANGE_API_ID_roctxGetThreadId   = 3,
    ROCPROFILER_MARKER_CORE_RANGE_API_ID_LAST               = 4,
} rocprofiler_marker_core_range_api_id_t;
