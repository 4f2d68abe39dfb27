/* HSA's API tables, as rocprofiler-sdk numbers them.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_hsa_table_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HSA_TABLE_ID_NONE          = -1,
    ROCPROFILER_HSA_TABLE_ID_Core          = 0,
    ROCPROFILER_HSA_TABLE_ID_AmdExt        = 1,
    ROCPROFILER_HSA_TABLE_ID_ImageExt      = 2,
    ROCPROFILER_HSA_TABLE_ID_FinalizeExt   = 3,
    ROCPROFILER_HSA_TABLE_ID_AmdTool       = 4,
    ROCPROFILER_HSA_TABLE_ID_PcSamplingExt = 5,
    ROCPROFILER_HSA_TABLE_ID_LAST          = 6,
} rocprofiler_hsa_table_id_t;
