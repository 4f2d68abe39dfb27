/* RCCL's API tables, as rocprofiler-sdk numbers them.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_rccl_table_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_RCCL_TABLE_ID_NONE = -1,
    ROCPROFILER_RCCL_TABLE_ID      = 0,
    ROCPROFILER_RCCL_TABLE_ID_LAST = 1,
} rocprofiler_rccl_table_id_t;
