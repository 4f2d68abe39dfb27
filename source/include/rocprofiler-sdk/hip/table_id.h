/* HIP's API tables, as rocprofiler-sdk numbers them.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_hip_table_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HIP_TABLE_ID_NONE     = -1,
    ROCPROFILER_HIP_TABLE_ID_Compiler = 0,
    ROCPROFILER_HIP_TABLE_ID_Runtime  = 1,
    ROCPROFILER_HIP_TABLE_ID_LAST     = 2,
} rocprofiler_hip_table_id_t;
