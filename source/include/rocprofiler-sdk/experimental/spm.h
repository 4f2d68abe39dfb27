/**
 * @file experimental/spm.h
 * @brief Streaming performance monitoring (SPM) services (experimental): counters sampled at a
 * fixed interval while a kernel runs, delivered as timestamped values per dispatch or per agent.
 *
 * A tool asks an agent which SPM parameters it accepts
 * (@ref rocprofiler_spm_query_agent_configurations) and which counters it can stream
 * (@ref rocprofiler_spm_iterate_agent_supported_counters), builds an SPM counter configuration
 * (@ref rocprofiler_spm_create_counter_config), and picks it per dispatch in a dispatch service,
 * or per agent in the device service.
 *
 * The host device streams its counters; a CUDA agent streams the counters CUPTI's PM sampling
 * takes on its chip. For an agent without SPM the query delivers an empty list, and the counter
 * iteration and every creation or configuration call return
 * @ref ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED once their arguments are checked. The
 * types and signatures are those of rocprofiler-sdk's experimental SPM header, so that tools
 * compile unchanged. As in pc_sampling.h, pointer parameters carry no nonnull attribute: the SDK
 * checks them. Expected to change before a stable release.
 */
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/device_counting_service.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup SPM_SERVICE Streaming performance monitoring (experimental)
 * @brief Counters sampled at an interval during a kernel.
 * @{
 */

/** @brief Kinds of SPM parameters. */
typedef enum rocprofiler_spm_parameter_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_SPM_PARAMETER_TYPE_NONE = 0,                    ///< No parameter
    ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES, ///< Interval, in shader clocks
    ROCPROFILER_SPM_PARAMETER_TYPE_LAST,                        ///< Sentinel
} rocprofiler_spm_parameter_type_t;

/** @brief One SPM parameter an agent accepts, with the range of values it accepts. */
typedef struct rocprofiler_spm_available_configuration_t
{
    uint64_t                         size; ///< Size of this struct
    rocprofiler_spm_parameter_type_t type; ///< Which member of the union is valid
    /* Anonymous members are C11; __extension__ keeps C99 -pedantic builds quiet. */
    ROCPROFILER_ANONYMOUS union
    {
        struct
        {
            uint64_t min_interval; ///< Shortest accepted interval
            uint64_t max_interval; ///< Longest accepted interval
        } interval; ///< For @ref ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES
    };
} rocprofiler_spm_available_configuration_t;

/**
 * @brief Receives the SPM parameters an agent accepts, on the querying thread.
 * @param [in] config Array of @p num_config pointers, owned by the SDK and valid during the call.
 * @param [in] num_config Number of entries; 0 when the agent accepts none.
 * @param [in] user_data The query's @p user_data.
 * @return Ignored by the query.
 */
typedef rocprofiler_status_t (*rocprofiler_spm_available_configurations_cb_t)(
    const rocprofiler_spm_available_configuration_t** config, size_t num_config, void* user_data);

/**
 * @brief Lists the SPM parameters @p agent_id accepts: calls @p cb once, with an empty list when
 * the agent has no SPM.
 * @param [in] agent_id Agent to ask.
 * @param [in] cb Receives the list.
 * @param [in] user_data Passed to @p cb.
 * @retval ROCPROFILER_STATUS_SUCCESS @p cb was called.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb is NULL.
 */
rocprofiler_status_t
rocprofiler_spm_query_agent_configurations(rocprofiler_agent_id_t                        agent_id,
                                           rocprofiler_spm_available_configurations_cb_t cb,
                                           void* user_data) ROCPROFILER_API;

/** @brief One SPM parameter of a counter configuration. */
typedef struct rocprofiler_spm_parameters_t
{
    uint64_t                         size;  ///< Size of this struct
    rocprofiler_spm_parameter_type_t type;  ///< Which parameter
    uint64_t                         value; ///< Its value, inside the range the agent accepts
} rocprofiler_spm_parameters_t;

