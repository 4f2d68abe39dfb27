// The marker context's callbacks: roctx calls become marker rows (pairing: marker_pairing.hpp),
// and roctxProfilerPause/Resume pause and resume collection under --selected-regions.
#include "capture/agents.hpp"
#include "capture/callback_guard.hpp"
#include "capture/tool_state.hpp"
#include "log.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
// One marker row, to every output. Called with state->mutex held.
void
record_marker(const marker_event& e)
{
    state->outputs.marker(state->data, e);
    if(state->cfg.stats || state->cfg.summary)
        state->data.domain_stats.add(marker_domain, e.function, e.start, e.end);
    state->changed = true;
}

std::string
marker_kind_name(rocprofiler_callback_tracing_kind_t kind)
{
    const char* name = nullptr;
    if(rocprofiler_query_callback_tracing_kind_name(kind, &name, nullptr) !=
           ROCPROFILER_STATUS_SUCCESS ||
       name == nullptr)
        return "MARKER";
    return name;
}

std::string
marker_operation_name(rocprofiler_callback_tracing_kind_t kind, int32_t op)
{
    const char* name = nullptr;
    if(rocprofiler_query_callback_tracing_kind_operation_name(kind, op, &name, nullptr) !=
           ROCPROFILER_STATUS_SUCCESS ||
       name == nullptr)
        return "operation_" + std::to_string(op);
    return name;
}

uint64_t
now_ns()
{
    auto ts = rocprofiler_timestamp_t{};
    rocprofiler_get_timestamp(&ts);
    return ts;
}

// Pauses or resumes the collecting contexts (--selected-regions), from the marker context's
// CONTROL callback (never from a callback of the contexts it stops). Called without state->mutex:
// stopping a context flushes its buffer, whose callback takes the mutex.
void
set_collecting(bool on)
{
    {
        auto lock = std::lock_guard{state->mutex};
        if(state->collecting == on) return;
        state->collecting = on;
    }
    for(auto ctx : {state->context, state->replay_context})
    {
        if(ctx.handle == 0) continue;
        if(on)
            ROCPROFV3_CALL(rocprofiler_start_context(ctx));
        else
            ROCPROFV3_CALL(rocprofiler_stop_context(ctx));
    }
    if(state->cfg.pc_sampling())
    {
        if(on)
            ROCPROFV3_CALL(rocprofiler_start_context(state->pc_context));
        else
            ROCPROFV3_CALL(rocprofiler_stop_context(state->pc_context));
    }
}

// A row opened by this call at @p ts, named by @p message.
marker_event
opened(const rocprofiler_callback_tracing_record_t& record, const char* message, uint64_t ts)
{
    auto e           = marker_event{};
    e.domain         = marker_kind_name(record.kind);
    e.function       = message != nullptr ? message : "";
    e.thread_id      = record.thread_id;
    e.correlation_id = record.correlation_id.internal;
    e.start          = ts;
    e.end            = ts;
    return e;
}

// The MARKER_CORE_API calls that pair (marker_pairing.hpp): a mark, a push and its pop, a start
// and its stop. Returns false for any other call.
bool
pair_core_call(const rocprofiler_callback_tracing_record_t& record,
               uint64_t                                     ts,
               thread_ranges&                               pushed)
{
    const auto* data =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
    const auto enter = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
    const auto exit  = record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT;
    switch(record.operation)
    {
    case ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA:
        if(exit)
        {
            auto lock = std::lock_guard{state->mutex};
            record_marker(opened(record, data->args.roctxMarkA.message, ts));
        }
        return true;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA:
        if(exit) pushed.push(opened(record, data->args.roctxRangePushA.message, ts));
        return true;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop:
        if(!enter) return true;
        if(auto e = pushed.pop(ts))
        {
            auto lock = std::lock_guard{state->mutex};
            record_marker(*e);
        }
        return true;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA:
        if(exit)
        {
            auto lock = std::lock_guard{state->mutex};
            state->open_process_ranges.start(
                data->retval.roctx_range_id_t_retval,
                opened(record, data->args.roctxRangeStartA.message, ts));
        }
        return true;
    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop:
        if(enter)
        {
            auto lock = std::lock_guard{state->mutex};
            if(auto e = state->open_process_ranges.stop(data->args.roctxRangeStop.id, ts))
                record_marker(*e);
        }
        return true;
    default:
        return false;
    }
}

// Marker calls become rows as rocprofv3 users know them: a mark is one instant; a push and its pop
// (same thread) are one row named by the push's message, from the push to the pop, and so is a
// start and its stop (any thread); every other call is one row around its duration, named by its
// function. A range still open at exit is not written (it has no end).
void
marker_callback(rocprofiler_callback_tracing_record_t record,
                rocprofiler_user_data_t*              user_data,
                void*)
{
    // The push/pop stack of this thread: open ranges, innermost last.
    static thread_local auto pushed = thread_ranges{};
    guarded("the marker callback",
            [&]
            {
                const auto ts    = now_ns();
                const auto enter = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
                const auto exit  = record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT;
                if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API &&
                   state->cfg.selected_regions)
                {
                    if(enter &&
                       record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause)
                        set_collecting(false);
                    if(exit &&
                       record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume)
                        set_collecting(true);
                }
                follow_marker_range(record);
                if(!state->cfg.marker_trace) return;
                if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API &&
                   pair_core_call(record, ts, pushed))
                    return;
                // Any other call: one row around it, named by its function.
                if(enter)
                {
                    user_data->value = ts;
                    return;
                }
                if(!exit) return;
                auto e     = opened(record, nullptr, ts);
                e.function = marker_operation_name(record.kind, record.operation);
                e.start    = user_data->value;
                auto lock  = std::lock_guard{state->mutex};
                record_marker(e);
            });
}
} // namespace

// The marker context: MARKER_CORE_API and MARKER_NAME_API with --marker-trace, MARKER_CONTROL_API
// with either option. Started now and never stopped.
bool
setup_markers()
{
    auto ok    = ROCPROFV3_CALL(rocprofiler_create_context(&state->marker_context));
    auto kinds = std::vector<rocprofiler_callback_tracing_kind_t>{
        ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API};
    if(state->cfg.marker_trace || state->cfg.follows_ranges())
    {
        kinds.push_back(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
        kinds.push_back(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API);
    }
    for(auto kind : kinds)
        ok = ok && ROCPROFV3_CALL(rocprofiler_configure_callback_tracing_service(
                       state->marker_context, kind, nullptr, 0, marker_callback, nullptr));
    return ok && ROCPROFV3_CALL(rocprofiler_start_context(state->marker_context));
}
} // namespace rocprofiler::tool
