/**
 * @file buffer.h
 * @brief Buffers: records produced by buffered services accumulate here and are handed to the
 * tool's callback in batches, on a callback thread (@ref internal_threading.h).
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup BUFFER_HANDLING Buffers
 * @{
 */

/**
 * @brief Receives a batch of records.
 * @param [in] context The context that owns the buffer.
 * @param [in] buffer_id The buffer.
 * @param [in] headers The records, in the order they were produced; valid during the call only.
 * @param [in] num_headers Number of records.
 * @param [in] data The `callback_data` given at creation.
 * @param [in] drop_count Records dropped (DISCARD policy) since the previous delivery.
 */
typedef void (*rocprofiler_buffer_tracing_cb_t)(rocprofiler_context_id_t      context,
                                                rocprofiler_buffer_id_t       buffer_id,
                                                rocprofiler_record_header_t** headers,
                                                size_t                        num_headers,
                                                void*                         data,
                                                uint64_t                      drop_count);

/**
 * @brief Creates a buffer.
 * @param [in] context The context that owns it.
 * @param [in] size Bytes of record storage; must be greater than zero.
 * @param [in] watermark Bytes after which the buffer is handed to the callback thread; must not
 * exceed @p size (0 delivers every record as soon as it is written).
 * @param [in] policy What happens when a record does not fit: LOSSLESS (or NONE) hands the full
 * buffer over and waits for room, never dropping; DISCARD drops the record and counts it.
 * @param [in] callback Receives the records.
 * @param [in] callback_data Passed to @p callback.
 * @param [out] buffer_id Receives the id.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A NULL pointer, zero size, watermark above
 * size, or an unknown policy.
 * @retval ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES No memory, or the limit of buffers (4096) or
 * callback threads (255) is reached.
 */
rocprofiler_status_t rocprofiler_create_buffer(rocprofiler_context_id_t        context,
                                               size_t                          size,
                                               size_t                          watermark,
                                               rocprofiler_buffer_policy_t     policy,
                                               rocprofiler_buffer_tracing_cb_t callback,
                                               void*                           callback_data,
                                               rocprofiler_buffer_id_t* buffer_id) ROCPROFILER_API;

/**
 * @brief Delivers every record in the buffer and returns once the callback has run.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer (or it was destroyed).
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_BUSY Called from the buffer's own callback.
 */
rocprofiler_status_t rocprofiler_flush_buffer(rocprofiler_buffer_id_t buffer_id) ROCPROFILER_API;

/**
 * @brief Flushes a buffer and destroys it; later records for it are dropped and its id is
 * invalid.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_BUSY Called from the buffer's own callback.
 */
rocprofiler_status_t rocprofiler_destroy_buffer(rocprofiler_buffer_id_t buffer_id) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
