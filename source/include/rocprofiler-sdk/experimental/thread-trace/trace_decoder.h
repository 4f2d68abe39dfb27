/**
 * @file experimental/thread-trace/trace_decoder.h
 * @brief rocprofiler-sdk 1.0's front end to AMD's thread-trace decoder library, declared with its
 * names and signatures so that a tool which decodes thread traces compiles unchanged.
 *
 * Here no decoder is loaded: the decoder is AMD's binary library for the trace format of AMD
 * GPUs, and no agent of this SDK produces such a trace (experimental/thread_trace.h). So
 * rocprofiler_thread_trace_decoder_create answers @ref ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE,
 * AMD's status for "decoder library not found", and no handle is ever valid; the other functions
 * answer as AMD's do for an invalid handle. As in pc_sampling.h, pointer parameters carry no
 * nonnull attribute: the SDK checks them.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/experimental/thread-trace/trace_decoder_types.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup THREAD_TRACE_DECODER Thread trace decoder (experimental)
 * @{
 */

/** @brief A loaded decoder and its state. */
typedef struct rocprofiler_thread_trace_decoder_id_t
{
    uint64_t handle; ///< Opaque; 0 is never a decoder
} rocprofiler_thread_trace_decoder_id_t;

/**
 * @brief Loads the decoder library from a directory and creates a decoder.
 * @param [out] handle Set to {0} here
 * @param [in] path Directory to look for the decoder library in
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT handle or path is NULL
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE always otherwise: this SDK loads no decoder
 */
rocprofiler_status_t
rocprofiler_thread_trace_decoder_create(rocprofiler_thread_trace_decoder_id_t* handle,
                                        const char* path) ROCPROFILER_API;

/**
 * @brief Destroys a decoder; does nothing for a handle that is not one (every handle here).
 * @param [in] handle The decoder
 */
void rocprofiler_thread_trace_decoder_destroy(rocprofiler_thread_trace_decoder_id_t handle)
    ROCPROFILER_API;

/**
 * @brief Hands the decoder a code object, as code-object tracing reported it, so that decoded
 * instructions can be placed in it.
 * @param [in] handle The decoder
 * @param [in] load_id The code object's load id
 * @param [in] load_addr Where it was loaded
 * @param [in] load_size How many bytes it occupies there
 * @param [in] data Its ELF image
 * @param [in] size Bytes of data
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT handle is not a decoder (always here) or data
 * is NULL
 */
rocprofiler_status_t
rocprofiler_thread_trace_decoder_codeobj_load(rocprofiler_thread_trace_decoder_id_t handle,
                                              uint64_t                              load_id,
                                              uint64_t                              load_addr,
                                              uint64_t                              load_size,
                                              const void*                           data,
                                              uint64_t size) ROCPROFILER_API;

/**
 * @brief Removes a code object from the decoder.
 * @param [in] handle The decoder
 * @param [in] load_id The code object's load id
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT handle is not a decoder (always here)
 */
rocprofiler_status_t
rocprofiler_thread_trace_decoder_codeobj_unload(rocprofiler_thread_trace_decoder_id_t handle,
                                                uint64_t load_id) ROCPROFILER_API;

/**
 * @brief Receives decoded records: trace_size records of the type record_type_id names.
 * @param [in] record_type_id What trace_events points to
 * @param [in] trace_events The records, valid during the call
 * @param [in] trace_size How many
 * @param [in] userdata What rocprofiler_trace_decode was given
 */
typedef void (*rocprofiler_thread_trace_decoder_callback_t)(
    rocprofiler_thread_trace_decoder_record_type_t record_type_id,
    void*                                          trace_events,
    uint64_t                                       trace_size,
    void*                                          userdata);

/**
 * @brief Decodes one chunk of shader data from the thread trace services.
 * @param [in] handle The decoder
 * @param [in] callback Receives the records; the first is of type GFXIP
 * @param [in] data The shader data
 * @param [in] size Bytes of data
 * @param [in] userdata Passed to callback
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT handle is not a decoder (always here), or
 * callback or data is NULL
 */
rocprofiler_status_t rocprofiler_trace_decode(rocprofiler_thread_trace_decoder_id_t       handle,
                                              rocprofiler_thread_trace_decoder_callback_t callback,
                                              void*                                       data,
                                              uint64_t                                    size,
                                              void* userdata) ROCPROFILER_API;

/**
 * @brief Describes an INFO record.
 * @param [in] handle The decoder
 * @param [in] info The value of the record
 * @return A description; NULL when handle is not a decoder (always here)
 */
const char* rocprofiler_thread_trace_decoder_info_string(
    rocprofiler_thread_trace_decoder_id_t   handle,
    rocprofiler_thread_trace_decoder_info_t info) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
