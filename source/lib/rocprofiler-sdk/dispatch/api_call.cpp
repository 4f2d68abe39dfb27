#include "dispatch/api_call.hpp"

#include "common/logging.hpp"
#include "dispatch/delivery.hpp"
#include "dispatch/dispatch.hpp"

#include <string>

namespace rocprofiler::dispatch::api_call
{
size_t
gather(rocprofiler_callback_tracing_kind_t cb,
       rocprofiler_buffer_tracing_kind_t   buf,
       int32_t                             op,
       participants&                       out,
       const char*                         what)
{
    auto count = size_t{0};
    context::for_each(
        [&](context::context& ctx)
        {
            if(!context::is_active_for_this_thread(ctx)) return;
            if(ctx.tool_threw.load(std::memory_order_acquire)) return;
            const context::callback_kind_config* callback = nullptr;
            const context::buffer_kind_config*   buffer   = nullptr;
            if(ctx.callback_tracer)
                if(const auto& c = ctx.callback_tracer->kinds[cb]; c.has_value() && c->covers(op))
                    callback = &*c;
            if(ctx.buffered_tracer)
                if(const auto& b = ctx.buffered_tracer->kinds[buf]; b.has_value() && b->covers(op))
                    buffer = &*b;
            if(callback == nullptr && buffer == nullptr) return;
            if(count == max_participants)
            {
                common::log::warn_once(std::string{what} + "-participants",
                                       std::string{what} +
                                           ": more than 16 contexts trace one call; the ones "
                                           "beyond 16 get no records of it");
                return;
            }
            out[count++] = participant{&ctx, callback, buffer, {}, {}};
        });
    return count;
}

void
request_external_ids(participants&                                      parts,
                     size_t                                             count,
                     uint64_t                                           thread_id,
                     rocprofiler_external_correlation_id_request_kind_t kind,
                     int32_t                                            op,
                     uint64_t                                           internal_id)
{
    for(size_t i = 0; i < count; ++i)
        parts[i].external = request_external_id(*parts[i].ctx, thread_id, kind, op, internal_id);
}

void
fire(participant& p, rocprofiler_callback_tracing_record_t record, const char* label)
{
    if(p.callback == nullptr) return;
    if(p.ctx->tool_threw.load(std::memory_order_acquire)) return;
    record.context_id              = rocprofiler_context_id_t{p.ctx->id};
    record.correlation_id.external = p.external;
    const auto* cfg                = p.callback;
    delivery::call_tool(*p.ctx, label, [&] { cfg->callback(record, &p.user, cfg->data); });
}
} // namespace rocprofiler::dispatch::api_call
