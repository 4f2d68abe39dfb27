/**
 * @file deprecated/profile_config.h
 * @brief The former names of the counter configuration functions (counter_config.h): a profile
 * configuration is a counter configuration.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stddef.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @brief Former name of rocprofiler_create_counter_config; same arguments, same statuses.
 */
rocprofiler_status_t
rocprofiler_create_profile_config(rocprofiler_agent_id_t           agent_id,
                                  rocprofiler_counter_id_t*        counters_list,
                                  size_t                           counters_count,
                                  rocprofiler_profile_config_id_t* config_id) ROCPROFILER_API;

/**
 * @brief Former name of rocprofiler_destroy_counter_config; same argument, same statuses.
 */
rocprofiler_status_t
rocprofiler_destroy_profile_config(rocprofiler_profile_config_id_t config_id) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
