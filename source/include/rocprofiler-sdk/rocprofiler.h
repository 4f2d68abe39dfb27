/**
 * @file rocprofiler.h
 * @brief Umbrella header of the rocprofiler-sdk C API, plus the version, status and timestamp
 * queries.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/version.h>

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/context.h>
#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/device_counting_service.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/experimental/counter_passes.h>
#include <rocprofiler-sdk/experimental/device_counting.h>
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>
#include <rocprofiler-sdk/external_correlation.h>
#include <rocprofiler-sdk/internal_threading.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/spm.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup MISCELLANEOUS_GROUP Version, status, time and threads
 * @{
 */

/**
 * @brief Version of the library.
 * @retval ROCPROFILER_STATUS_SUCCESS Every non-NULL pointer was written.
 */
rocprofiler_status_t
rocprofiler_get_version(uint32_t* major, uint32_t* minor, uint32_t* patch) ROCPROFILER_API;

/**
 * @brief Version of the library as one struct.
 * @retval ROCPROFILER_STATUS_SUCCESS @p info was written.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p info is NULL.
 */
rocprofiler_status_t
rocprofiler_get_version_triplet(rocprofiler_version_triplet_t* info) ROCPROFILER_API;

/**
 * @brief Current time on the SDK's clock (the one of every record), nanoseconds.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p ts is NULL.
 */
rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* ts) ROCPROFILER_API;

/**
 * @brief Operating-system id of the calling thread (as in records' `thread_id`).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p tid is NULL.
 */
rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid) ROCPROFILER_API;

/**
 * @brief Name of a status code, e.g. "ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND".
 * @return A static string; for a value outside the enum, a string saying so (never NULL).
 */
const char* rocprofiler_get_status_name(rocprofiler_status_t status) ROCPROFILER_API;

/**
 * @brief One-line message of a status code.
 * @return A static string; for a value outside the enum, a string saying so (never NULL).
 */
const char* rocprofiler_get_status_string(rocprofiler_status_t status) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
