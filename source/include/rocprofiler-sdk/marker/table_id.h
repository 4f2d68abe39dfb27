/* ROCTx's API tables, as rocprofiler-sdk numbers them.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_marker_table_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MARKER_TABLE_ID_NONE           = -1,
    ROCPROFILER_MARKER_TABLE_ID_RoctxCore      = 0,
    ROCPROFILER_MARKER_TABLE_ID_RoctxControl   = 1,
    ROCPROFILER_MARKER_TABLE_ID_RoctxName      = 2,
    ROCPROFILER_MARKER_TABLE_ID_RoctxCoreRange = 3,
    ROCPROFILER_MARKER_TABLE_ID_LAST           = 4,
} rocprofiler_marker_table_id_t;
