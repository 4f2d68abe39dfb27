// C entry point of rocprofiler_configure_buffer_tracing_service (the queries are in
// tracing_queries.cpp).
#include "agent/agent.hpp"
#include "backend/device_backend.hpp"
#include "buffer/buffer.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"
#include "tracing/names.hpp"
#include "tracing/operation_set.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>

namespace
{
// Memory copies of agents whose backend does not report them yet would be missing without a word:
// say so once per backend, when a context first asks for copies.
void
warn_untraced_copies()
{
    namespace rp = rocprofiler;
    for(const auto* backend : rp::backend::registered())
    {
        if(backend->traces_memory_copies() || !rp::agent::id_of(*backend, 0)) continue;
        rp::common::log::warn_once(
            std::string{"memory-copy-untraced:"} + backend->name(),
            std::string{"memory copy tracing: copies of "} + backend->name() +
                " agents are not traced: no MEMORY_COPY record describes them");
    }
}
} // namespace

extern "C"
{
    rocprofiler_status_t
    rocprofiler_configure_buffer_tracing_service(rocprofiler_context_id_t               context_id,
                                                 rocprofiler_buffer_tracing_kind_t      kind,
                                                 const rocprofiler_tracing_operation_t* operations,
                                                 size_t                  operations_count,
                                                 rocprofiler_buffer_id_t buffer_id)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        auto* ctx    = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        if(kind <= ROCPROFILER_BUFFER_TRACING_NONE || kind >= ROCPROFILER_BUFFER_TRACING_LAST)
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;

        auto ops = rp::context::operation_set{};
        ROCP_RETURN_IF_ERROR(
            rp::tracing::make_operation_set(rp::tracing::buffer_operation_first(kind),
                                            rp::tracing::buffer_operation_count(kind),
                                            operations,
                                            operations_count,
                                            ops));

        if(!rp::tracing::buffer_kind_supported(kind))
            return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;

        if(ctx->buffered_tracer && ctx->buffered_tracer->kinds[kind].has_value())
            return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;

        if(!ctx->buffered_tracer)
            ctx->buffered_tracer = std::make_unique<rp::context::buffer_tracing_service>();
        ctx->buffered_tracer->kinds[kind] = rp::context::buffer_kind_config{ops, buffer_id};
        if(kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY) warn_untraced_copies();
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_configure_buffer_tracing_service")
    }

    rocprofiler_status_t rocprofiler_iterate_buffer_tracing_record_args(
        rocprofiler_record_header_t, rocprofiler_buffer_tracing_operation_args_cb_t callback, void*)
    {
        ROCP_API_GUARD_BEGIN
        if(callback == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        // No buffer record here carries its call's arguments.
        return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        ROCP_API_GUARD_END("rocprofiler_iterate_buffer_tracing_record_args")
    }
}
