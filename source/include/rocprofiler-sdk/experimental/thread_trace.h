/**
 * @file experimental/thread_trace.h
 * @brief Thread trace services (experimental): a device-side instruction trace of the waves of a
 * kernel, delivered to the tool as raw chunks per shader engine, for chosen dispatches or for
 * everything an agent runs while a context is active.
 *
 * On this platform no agent can trace: both configuration calls check their arguments and then
 * return @ref ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED (NVIDIA GPUs expose no such trace;
 * the host reference device has none yet). The types and signatures are those of
 * rocprofiler-sdk's experimental thread trace headers (core, agent and dispatch), gathered here,
 * so that tools compile unchanged. The trace decoder is not part of this header.
 */
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup THREAD_TRACE Thread trace (experimental)
 * @brief Instruction traces of waves.
 * @{
 */

/** @brief Kinds of thread trace parameters. Unlike most enumerations, this one has no NONE. */
typedef enum rocprofiler_thread_trace_parameter_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_PARAMETER_TARGET_CU = 0,      ///< Compute unit (or WGP) to trace
    ROCPROFILER_THREAD_TRACE_PARAMETER_SHADER_ENGINE_MASK, ///< Bit mask of shader engines
    ROCPROFILER_THREAD_TRACE_PARAMETER_BUFFER_SIZE,        ///< Device trace buffer size, bytes
    ROCPROFILER_THREAD_TRACE_PARAMETER_SIMD_SELECT,        ///< SIMD mask or SIMD id
    ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTERS_CTRL,  ///< Counter period 1..32, or 0: off
    ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER,        ///< A counter and its SIMD mask
    ROCPROFILER_THREAD_TRACE_PARAMETER_SERIALIZE_ALL,      ///< Serialize untraced kernels too
    ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER_EXCLUDE_MASK, ///< Compute units whose counters
                                                                 ///< are left out
    ROCPROFILER_THREAD_TRACE_PARAMETER_NO_DETAIL,   ///< Shader-wide data only, no instruction times
    ROCPROFILER_THREAD_TRACE_PARAMETER_NUM_BUFFERS, ///< Host staging buffers: 0 or 1 (one,
                                                    ///< synchronous) or 3 and more (pipelined)
    ROCPROFILER_THREAD_TRACE_PARAMETER_LAST,        ///< Sentinel
} rocprofiler_thread_trace_parameter_type_t;

/** @brief One thread trace parameter. */
typedef struct rocprofiler_thread_trace_parameter_t
{
    rocprofiler_thread_trace_parameter_type_t type; ///< Which parameter
    /* Anonymous members are C11; __extension__ keeps C99 -pedantic builds quiet. */
    ROCPROFILER_ANONYMOUS union
    {
        uint64_t value; ///< The value of every type but PERFCOUNTER
        ROCPROFILER_ANONYMOUS struct
        {
            rocprofiler_counter_id_t counter_id;    ///< PERFCOUNTER: the counter
            uint64_t                 simd_mask : 4; ///< PERFCOUNTER: the SIMDs it counts
        };
    };
} rocprofiler_thread_trace_parameter_t;

/** @brief Bits of @ref rocprofiler_thread_trace_shader_data_t::flags. */
typedef enum rocprofiler_thread_trace_shader_data_flags_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_NONE = 0,                 ///< No flag
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_END  = 1 << 0,            ///< Last chunk of a
                                                                         ///< shader engine's trace
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_GPU_BUFFER_FULL = 1 << 1, ///< Interrupted: the
                                                                         ///< device buffer filled
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_CPU_BUFFER_FULL = 1 << 2, ///< Interrupted: the host
                                                                         ///< buffer was still held
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_LAST =
        ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_CPU_BUFFER_FULL, ///< The highest bit
} rocprofiler_thread_trace_shader_data_flags_t;

/** @brief A moment in the device's clock and in the SDK's; both 0 when unknown. */
typedef struct rocprofiler_thread_trace_timestamp_t
{
    uint64_t                gpu_clock;    ///< Device clock
    rocprofiler_timestamp_t system_clock; ///< The same moment, in nanoseconds of the SDK's clock
} rocprofiler_thread_trace_timestamp_t;

/** @brief One chunk of trace data of one shader engine. */
typedef struct rocprofiler_thread_trace_shader_data_t
{
    uint64_t               size;             ///< Size of this struct
    void*                  data;             ///< The raw trace bytes, valid during the callback
    uint64_t               data_size;        ///< Number of bytes at @ref data
    int64_t                shader_engine_id; ///< Shader engine the chunk came from
    uint64_t               chunk_index; ///< Position in this trace's sequence of chunks, from 0
    uint64_t               read_offset; ///< Offset into @ref data where the unread bytes begin
    rocprofiler_agent_id_t agent;       ///< Agent traced
    rocprofiler_thread_trace_shader_data_flags_t flags;           ///< Bits of the flags enumeration
    rocprofiler_thread_trace_timestamp_t         start_timestamp; ///< When collection into it began
    rocprofiler_thread_trace_timestamp_t         end_timestamp;   ///< When collection into it ended
} rocprofiler_thread_trace_shader_data_t;