/**
 * @brief Creates an SPM counter configuration of @p agent_id: a fixed set of counters and
 * parameters, usable in any context. A non-zero @p config_id on entry names a configuration
 * whose counters are copied into the new one (the old one stays valid).
 * @param [in] agent_id Agent the configuration belongs to.
 * @param [in] counters_list Counters to stream.
 * @param [in] counters_count Number of counters.
 * @param [in] parameters Array of @p parameters_count parameter pointers.
 * @param [in] parameters_count Number of parameters.
 * @param [in,out] config_id The new configuration (optionally a base configuration on entry).
 * @retval ROCPROFILER_STATUS_SUCCESS Created.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A NULL pointer (or NULL entry) where one is
 * needed.
 * @retval ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND A counter does not exist.
 * @retval ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT A counter cannot be streamed here.
 * @retval ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT Too many counters for the hardware.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED The agent has no SPM (on this
 * platform: every agent, for now).
 */
rocprofiler_status_t
rocprofiler_spm_create_counter_config(rocprofiler_agent_id_t           agent_id,
                                      rocprofiler_counter_id_t*        counters_list,
                                      size_t                           counters_count,
                                      rocprofiler_spm_parameters_t**   parameters,
                                      size_t                           parameters_count,
                                      rocprofiler_counter_config_id_t* config_id) ROCPROFILER_API;

/**
 * @brief Destroys an SPM counter configuration.
 * @param [in] config_id The configuration.
 * @retval ROCPROFILER_STATUS_SUCCESS Destroyed.
 * @retval ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND No such SPM configuration.
 */
rocprofiler_status_t
rocprofiler_spm_destroy_counter_config(rocprofiler_counter_config_id_t config_id) ROCPROFILER_API;

/** @brief Bits passed with a batch of SPM records. */
typedef enum rocprofiler_spm_record_flag_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_SPM_RECORD_FLAG_NONE         = 0,      ///< No flag
    ROCPROFILER_SPM_RECORD_FLAG_DATA         = 1 << 0, ///< The batch holds records
    ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS    = 1 << 1, ///< Samples were lost before this batch
    ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END = 1 << 2, ///< The dispatch finished; no records
    ROCPROFILER_SPM_RECORD_FLAG_LAST         = 1 << 3, ///< Sentinel
} rocprofiler_spm_record_flag_t;

/** @brief The dispatch an SPM callback is about. */
typedef struct rocprofiler_spm_dispatch_counting_service_data_t
{
    uint64_t                           size;           ///< Size of this struct
    rocprofiler_async_correlation_id_t correlation_id; ///< Correlation ids of the dispatch
    rocprofiler_kernel_dispatch_info_t dispatch_info;  ///< The dispatch
} rocprofiler_spm_dispatch_counting_service_data_t;

/** @brief One streamed sample of one counter instance. */
typedef struct rocprofiler_spm_counter_record_t
{
    uint64_t                          size;        ///< Size of this struct
    rocprofiler_dispatch_id_t         dispatch_id; ///< Dispatch the sample was taken during
    rocprofiler_counter_instance_id_t id;          ///< Counter instance
    rocprofiler_agent_id_t            agent_id;    ///< Agent sampled
    rocprofiler_timestamp_t           timestamp;   ///< When the sample was taken
    double                            value;       ///< The counter's value
} rocprofiler_spm_counter_record_t;

/**
 * @brief Receives a batch of samples of a dispatch, possibly several times per dispatch, the last
 * batch flagged @ref ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END.
 * @param [in] dispatch_data The dispatch.
 * @param [in] records Array of @p record_count pointers, valid during the call.
 * @param [in] record_count Number of records.
 * @param [in] flags Bits of @ref rocprofiler_spm_record_flag_t.
 * @param [in] userdata What the dispatch callback wrote for this dispatch.
 * @param [in] record_callback_args The configure call's @p record_callback_args.
 */
typedef void (*rocprofiler_spm_dispatch_counting_record_cb_t)(
    const rocprofiler_spm_dispatch_counting_service_data_t* dispatch_data,
    const rocprofiler_spm_counter_record_t**                records,
    size_t                                                  record_count,
    rocprofiler_spm_record_flag_t                           flags,
    rocprofiler_user_data_t                                 userdata,
    void*                                                   record_callback_args);

