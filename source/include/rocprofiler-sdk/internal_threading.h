/**
 * @file internal_threading.h
 * @brief Threads on which buffer callbacks run. Every buffer starts on the default thread; a tool
 * can create more and assign buffers to them so that a slow consumer does not delay others.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup INTERNAL_THREADING Callback threads
 * @{
 */

/**
 * @brief Creates a callback thread.
 * @param [out] cb_thread_id Receives its id.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb_thread_id is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES No memory, or the limit of buffers (4096) or
 * callback threads (255) is reached.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 */
rocprofiler_status_t
rocprofiler_create_callback_thread(rocprofiler_callback_thread_t* cb_thread_id) ROCPROFILER_API;

/**
 * @brief Delivers a buffer's records on the given callback thread from now on.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND No such callback thread.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 */
rocprofiler_status_t
rocprofiler_assign_callback_thread(rocprofiler_buffer_id_t       buffer_id,
                                   rocprofiler_callback_thread_t cb_thread_id) ROCPROFILER_API;

/** @brief Called before (@p precreate) or after (@p postcreate) a library starts a thread of its
 * own, with that library and the tool's data. */
typedef void (*rocprofiler_internal_thread_library_cb_t)(rocprofiler_runtime_library_t, void*);

/**
 * @brief Registers callbacks around the threads @p libs (rocprofiler_runtime_library_t flags)
 * start. Here only this SDK (ROCPROFILER_LIBRARY) starts threads of its own: its buffer callback
 * threads (each when it first delivers records) and the host device's SPM sampler (one per sampled
 * dispatch). @p precreate runs just before and @p postcreate just after each start, on the starting
 * thread, with ROCPROFILER_LIBRARY and @p data; registrations for other libraries are never
 * called. Not reported yet: the CUDA backend's completion and drain threads. A callback thread
 * starts when a buffer first hands it records, on the thread that filled or flushed that buffer
 * and while the SDK holds the buffer: the callbacks must not call the SDK's buffer functions
 * (keep them to the tool's own bookkeeping).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT Both callbacks are NULL, or @p libs has no
 * known flag.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 */
rocprofiler_status_t
rocprofiler_at_internal_thread_create(rocprofiler_internal_thread_library_cb_t precreate,
                                      rocprofiler_internal_thread_library_cb_t postcreate,
                                      int                                      libs,
                                      void* data) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