/**
 * @brief Receives a chunk of trace data. With several staging buffers the calls may come from
 * several threads at once and out of order: order the chunks of a shader engine by chunk_index.
 * @param [in] args The chunk.
 * @param [in] userdata For the dispatch service, what the dispatch callback wrote; for the
 * device service, the configure call's @p callback_userdata.
 */
typedef void (*rocprofiler_thread_trace_shader_data_callback_t)(
    rocprofiler_thread_trace_shader_data_t args, rocprofiler_user_data_t userdata);

/** @brief What the dispatch callback asks for a dispatch. */
typedef enum rocprofiler_thread_trace_control_flags_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_THREAD_TRACE_CONTROL_NONE           = 0, ///< Do not trace this dispatch
    ROCPROFILER_THREAD_TRACE_CONTROL_START_AND_STOP = 3, ///< Trace this dispatch alone
} rocprofiler_thread_trace_control_flags_t;

/**
 * @brief Decides whether a dispatch is traced. Called for every dispatch of the agent, on the
 * submitting thread, before it is enqueued.
 * @param [in] agent_id Agent of the dispatch.
 * @param [in] queue_id Queue of the dispatch.
 * @param [in] correlation_id Correlation ids of the dispatch.
 * @param [in] kernel_id Kernel of the dispatch.
 * @param [in] dispatch_id The dispatch.
 * @param [in] userdata_config The configure call's @p callback_userdata.
 * @param [out] userdata_shader Passed to the shader data callback of this dispatch's chunks.
 * @return Whether to trace it.
 */
typedef rocprofiler_thread_trace_control_flags_t (*rocprofiler_thread_trace_dispatch_callback_t)(
    rocprofiler_agent_id_t             agent_id,
    rocprofiler_queue_id_t             queue_id,
    rocprofiler_async_correlation_id_t correlation_id,
    rocprofiler_kernel_id_t            kernel_id,
    rocprofiler_dispatch_id_t          dispatch_id,
    void*                              userdata_config,
    rocprofiler_user_data_t*           userdata_shader);

/**
 * @brief Configures thread trace of chosen dispatches of @p agent_id in @p context_id. Traced
 * dispatches run alone.
 * @param [in] context_id The context.
 * @param [in] agent_id Agent to trace.
 * @param [in] parameters Array of @p num_parameters parameters (may be NULL when 0).
 * @param [in] num_parameters Number of parameters.
 * @param [in] dispatch_callback Chooses the dispatches.
 * @param [in] shader_callback Receives the trace data.
 * @param [in] callback_userdata Passed to @p dispatch_callback.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after tool initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A NULL callback, NULL @p parameters with a
 * non-zero count, or a parameter of an unknown type.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED The agent cannot trace (on this
 * platform: every agent, for now).
 */
rocprofiler_status_t rocprofiler_configure_dispatch_thread_trace_service(
    rocprofiler_context_id_t                        context_id,
    rocprofiler_agent_id_t                          agent_id,
    rocprofiler_thread_trace_parameter_t*           parameters,
    size_t                                          num_parameters,
    rocprofiler_thread_trace_dispatch_callback_t    dispatch_callback,
    rocprofiler_thread_trace_shader_data_callback_t shader_callback,
    void*                                           callback_userdata) ROCPROFILER_API;

/**
 * @brief Configures thread trace of everything @p agent_id runs while @p context_id is active.
 * @param [in] context_id The context.
 * @param [in] agent_id Agent to trace.
 * @param [in] parameters Array of @p num_parameters parameters (may be NULL when 0).
 * @param [in] num_parameters Number of parameters.
 * @param [in] shader_callback Receives the trace data.
 * @param [in] callback_userdata Passed to @p shader_callback.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after tool initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A NULL callback, NULL @p parameters with a
 * non-zero count, or a parameter of an unknown type.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED The agent cannot trace (on this
 * platform: every agent, for now).
 */
rocprofiler_status_t rocprofiler_configure_device_thread_trace_service(
    rocprofiler_context_id_t                        context_id,
    rocprofiler_agent_id_t                          agent_id,
    rocprofiler_thread_trace_parameter_t*           parameters,
    size_t                                          num_parameters,
    rocprofiler_thread_trace_shader_data_callback_t shader_callback,
    rocprofiler_user_data_t                         callback_userdata) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
