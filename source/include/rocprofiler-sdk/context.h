/**
 * @file context.h
 * @brief Contexts: a set of services that are started and stopped together.
 *
 * Contexts are created and configured in a tool's `initialize`; afterwards configuration is
 * locked. A context's services deliver callbacks and records only while it is active.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/** @defgroup CONTEXT_OPERATIONS Contexts
 * @{
 */

/**
 * @brief Creates a context.
 * @param [in,out] context_id Must be zero on entry; receives the new id.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p context_id is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO `context_id->handle` was not zero.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 */
rocprofiler_status_t
rocprofiler_create_context(rocprofiler_context_id_t* context_id) ROCPROFILER_API;

/**
 * @brief Starts a context: its services begin to deliver.
 * @retval ROCPROFILER_STATUS_SUCCESS Started, or already active.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID The context has no valid configuration.
 * @retval ROCPROFILER_STATUS_ERROR_FINALIZED The SDK has finalized.
 */
rocprofiler_status_t rocprofiler_start_context(rocprofiler_context_id_t context_id) ROCPROFILER_API;

/**
 * @brief Stops a context. Work already in flight may still deliver its completion records.
 * @retval ROCPROFILER_STATUS_SUCCESS Stopped, or already inactive.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 */
rocprofiler_status_t rocprofiler_stop_context(rocprofiler_context_id_t context_id) ROCPROFILER_API;

/**
 * @brief Whether a context is active.
 * @param [out] status 1 if active, else 0.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p status is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 */
rocprofiler_status_t rocprofiler_context_is_active(rocprofiler_context_id_t context_id,
                                                   int*                     status) ROCPROFILER_API;

/**
 * @brief Whether a context's configuration is valid (it can be started).
 * @param [out] status 1 if valid, else 0.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p status is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 */
rocprofiler_status_t rocprofiler_context_is_valid(rocprofiler_context_id_t context_id,
                                                  int*                     status) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
