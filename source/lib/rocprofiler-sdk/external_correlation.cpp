// C entry points of external_correlation.h.
#include "common/api_guard.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/external_correlation.h>

extern "C"
{
    rocprofiler_status_t
    rocprofiler_push_external_correlation_id(rocprofiler_context_id_t context,
                                             rocprofiler_thread_id_t  tid,
                                             rocprofiler_user_data_t  external_correlation_id)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = rocprofiler::context::get(context);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        if(tid == 0) return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
        ctx->external_ids.push(tid, external_correlation_id);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_push_external_correlation_id")
    }

    rocprofiler_status_t
    rocprofiler_pop_external_correlation_id(rocprofiler_context_id_t context,
                                            rocprofiler_thread_id_t  tid,
                                            rocprofiler_user_data_t* external_correlation_id)
    {
        ROCP_API_GUARD_BEGIN
        auto* ctx = rocprofiler::context::get(context);
        if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
        if(tid == 0 || !ctx->external_ids.pop(tid, external_correlation_id))
            return ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND;
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_pop_external_correlation_id")
    }

    rocprofiler_status_t rocprofiler_configure_external_correlation_id_request_service(
        rocprofiler_context_id_t                                  context_id,
        const rocprofiler_external_correlation_id_request_kind_t* kinds,
        size_t                                                    kinds_count,
        rocprofiler_external_correlation_id_request_cb_t          callback,
        void*                                                     callback_args)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        auto* ctx    = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(callback == nullptr || (kinds == nullptr && kinds_count != 0))
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        auto set = std::bitset<ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST>{};
        for(size_t i = 0; i < kinds_count; ++i)
        {
            if(kinds[i] <= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE ||
               kinds[i] >= ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST)
                return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
            set.set(kinds[i]);
        }
        if(ctx->correlation_request) return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        ctx->correlation_request =
            std::make_unique<rp::context::external_correlation_request_service>(
                rp::context::external_correlation_request_service{set, callback, callback_args});
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_external_correlation_id_request_service")
    }
}
