// C entry points of context.h.
#include "context/context.hpp"
#include "code_object/code_object.hpp"
#include "common/api_guard.hpp"
#include "dispatch/device_counting.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/context.h>

extern "C"
{
    rocprofiler_status_t rocprofiler_create_context(rocprofiler_context_id_t* context_id)
    {
        ROCP_API_GUARD_BEGIN
        if(context_id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(context_id->handle != 0) return ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO;
        if(rocprofiler::registration::configuration_locked())
            return ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED;
        auto* ctx = rocprofiler::context::create(rocprofiler::registration::current_client());
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
        context_id->handle = ctx->id;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_create_context")
    }

    rocprofiler_status_t rocprofiler_start_context(rocprofiler_context_id_t context_id)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = rocprofiler::context::get(context_id);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        if(rocprofiler::registration::finalized_status() != 0)
            return ROCPROFILER_STATUS_ERROR_FINALIZED;
        if(ctx->client != 0 && rocprofiler::registration::client_finalized(ctx->client))
            return ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID;
        auto started = false;
        ROCP_RETURN_IF_ERROR(rocprofiler::context::start(*ctx, &started));
        // A context that starts learns the code objects reported so far.
        if(started) rocprofiler::code_object::on_context_start(*ctx);
        // Device counting asks the tool for each agent's configuration and counts from zero at
        // each start; starting an active context changes nothing (as in rocprofiler-sdk).
        if(started && ctx->device_counter)
            return rocprofiler::dispatch::device_counting::begin(*ctx);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_start_context")
    }

    rocprofiler_status_t rocprofiler_stop_context(rocprofiler_context_id_t context_id)
    {
        ROCP_API_GUARD_BEGIN
        return rocprofiler::context::stop(context_id);
        ROCP_API_GUARD_END("rocprofiler_stop_context")
    }

    rocprofiler_status_t rocprofiler_context_is_active(rocprofiler_context_id_t context_id,
                                                       int*                     status)
    {
        if(status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        auto* ctx = rocprofiler::context::get(context_id);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        *status = ctx->active.load() ? 1 : 0;
        return ROCPROFILER_STATUS_SUCCESS;
    }

    rocprofiler_status_t rocprofiler_context_is_valid(rocprofiler_context_id_t context_id,
                                                      int*                     status)
    {
        if(status == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        auto* ctx = rocprofiler::context::get(context_id);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        *status = (!ctx->disabled && ctx->has_any_service()) ? 1 : 0;
        return ROCPROFILER_STATUS_SUCCESS;
    }
}
