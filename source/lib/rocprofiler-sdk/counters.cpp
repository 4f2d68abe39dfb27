// C entry points of counters.h, counter_config.h, dispatch_counting_service.h and
// device_counting_service.h. No agent has counters yet: after validating their arguments these
// return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED, never a made-up value.
#include "agent/agent.hpp"
#include "common/api_guard.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/device_counting_service.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>

extern "C" {
rocprofiler_status_t
rocprofiler_iterate_agent_supported_counters(rocprofiler_agent_id_t              agent_id,
                                             rocprofiler_available_counters_cb_t cb,
                                             void*                               user_data)
{
    (void) user_data;
    if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    if(rocprofiler::agent::find(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_query_counter_info(rocprofiler_counter_id_t              counter_id,
                               rocprofiler_counter_info_version_id_t version,
                               void*                                 info)
{
    (void) counter_id;
    if(info == nullptr || version <= ROCPROFILER_COUNTER_INFO_VERSION_NONE ||
       version >= ROCPROFILER_COUNTER_INFO_VERSION_LAST)
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_query_record_counter_id(rocprofiler_counter_instance_id_t id,
                                    rocprofiler_counter_id_t*         counter_id)
{
    (void) id;
    if(counter_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_query_record_dimension_position(rocprofiler_counter_instance_id_t  id,
                                            rocprofiler_counter_dimension_id_t dim,
                                            size_t*                            pos)
{
    (void) id;
    (void) dim;
    if(pos == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_create_counter_config(rocprofiler_agent_id_t           agent_id,
                                  rocprofiler_counter_id_t*        counters_list,
                                  size_t                           counters_count,
                                  rocprofiler_counter_config_id_t* config_id)
{
    if(counters_list == nullptr || counters_count == 0 || config_id == nullptr)
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    if(rocprofiler::agent::find(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_destroy_counter_config(rocprofiler_counter_config_id_t config_id)
{
    (void) config_id;
    return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
}

rocprofiler_status_t
rocprofiler_configure_buffer_dispatch_counting_service(
    rocprofiler_context_id_t                   context_id,
    rocprofiler_buffer_id_t                    buffer_id,
    rocprofiler_dispatch_counting_service_cb_t callback,
    void*                                      callback_args)
{
    (void) buffer_id;
    (void) callback_args;
    if(rocprofiler::registration::configuration_locked())
        return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    if(rocprofiler::context::get(context_id) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_configure_callback_dispatch_counting_service(
    rocprofiler_context_id_t                   context_id,
    rocprofiler_dispatch_counting_service_cb_t dispatch_callback,
    void*                                      dispatch_callback_args,
    rocprofiler_dispatch_counting_record_cb_t  record_callback,
    void*                                      record_callback_args)
{
    (void) dispatch_callback_args;
    (void) record_callback_args;
    if(rocprofiler::registration::configuration_locked())
        return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    if(rocprofiler::context::get(context_id) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if(dispatch_callback == nullptr || record_callback == nullptr)
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_configure_device_counting_service(rocprofiler_context_id_t                 context_id,
                                              rocprofiler_buffer_id_t                  buffer_id,
                                              rocprofiler_agent_id_t                   agent_id,
                                              rocprofiler_device_counting_service_cb_t cb,
                                              void*                                    user_data)
{
    (void) buffer_id;
    (void) agent_id;
    (void) user_data;
    if(rocprofiler::registration::configuration_locked())
        return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
    if(rocprofiler::context::get(context_id) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}

rocprofiler_status_t
rocprofiler_sample_device_counting_service(rocprofiler_context_id_t      context_id,
                                           rocprofiler_user_data_t       user_data,
                                           uint64_t                      flags,
                                           rocprofiler_counter_record_t* output_records,
                                           size_t*                       rec_count)
{
    (void) user_data;
    (void) flags;
    (void) output_records;
    if(rocprofiler::context::get(context_id) == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    if(rec_count == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
}
}
