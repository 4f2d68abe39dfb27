// C entry point of rocprofiler_configure_callback_tracing_service (the queries are in
// tracing_queries.cpp).
#include "common/api_guard.hpp"
#include "context/context.hpp"
#include "kernel_replay/engine.hpp"
#include "registration/registration.hpp"
#include "tracing/names.hpp"
#include "tracing/operation_set.hpp"

#include <rocprofiler-sdk/callback_tracing.h>

extern "C"
{
    rocprofiler_status_t rocprofiler_configure_callback_tracing_service(
        rocprofiler_context_id_t               context_id,
        rocprofiler_callback_tracing_kind_t    kind,
        const rocprofiler_tracing_operation_t* operations,
        size_t                                 operations_count,
        rocprofiler_callback_tracing_cb_t      callback,
        void*                                  callback_args)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        auto* ctx    = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(kind <= ROCPROFILER_CALLBACK_TRACING_NONE || kind >= ROCPROFILER_CALLBACK_TRACING_LAST)
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;

        auto ops = rp::context::operation_set{};
        ROCP_RETURN_IF_ERROR(
            rp::tracing::make_operation_set(rp::tracing::callback_operation_first(kind),
                                            rp::tracing::callback_operation_count(kind),
                                            operations,
                                            operations_count,
                                            ops));

        if(!rp::tracing::callback_kind_supported(kind))
            return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;

        if(ctx->callback_tracer && ctx->callback_tracer->kinds[kind].has_value())
            return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;

        if(kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY)
            ROCP_RETURN_IF_ERROR(rp::kernel_replay::claim_domain(ctx->id));

        if(!ctx->callback_tracer)
            ctx->callback_tracer = std::make_unique<rp::context::callback_tracing_service>();
        ctx->callback_tracer->kinds[kind] =
            rp::context::callback_kind_config{ops, callback, callback_args};
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_callback_tracing_service")
    }

    rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operation_args(
        rocprofiler_callback_tracing_record_t,
        rocprofiler_callback_tracing_operation_args_cb_t callback,
        int32_t,
        void*)
    {
        ROCP_API_GUARD_BEGIN
        if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        // No kind here describes its arguments one by one (rocprofiler-sdk does so for the HSA,
        // HIP, RCCL, rocDecode and rocJPEG APIs, none of which runs here).
        return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        ROCP_API_GUARD_END("rocprofiler_iterate_callback_tracing_kind_operation_args")
    }
}
