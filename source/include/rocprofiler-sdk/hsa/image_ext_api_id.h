/* Operations of ROCPROFILER_*_TRACING_HSA_IMAGE_EXT_API.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_hsa_image_ext_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_NONE                                     = -1,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_get_capability             = 0,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_data_get_info              = 1,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_create                     = 2,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_import                     = 3,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_export                     = 4,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_copy                       = 5,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_clear                      = 6,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_destroy                    = 7,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_sampler_create                   = 8,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_sampler_destroy                  = 9,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_get_capability_with_layout = 10,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_data_get_info_with_layout  = 11,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_hsa_ext_image_create_with_layout         = 12,
    ROCPROFILER_HSA_IMAGE_EXT_API_ID_LAST                                     = 13,
} rocprofiler_hsa_image_ext_api_id_t;
