// C entry points of experimental/spm.h. No agent streams counters yet (CUPTI PM sampling on CUDA
// devices is still to come; the host device has no sampled counters), so the configuration query
// reports an empty list and every other call answers ERROR_AGENT_ARCH_NOT_SUPPORTED once its
// arguments are checked, with one warning per process.
#include "agent/agent.hpp"
#include "buffer/buffer.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/experimental/spm.h>

#include <string>

namespace
{
// The one warning of the SPM service; @p where names the agent or says that no agent has SPM.
rocprofiler_status_t
not_supported(const std::string& where, const char* function)
{
    rocprofiler::common::log::warn_once(
        "spm.not_supported",
        "SPM is not available on " + where + ": no agent streams counters yet; " + function +
            " returns ERROR_AGENT_ARCH_NOT_SUPPORTED (as do the other SPM calls)");
    return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
}

std::string
agent_label(const rocprofiler_agent_v0_t& agent)
{
    return std::string{agent.name != nullptr ? agent.name : "?"} + " (agent " +
           std::to_string(agent.id.handle) + ")";
}
} // namespace

extern "C"
{
    rocprofiler_status_t
    rocprofiler_spm_query_agent_configurations(rocprofiler_agent_id_t agent_id,
                                               rocprofiler_spm_available_configurations_cb_t cb,
                                               void* user_data)
    {
        ROCP_API_GUARD_BEGIN
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rocprofiler::agent::find(agent_id) == nullptr)
            return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        // As rocprofiler-sdk does for an agent without SPM parameters: one call with an empty
        // list; the callback's status is not the query's.
        cb(nullptr, 0, user_data);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_spm_query_agent_configurations")
    }

    rocprofiler_status_t
    rocprofiler_spm_create_counter_config(rocprofiler_agent_id_t           agent_id,
                                          rocprofiler_counter_id_t*        counters_list,
                                          size_t                           counters_count,
                                          rocprofiler_spm_parameters_t**   parameters,
                                          size_t                           parameters_count,
                                          rocprofiler_counter_config_id_t* config_id)
    {
        ROCP_API_GUARD_BEGIN
        const auto* agent = rocprofiler::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(counters_list == nullptr || parameters == nullptr || config_id == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        (void)counters_count;
        for(size_t i = 0; i < parameters_count; ++i)
        {
            if(parameters[i] == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        }
        return not_supported(agent_label(*agent), "rocprofiler_spm_create_counter_config");
        ROCP_API_GUARD_END("rocprofiler_spm_create_counter_config")
    }

    rocprofiler_status_t
    rocprofiler_spm_destroy_counter_config(rocprofiler_counter_config_id_t config_id)
    {
        ROCP_API_GUARD_BEGIN
            // No SPM configuration can have been created.
            (void) config_id;
        return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
        ROCP_API_GUARD_END("rocprofiler_spm_destroy_counter_config")
    }

    rocprofiler_status_t rocprofiler_spm_iterate_agent_supported_counters(
        rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb, void* user_data)
    {
        ROCP_API_GUARD_BEGIN(void) user_data;
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto* agent = rocprofiler::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        return not_supported(agent_label(*agent),
                             "rocprofiler_spm_iterate_agent_supported_counters");
        ROCP_API_GUARD_END("rocprofiler_spm_iterate_agent_supported_counters")
    }

    rocprofiler_status_t rocprofiler_spm_configure_callback_dispatch_service(
        rocprofiler_context_id_t                       context_id,
        rocprofiler_spm_dispatch_counting_service_cb_t dispatch_callback,
        void*                                          dispatch_callback_args,
        rocprofiler_spm_dispatch_counting_record_cb_t  record_callback,
        void*                                          record_callback_args)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        (void)dispatch_callback_args;
        (void)record_callback_args;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(dispatch_callback == nullptr || record_callback == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return not_supported("any agent of this process",
                             "rocprofiler_spm_configure_callback_dispatch_service");
        ROCP_API_GUARD_END("rocprofiler_spm_configure_callback_dispatch_service")
    }

    rocprofiler_status_t rocprofiler_spm_configure_buffer_dispatch_service(
        rocprofiler_context_id_t                       context_id,
        rocprofiler_buffer_id_t                        buffer_id,
        rocprofiler_spm_dispatch_counting_service_cb_t callback,
        void*                                          callback_data_args)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        (void)callback_data_args;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return not_supported("any agent of this process",
                             "rocprofiler_spm_configure_buffer_dispatch_service");
        ROCP_API_GUARD_END("rocprofiler_spm_configure_buffer_dispatch_service")
    }

    rocprofiler_status_t
    rocprofiler_configure_spm_device_counting_service(rocprofiler_context_id_t context_id,
                                                      rocprofiler_buffer_id_t  buffer_id,
                                                      rocprofiler_agent_id_t   agent_id,
                                                      rocprofiler_device_counting_service_cb_t cb,
                                                      void* user_data)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        (void)user_data;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return not_supported(agent_label(*agent),
                             "rocprofiler_configure_spm_device_counting_service");
        ROCP_API_GUARD_END("rocprofiler_configure_spm_device_counting_service")
    }
}
