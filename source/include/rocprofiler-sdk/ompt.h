/* The OpenMP tools domain (OMPT): operation ids with rocprofiler-sdk's values, and
 * rocprofiler-sdk's OMPT entry points. No OpenMP runtime reports to this SDK: the kind reports
 * nothing, rocprofiler_ompt_start_tool declines (returns NULL, so the OpenMP runtime starts no
 * tool through it) and the queries answer "not initialized". The argument union (ompt/api_args.h)
 * is declared for source compatibility. */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/ompt/api_args.h>
#include <rocprofiler-sdk/ompt/api_id.h>

ROCPROFILER_EXTERN_C_INIT

/* OpenMP's result of ompt_start_tool (omp-tools.h), named only through a pointer here; the same
 * typedef as omp-tools.h's, so either header may come first. */
typedef struct ompt_start_tool_result_t ompt_start_tool_result_t;

/**
 * @brief What an OpenMP runtime's ompt_start_tool would get from this SDK: NULL here, as the SDK
 * does not act as an OMPT tool.
 */
ompt_start_tool_result_t* rocprofiler_ompt_start_tool(unsigned int omp_version,
                                                      const char*  runtime_version) ROCPROFILER_API;

/**
 * @brief Whether the SDK's OMPT tool was initialized by an OpenMP runtime: always 0 here.
 * @retval ROCPROFILER_STATUS_SUCCESS @p status holds 0.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p status is NULL.
 */
rocprofiler_status_t rocprofiler_ompt_is_initialized(int* status) ROCPROFILER_API;

/**
 * @brief Whether the SDK's OMPT tool was finalized by an OpenMP runtime: always 0 here.
 * @retval ROCPROFILER_STATUS_SUCCESS @p status holds 0.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p status is NULL.
 */
rocprofiler_status_t rocprofiler_ompt_is_finalized(int* status) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
