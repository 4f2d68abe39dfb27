/**
 * @file counter_config.h
 * @brief Counter configurations: a group of counters collected together in one pass.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup COUNTER_CONFIG Counter configurations
 * @{
 */

/**
 * @brief Creates a configuration of counters of one agent.
 * @param [in] agent_id The agent.
 * @param [in] counters_list Counters to collect together.
 * @param [in] counters_count Number of counters.
 * @param [in,out] config_id Receives the id (if `config_id->handle` is not zero on entry, that
 * configuration's counters are added to the new one).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND A counter is unknown.
 * @retval ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT A counter is of another agent.
 * @retval ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT The counters cannot be collected in one pass.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A NULL pointer or zero count.
 * @retval ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND `config_id->handle` names no configuration.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH That configuration is of another agent.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED The agent has no counter support (yet).
 */
rocprofiler_status_t
rocprofiler_create_counter_config(rocprofiler_agent_id_t           agent_id,
                                  rocprofiler_counter_id_t*        counters_list,
                                  size_t                           counters_count,
                                  rocprofiler_counter_config_id_t* config_id) ROCPROFILER_API;

/**
 * @brief Destroys a configuration.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND No such configuration.
 */
rocprofiler_status_t
rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config_id) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI

#include <rocprofiler-sdk/deprecated/profile_config.h>
