// C entry points of experimental/spm.h, and of spm.h (rocprofiler-sdk 1.0's first form). What an
// agent offers comes from its backend (spm/spm.hpp): the host device samples its counters over
// time, a CUDA device through CUPTI's PM sampling API. For an agent without SPM the configuration
// query reports an empty list and the other calls answer ERROR_AGENT_ARCH_NOT_SUPPORTED once their
// arguments are checked, with one warning per process. Of the three services, the callback
// dispatch service is implemented; the buffer dispatch service and the device-wide service answer
// ERROR_NOT_IMPLEMENTED with one warning (docs/pc_sampling.md).
#include "spm/spm.hpp"
#include "agent/agent.hpp"
#include "buffer/buffer.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/spm.h>

#include <string>
#include <vector>

namespace
{
namespace rp = rocprofiler;

std::string
agent_label(const rocprofiler_agent_v0_t& agent)
{
    return std::string{agent.name != nullptr ? agent.name : "?"} + " (agent " +
           std::to_string(agent.id.handle) + ")";
}

// The one warning of an agent without SPM; @p function names the call that answered.
rocprofiler_status_t
not_supported(const rocprofiler_agent_v0_t& agent, const char* function)
{
    rp::common::log::warn_once("spm.not_supported." + std::to_string(agent.id.handle),
                               "SPM is not available on " + agent_label(agent) +
                                   ": the agent samples no counter over time; " + function +
                                   " returns ERROR_AGENT_ARCH_NOT_SUPPORTED (as do the other SPM "
                                   "calls for this agent)");
    return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
}

rocprofiler_status_t
not_implemented(const char* function)
{
    rp::common::log::warn_once(std::string{"spm.not_implemented."} + function,
                               std::string{function} +
                                   " is not implemented: SPM samples reach tools through "
                                   "rocprofiler_spm_configure_callback_dispatch_service; it "
                                   "returns ERROR_NOT_IMPLEMENTED");
    return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;
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
        if(rp::agent::find(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        // As rocprofiler-sdk does: one call, with an empty list for an agent without SPM; the
        // callback's status is not the query's.
        auto offer = rp::spm::offer_of(agent_id);
        if(!offer)
        {
            cb(nullptr, 0, user_data);
            return ROCPROFILER_STATUS_SUCCESS;
        }
        auto config                  = rocprofiler_spm_available_configuration_t{};
        config.size                  = sizeof(config);
        config.type                  = ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES;
        config.interval.min_interval = offer->min_interval;
        config.interval.max_interval = offer->max_interval;
        const auto* list             = &config;
        cb(&list, 1, user_data);
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
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(counters_list == nullptr || config_id == nullptr ||
           (parameters == nullptr && parameters_count != 0))
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        for(size_t i = 0; i < parameters_count; ++i)
        {
            if(parameters[i] == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        }
        if(!rp::spm::offer_of(agent_id))
            return not_supported(*agent, "rocprofiler_spm_create_counter_config");
        return rp::spm::create_config(
            agent_id, counters_list, counters_count, parameters, parameters_count, config_id);
        ROCP_API_GUARD_END("rocprofiler_spm_create_counter_config")
    }

    rocprofiler_status_t
    rocprofiler_spm_destroy_counter_config(rocprofiler_counter_config_id_t config_id)
    {
        ROCP_API_GUARD_BEGIN
        return rp::spm::destroy_config(config_id);
        ROCP_API_GUARD_END("rocprofiler_spm_destroy_counter_config")
    }

    rocprofiler_status_t rocprofiler_spm_iterate_agent_supported_counters(
        rocprofiler_agent_id_t agent_id, rocprofiler_available_counters_cb_t cb, void* user_data)
    {
        ROCP_API_GUARD_BEGIN
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(!rp::spm::offer_of(agent_id))
            return not_supported(*agent, "rocprofiler_spm_iterate_agent_supported_counters");
        auto ids = std::vector<rocprofiler_counter_id_t>{};
        for(const auto* def : rp::spm::sampled_counters(agent_id))
            ids.push_back(def->id);
        return cb(agent_id, ids.data(), ids.size(), user_data);
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
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(dispatch_callback == nullptr || record_callback == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(ctx->spm) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        ctx->spm =
            std::make_unique<rp::context::spm_dispatch_service>(rp::context::spm_dispatch_service{
                dispatch_callback, dispatch_callback_args, record_callback, record_callback_args});
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_spm_configure_callback_dispatch_service")
    }

    rocprofiler_status_t rocprofiler_spm_configure_buffer_dispatch_service(
        rocprofiler_context_id_t                       context_id,
        rocprofiler_buffer_id_t                        buffer_id,
        rocprofiler_spm_dispatch_counting_service_cb_t callback,
        void*                                          callback_data_args)
    {
        ROCP_API_GUARD_BEGIN(void) callback_data_args;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return not_implemented("rocprofiler_spm_configure_buffer_dispatch_service");
        ROCP_API_GUARD_END("rocprofiler_spm_configure_buffer_dispatch_service")
    }

    rocprofiler_status_t
    rocprofiler_configure_spm_device_counting_service(rocprofiler_context_id_t context_id,
                                                      rocprofiler_buffer_id_t  buffer_id,
                                                      rocprofiler_agent_id_t   agent_id,
                                                      rocprofiler_device_counting_service_cb_t cb,
                                                      void* user_data)
    {
        ROCP_API_GUARD_BEGIN(void) user_data;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(!rp::spm::offer_of(agent_id))
            return not_supported(*agent, "rocprofiler_configure_spm_device_counting_service");
        return not_implemented("rocprofiler_configure_spm_device_counting_service");
        ROCP_API_GUARD_END("rocprofiler_configure_spm_device_counting_service")
    }

    // spm.h: the form experimental/spm.h replaced, in rocprofiler-sdk too; not implemented.
    rocprofiler_status_t rocprofiler_configure_spm_service(rocprofiler_context_id_t context_id,
                                                           rocprofiler_buffer_id_t  buffer_id,
                                                           rocprofiler_counter_config_id_t,
                                                           uint64_t)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        return not_implemented("rocprofiler_configure_spm_service");
        ROCP_API_GUARD_END("rocprofiler_configure_spm_service")
    }
}
