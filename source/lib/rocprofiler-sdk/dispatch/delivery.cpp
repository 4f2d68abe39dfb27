#include "dispatch/delivery.hpp"

#include "buffer/buffer.hpp"
#include "common/logging.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>

#include <optional>

namespace rocprofiler::dispatch::delivery
{
namespace
{
rocprofiler_dispatch_counting_service_data_t
make_counting_data(const logical_dispatch& dispatch,
                   const participant&      p,
                   const execution_result* result)
{
    auto data                    = rocprofiler_dispatch_counting_service_data_t{};
    data.size                    = sizeof(data);
    data.correlation_id.internal = dispatch.internal_id;
    data.correlation_id.external = p.external;
    data.start_timestamp         = result != nullptr ? result->start_ns : 0;
    data.end_timestamp           = result != nullptr ? result->end_ns : 0;
    data.dispatch_info           = dispatch.info;
    return data;
}

rocprofiler_callback_tracing_record_t
make_record(const logical_dispatch&      dispatch,
            const participant&           p,
            int32_t                      operation,
            rocprofiler_callback_phase_t phase,
            void*                        payload)
{
    auto record                    = rocprofiler_callback_tracing_record_t{};
    record.context_id              = rocprofiler_context_id_t{p.ctx->id};
    record.thread_id               = dispatch.thread_id;
    record.correlation_id.internal = dispatch.internal_id;
    record.correlation_id.external = p.external;
    record.correlation_id.ancestor = dispatch.ancestor_id;
    record.kind                    = ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH;
    record.operation               = operation;
    record.phase                   = phase;
    record.payload                 = payload;
    return record;
}
} // namespace

const context::callback_kind_config*
callback_config(const context::context& ctx)
{
    if(!ctx.callback_tracer) return nullptr;
    const auto& cfg = ctx.callback_tracer->kinds[ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH];
    return cfg.has_value() ? &*cfg : nullptr;
}

const context::buffer_kind_config*
buffer_config(const context::context& ctx)
{
    if(!ctx.buffered_tracer) return nullptr;
    const auto& cfg = ctx.buffered_tracer->kinds[ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH];
    return cfg.has_value() ? &*cfg : nullptr;
}

void
deliver_participant_counters(const logical_dispatch& dispatch,
                             const participant&      p,
                             const execution_result& result)
{
    const auto* svc = p.ctx->dispatch_counter.get();
    if(!p.counter_config || svc == nullptr) return;
    if(result.counters_deferred) return; // delivered when the backend resolves them
    if(!result.ok)
    {
        ROCP_LOG(warning) << "dispatch counting: dispatch " << dispatch.info.dispatch_id << " ("
                          << dispatch.kernel_name << ") failed: " << result.error
                          << "; no counter values are reported for it";
        return;
    }
    if(!result.counters_error.empty())
    {
        common::log::warn_once(
            "dispatch-counting:" + result.counters_error,
            "dispatch counting: counters not collected: " + result.counters_error +
                "; the kernel ran normally and no counter values are reported "
                "for it (further dispatches with this error are logged at "
                "debug level)");
        return;
    }
    // One record per counter the tool asked for, derived ones computed from the base values of
    // this same execution (the request measured the union of every participant's bases).
    auto measured = [&result](const counters::counter_definition& def) -> std::optional<double>
    {
        for(const auto& value : result.counters)
            if(value.id.handle == def.id.handle) return value.value;
        return std::nullopt;
    };
    auto records = std::vector<rocprofiler_counter_record_t>{};
    records.reserve(p.counter_config->reported.size());
    for(const auto* def : p.counter_config->reported)
    {
        auto value = counters::value_of(*def, measured);
        if(!value) continue; // the backend did not measure it (or a base counter of it)
        auto record          = rocprofiler_counter_record_t{};
        record.id            = counters::instance_id(def->id);
        record.counter_value = *value;
        record.dispatch_id   = dispatch.info.dispatch_id;
        record.user_data     = p.counting_user_data;
        record.agent_id      = dispatch.info.agent_id;
        records.emplace_back(record);
    }
    auto data = make_counting_data(dispatch, p, &result);
    if(svc->record_callback != nullptr)
    {
        call_tool(
            *p.ctx,
            "dispatch counting record callback",
            [&]
            {
                svc->record_callback(
                    data, records.data(), records.size(), p.counting_user_data, svc->record_data);
            });
        return;
    }
    auto header            = rocprofiler_dispatch_counting_service_record_t{};
    header.size            = sizeof(header);
    header.num_records     = records.size();
    header.correlation_id  = data.correlation_id;
    header.start_timestamp = data.start_timestamp;
    header.end_timestamp   = data.end_timestamp;
    header.dispatch_info   = data.dispatch_info;
    buffer::emplace(svc->buffer,
                    ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                    ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER,
                    header);
    for(const auto& record : records)
        buffer::emplace(svc->buffer,
                        ROCPROFILER_BUFFER_CATEGORY_COUNTERS,
                        ROCPROFILER_COUNTER_RECORD_VALUE,
                        record);
}

void
stop_after_exception(context::context& ctx, const char* callback)
{
    ctx.tool_threw.store(true, std::memory_order_release);
    ctx.active.store(false, std::memory_order_release);
    const auto who = registration::client_label(ctx.client);
    common::log::warn_once("tool-callback-threw:" + std::to_string(ctx.id) + ":" + callback,
                           who + ": its " + callback + " threw; its context " +
                               std::to_string(ctx.id) +
                               " is stopped and records nothing further (the application "
                               "continues and its dispatches complete)");
}

bool
client_gone(const participant& p)
{
    if(p.ctx->tool_threw.load(std::memory_order_acquire)) return true;
    return p.ctx->client != 0 && registration::client_finalized(p.ctx->client);
}

void
fire_enqueue(const logical_dispatch&      dispatch,
             std::vector<participant>&    participants,
             rocprofiler_callback_phase_t phase)
{
    for(auto& p : participants)
    {
        if(!p.callback_trace || client_gone(p)) continue;
        const auto* cb = callback_config(*p.ctx);
        if(!cb->covers(ROCPROFILER_KERNEL_DISPATCH_ENQUEUE)) continue;
        auto payload          = rocprofiler_callback_tracing_kernel_dispatch_data_t{};
        payload.size          = sizeof(payload);
        payload.dispatch_info = dispatch.info;
        call_tool(
            *p.ctx,
            "KERNEL_DISPATCH ENQUEUE callback",
            [&]
            {
                cb->callback(
                    make_record(dispatch, p, ROCPROFILER_KERNEL_DISPATCH_ENQUEUE, phase, &payload),
                    &p.callback_data,
                    cb->data);
            });
    }
}

void
deliver_completion(const logical_dispatch&   dispatch,
                   std::vector<participant>& participants,
                   const execution_result&   result)
{
    for(auto& p : participants)
    {
        if(client_gone(p)) continue;
        if(p.callback_trace)
        {
            const auto* cb = callback_config(*p.ctx);
            if(cb->covers(ROCPROFILER_KERNEL_DISPATCH_COMPLETE))
            {
                auto payload            = rocprofiler_callback_tracing_kernel_dispatch_data_t{};
                payload.size            = sizeof(payload);
                payload.start_timestamp = result.start_ns;
                payload.end_timestamp   = result.end_ns;
                payload.dispatch_info   = dispatch.info;
                call_tool(*p.ctx,
                          "KERNEL_DISPATCH COMPLETE callback",
                          [&]
                          {
                              cb->callback(make_record(dispatch,
                                                       p,
                                                       ROCPROFILER_KERNEL_DISPATCH_COMPLETE,
                                                       ROCPROFILER_CALLBACK_PHASE_NONE,
                                                       &payload),
                                           &p.callback_data,
                                           cb->data);
                          });
            }
        }
        if(p.buffer_trace)
        {
            const auto* buf                = buffer_config(*p.ctx);
            auto        record             = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
            record.size                    = sizeof(record);
            record.kind                    = ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH;
            record.operation               = ROCPROFILER_KERNEL_DISPATCH_COMPLETE;
            record.correlation_id.internal = dispatch.internal_id;
            record.correlation_id.external = p.external;
            record.thread_id               = dispatch.thread_id;
            record.start_timestamp         = result.start_ns;
            record.end_timestamp           = result.end_ns;
            record.dispatch_info           = dispatch.info;
            buffer::emplace(buf->buffer,
                            ROCPROFILER_BUFFER_CATEGORY_TRACING,
                            ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                            record);
        }
        deliver_participant_counters(dispatch, p, result);
    }
}
} // namespace rocprofiler::dispatch::delivery
