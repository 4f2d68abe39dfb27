#include "runtime_api/runtime_api.hpp"

#include "buffer/buffer.hpp"
#include "common/logging.hpp"
#include "common/thread.hpp"
#include "common/time.hpp"
#include "context/context.hpp"
#include "correlation/correlation.hpp"
#include "dispatch/api_call.hpp"
#include "dispatch/dispatch.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>

#include <array>
#include <cstddef>
#include <deque>

namespace rocprofiler::runtime_api
{
namespace
{
const char*
callback_label(domain d)
{
    return d == domain::cuda_runtime ? "CUDA_RUNTIME_API callback" : "CUDA_DRIVER_API callback";
}

// A call in progress on this thread.
struct frame
{
    domain                           d           = domain::cuda_runtime;
    int32_t                          op          = 0;
    uint64_t                         key         = 0;
    uint64_t                         internal_id = 0;
    uint64_t                         ancestor    = 0;
    uint64_t                         thread_id   = 0;
    uint64_t                         start       = 0;
    call_info                        info        = {};
    size_t                           count       = 0;
    dispatch::api_call::participants parts       = {};
};

// Frames are kept for reuse: a thread's calls allocate nothing once its stack has grown. A deque,
// so that a frame stays where it is while a tool's callback makes calls of its own (which push
// frames above it).
struct call_stack
{
    std::deque<frame> frames = {};
    size_t            depth  = 0;
};

thread_local call_stack calls = {};

void
fire(frame& f, rocprofiler_callback_phase_t phase, const void* retval)
{
    auto payload                   = rocprofiler_callback_tracing_cuda_api_data_t{};
    payload.size                   = sizeof(payload);
    payload.function_name          = f.info.function_name;
    payload.symbol_name            = f.info.symbol_name;
    payload.args                   = f.info.args;
    payload.retval                 = retval;
    auto record                    = rocprofiler_callback_tracing_record_t{};
    record.thread_id               = f.thread_id;
    record.correlation_id.internal = f.internal_id;
    record.correlation_id.ancestor = f.ancestor;
    record.kind                    = callback_kind(f.d);
    record.operation               = f.op;
    record.phase                   = phase;
    record.payload                 = &payload;
    for(size_t i = 0; i < f.count; ++i)
        dispatch::api_call::fire(f.parts[i], record, callback_label(f.d));
}
} // namespace

rocprofiler_callback_tracing_kind_t
callback_kind(domain d)
{
    return d == domain::cuda_runtime ? ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API
                                     : ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API;
}

rocprofiler_buffer_tracing_kind_t
buffer_kind(domain d)
{
    return d == domain::cuda_runtime ? ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API
                                     : ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API;
}

rocprofiler_external_correlation_id_request_kind_t
request_kind(domain d)
{
    return d == domain::cuda_runtime ? ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API
                                     : ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_DRIVER_API;
}

bool
configured(domain d)
{
    auto any = false;
    context::for_each(
        [&](context::context& ctx)
        {
            if(ctx.callback_tracer && ctx.callback_tracer->kinds[callback_kind(d)].has_value())
                any = true;
            if(ctx.buffered_tracer && ctx.buffered_tracer->kinds[buffer_kind(d)].has_value())
                any = true;
        });
    return any;
}

void
enter(domain d, int32_t op, uint64_t key, const call_info& info)
{
    auto& stack = calls;
    if(stack.depth == stack.frames.size()) stack.frames.emplace_back();
    auto& f = stack.frames[stack.depth];
    f.count = dispatch::api_call::gather(
        callback_kind(d), buffer_kind(d), op, f.parts, "CUDA API tracing");
    // No context takes part: no frame, and the call's exit() finds none.
    if(f.count == 0) return;
    ++stack.depth;
    f.d           = d;
    f.op          = op;
    f.key         = key;
    f.info        = info;
    f.thread_id   = common::thread_id();
    f.internal_id = correlation::next_id();
    f.ancestor    = correlation::current_ancestor();
    dispatch::api_call::request_external_ids(
        f.parts, f.count, f.thread_id, request_kind(d), op, f.internal_id);
    fire(f, ROCPROFILER_CALLBACK_PHASE_ENTER, nullptr);
    f.start = common::timestamp_ns();
}

void
exit(domain d, int32_t op, uint64_t key, const void* retval)
{
    const auto end   = common::timestamp_ns();
    auto&      stack = calls;
    if(stack.depth == 0) return;
    auto& f = stack.frames[stack.depth - 1];
    if(f.d != d || f.op != op || f.key != key) return; // not a call this layer saw enter
    fire(f, ROCPROFILER_CALLBACK_PHASE_EXIT, retval);
    for(size_t i = 0; i < f.count; ++i)
    {
        const auto& p = f.parts[i];
        if(p.buffer == nullptr) continue;
        auto record                    = rocprofiler_buffer_tracing_cuda_api_record_t{};
        record.size                    = sizeof(record);
        record.kind                    = buffer_kind(d);
        record.operation               = op;
        record.correlation_id.internal = f.internal_id;
        record.correlation_id.external = p.external;
        record.correlation_id.ancestor = f.ancestor;
        record.start_timestamp         = f.start;
        record.end_timestamp           = end;
        record.thread_id               = f.thread_id;
        buffer::emplace(
            p.buffer->buffer, ROCPROFILER_BUFFER_CATEGORY_TRACING, buffer_kind(d), record);
    }
    // Popped last: calls a tool's EXIT callback makes push their frames above this one.
    --stack.depth;
}
} // namespace rocprofiler::runtime_api
