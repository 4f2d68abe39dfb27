/* Operations of ROCPROFILER_*_TRACING_HSA_FINALIZE_EXT_API.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_hsa_finalize_ext_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_NONE                            = -1,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_create          = 0,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_destroy         = 1,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_add_module      = 2,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_iterate_modules = 3,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_get_info        = 4,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_hsa_ext_program_finalize        = 5,
    ROCPROFILER_HSA_FINALIZE_EXT_API_ID_LAST                            = 6,
} rocprofiler_hsa_finalize_ext_api_id_t;
