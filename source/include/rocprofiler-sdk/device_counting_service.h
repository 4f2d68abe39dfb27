/**
 * @file device_counting_service.h
 * @brief Agent-wide counting, sampled by the tool. Agent-wide services ignore kernel replay's
 * localized context toggles. Works on the host reference device; CUDA agents answer
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
#pragma once

#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup DEVICE_COUNTING_SERVICE Device counting service
 * @{
 */

/**
 * @brief Sets the configuration an agent collects in a context. Callable only from inside the
 * @ref rocprofiler_device_counting_service_cb_t that the context's start is running; a later call
 * in the same callback replaces the earlier one.
 * @retval ROCPROFILER_STATUS_SUCCESS The agent of the configuration counts it from now on.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID The context does not exist or has no device
 * counting service.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called outside the context's start.
 * @retval ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND No such configuration.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH The configuration's agent is not one the context
 * counts.
 * @retval ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT The configuration measures a counter
 * whose values do not add up over executions (on the host device: `WORKERS_ACTIVE`), or a derived
 * counter built on one; the reason is logged.
 */
typedef rocprofiler_status_t (*rocprofiler_device_counting_agent_cb_t)(
    rocprofiler_context_id_t context_id, rocprofiler_counter_config_id_t config_id);

/** @brief Former name of @ref rocprofiler_device_counting_agent_cb_t. */
typedef rocprofiler_device_counting_agent_cb_t rocprofiler_agent_set_profile_callback_t;

/**
 * @brief Asked, each time the context starts, which configuration to collect on the agent. Called
 * on the thread that starts the context, before the start returns. An agent for which
 * @p set_config is not called counts nothing in that start.
 * @param [in] context_id The context.
 * @param [in] agent_id The agent.
 * @param [in] set_config Call it with the configuration.
 * @param [in] user_data The `user_data` given when the service was configured.
 */
typedef void (*rocprofiler_device_counting_service_cb_t)(
    rocprofiler_context_id_t               context_id,
    rocprofiler_agent_id_t                 agent_id,
    rocprofiler_device_counting_agent_cb_t set_config,
    void*                                  user_data);

/**
 * @brief Configures agent-wide counting of one agent in a context. Each start of the context asks
 * @p cb for the agent's configuration and counts from zero; while the context is active, every
 * execution on the agent adds its counter values, whoever launched it (agent-wide services ignore
 * kernel replay's localized context toggles, so every pass of a replayed dispatch counts). One
 * context may count several agents, one call each.
 * @param [in] context_id The context.
 * @param [in] buffer_id Where samples write their records (@ref
 * ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
 * @ref ROCPROFILER_COUNTER_RECORD_VALUE); handle 0 for none (records only to the sampling caller).
 * @param [in] agent_id The agent.
 * @param [in] cb Chooses the configuration when the context starts.
 * @param [in] user_data Passed to @p cb.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after configuration.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb is NULL, or the context already counts
 * this agent.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND A non-zero @p buffer_id that is no buffer.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT The context has dispatch counting.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT The context has PC sampling.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED The agent cannot be counted agent-wide here (no
 * counters, or a backend that does not measure every execution: CUDA agents).
 */
rocprofiler_status_t
rocprofiler_configure_device_counting_service(rocprofiler_context_id_t                 context_id,
                                              rocprofiler_buffer_id_t                  buffer_id,
                                              rocprofiler_agent_id_t                   agent_id,
                                              rocprofiler_device_counting_service_cb_t cb,
                                              void* user_data) ROCPROFILER_API;

/**
 * @brief Reads the agent-wide counters now: for each agent of the context whose configuration was
 * set at the context's start, one record per counter of the configuration (one dimension of one
 * instance), holding the sum over the executions that completed on the agent since the context
 * started (an execution still running counts when it completes). Records carry @p user_data, the
 * agent, and dispatch id 0. Derived counters are evaluated over the sums of their base counters.
 * Without @ref ROCPROFILER_COUNTER_FLAG_ASYNC the records are written to @p output_records when it
 * is given, and to each agent's buffer when it has one; with it they go to the buffers only. Any
 * thread.
 * @param [in] context_id The context.
 * @param [in] user_data Copied into every record.
 * @param [in] flags @ref ROCPROFILER_COUNTER_FLAG_NONE or @ref ROCPROFILER_COUNTER_FLAG_ASYNC.
 * @param [out] output_records Optional array for the records (synchronous samples only).
 * @param [in,out] rec_count With @p output_records: on entry its capacity, on exit the records
 * written (or needed, with ERROR_OUT_OF_RESOURCES). Unused without it.
 * @retval ROCPROFILER_STATUS_SUCCESS The records were written.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A flag other than ASYNC; @p output_records
 * without @p rec_count or with ASYNC; neither @p output_records nor a buffer to write to.
 * @retval ROCPROFILER_STATUS_ERROR_FINALIZED The SDK was finalized.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID The context has no device counting service.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED The context is not active.
 * @retval ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES @p output_records holds fewer records than the
 * sample has (or *rec_count is 0): *rec_count is set to the number needed and nothing is written
 * anywhere.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND An agent's buffer was destroyed (nothing is
 * written).
 */
rocprofiler_status_t
rocprofiler_sample_device_counting_service(rocprofiler_context_id_t      context_id,
                                           rocprofiler_user_data_t       user_data,
                                           rocprofiler_counter_flag_t    flags,
                                           rocprofiler_counter_record_t* output_records,
                                           size_t*                       rec_count) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