/**
 * @brief Chooses the SPM configuration of a dispatch, before it is enqueued, on the submitting
 * thread. Leaving @p config zero streams nothing for this dispatch.
 * @param [in] dispatch_data The dispatch.
 * @param [out] config The SPM counter configuration to use.
 * @param [out] user_data Kept for this dispatch and passed to the record callback.
 * @param [in] callback_data_args The configure call's callback argument.
 */
typedef void (*rocprofiler_spm_dispatch_counting_service_cb_t)(
    const rocprofiler_spm_dispatch_counting_service_data_t* dispatch_data,
    rocprofiler_counter_config_id_t*                        config,
    rocprofiler_user_data_t*                                user_data,
    void*                                                   callback_data_args);

/**
 * @brief Lists the counters @p agent_id can stream, through @p cb.
 * @param [in] agent_id Agent to ask.
 * @param [in] cb Receives the counters.
 * @param [in] user_data Passed to @p cb.
 * @retval ROCPROFILER_STATUS_SUCCESS @p cb was called.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED The agent has no counter to stream
 * (on this platform: every agent, for now; @p cb is not called).
 */
rocprofiler_status_t
rocprofiler_spm_iterate_agent_supported_counters(rocprofiler_agent_id_t              agent_id,
                                                 rocprofiler_available_counters_cb_t cb,
                                                 void* user_data) ROCPROFILER_API;

/**
 * @brief Configures per-dispatch SPM in @p context_id, delivering samples through
 * @p record_callback.
 * @param [in] context_id The context.
 * @param [in] dispatch_callback Chooses each dispatch's configuration.
 * @param [in] dispatch_callback_args Passed to @p dispatch_callback.
 * @param [in] record_callback Receives the samples.
 * @param [in] record_callback_args Passed to @p record_callback.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after tool initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT A callback is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT A conflicting service is in the context.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED No agent has SPM (on this platform:
 * none has, for now).
 */
rocprofiler_status_t rocprofiler_spm_configure_callback_dispatch_service(
    rocprofiler_context_id_t                       context_id,
    rocprofiler_spm_dispatch_counting_service_cb_t dispatch_callback,
    void*                                          dispatch_callback_args,
    rocprofiler_spm_dispatch_counting_record_cb_t  record_callback,
    void*                                          record_callback_args) ROCPROFILER_API;

/**
 * @brief Configures per-dispatch SPM in @p context_id, delivering samples into @p buffer_id.
 * @param [in] context_id The context.
 * @param [in] buffer_id Buffer the samples go to.
 * @param [in] callback Chooses each dispatch's configuration.
 * @param [in] callback_data_args Passed to @p callback.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after tool initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT A conflicting service is in the context.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED No agent has SPM (on this platform:
 * none has, for now).
 */
rocprofiler_status_t rocprofiler_spm_configure_buffer_dispatch_service(
    rocprofiler_context_id_t                       context_id,
    rocprofiler_buffer_id_t                        buffer_id,
    rocprofiler_spm_dispatch_counting_service_cb_t callback,
    void*                                          callback_data_args) ROCPROFILER_API;

/**
 * @brief Configures agent-wide SPM of @p agent_id in @p context_id, delivering samples into
 * @p buffer_id. @p cb is called when the context starts, to set the SPM counter configuration.
 * At most one such service per agent per context.
 * @param [in] context_id The context.
 * @param [in] buffer_id Buffer the samples go to.
 * @param [in] agent_id Agent to stream from.
 * @param [in] cb Sets the configuration when the context starts.
 * @param [in] user_data Passed to @p cb.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after tool initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT Dispatch counting is in the context.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED The agent has no SPM (on this
 * platform: every agent, for now).
 */
rocprofiler_status_t
rocprofiler_configure_spm_device_counting_service(rocprofiler_context_id_t context_id,
                                                  rocprofiler_buffer_id_t  buffer_id,
                                                  rocprofiler_agent_id_t   agent_id,
                                                  rocprofiler_device_counting_service_cb_t cb,
                                                  void* user_data) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
