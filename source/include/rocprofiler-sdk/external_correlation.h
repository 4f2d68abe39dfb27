/**
 * @file external_correlation.h
 * @brief External correlation ids: a tool's own ids attached to the records of operations. A
 * per-thread stack (push/pop) per context, and a request service that asks the tool for an id for
 * each operation.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup EXTERNAL_CORRELATION External correlation ids
 * @{
 */

/**
 * @brief Pushes an external id for @p tid in @p context; operations on that thread carry the top
 * of the stack.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND @p tid is 0.
 */
rocprofiler_status_t rocprofiler_push_external_correlation_id(
    rocprofiler_context_id_t context,
    rocprofiler_thread_id_t  tid,
    rocprofiler_user_data_t  external_correlation_id) ROCPROFILER_API;

/**
 * @brief Pops the top external id of @p tid in @p context.
 * @param [out] external_correlation_id Receives the popped value; may be NULL.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND @p tid is 0 or has no pushed id.
 */
rocprofiler_status_t rocprofiler_pop_external_correlation_id(
    rocprofiler_context_id_t context,
    rocprofiler_thread_id_t  tid,
    rocprofiler_user_data_t* external_correlation_id) ROCPROFILER_API;

/**
 * @brief Asked for an external id for one operation, on the thread of the operation, before its
 * first callback or record.
 * @param [in] thread_id Thread of the operation.
 * @param [in] context_id Context being asked.
 * @param [in] kind What the operation is.
 * @param [in] operation The operation of that kind.
 * @param [in] internal_corr_id_value Internal correlation id of the operation.
 * @param [out] external_corr_id_value Set it to the external id.
 * @param [in] data The `callback_args` of the service.
 * @return 0 if @p external_corr_id_value was set; non-zero to use the thread's stack instead.
 */
typedef int (*rocprofiler_external_correlation_id_request_cb_t)(
    rocprofiler_thread_id_t                            thread_id,
    rocprofiler_context_id_t                           context_id,
    rocprofiler_external_correlation_id_request_kind_t kind,
    rocprofiler_tracing_operation_t                    operation,
    uint64_t                                           internal_corr_id_value,
    rocprofiler_user_data_t*                           external_corr_id_value,
    void*                                              data);

/**
 * @brief Configures the request service for a context.
 * @param [in] context_id The context.
 * @param [in] kinds Kinds to ask for; NULL with @p kinds_count 0 for all.
 * @param [in] kinds_count Number of kinds.
 * @param [in] callback The request callback.
 * @param [in] callback_args Passed to it.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND A kind is not valid.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL, or @p kinds NULL with a
 * non-zero count.
 * @retval ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED Already configured in the context.
 */
rocprofiler_status_t rocprofiler_configure_external_correlation_id_request_service(
    rocprofiler_context_id_t                                  context_id,
    const rocprofiler_external_correlation_id_request_kind_t* kinds,
    size_t                                                    kinds_count,
    rocprofiler_external_correlation_id_request_cb_t          callback,
    void*                                                     callback_args) ROCPROFILER_API;

/**
 * @brief The name of a request kind: the enumerator without its
 * `ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_` prefix (`KERNEL_DISPATCH`, `MEMORY_COPY`, ...),
 * valid for the life of the process.
 * @param [in] kind The kind.
 * @param [out] name The name.
 * @param [out] name_len Its length (may be NULL).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p name is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is NONE, LAST or out of range.
 */
rocprofiler_status_t rocprofiler_query_external_correlation_id_request_kind_name(
    rocprofiler_external_correlation_id_request_kind_t kind,
    const char**                                       name,
    uint64_t*                                          name_len) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
