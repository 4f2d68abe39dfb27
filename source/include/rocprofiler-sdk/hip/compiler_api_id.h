/* Operations of ROCPROFILER_*_TRACING_HIP_COMPILER_API.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_hip_compiler_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HIP_COMPILER_API_ID_NONE                       = -1,
    ROCPROFILER_HIP_COMPILER_API_ID___hipPopCallConfiguration  = 0,
    ROCPROFILER_HIP_COMPILER_API_ID___hipPushCallConfiguration = 1,
    ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterFatBinary     = 2,
    ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterFunction      = 3,
    ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterManagedVar    = 4,
    ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterSurface       = 5,
    ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterTexture       = 6,
    ROCPROFILER_HIP_COMPILER_API_ID___hipRegisterVar           = 7,
    ROCPROFILER_HIP_COMPILER_API_ID___hipUnregisterFatBinary   = 8,
    ROCPROFILER_HIP_COMPILER_API_ID_LAST                       = 9,
} rocprofiler_hip_compiler_api_id_t;
