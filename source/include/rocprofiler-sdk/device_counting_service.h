/**
 * @file device_counting_service.h
 * @brief Agent-wide counting, sampled by the tool. Agent-wide services ignore kernel replay's
 * localized context toggles.
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

/** @brief Sets the configuration an agent collects in a context. */
typedef rocprofiler_status_t (*rocprofiler_device_counting_agent_cb_t)(
    rocprofiler_context_id_t context_id, rocprofiler_counter_config_id_t config_id);

/** @brief Former name of @ref rocprofiler_device_counting_agent_cb_t. */
typedef rocprofiler_device_counting_agent_cb_t rocprofiler_agent_set_profile_callback_t;

/**
 * @brief Asked when the context starts which configuration to collect on the agent.
 * @param [in] context_id The context.
 * @param [in] agent_id The agent.
 * @param [in] set_config Call it with the configuration.
 * @param [in] user_data The `callback_data` of the service.
 */
typedef void (*rocprofiler_device_counting_service_cb_t)(
    rocprofiler_context_id_t               context_id,
    rocprofiler_agent_id_t                 agent_id,
    rocprofiler_device_counting_agent_cb_t set_config,
    void*                                  user_data);

/**
 * @brief Configures agent-wide counting.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED Agent-wide counting is not built yet (after
 * argument checks).
 */
rocprofiler_status_t
rocprofiler_configure_device_counting_service(rocprofiler_context_id_t                 context_id,
                                              rocprofiler_buffer_id_t                  buffer_id,
                                              rocprofiler_agent_id_t                   agent_id,
                                              rocprofiler_device_counting_service_cb_t cb,
                                              void* user_data) ROCPROFILER_API;

/**
 * @brief Reads the agent-wide counters now.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED Agent-wide counting is not built yet (after
 * argument checks).
 */
rocprofiler_status_t
rocprofiler_sample_device_counting_service(rocprofiler_context_id_t      context_id,
                                           rocprofiler_user_data_t       user_data,
                                           rocprofiler_counter_flag_t    flags,
                                           rocprofiler_counter_record_t* output_records,
                                           size_t*                       rec_count) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
