// C entry points of experimental/thread_trace.h. No agent can trace waves (NVIDIA GPUs expose no
// instruction trace; the host device has none yet), so both services answer
// ERROR_AGENT_ARCH_NOT_SUPPORTED once their arguments are checked, with one warning per process.
#include "agent/agent.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/experimental/thread-trace/trace_decoder.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>

#include <string>

namespace
{
// The checks both services share, in the order the API documents: lock and context, agent,
// then the parameters. On success *agent is set.
rocprofiler_status_t
check_arguments(rocprofiler_context_id_t                    context_id,
                rocprofiler_agent_id_t                      agent_id,
                const rocprofiler_thread_trace_parameter_t* parameters,
                size_t                                      num_parameters,
                const rocprofiler_agent_v0_t**              agent)
{
    namespace rp = rocprofiler;
    auto* ctx    = static_cast<rp::context::context*>(nullptr);
    ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
    *agent = rp::agent::find(agent_id);
    if(*agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    if(parameters == nullptr && num_parameters != 0)
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    for(size_t i = 0; i < num_parameters; ++i)
    {
        if(parameters[i].type < ROCPROFILER_THREAD_TRACE_PARAMETER_TARGET_CU ||
           parameters[i].type >= ROCPROFILER_THREAD_TRACE_PARAMETER_LAST)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
not_supported(const rocprofiler_agent_v0_t& agent, const char* function)
{
    rocprofiler::common::log::warn_once(
        "thread_trace.not_supported",
        std::string{"Thread trace is not available on "} +
            (agent.name != nullptr ? agent.name : "?") + " (agent " +
            std::to_string(agent.id.handle) + "): no agent of this platform can trace waves; " +
            function + " returns ERROR_AGENT_ARCH_NOT_SUPPORTED (as does the other service)");
    return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
}
} // namespace

extern "C"
{
    rocprofiler_status_t rocprofiler_configure_dispatch_thread_trace_service(
        rocprofiler_context_id_t                        context_id,
        rocprofiler_agent_id_t                          agent_id,
        rocprofiler_thread_trace_parameter_t*           parameters,
        size_t                                          num_parameters,
        rocprofiler_thread_trace_dispatch_callback_t    dispatch_callback,
        rocprofiler_thread_trace_shader_data_callback_t shader_callback,
        void*                                           callback_userdata)
    {
        ROCP_API_GUARD_BEGIN(void) callback_userdata;
        const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(nullptr);
        ROCP_RETURN_IF_ERROR(
            check_arguments(context_id, agent_id, parameters, num_parameters, &agent));
        if(dispatch_callback == nullptr || shader_callback == nullptr)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return not_supported(*agent, "rocprofiler_configure_dispatch_thread_trace_service");
        ROCP_API_GUARD_END("rocprofiler_configure_dispatch_thread_trace_service")
    }

    rocprofiler_status_t rocprofiler_configure_device_thread_trace_service(
        rocprofiler_context_id_t                        context_id,
        rocprofiler_agent_id_t                          agent_id,
        rocprofiler_thread_trace_parameter_t*           parameters,
        size_t                                          num_parameters,
        rocprofiler_thread_trace_shader_data_callback_t shader_callback,
        rocprofiler_user_data_t                         callback_userdata)
    {
        ROCP_API_GUARD_BEGIN(void) callback_userdata;
        const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(nullptr);
        ROCP_RETURN_IF_ERROR(
            check_arguments(context_id, agent_id, parameters, num_parameters, &agent));
        if(shader_callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        return not_supported(*agent, "rocprofiler_configure_device_thread_trace_service");
        ROCP_API_GUARD_END("rocprofiler_configure_device_thread_trace_service")
    }
}

// experimental/thread-trace/trace_decoder.h. The decoder is AMD's binary library for AMD's trace
// format; no agent here produces that format, so none is loaded: creating a decoder answers
// ERROR_NOT_AVAILABLE (AMD's status for "library not found") and every other call sees a handle
// that is not a decoder.
extern "C"
{
    rocprofiler_status_t
    rocprofiler_thread_trace_decoder_create(rocprofiler_thread_trace_decoder_id_t* handle,
                                            const char*                            path)
    {
        ROCP_API_GUARD_BEGIN
        if(handle == nullptr || path == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        handle->handle = 0;
        rocprofiler::common::log::warn_once(
            "thread_trace.decoder",
            "rocprofiler_thread_trace_decoder_create: this SDK loads no thread-trace decoder (no "
            "agent here produces AMD's trace format); it returns ERROR_NOT_AVAILABLE");
        return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        ROCP_API_GUARD_END("rocprofiler_thread_trace_decoder_create")
    }

    void rocprofiler_thread_trace_decoder_destroy(rocprofiler_thread_trace_decoder_id_t) {}

    rocprofiler_status_t rocprofiler_thread_trace_decoder_codeobj_load(
        rocprofiler_thread_trace_decoder_id_t, uint64_t, uint64_t, uint64_t, const void*, uint64_t)
    {
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    }

    rocprofiler_status_t
    rocprofiler_thread_trace_decoder_codeobj_unload(rocprofiler_thread_trace_decoder_id_t, uint64_t)
    {
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    }

    rocprofiler_status_t rocprofiler_trace_decode(rocprofiler_thread_trace_decoder_id_t,
                                                  rocprofiler_thread_trace_decoder_callback_t,
                                                  void*,
                                                  uint64_t,
                                                  void*)
    {
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    }

    const char*
    rocprofiler_thread_trace_decoder_info_string(rocprofiler_thread_trace_decoder_id_t,
                                                 rocprofiler_thread_trace_decoder_info_t)
    {
        return nullptr;
    }
}
