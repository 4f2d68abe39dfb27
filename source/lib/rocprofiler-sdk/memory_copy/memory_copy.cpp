#include "memory_copy/memory_copy.hpp"

#include "buffer/buffer.hpp"
#include "context/context.hpp"
#include "correlation/correlation.hpp"
#include "dispatch/dispatch.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/external_correlation.h>

#include <atomic>

namespace rocprofiler::memory_copy
{
namespace
{
const context::buffer_kind_config*
buffer_config(const context::context& ctx)
{
    if(!ctx.buffered_tracer) return nullptr;
    const auto& cfg = ctx.buffered_tracer->kinds[ROCPROFILER_BUFFER_TRACING_MEMORY_COPY];
    return cfg.has_value() ? &*cfg : nullptr;
}

} // namespace

rocprofiler_memory_copy_operation_t
direction_of(bool dst_device, bool src_device)
{
    if(src_device)
        return dst_device ? ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE
                          : ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST;
    return dst_device ? ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE
                      : ROCPROFILER_MEMORY_COPY_HOST_TO_HOST;
}

bool
configured()
{
    auto any = false;
    context::for_each(
        [&any](context::context& ctx)
        {
            if(buffer_config(ctx) != nullptr) any = true;
        });
    return any;
}

void
report(const copy& c)
{
    auto internal_id = c.internal_id;
    context::for_each(
        [&](context::context& ctx)
        {
            if(!context::is_active_for_this_thread(ctx)) return;
            const auto* cfg = buffer_config(ctx);
            if(cfg == nullptr || !cfg->covers(c.direction)) return;
            // One id per copy, shared by every context that records it; none when nobody does.
            if(internal_id == 0) internal_id = correlation::next_id();
            auto record                    = rocprofiler_buffer_tracing_memory_copy_record_t{};
            record.size                    = sizeof(record);
            record.kind                    = ROCPROFILER_BUFFER_TRACING_MEMORY_COPY;
            record.operation               = c.direction;
            record.correlation_id.internal = internal_id;
            record.correlation_id.external =
                dispatch::request_external_id(ctx,
                                              c.thread_id,
                                              ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,
                                              c.direction,
                                              internal_id);
            record.thread_id         = c.thread_id;
            record.start_timestamp   = c.start_ns;
            record.end_timestamp     = c.end_ns;
            record.dst_agent_id      = c.dst_agent;
            record.src_agent_id      = c.src_agent;
            record.bytes             = c.bytes;
            record.dst_address.value = c.dst_address;
            record.src_address.value = c.src_address;
            buffer::emplace(cfg->buffer,
                            ROCPROFILER_BUFFER_CATEGORY_TRACING,
                            ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,
                            record);
        });
}
} // namespace rocprofiler::memory_copy
