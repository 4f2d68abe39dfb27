/* Versions of the HSA runtime that rocprofiler-sdk 1.0 was built against, under rocprofiler-sdk's
 * names: the HSA runtime (ROCr) 1.18 and the major and step versions of its API tables, as ROCr's
 * hsa_api_trace_version.h of that release states them. This SDK does not load the HSA runtime and
 * no agent here is an HSA agent: the values describe the tables that the declarations of
 * hsa/api_args.h and the hsa/ id headers follow, not a runtime found on this system. */
#pragma once

/** @brief Major version of the HSA runtime (ROCr 1.18). */
#define ROCPROFILER_HSA_RUNTIME_VERSION_MAJOR 1
/** @brief Minor version of the HSA runtime (ROCr 1.18). */
#define ROCPROFILER_HSA_RUNTIME_VERSION_MINOR 18

/** @brief Major versions of the HSA API tables (the whole table and each sub-table). */
#define ROCPROFILER_HSA_API_TABLE_MAJOR_VERSION 0x03
#define ROCPROFILER_HSA_CORE_API_TABLE_MAJOR_VERSION 0x02
#define ROCPROFILER_HSA_AMD_EXT_API_TABLE_MAJOR_VERSION 0x02
#define ROCPROFILER_HSA_FINALIZER_API_TABLE_MAJOR_VERSION 0x02
#define ROCPROFILER_HSA_IMAGE_API_TABLE_MAJOR_VERSION 0x02
#define ROCPROFILER_HSA_AQLPROFILE_API_TABLE_MAJOR_VERSION 0x01
#define ROCPROFILER_HSA_TOOLS_API_TABLE_MAJOR_VERSION 0x01

/** @brief Step versions of the same tables (functions added within a major version). */
#define ROCPROFILER_HSA_API_TABLE_STEP_VERSION 0x01
#define ROCPROFILER_HSA_CORE_API_TABLE_STEP_VERSION 0x00
#define ROCPROFILER_HSA_AMD_EXT_API_TABLE_STEP_VERSION 0x07
#define ROCPROFILER_HSA_FINALIZER_API_TABLE_STEP_VERSION 0x00
#define ROCPROFILER_HSA_IMAGE_API_TABLE_STEP_VERSION 0x01
#define ROCPROFILER_HSA_AQLPROFILE_API_TABLE_STEP_VERSION 0x00
#define ROCPROFILER_HSA_TOOLS_API_TABLE_STEP_VERSION 0x00

/** @brief The HSA runtime version as one number: 10000 * major + 100 * minor. */
#define ROCPROFILER_HSA_RUNTIME_VERSION                                                            \
    ((10000 * ROCPROFILER_HSA_RUNTIME_VERSION_MAJOR) +                                             \
     (100 * ROCPROFILER_HSA_RUNTIME_VERSION_MINOR))
