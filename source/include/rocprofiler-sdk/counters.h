/**
 * @file counters.h
 * @brief Hardware counters of an agent: which exist, what they mean, and how to read a record.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup COUNTERS Counters
 * @{
 */

/** @brief Id of a dimension of a counter (e.g. one instance per SM). */
typedef uint64_t rocprofiler_counter_dimension_id_t;

/** @brief One dimension of a counter. */
typedef struct rocprofiler_counter_record_dimension_info_t
{
    const char*                        name;          ///< Name
    size_t                             instance_size; ///< Number of instances
    rocprofiler_counter_dimension_id_t id;            ///< Id of the dimension
} rocprofiler_counter_record_dimension_info_t;

/** @brief Former name of @ref rocprofiler_counter_record_dimension_info_t. */
typedef rocprofiler_counter_record_dimension_info_t rocprofiler_record_dimension_info_t;

/** @brief Description of a counter (version 0). Strings are static. */
typedef struct rocprofiler_counter_info_v0_t
{
    rocprofiler_counter_id_t id;              ///< Id
    const char*              name;            ///< Name as the agent's vendor spells it
    const char*              description;     ///< What it counts, with its unit
    const char*              block;           ///< Hardware block (or "host")
    const char*              expression;      ///< Expression of a derived counter, else ""
    uint8_t                  is_constant : 1; ///< A constant of the agent
    uint8_t                  is_derived : 1;  ///< Derived from other counters
} rocprofiler_counter_info_v0_t;

/** @brief The position of one counter instance along one dimension. */
typedef struct rocprofiler_counter_dimension_info_t
{
    uint64_t    size;           ///< Size of this struct
    const char* dimension_name; ///< Name of the dimension
    size_t      index;          ///< Position along it
} rocprofiler_counter_dimension_info_t;

/** @brief One instance of a counter and its position along each dimension. */
typedef struct rocprofiler_counter_record_dimension_instance_info_t
{
    uint64_t                                     size;             ///< Size of this struct
    rocprofiler_counter_instance_id_t            instance_id;      ///< Id of the instance
    uint64_t                                     counter_id;       ///< Id of its counter
    uint64_t                                     dimensions_count; ///< Entries in @p dimensions
    const rocprofiler_counter_dimension_info_t** dimensions;       ///< Its positions
} rocprofiler_counter_record_dimension_instance_info_t;

/**
 * @brief Description of a counter (version 1): version 0 plus its dimensions and instances.
 * Every counter has at least one dimension and one instance (the host device's and CUDA's
 * counters: one dimension, "DIMENSION_INSTANCE", of one instance).
 */
typedef struct rocprofiler_counter_info_v1_t
{
    uint64_t                 size;             ///< Size of this struct
    rocprofiler_counter_id_t id;               ///< Id
    const char*              name;             ///< Name
    const char*              description;      ///< What it counts
    const char*              block;            ///< Hardware block
    const char*              expression;       ///< Expression of a derived counter, else ""
    uint8_t                  is_constant : 1;  ///< A constant of the agent
    uint8_t                  is_derived : 1;   ///< Derived from other counters
    uint64_t                 dimensions_count; ///< Entries in @p dimensions
    const rocprofiler_counter_record_dimension_info_t** dimensions; ///< Its dimensions
    uint64_t dimensions_instances_count; ///< Entries in @p dimensions_instances
    const rocprofiler_counter_record_dimension_instance_info_t** dimensions_instances; ///< Them
} rocprofiler_counter_info_v1_t;

/** @brief One counter value of a dispatch. */
typedef struct rocprofiler_counter_record_t
{
    rocprofiler_counter_instance_id_t id;            ///< Counter instance (decode with the queries)
    double                            counter_value; ///< The value
    rocprofiler_dispatch_id_t         dispatch_id;   ///< Dispatch it belongs to
    rocprofiler_user_data_t           user_data;     ///< The dispatch callback's user data
    rocprofiler_agent_id_t            agent_id;      ///< Agent
} rocprofiler_counter_record_t;

/** @brief rocprofiler-sdk's other name of @ref rocprofiler_counter_record_t. */
typedef rocprofiler_counter_record_t rocprofiler_record_counter_t;

/**
 * @brief Receives an agent's counters.
 * @param [in] agent_id The agent.
 * @param [in] counters Ids of its counters.
 * @param [in] num_counters Number of ids.
 * @param [in] user_data The `user_data` of the iteration.
 */
typedef rocprofiler_status_t (*rocprofiler_available_counters_cb_t)(
    rocprofiler_agent_id_t    agent_id,
    rocprofiler_counter_id_t* counters,
    size_t                    num_counters,
    void*                     user_data);

/**
 * @brief Lists the counters an agent supports.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED The agent has no counter support (yet).
 */
rocprofiler_status_t
rocprofiler_iterate_agent_supported_counters(rocprofiler_agent_id_t              agent_id,
                                             rocprofiler_available_counters_cb_t cb,
                                             void* user_data) ROCPROFILER_API;

/**
 * @brief Describes a counter.
 * @param [in] counter_id The counter.
 * @param [in] version VERSION_0 or VERSION_1.
 * @param [out] info A @ref rocprofiler_counter_info_v0_t or @ref rocprofiler_counter_info_v1_t.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND No such counter.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p info is NULL or @p version unknown.
 */
rocprofiler_status_t rocprofiler_query_counter_info(rocprofiler_counter_id_t counter_id,
                                                    rocprofiler_counter_info_version_id_t version,
                                                    void* info) ROCPROFILER_API;

/**
 * @brief The counter of a record's instance id.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p counter_id is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND @p id is not an instance of any counter.
 */
rocprofiler_status_t
rocprofiler_query_record_counter_id(rocprofiler_counter_instance_id_t id,
                                    rocprofiler_counter_id_t*         counter_id) ROCPROFILER_API;

/**
 * @brief Position of a record's instance id along one dimension.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p pos is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND The counter has no such dimension.
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND @p id is not an instance of any counter.
 */
rocprofiler_status_t
rocprofiler_query_record_dimension_position(rocprofiler_counter_instance_id_t  id,
                                            rocprofiler_counter_dimension_id_t dim,
                                            size_t*                            pos) ROCPROFILER_API;

/** @} */

/**
 * @brief Defines a derived counter from an expression over an agent's counters. Not built here:
 * each agent's derived metrics come from its own definitions (docs/api.md, "Derived metrics").
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A string is NULL or empty, or @p counter_id
 * is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED Otherwise.
 */
rocprofiler_status_t
rocprofiler_create_counter(const char*               name,
                           size_t                    name_len,
                           const char*               expr,
                           size_t                    expr_len,
                           const char*               description,
                           size_t                    description_len,
                           rocprofiler_agent_id_t    agent,
                           rocprofiler_counter_id_t* counter_id) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI

#include <rocprofiler-sdk/deprecated/counters.h>
