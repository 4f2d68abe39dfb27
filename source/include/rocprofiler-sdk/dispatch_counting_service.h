/**
 * @file dispatch_counting_service.h
 * @brief Counters collected per kernel dispatch. The tool chooses per dispatch which counter
 * configuration to collect. Under kernel replay the service honours the loop's localized context
 * toggles, and records are delivered once per pass with that pass's timestamps.
 */
#pragma once

#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup DISPATCH_COUNTING_SERVICE Dispatch counting service
 * @{
 */

/** @brief A dispatch being counted. */
typedef struct rocprofiler_dispatch_counting_service_data_t
{
    uint64_t                           size;            ///< Size of this struct
    rocprofiler_async_correlation_id_t correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t            start_timestamp; ///< Kernel start, ns (records only)
    rocprofiler_timestamp_t            end_timestamp;   ///< Kernel end, ns (records only)
    rocprofiler_kernel_dispatch_info_t dispatch_info;   ///< The dispatch
} rocprofiler_dispatch_counting_service_data_t;

/** @brief Buffered header record, followed by its `num_records` value records. */
typedef struct rocprofiler_dispatch_counting_service_record_t
{
    uint64_t                           size;            ///< Size of this struct
    uint64_t                           num_records;     ///< Value records that follow
    rocprofiler_async_correlation_id_t correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t            start_timestamp; ///< Kernel start, ns
    rocprofiler_timestamp_t            end_timestamp;   ///< Kernel end, ns
    rocprofiler_kernel_dispatch_info_t dispatch_info;   ///< The dispatch
} rocprofiler_dispatch_counting_service_record_t;

/**
 * @brief Asked, on the submitting thread, which configuration a dispatch collects.
 * @param [in] dispatch_data The dispatch.
 * @param [out] config Set it to a configuration of the dispatch's agent; leave it 0 for none.
 * @param [out] user_data Copied into the records of this dispatch.
 * @param [in] callback_data_args The `dispatch_callback_args` of the service.
 */
typedef void (*rocprofiler_dispatch_counting_service_cb_t)(
    rocprofiler_dispatch_counting_service_data_t dispatch_data,
    rocprofiler_counter_config_id_t*             config,
    rocprofiler_user_data_t*                     user_data,
    void*                                        callback_data_args);

/**
 * @brief Receives the values of a dispatch (callback form).
 * @param [in] dispatch_data The dispatch, with its timestamps.
 * @param [in] record_data The values.
 * @param [in] record_count Number of values.
 * @param [in] user_data What the dispatch callback set.
 * @param [in] callback_data_args The `record_callback_args` of the service.
 */
typedef void (*rocprofiler_dispatch_counting_record_cb_t)(
    rocprofiler_dispatch_counting_service_data_t dispatch_data,
    rocprofiler_counter_record_t*                record_data,
    size_t                                       record_count,
    rocprofiler_user_data_t                      user_data,
    void*                                        callback_data_args);

/**
 * @brief Configures dispatch counting with records delivered to a buffer.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED Already configured in the context.
 */
rocprofiler_status_t rocprofiler_configure_buffer_dispatch_counting_service(
    rocprofiler_context_id_t                   context_id,
    rocprofiler_buffer_id_t                    buffer_id,
    rocprofiler_dispatch_counting_service_cb_t callback,
    void*                                      callback_args) ROCPROFILER_API;

/**
 * @brief Configures dispatch counting with records delivered to a callback, on the thread that
 * observes the kernel's completion.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A callback is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED Already configured in the context.
 */
rocprofiler_status_t rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t                   context_id,
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback,
    void*                                      dispatch_callback_args,
    rocprofiler_dispatch_counting_record_cb_t  record_callback,
    void*                                      record_callback_args) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
