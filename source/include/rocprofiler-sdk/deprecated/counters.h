/**
 * @file deprecated/counters.h
 * @brief The former dimension queries of counters.h; rocprofiler_query_counter_info (version 1)
 * gives the same facts.
 */
#pragma once

#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stddef.h>

ROCPROFILER_EXTERN_C_INIT

/** @brief Receives the dimensions of a counter, all in one call. */
typedef rocprofiler_status_t (*rocprofiler_available_dimensions_cb_t)(
    rocprofiler_counter_id_t                           id,
    const rocprofiler_counter_record_dimension_info_t* dim_info,
    size_t                                             num_dims,
    void*                                              user_data);

/**
 * @brief The number of instances of a counter on an agent: the product of its dimensions' sizes
 * (1 for every counter here, which has one dimension of one instance).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p instance_count is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND No such counter.
 */
rocprofiler_status_t
rocprofiler_query_counter_instance_count(rocprofiler_agent_id_t   agent_id,
                                         rocprofiler_counter_id_t counter_id,
                                         size_t*                  instance_count) ROCPROFILER_API;

/**
 * @brief Calls @p info_cb once with every dimension of a counter.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p info_cb is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND No such counter.
 */
rocprofiler_status_t
rocprofiler_iterate_counter_dimensions(rocprofiler_counter_id_t              id,
                                       rocprofiler_available_dimensions_cb_t info_cb,
                                       void* user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
