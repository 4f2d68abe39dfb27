// librocprofiler-sdk-tool.so: the tool behind rocprofv3. The SDK finds it through
// ROCP_TOOL_LIBRARIES (rocprofv3 also preloads it), calls rocprofiler_configure, then
// tool_initialize once the runtime starts, and tool_finalize at exit after it drained the device
// and flushed the buffers. A LOSSLESS buffer guarantees no record is dropped.
//
// What survives the application's end (docs/rocprofv3.md, "What survives the application's end"):
// a flusher thread flushes the SDK buffer every 200 ms and writes the rows of kernel_trace.csv,
// memory_copy_trace.csv and counter_collection.csv as they arrive (csv_stream); the other files are
// rewritten atomically at checkpoints. Fatal and termination signals are caught (signal_end.hpp)
// and the outputs are finalized on a watcher thread, with a note, before the process dies by the
// same signal. _exit and SIGKILL skip all of this: rocprofv3, told through the report pipe
// (run_report.hpp) that the process started but never finalized, trims and marks what is on disk.
//
// Kernel names come from CODE_OBJECT tracing (kernel symbol records), through the public API only,
// so the tool works on any agent; it never includes or calls a device's own API.
//
// Threading: the ENQUEUE, replay, replay outcome and counter dispatch callbacks run on the
// submitting thread; the buffer and counter record callbacks on SDK threads; CODE_OBJECT callbacks
// on the registering thread, or on the thread that starts the context for symbols registered
// before. All shared state is behind tool_state::mutex, except the kernel filter (its own lock)
// and the thread-local replay pass. Every function the SDK calls catches all exceptions
// (callback_guard.hpp).
#include "agents.hpp"
#include "callback_guard.hpp"
#include "config.hpp"
#include "kernel_filter.hpp"
#include "metric_sets.hpp"
#include "output.hpp"
#include "perfetto.hpp"
#include "prefix_lock.hpp"
#include "replay_report.hpp"
#include "rocpd.hpp"
#include "run_report.hpp"
#include "signal_end.hpp"

#include <fcntl.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <numeric>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <unordered_map>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
struct tool_state
{
    explicit tool_state(config c)
        : cfg{std::move(c)}
        , filter{cfg}
    {
    }

    config                   cfg;
    kernel_filter            filter;
    std::mutex               mutex          = {};
    results                  data           = {};
    rocprofiler_context_id_t context        = {};
    rocprofiler_context_id_t replay_context = {};
    // --marker-trace / --selected-regions: the marker calls, in a context of their own that is
    // never paused (it receives roctxProfilerResume while the others are stopped).
    rocprofiler_context_id_t marker_context = {};
    // Process ranges (roctxRangeStartA) open now, by range id: closed by any thread.
    std::unordered_map<uint64_t, marker_event> open_process_ranges = {};
    bool                                       collecting          = true; // not paused
    rocprofiler_buffer_id_t                    buffer              = {};
    // Per agent handle: the counter config each replay pass of its dispatches collects (pass 0
    // also for a dispatch that is not replayed), planned by plan_replay_passes(); whether a pass's
    // record reports values is in data.replay_pass_groups (the later passes of a configuration of
    // several passes repeat the values of its first). Only groups whose counters all exist on the
    // agent are planned.
    std::unordered_map<uint64_t, std::vector<rocprofiler_counter_config_id_t>> agent_configs = {};
    std::unordered_map<uint64_t, std::string> counter_names   = {};    // by counter id
    bool                                      progress        = false; // stderr is a terminal
    std::atomic<uint64_t>                     dispatches_seen = 0;     // at ENQUEUE, pass 0
    std::atomic<uint64_t>                     passes_run      = 0;
    // Under kernel replay: the account of each dispatch rocprofv3 asked to replay, closed as its
    // records and outcome arrive (record_replay_outcome writes it).
    replay_ledger replay = {};

    // Streamed outputs (csv only) and the flusher thread.
    csv_stream   kernel_trace_stream = {};
    csv_stream   counter_stream      = {};
    csv_stream   memory_copy_stream  = {};
    csv_stream   marker_stream       = {};
    csv_stream   api_stream          = {}; // cuda_api_trace.csv
    csv_stream   missing_stream      = {}; // counter_collection_missing.csv (kernel replay)
    uint64_t     api_rows            = 0;  // CUDA API rows recorded
    rocpd_writer rocpd               = {}; // -f rocpd: streamed like the CSV files
    // -f pftrace: the trace encoded record by record and appended to its file like a CSV row.
    std::optional<pftrace_builder> pftrace        = {};
    csv_stream                     pftrace_stream = {};
    std::thread                    flusher        = {};
    std::mutex                     flusher_mutex  = {};
    std::condition_variable        flusher_wake   = {};
    bool                           flusher_stop   = false;
    std::chrono::milliseconds      flush_interval = std::chrono::milliseconds{200};
    // Checkpoints of the whole-file outputs: when the data changed, at most every
    // max(1 s, 20 x the last checkpoint's duration), so that they cost at most 5% of the run.
    bool                                  changed          = false;
    std::chrono::steady_clock::time_point last_checkpoint  = {};
    std::chrono::steady_clock::duration   checkpoint_every = std::chrono::seconds{1};
    // 0: not finalized; 1: finalizing; 2: done. Normal and signal finalization never overlap.
    std::atomic<int> finalize_state = 0;
};

tool_state* state = nullptr; // intentionally leaked: finalize may run from atexit handlers

// The replay pass being executed on this thread: set at PASS ENTER, cleared at PASS EXIT, so
// that the counter dispatch callback of that pass (same thread, inside the pass) picks its group.
thread_local std::optional<uint64_t> current_replay_pass = std::nullopt;

// The kernel's name from its CODE_OBJECT symbol record; a kernel id never reported gets the
// placeholder kernel_<id>, with a warning the first time.
std::string
resolve_kernel_name(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto warning = std::string{};
    auto name    = std::string{};
    {
        auto lock = std::lock_guard{state->mutex};
        name      = ensure_kernel_symbol(state->data, info.kernel_id, &warning).name;
    }
    if(!warning.empty()) std::fprintf(stderr, "[rocprofv3] warning: %s\n", warning.c_str());
    return name;
}

// Records are kept in memory only where no output streams them (the tool writes them whole at the
// end then); results.json's records go to its spills (data.dispatch_spill and the others), the
// Perfetto trace is encoded as they arrive. Kernel replay's missing-group report keeps what it
// needs of each counter record (replay_pass_record).
bool
keep_records()
{
    return !state->cfg.csv && !state->cfg.rocpd && !state->cfg.json && !state->cfg.pftrace;
}

// Writes what is buffered in the streams once enough gathered; the flusher writes the rest. Called
// with state->mutex held.
void
flush_streams_if_large()
{
    constexpr size_t threshold = size_t{1} << 16U;
    if(state->kernel_trace_stream.pending() >= threshold) state->kernel_trace_stream.flush();
    if(state->counter_stream.pending() >= threshold) state->counter_stream.flush();
    if(state->memory_copy_stream.pending() >= threshold) state->memory_copy_stream.flush();
    if(state->marker_stream.pending() >= threshold) state->marker_stream.flush();
    if(state->api_stream.pending() >= threshold) state->api_stream.flush();
    if(state->pftrace_stream.pending() >= threshold) state->pftrace_stream.flush();
    if(state->missing_stream.pending() >= threshold) state->missing_stream.flush();
}

// replay_ledger's sink: one dispatch rocprofv3 asked to replay, with the counter groups it is
// missing, to every output that lists them. Called with state->mutex held.
void
record_replay_outcome(const replay_outcome& outcome, const std::vector<uint64_t>& missing)
{
    if(state->missing_stream.is_open() && !missing.empty())
    {
        state->missing_stream.append(missing_groups_csv_rows(state->data, outcome, missing));
        flush_streams_if_large();
    }
    if(state->data.replay_outcome_spill)
        state->data.replay_outcome_spill->append(replay_outcome_json(outcome, missing));
    if(state->rocpd.is_open()) state->rocpd.replay_outcome(state->data, outcome, missing);
    state->changed = true;
}

// What the trace builder encoded since the last call, to its file. Called with state->mutex held.
void
append_pftrace()
{
    if(!state->pftrace || !state->pftrace_stream.is_open()) return;
    state->pftrace_stream.append(state->pftrace->take());
    flush_streams_if_large();
}

void
code_object_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    guarded(
        "the code object callback",
        [&]
        {
            if(record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT ||
               record.phase != ROCPROFILER_CALLBACK_PHASE_LOAD || record.payload == nullptr)
                return;
            if(record.operation == ROCPROFILER_CODE_OBJECT_LOAD)
            {
                const auto* p =
                    static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(
                        record.payload);
                auto entry       = code_object_entry{};
                entry.id         = p->code_object_id;
                entry.agent      = p->agent_id;
                entry.uri        = p->uri != nullptr ? p->uri : "";
                entry.load_base  = p->load_base;
                entry.load_size  = p->load_size;
                entry.load_delta = p->load_delta;
                auto lock        = std::lock_guard{state->mutex};
                if(state->rocpd.is_open()) state->rocpd.code_object(entry);
                state->data.code_objects[entry.id] = std::move(entry);
            }
            else if(record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
            {
                const auto* p = static_cast<
                    const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
                    record.payload);
                auto sym                      = kernel_symbol{};
                sym.kernel_id                 = p->kernel_id;
                sym.code_object_id            = p->code_object_id;
                sym.name                      = p->kernel_name != nullptr
                                                    ? parse::format_kernel_name(p->kernel_name,
                                                           state->cfg.demangle_kernels,
                                                           state->cfg.truncate_kernels)
                                                    : "";
                sym.kernel_object             = p->kernel_object;
                sym.kernarg_segment_size      = p->kernarg_segment_size;
                sym.kernarg_segment_alignment = p->kernarg_segment_alignment;
                sym.group_segment_size        = p->group_segment_size;
                sym.private_segment_size      = p->private_segment_size;
                sym.sgpr_count                = p->sgpr_count;
                sym.arch_vgpr_count           = p->arch_vgpr_count;
                sym.accum_vgpr_count          = p->accum_vgpr_count;
                if(sym.name.empty()) sym.name = "kernel_" + std::to_string(sym.kernel_id);
                auto lock = std::lock_guard{state->mutex};
                // A report replaces a placeholder made before it arrived.
                if(state->rocpd.is_open()) state->rocpd.kernel(sym);
                state->data.kernel_symbols[sym.kernel_id] = std::move(sym);
            }
        });
}

bool
accept(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto name = resolve_kernel_name(info);
    return state->filter.accept(info.dispatch_id, name);
}

// Progress goes to stderr as whole lines, never rewritten in place (the application's own output
// may be on the same terminal): one line per profiled dispatch that took more than one pass, and a
// count at the end. Shown where stderr is a terminal, or everywhere with rocprofv3 --progress.
void
report_replayed_dispatch(const rocprofiler_kernel_replay_outcome_t& outcome)
{
    if(!state->progress || outcome.passes_planned < 2) return;
    auto name = std::string{};
    {
        auto lock = std::lock_guard{state->mutex};
        auto it   = state->data.kernel_symbols.find(outcome.kernel_id);
        name      = it != state->data.kernel_symbols.end()
                        ? it->second.name
                        : "kernel_" + std::to_string(outcome.kernel_id);
    }
    std::fprintf(stderr,
                 "[rocprofv3] %s (dispatch %llu): %llu of %llu passes\n",
                 name.c_str(),
                 static_cast<unsigned long long>(outcome.dispatch_id),
                 static_cast<unsigned long long>(outcome.passes_run),
                 static_cast<unsigned long long>(outcome.passes_planned));
}

void
report_progress_total()
{
    if(!state->progress || state->dispatches_seen.load() == 0) return;
    auto passes = state->passes_run.load();
    if(passes > 0)
        std::fprintf(stderr,
                     "[rocprofv3] %llu dispatches profiled, %llu replay passes\n",
                     static_cast<unsigned long long>(state->dispatches_seen.load()),
                     static_cast<unsigned long long>(passes));
    else
        std::fprintf(stderr,
                     "[rocprofv3] %llu dispatches profiled\n",
                     static_cast<unsigned long long>(state->dispatches_seen.load()));
}

void
kernel_dispatch_callback(rocprofiler_callback_tracing_record_t record,
                         rocprofiler_user_data_t*,
                         void*)
{
    guarded("the kernel dispatch callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
                   record.operation != ROCPROFILER_KERNEL_DISPATCH_ENQUEUE ||
                   record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER)
                    return;
                // Decide on the submitting thread, in submission order, so iteration numbers are
                // stable.
                const auto* payload =
                    static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(
                        record.payload);
                // Dispatches, not passes: a replayed dispatch's ENQUEUE runs in each pass, where
                // current_replay_pass is set (PASS ENTER runs on this thread first).
                if(accept(payload->dispatch_info) && current_replay_pass.value_or(0) == 0)
                    ++state->dispatches_seen;
            });
}

// The copies of one buffer callback, to each output that wants them. Called with state->mutex held.
void
record_memory_copies(const std::vector<rocprofiler_buffer_tracing_memory_copy_record_t>& copies)
{
    if(state->memory_copy_stream.is_open())
    {
        for(const auto& rec : copies)
            state->memory_copy_stream.append(memory_copy_trace_csv_row(state->data, rec));
        flush_streams_if_large();
    }
    if(state->rocpd.is_open())
        for(const auto& rec : copies)
            state->rocpd.memory_copy(state->data, rec);
    if(state->data.memory_copy_spill)
        for(const auto& rec : copies)
            state->data.memory_copy_spill->append(memory_copy_record_json(rec));
    if(state->pftrace)
    {
        for(const auto& rec : copies)
            state->pftrace->memory_copy(state->data, rec);
        append_pftrace();
    }
    if(keep_records())
        state->data.memory_copies.insert(
            state->data.memory_copies.end(), copies.begin(), copies.end());
}

// One marker row, to each output that wants it. Called with state->mutex held.
void
record_marker(marker_event&& e)
{
    if(state->marker_stream.is_open())
    {
        state->marker_stream.append(marker_api_trace_csv_row(state->data, e));
        flush_streams_if_large();
    }
    if(state->data.marker_spill) state->data.marker_spill->append(marker_event_json(e));
    if(state->rocpd.is_open()) state->rocpd.marker(state->data, e);
    if(state->pftrace)
    {
        state->pftrace->marker(e);
        append_pftrace();
    }
    if(keep_records()) state->data.markers.push_back(std::move(e));
    state->changed = true;
}

// One CUDA API row, to each output that wants it. Called with state->mutex held.
void
record_api_call(marker_event&& e)
{
    if(state->api_stream.is_open())
    {
        state->api_stream.append(marker_api_trace_csv_row(state->data, e));
        flush_streams_if_large();
    }
    if(state->data.api_spill) state->data.api_spill->append(marker_event_json(e));
    if(state->rocpd.is_open()) state->rocpd.marker(state->data, e);
    if(state->pftrace)
    {
        state->pftrace->api_call(e);
        append_pftrace();
    }
    ++state->api_rows;
    if(keep_records()) state->data.api_calls.push_back(std::move(e));
    state->changed = true;
}

// A CUDA API buffer record as its cuda_api_trace.csv row.
marker_event
api_row(const rocprofiler_record_header_t& header)
{
    const auto& r =
        *static_cast<const rocprofiler_buffer_tracing_cuda_api_record_t*>(header.payload);
    auto        e    = marker_event{};
    const char* kind = nullptr;
    if(rocprofiler_query_buffer_tracing_kind_name(r.kind, &kind, nullptr) ==
           ROCPROFILER_STATUS_SUCCESS &&
       kind != nullptr)
        e.domain = kind;
    const char* name = nullptr;
    if(rocprofiler_query_buffer_tracing_kind_operation_name(r.kind, r.operation, &name, nullptr) ==
           ROCPROFILER_STATUS_SUCCESS &&
       name != nullptr)
        e.function = name;
    else
        e.function = "operation " + std::to_string(r.operation);
    e.thread_id      = r.thread_id;
    e.correlation_id = r.correlation_id.internal;
    e.start          = r.start_timestamp;
    e.end            = r.end_timestamp;
    return e;
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
    static thread_local auto pushed = std::vector<marker_event>{};
    guarded("the marker callback",
            [&]
            {
                const auto* data =
                    static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(
                        record.payload);
                const auto ts     = now_ns();
                const auto enter  = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER;
                const auto exit   = record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT;
                auto       opened = [&](const char* message)
                {
                    auto e           = marker_event{};
                    e.domain         = marker_kind_name(record.kind);
                    e.function       = message != nullptr ? message : "";
                    e.thread_id      = record.thread_id;
                    e.correlation_id = record.correlation_id.internal;
                    e.start          = ts;
                    e.end            = ts;
                    return e;
                };
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
                if(!state->cfg.marker_trace) return;
                if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API)
                {
                    switch(record.operation)
                    {
                    case ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA:
                        if(exit)
                        {
                            auto lock = std::lock_guard{state->mutex};
                            record_marker(opened(data->args.roctxMarkA.message));
                        }
                        return;
                    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA:
                        if(exit) pushed.push_back(opened(data->args.roctxRangePushA.message));
                        return;
                    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop:
                        if(enter && !pushed.empty())
                        {
                            auto e = std::move(pushed.back());
                            pushed.pop_back();
                            e.end     = ts;
                            auto lock = std::lock_guard{state->mutex};
                            record_marker(std::move(e));
                        }
                        return;
                    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA:
                        if(exit)
                        {
                            auto lock       = std::lock_guard{state->mutex};
                            auto e          = opened(data->args.roctxRangeStartA.message);
                            e.process_range = true;
                            state->open_process_ranges.emplace(data->retval.roctx_range_id_t_retval,
                                                               std::move(e));
                        }
                        return;
                    case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop:
                        if(enter)
                        {
                            auto lock = std::lock_guard{state->mutex};
                            auto it = state->open_process_ranges.find(data->args.roctxRangeStop.id);
                            if(it == state->open_process_ranges.end()) return;
                            auto e = std::move(it->second);
                            state->open_process_ranges.erase(it);
                            e.end = ts;
                            record_marker(std::move(e));
                        }
                        return;
                    default:
                        break;
                    }
                }
                // Any other call: one row around it, named by its function.
                if(enter)
                {
                    user_data->value = ts;
                    return;
                }
                if(!exit) return;
                auto e     = opened(nullptr);
                e.function = marker_operation_name(record.kind, record.operation);
                e.start    = user_data->value;
                auto lock  = std::lock_guard{state->mutex};
                record_marker(std::move(e));
            });
}

// The marker context: MARKER_CORE_API and MARKER_NAME_API with --marker-trace, MARKER_CONTROL_API
// with either option. Started now and never stopped.
bool
setup_markers()
{
    auto ok    = ROCPROFV3_CALL(rocprofiler_create_context(&state->marker_context));
    auto kinds = std::vector<rocprofiler_callback_tracing_kind_t>{
        ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API};
    if(state->cfg.marker_trace)
    {
        kinds.push_back(ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API);
        kinds.push_back(ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API);
    }
    for(auto kind : kinds)
        ok = ok && ROCPROFV3_CALL(rocprofiler_configure_callback_tracing_service(
                       state->marker_context, kind, nullptr, 0, marker_callback, nullptr));
    return ok && ROCPROFV3_CALL(rocprofiler_start_context(state->marker_context));
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        num_headers,
                void*,
                uint64_t drop_count)
{
    guarded("the buffer callback",
            [&]
            {
                auto accepted = std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t>{};
                // Copies are not kernels: the kernel filters do not apply to them.
                auto copies = std::vector<rocprofiler_buffer_tracing_memory_copy_record_t>{};
                auto calls  = std::vector<marker_event>{};
                for(size_t i = 0; i < num_headers; ++i)
                {
                    const auto* header = headers[i];
                    if(header->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
                    if(header->kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
                       header->kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API)
                    {
                        calls.push_back(api_row(*header));
                        continue;
                    }
                    if(header->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY)
                    {
                        copies.push_back(
                            *static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(
                                header->payload));
                        continue;
                    }
                    if(header->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) continue;
                    const auto* rec =
                        static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                            header->payload);
                    if(accept(rec->dispatch_info)) accepted.push_back(*rec);
                }
                {
                    auto lock = std::lock_guard{state->mutex};
                    if(state->kernel_trace_stream.is_open())
                    {
                        for(const auto& rec : accepted)
                            state->kernel_trace_stream.append(
                                kernel_trace_csv_row(state->data, rec));
                        flush_streams_if_large();
                    }
                    if(state->rocpd.is_open())
                        for(const auto& rec : accepted)
                            state->rocpd.dispatch(state->data, rec);
                    if(state->data.dispatch_spill)
                        for(const auto& rec : accepted)
                            state->data.dispatch_spill->append(dispatch_record_json(rec));
                    if(state->pftrace && !accepted.empty())
                    {
                        for(const auto& rec : accepted)
                            state->pftrace->dispatch(state->data, rec);
                        append_pftrace();
                    }
                    if(keep_records())
                        state->data.dispatches.insert(
                            state->data.dispatches.end(), accepted.begin(), accepted.end());
                    if(state->cfg.stats || state->cfg.summary)
                        for(const auto& rec : accepted)
                            state->data.kernel_stats.add(rec);
                    if(!copies.empty()) record_memory_copies(copies);
                    for(auto& call : calls)
                        record_api_call(std::move(call));
                    state->data.dropped_records += drop_count;
                    state->changed =
                        state->changed || !accepted.empty() || !copies.empty() || drop_count > 0;
                }
            });
}

void
counting_dispatch_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                           rocprofiler_counter_config_id_t*             config,
                           rocprofiler_user_data_t*                     user_data,
                           void*)
{
    guarded("the counter dispatch callback",
            [&]
            {
                const auto& info = dispatch_data.dispatch_info;
                if(!accept(info)) return;
                auto pass = current_replay_pass.value_or(0);
                auto lock = std::lock_guard{state->mutex};
                auto it   = state->agent_configs.find(info.agent_id.handle);
                if(it == state->agent_configs.end() || pass >= it->second.size()) return;
                *config = it->second[pass];
                // The record callback learns the pass from the user data: pass + 1, 0 = not
                // replayed.
                user_data->value = current_replay_pass ? *current_replay_pass + 1 : 0;
            });
}

void
counting_record_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                         rocprofiler_counter_record_t*                records,
                         size_t                                       record_count,
                         rocprofiler_user_data_t                      user_data,
                         void*)
{
    guarded(
        "the counter record callback",
        [&]
        {
            auto entry = counter_dispatch{};
            entry.data = dispatch_data;
            auto tid   = rocprofiler_thread_id_t{};
            entry.thread_id =
                rocprofiler_get_thread_id(&tid) == ROCPROFILER_STATUS_SUCCESS ? tid : 0;
            if(state->cfg.kernel_replay)
                entry.replay_pass = user_data.value > 0 ? user_data.value - 1 : 0;

            // Instances of one counter are summed, as counter_collection.csv shows one value
            // per counter.
            for(size_t i = 0; i < record_count; ++i)
            {
                auto counter = rocprofiler_counter_id_t{};
                if(rocprofiler_query_record_counter_id(records[i].id, &counter) !=
                   ROCPROFILER_STATUS_SUCCESS)
                    continue;
                auto found = false;
                for(auto& v : entry.values)
                    if(v.counter_id == counter.handle)
                    {
                        v.value += records[i].counter_value;
                        found = true;
                    }
                if(!found)
                    entry.values.push_back(
                        counter_value{counter.handle, {}, records[i].counter_value});
            }
            const auto& info = dispatch_data.dispatch_info;
            auto        lock = std::lock_guard{state->mutex};
            if(state->cfg.kernel_replay)
                state->replay.counter_record(state->data,
                                             info.dispatch_id,
                                             info.agent_id,
                                             info.kernel_id,
                                             user_data.value > 0
                                                 ? std::optional<uint64_t>{user_data.value - 1}
                                                 : std::nullopt,
                                             record_replay_outcome);
            // A later pass of a configuration of several passes carries the values its first
            // pass reports already.
            if(entry.replay_pass &&
               !pass_reports(state->data, dispatch_data.dispatch_info.agent_id, *entry.replay_pass))
                return;
            for(auto& v : entry.values)
                v.name = state->counter_names[v.counter_id];
            if(state->counter_stream.is_open())
            {
                state->counter_stream.append(counter_collection_csv_rows(state->data, entry));
                flush_streams_if_large();
            }
            if(state->rocpd.is_open()) state->rocpd.counters(state->data, entry);
            if(state->pftrace)
            {
                state->pftrace->counters(state->data, entry);
                append_pftrace();
            }
            if(state->data.counter_spill)
                state->data.counter_spill->append(counter_record_json(entry));
            if(keep_records()) state->data.counter_records.emplace_back(std::move(entry));
            state->changed = true;
        });
}

uint64_t
kernel_replay_pass_count_callback(rocprofiler_kernel_dispatch_info_t dispatch_info,
                                  rocprofiler_user_data_t)
{
    // 1 = not replayed: filtered-out dispatches and agents that plan one pass.
    return guarded("the replay pass count callback",
                   uint64_t{1},
                   [&]() -> uint64_t
                   {
                       if(!accept(dispatch_info)) return 1;
                       auto lock = std::lock_guard{state->mutex};
                       return planned_passes(state->data, dispatch_info.agent_id);
                   });
}

void
kernel_replay_callback(rocprofiler_callback_tracing_record_t record,
                       rocprofiler_user_data_t*,
                       void*)
{
    guarded("the kernel replay callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
                auto* payload =
                    static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
                if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
                   record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                {
                    // rocprofv3 never sets replay_continue and never toggles contexts locally
                    // (spec).
                    payload->replay_pass_count = kernel_replay_pass_count_callback;
                }
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
                {
                    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                    {
                        current_replay_pass = payload->current_pass;
                        ++state->passes_run;
                    }
                    else
                        current_replay_pass.reset();
                }
            });
}

// Called once per replay candidate on the submitting thread, at the end of its replay window.
// Only dispatches rocprofv3 asked to replay are kept: the filters accept them and their agent
// plans several passes. The others were declined by rocprofv3's own choice (single_pass) and
// miss nothing.
void
kernel_replay_outcome_callback(const rocprofiler_kernel_replay_outcome_t* outcome, void*)
{
    guarded("the kernel replay outcome callback",
            [&]
            {
                if(outcome == nullptr) return;
                auto info        = rocprofiler_kernel_dispatch_info_t{};
                info.dispatch_id = outcome->dispatch_id;
                info.kernel_id   = outcome->kernel_id;
                info.agent_id    = outcome->agent_id;
                if(!accept(info)) return;
                auto entry           = replay_outcome{};
                entry.dispatch_id    = outcome->dispatch_id;
                entry.agent          = outcome->agent_id;
                entry.kernel_id      = outcome->kernel_id;
                entry.kind           = outcome->kind;
                entry.reason         = outcome->reason != nullptr ? outcome->reason : "unknown";
                entry.passes_run     = outcome->passes_run;
                entry.passes_planned = outcome->passes_planned;
                entry.snapshot_bytes = outcome->snapshot_bytes;
                entry.written_bytes  = outcome->written_bytes;
                entry.verified_bytes = outcome->verified_bytes;
                entry.failed_pass    = outcome->failed_pass;
                report_replayed_dispatch(*outcome);
                auto lock = std::lock_guard{state->mutex};
                if(planned_passes(state->data, entry.agent) < 2) return;
                state->replay.outcome(state->data, entry, record_replay_outcome);
            });
}

// The replay context (only with --replay-mode kernel) and the outcome callback that tells which
// groups a dispatch is missing.
bool
setup_kernel_replay()
{
    return ROCPROFV3_CALL(rocprofiler_set_kernel_replay_outcome_callback(
               kernel_replay_outcome_callback, nullptr)) &&
           ROCPROFV3_CALL(rocprofiler_create_context(&state->replay_context)) &&
           ROCPROFV3_CALL(rocprofiler_configure_callback_tracing_service(
               state->replay_context,
               ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
               nullptr,
               0,
               kernel_replay_callback,
               nullptr)) &&
           (state->cfg.selected_regions ||
            ROCPROFV3_CALL(rocprofiler_start_context(state->replay_context)));
}

// At exit, under kernel replay: one line on stderr. Missing groups are data loss, so that line is
// a warning, always shown; a complete replay is reported only where progress is shown.
void
report_kernel_replay()
{
    if(!state->cfg.kernel_replay) return;
    const auto& report = state->replay.report();
    const auto  line   = format_replay_line(report);
    const auto  closed = std::accumulate(report.dispatches.begin(), report.dispatches.end(), 0ULL);
    if(report.missing_groups > 0)
        std::fprintf(stderr, "[rocprofv3] warning: %s\n", line.c_str());
    else if(state->progress && closed > 0)
        std::fprintf(stderr, "[rocprofv3] %s\n", line.c_str());
}

// On the flusher thread, every flush_interval: the SDK buffer is flushed (records reach the
// buffer callback, which appends their rows), the streams are written, and the whole-file outputs
// are checkpointed when they changed.
void
flush_once()
{
    if(state->buffer.handle != 0) rocprofiler_flush_buffer(state->buffer);
    auto lock = std::lock_guard{state->mutex};
    state->kernel_trace_stream.flush();
    state->counter_stream.flush();
    state->memory_copy_stream.flush();
    state->marker_stream.flush();
    state->api_stream.flush();
    state->pftrace_stream.flush();
    state->missing_stream.flush();
    // The database's batch becomes durable here at the latest: an abrupt end loses at most what
    // arrived since the last flush interval.
    state->rocpd.commit();
    const auto& cfg = state->cfg;
    // Whole files: results.json, kernel_stats.csv, the replay summaries, and agent_info.csv.
    if(!state->changed || !(cfg.json || cfg.stats || cfg.kernel_replay || cfg.csv)) return;
    const auto start = std::chrono::steady_clock::now();
    if(start - state->last_checkpoint < state->checkpoint_every) return;
    state->changed  = false;
    state->data.end = run_end{run_end::running, 0};
    // Errors show again, and are reported, when finalization writes the same files.
    auto errors = std::vector<std::string>{};
    (void)write_outputs(cfg, state->data, errors, true, &state->replay.report());
    const auto stop        = std::chrono::steady_clock::now();
    state->last_checkpoint = stop;
    state->checkpoint_every =
        std::max<std::chrono::steady_clock::duration>(std::chrono::seconds{1}, 20 * (stop - start));
}

void
flusher_loop()
{
    guarded("the flusher thread",
            []
            {
                auto lock = std::unique_lock{state->flusher_mutex};
                while(!state->flusher_stop)
                {
                    state->flusher_wake.wait_for(lock, state->flush_interval);
                    if(state->flusher_stop) break;
                    lock.unlock();
                    flush_once();
                    lock.lock();
                }
            });
}

void
stop_flusher()
{
    {
        auto lock           = std::lock_guard{state->flusher_mutex};
        state->flusher_stop = true;
    }
    state->flusher_wake.notify_all();
    if(state->flusher.joinable() && state->flusher.get_id() != std::this_thread::get_id())
        state->flusher.join();
}

void        finalize_on_signal(int number);
std::string incomplete_note_path();

// Two processes of one rocprofv3 run with the same explicit prefix (-o NAME and a script that
// starts several profiled processes, at once or one after the other) would overwrite each other's
// files. rocprofv3 passes a directory private to the run (ROCPROFV3_RUN_DIR); the first process to
// claim the (directory, prefix) there keeps the prefix, any later one writes <prefix>.<pid>_* and
// says so. Across runs (two rocprofv3 at once, or the tool alone), the process that writes a
// prefix holds its lock file (prefix_lock.hpp): a process that finds it held writes
// <prefix>.<pid>_* too. Without rocprofv3 and with no other process at the prefix, the prefix is
// used as given.
void
claim_prefix()
{
    auto& cfg = state->cfg;
    if(cfg.output_file_name.empty()) return; // the pid: no other live process has it
    auto        taken_by = std::string{};
    const auto* run_dir  = std::getenv("ROCPROFV3_RUN_DIR");
    if(run_dir != nullptr && *run_dir != '\0')
    {
        auto key   = std::string{cfg.output_path} + '\0' + cfg.output_file_name;
        auto claim = std::filesystem::path{run_dir} /
                     ("prefix-" + std::to_string(std::hash<std::string>{}(key)));
        const auto fd =
            ::open(claim.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
        if(fd >= 0)
            ::close(fd);
        else if(errno == EEXIST)
            taken_by = "another process of this run";
        // Otherwise the run directory is gone: nothing to compare with.
    }
    if(taken_by.empty())
    {
        auto ec = std::error_code{};
        std::filesystem::create_directories(cfg.output_path, ec); // errors: start_outputs
        if(prefix_lock::lock(cfg.output_path, cfg.output_file_name) == prefix_lock::outcome::taken)
            taken_by = "another process that is still writing them (another run with the same "
                       "output directory and prefix)";
    }
    if(taken_by.empty()) return;
    const auto taken = cfg.output_file_name;
    cfg.output_file_name += "." + std::to_string(state->data.pid);
    // The pid is this process's own while it lives; the lock keeps a later run off it.
    (void)prefix_lock::lock(cfg.output_path, cfg.output_file_name);
    std::fprintf(stderr,
                 "[rocprofv3] warning: the files '%s_*' in '%s' belong to %s; this process "
                 "(%llu) writes '%s_*' instead\n",
                 taken.c_str(),
                 cfg.output_path.c_str(),
                 taken_by.c_str(),
                 static_cast<unsigned long long>(state->data.pid),
                 cfg.output_file_name.c_str());
}

// --output-config: <prefix>_config.json, the configuration this process profiled with (after
// its placeholders were expanded), so that a run's outputs say how they were made.
void
write_config_file(std::vector<std::string>& errors)
{
    const auto& cfg   = state->cfg;
    auto        range = nlohmann::json::array();
    for(const auto& i : cfg.iteration_range.intervals)
        range.push_back({{"first", i.first},
                         {"last",
                          i.last == parse::iteration_interval::open_end ? nlohmann::json{}
                                                                        : nlohmann::json(i.last)}});
    auto doc = nlohmann::json{
        {"kernel_trace", cfg.kernel_trace},
        {"memory_copy_trace", cfg.memory_copy_trace},
        {"marker_trace", cfg.marker_trace},
        {"cuda_runtime_trace", cfg.cuda_runtime_trace},
        {"cuda_driver_trace", cfg.cuda_driver_trace},
        {"selected_regions", cfg.selected_regions},
        {"agent_index", cfg.agent_index},
        {"counter_collection", cfg.counter_collection},
        {"kernel_replay", cfg.kernel_replay},
        {"stats", cfg.stats},
        {"summary", cfg.summary},
        {"counter_groups", cfg.collected_groups()},
        {"output_path", cfg.output_path},
        {"output_file", output_file(cfg, state->data.pid, "")},
        {"csv", cfg.csv},
        {"json", cfg.json},
        {"pftrace", cfg.pftrace},
        {"kernel_include_regex", cfg.include_regex_text},
        {"kernel_exclude_regex", cfg.exclude_regex_text},
        {"kernel_iteration_range", range},
        {"kernel_dispatch_skip", cfg.dispatch_skip},
        {"kernel_dispatch_count",
         cfg.dispatch_count ? nlohmann::json(*cfg.dispatch_count) : nlohmann::json{}},
        {"demangle_kernels", cfg.demangle_kernels},
        {"truncate_kernels", cfg.truncate_kernels},
        {"pid", state->data.pid}};
    (void)write_file_atomically(
        output_file(cfg, state->data.pid, "config.json"), doc.dump(2) + "\n", errors);
}

// After initialization succeeded: rocprofv3 learns the outputs' names, the streamed files start
// with their headers, the flusher and the signal handlers start.
void
start_outputs()
{
    claim_prefix();
    const auto& cfg = state->cfg;
    run_report::send("init",
                     cfg.output_path + '\t' +
                         (cfg.output_file_name.empty() ? std::to_string(state->data.pid)
                                                       : cfg.output_file_name));
    auto errors = std::vector<std::string>{};
    auto ec     = std::error_code{};
    std::filesystem::create_directories(cfg.output_path, ec);
    if(ec)
        errors.emplace_back("could not create the output directory '" + cfg.output_path +
                            "': " + ec.message());
    // A note left by an earlier run with the same prefix is not about this one.
    ::unlink(incomplete_note_path().c_str());
    if(!ec && cfg.csv)
    {
        auto lock = std::lock_guard{state->mutex};
        if(cfg.kernel_trace &&
           !state->kernel_trace_stream.open(output_file(cfg, state->data.pid, "kernel_trace.csv"),
                                            kernel_trace_csv_header()))
            errors.emplace_back(state->kernel_trace_stream.error());
        if(cfg.counter_collection &&
           !state->counter_stream.open(output_file(cfg, state->data.pid, "counter_collection.csv"),
                                       counter_collection_csv_header()))
            errors.emplace_back(state->counter_stream.error());
        if(cfg.memory_copy_trace && !state->memory_copy_stream.open(
                                        output_file(cfg, state->data.pid, "memory_copy_trace.csv"),
                                        memory_copy_trace_csv_header()))
            errors.emplace_back(state->memory_copy_stream.error());
        if(cfg.marker_trace &&
           !state->marker_stream.open(output_file(cfg, state->data.pid, "marker_api_trace.csv"),
                                      marker_api_trace_csv_header()))
            errors.emplace_back(state->marker_stream.error());
        if(cfg.cuda_api_trace() &&
           !state->api_stream.open(output_file(cfg, state->data.pid, "cuda_api_trace.csv"),
                                   marker_api_trace_csv_header()))
            errors.emplace_back(state->api_stream.error());
        if(cfg.kernel_replay &&
           !state->missing_stream.open(
               output_file(cfg, state->data.pid, "counter_collection_missing.csv"),
               missing_groups_csv_header()))
            errors.emplace_back(state->missing_stream.error());
    }
    if(!ec && cfg.json)
    {
        // results.json's records wait on disk, not in memory (record_spill).
        auto lock = std::lock_guard{state->mutex};
        auto open = [&](const char* what)
        {
            auto spill = std::make_shared<record_spill>();
            if(spill->open(output_file(
                   cfg, state->data.pid, std::string{"results.json."} + what + ".part")))
                return spill;
            errors.emplace_back(spill->error());
            return std::shared_ptr<record_spill>{};
        };
        if(cfg.kernel_trace) state->data.dispatch_spill = open("kernel_dispatch");
        if(cfg.counter_collection) state->data.counter_spill = open("counter_collection");
        if(cfg.memory_copy_trace) state->data.memory_copy_spill = open("memory_copy");
        if(cfg.marker_trace) state->data.marker_spill = open("marker_api");
        if(cfg.cuda_api_trace()) state->data.api_spill = open("cuda_api");
        if(cfg.kernel_replay) state->data.replay_outcome_spill = open("kernel_replay_outcome");
    }
    if(!ec && cfg.pftrace)
    {
        auto lock = std::lock_guard{state->mutex};
        state->pftrace.emplace(state->data, cfg.kernel_replay);
        if(!state->pftrace_stream.open(output_file(cfg, state->data.pid, "results.pftrace"),
                                       state->pftrace->take()))
        {
            errors.emplace_back(state->pftrace_stream.error());
            state->pftrace.reset();
        }
    }
    if(!ec && cfg.output_config) write_config_file(errors);
    if(!ec && cfg.rocpd)
    {
        auto lock = std::lock_guard{state->mutex};
        if(!state->rocpd.open(output_file(cfg, state->data.pid, "results.db"), state->data))
            errors.emplace_back(state->rocpd.error());
    }
    // Said now, not only at the end; finalization reports them again, to rocprofv3 too.
    for(const auto& e : errors)
        std::fprintf(stderr, "[rocprofv3] error: %s; this output will be missing\n", e.c_str());
    state->flusher = std::thread{flusher_loop};
    auto error     = std::string{};
    if(!signal_end::install(finalize_on_signal, std::chrono::seconds{30}, error))
        std::fprintf(stderr, "[rocprofv3] warning: %s\n", error.c_str());
}

// The collectable groups of one agent under kernel replay, in group order.
struct planned_group
{
    rocprofiler_counter_config_id_t       config = {};
    uint64_t                              passes = 1;
    std::vector<rocprofiler_counter_id_t> ids    = {};
};

// Under kernel replay: which configuration each pass of the agent's dispatches collects. Group
// by group, each in as many consecutive passes as it takes (its first pass reports it); or, on an
// agent that schedules counters into passes itself (no fixed number of counters per pass) when
// one configuration of all groups takes fewer passes than that, that configuration in each of
// its passes, pass 0 reporting every group. One planned pass means the dispatch is not replayed.
void
plan_replay_passes(const agent_entry& agent, const std::vector<planned_group>& groups)
{
    auto& configs  = state->agent_configs[agent.info.id.handle];
    auto& reports  = state->data.replay_pass_groups[agent.info.id.handle];
    auto  by_group = uint64_t{0};
    auto  all_ids  = std::vector<rocprofiler_counter_id_t>{};
    for(const auto& g : groups)
    {
        by_group += g.passes;
        for(auto id : g.ids)
            if(std::none_of(all_ids.begin(),
                            all_ids.end(),
                            [id](rocprofiler_counter_id_t other)
                            { return other.handle == id.handle; }))
                all_ids.push_back(id);
    }
    auto together = rocprofiler_counter_config_id_t{};
    auto passes   = uint64_t{0};
    // Agents with a fixed number of counters per pass collect the groups as the user made them.
    if(groups.size() > 1 && !counters_per_pass(agent.info.id, state->data.counters) &&
       rocprofiler_create_counter_config(
           agent.info.id, all_ids.data(), all_ids.size(), &together) == ROCPROFILER_STATUS_SUCCESS)
    {
        if(rocprofiler_query_counter_config_pass_count(together, &passes) !=
               ROCPROFILER_STATUS_SUCCESS ||
           passes == 0 || passes >= by_group)
        {
            rocprofiler_destroy_counter_config(together);
            passes = 0;
        }
    }
    if(passes > 0)
    {
        auto every = std::vector<uint64_t>{};
        for(uint64_t g = 0; g < groups.size(); ++g)
            every.push_back(g);
        configs.assign(passes, together);
        reports.assign(passes, {});
        reports[0] = std::move(every);
        for(const auto& g : groups)
            rocprofiler_destroy_counter_config(g.config);
        std::fprintf(stderr,
                     "[rocprofv3] agent %u: the %zu counter groups take %llu passes one by one "
                     "and %llu together; each dispatch is replayed %llu passes\n",
                     static_cast<unsigned>(agent.info.logical_node_id),
                     groups.size(),
                     static_cast<unsigned long long>(by_group),
                     static_cast<unsigned long long>(passes),
                     static_cast<unsigned long long>(passes));
        return;
    }
    for(uint64_t g = 0; g < groups.size(); ++g)
        for(uint64_t p = 0; p < groups[g].passes; ++p)
        {
            configs.push_back(groups[g].config);
            reports.push_back(p == 0 ? std::vector<uint64_t>{g} : std::vector<uint64_t>{});
        }
}

// Resolves the configured counter groups on every GPU agent and creates the counter configs each
// pass collects. Errors name the counter and the agent.
bool
setup_counters(std::vector<std::string>& errors)
{
    auto groups = state->cfg.collected_groups();
    // Metric sets in a group stand for each agent's own definition (rocprofv3 checked the files).
    auto sets_error = std::string{};
    auto loaded     = metric_sets::load(metric_sets::shipped_file(metric_sets::library_path()),
                                    std::getenv(metric_sets::path_variable),
                                    sets_error);
    if(!loaded) errors.emplace_back(sets_error);
    const auto sets = loaded.value_or(metric_sets::catalog{});
    // Per group: the counters the last GPU agent lacked; empty once some agent has them all.
    auto unknown = std::vector<std::optional<std::string>>(groups.size());
    for(const auto& agent : state->data.agents)
    {
        if(agent.info.type != ROCPROFILER_AGENT_TYPE_GPU) continue;
        if(agent.counters_error)
        {
            errors.emplace_back("agent " + std::to_string(agent.info.logical_node_id) + " (" +
                                agent.product_name + ") has no counters (" + *agent.counters_error +
                                "); --pmc cannot be collected");
            continue;
        }
        auto by_name = std::unordered_map<std::string, uint64_t>{};
        for(const auto& c : state->data.counters)
            if(c.agent.handle == agent.info.id.handle) by_name.emplace(c.name, c.id);
        auto& configs = state->agent_configs[agent.info.id.handle];
        auto  plan    = std::vector<planned_group>{};
        for(size_t g = 0; g < groups.size(); ++g)
        {
            // The group as this agent collects it: each metric set as the agent's definition.
            const auto group = metric_sets::expand(groups[g],
                                                   sets,
                                                   agent.name,
                                                   [&by_name](const std::string& name)
                                                   { return by_name.count(name) != 0; });

            auto ids     = std::vector<rocprofiler_counter_id_t>{};
            auto missing = std::string{};
            for(const auto& name : group)
            {
                if(auto it = by_name.find(name); it != by_name.end())
                    ids.push_back(rocprofiler_counter_id_t{it->second});
                else
                    missing += (missing.empty() ? "" : ", ") + name;
            }
            if(!unknown[g] || !unknown[g]->empty()) unknown[g] = missing;
            if(!missing.empty()) continue; // not collectable on this agent
            auto cfg_id = rocprofiler_counter_config_id_t{};
            auto rc =
                rocprofiler_create_counter_config(agent.info.id, ids.data(), ids.size(), &cfg_id);
            auto passes = uint64_t{1};
            if(rc == ROCPROFILER_STATUS_SUCCESS)
                rc = rocprofiler_query_counter_config_pass_count(cfg_id, &passes);
            if(rc == ROCPROFILER_STATUS_SUCCESS && passes > 1 && !state->cfg.kernel_replay)
            {
                rocprofiler_destroy_counter_config(cfg_id);
                errors.emplace_back("counter group " + std::to_string(g + 1) + " takes " +
                                    std::to_string(passes) + " passes on agent " +
                                    std::to_string(agent.info.logical_node_id) +
                                    " and is collected only under --replay-mode kernel");
                continue;
            }
            if(rc == ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT)
            {
                auto limit = counters_per_pass(agent.info.id, state->data.counters);
                errors.emplace_back("counter group " + std::to_string(g + 1) + " has " +
                                    std::to_string(ids.size()) +
                                    " counters and does not fit in one pass on agent " +
                                    std::to_string(agent.info.logical_node_id) +
                                    (limit ? ", which collects at most " + std::to_string(*limit) +
                                                 " counters per pass"
                                           : std::string{}) +
                                    "; split it into several --pmc groups");
                continue;
            }
            if(rc != ROCPROFILER_STATUS_SUCCESS)
            {
                errors.emplace_back("rocprofiler_create_counter_config for group " +
                                    std::to_string(g + 1) +
                                    " failed: " + rocprofiler_get_status_name(rc));
                continue;
            }
            if(!state->cfg.kernel_replay)
            {
                configs.push_back(cfg_id); // application replay: run r collects group r
                continue;
            }
            plan.push_back(planned_group{cfg_id, passes, ids});
            state->data.replay_groups[agent.info.id.handle].push_back(group);
        }
        if(state->cfg.kernel_replay && !plan.empty()) plan_replay_passes(agent, plan);
    }
    for(size_t g = 0; g < groups.size(); ++g)
        if(unknown[g] && !unknown[g]->empty())
            errors.emplace_back("counter group " + std::to_string(g + 1) +
                                " names counters no agent has: " + *unknown[g] +
                                " (rocprofv3 -L lists the counters)");
    for(const auto& c : state->data.counters)
        state->counter_names[c.id] = c.name;
    auto any = false;
    for(const auto& [agent, configs] : state->agent_configs)
        any = any || !configs.empty();
    if(!any) errors.emplace_back("no requested counter group can be collected on any agent");
    return errors.empty();
}

int
initialize()
{
    auto errors = std::vector<std::string>{};
    auto agents = query_agents(state->data.counters, errors);
    {
        auto lock          = std::lock_guard{state->mutex};
        state->data.agents = std::move(agents);
    }
    state->data.pid              = static_cast<uint64_t>(getpid());
    state->data.command          = command_line();
    state->data.agent_index_mode = state->cfg.agent_index == "absolute" ? agent_index::absolute
                                   : state->cfg.agent_index == "type-relative"
                                       ? agent_index::type_relative
                                       : agent_index::relative;
    rocprofiler_get_timestamp(&state->data.init_time);

    const auto& cfg = state->cfg;
    auto        ok  = ROCPROFV3_CALL(rocprofiler_create_context(&state->context));
    // Kernel names: symbols registered before the context starts arrive when it starts. Without
    // code object tracing the tool still profiles; kernels are then named kernel_<id>.
    if(ok)
    {
        auto ops = std::vector<rocprofiler_tracing_operation_t>{
            ROCPROFILER_CODE_OBJECT_LOAD, ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER};
        (void)ROCPROFV3_CALL(
            rocprofiler_configure_callback_tracing_service(state->context,
                                                           ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                           ops.data(),
                                                           ops.size(),
                                                           code_object_callback,
                                                           nullptr));
    }
    if(ok && cfg.uses_buffer())
        ok = ROCPROFV3_CALL(rocprofiler_create_buffer(state->context,
                                                      1U << 20U,
                                                      (1U << 20U) - (1U << 16U),
                                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                      buffer_callback,
                                                      nullptr,
                                                      &state->buffer));
    if(ok && cfg.records_dispatches())
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, state->buffer));
    if(ok && cfg.memory_copy_trace)
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, nullptr, 0, state->buffer));
    if(ok && cfg.cuda_runtime_trace)
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context,
            ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API,
            nullptr,
            0,
            state->buffer));
    if(ok && cfg.cuda_driver_trace)
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, nullptr, 0, state->buffer));
    if(ok && (cfg.records_dispatches() || cfg.counter_collection))
    {
        auto ops = rocprofiler_tracing_operation_t{ROCPROFILER_KERNEL_DISPATCH_ENQUEUE};
        ok       = ROCPROFV3_CALL(rocprofiler_configure_callback_tracing_service(
            state->context,
            ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
            &ops,
            1,
            kernel_dispatch_callback,
            nullptr));
    }
    if(ok && cfg.counter_collection)
    {
        ok = setup_counters(errors) &&
             ROCPROFV3_CALL(rocprofiler_configure_callback_dispatch_counting_service(
                 state->context,
                 counting_dispatch_callback,
                 nullptr,
                 counting_record_callback,
                 nullptr));
    }
    // The replay context exists only when rocprofv3 was given --replay-mode kernel.
    if(ok && cfg.kernel_replay) ok = setup_kernel_replay();
    // --selected-regions: nothing is collected until the program's first roctxProfilerResume.
    state->collecting = !cfg.selected_regions;
    if(ok && !cfg.selected_regions) ok = ROCPROFV3_CALL(rocprofiler_start_context(state->context));
    if(ok && (cfg.marker_trace || cfg.selected_regions)) ok = setup_markers();

    for(const auto& e : errors)
        std::fprintf(stderr, "[rocprofv3] error: %s\n", e.c_str());
    if(!ok || !errors.empty())
    {
        std::fprintf(stderr, "[rocprofv3] error: profiling is disabled for this process\n");
        run_report::send("disabled",
                         errors.empty() ? std::string{"the SDK refused the tool's configuration"}
                                        : errors.front());
        return 1;
    }
    start_outputs();
    return 0;
}

// <prefix>_incomplete.txt: present only while a run's outputs may miss records (docs).
std::string
incomplete_note_path()
{
    return output_file(state->cfg, state->data.pid, "incomplete.txt");
}

// Writes what was collected, from finalize (end = exit) or from the signal watcher (end =
// signal). Whichever comes first writes; the other waits for it (a signal) or returns.
void
finalize_outputs(run_end end)
{
    // A process forked by the application without exec has the tool's state but neither its
    // threads nor its own files: writing would overwrite the parent's outputs.
    if(static_cast<uint64_t>(getpid()) != state->data.pid)
    {
        std::fprintf(stderr,
                     "[rocprofv3] warning: process %d was forked from %llu without exec; its "
                     "records are not written\n",
                     static_cast<int>(getpid()),
                     static_cast<unsigned long long>(state->data.pid));
        return;
    }
    auto expected = 0;
    if(!state->finalize_state.compare_exchange_strong(expected, 1))
    {
        // The other one is writing: the process must not end (exit) or die (the signal) before
        // it is done. The watcher's deadline bounds this wait.
        while(state->finalize_state.load() != 2)
            std::this_thread::sleep_for(std::chrono::milliseconds{10});
        return;
    }
    stop_flusher();
    if(state->buffer.handle != 0) rocprofiler_flush_buffer(state->buffer);
    report_progress_total();

    auto lock = std::lock_guard{state->mutex};
    rocprofiler_get_timestamp(&state->data.fini_time);
    // Declined dispatches whose single run never reported close now, every group missing.
    if(state->cfg.kernel_replay) state->replay.finish(state->data, record_replay_outcome);
    state->data.end = end;
    // CUDA API calls come only from the CUDA backend: a run in which none arrived (no CUDA in the
    // process, as on the host reference device, or CUPTI unavailable) says so instead of leaving
    // an empty trace without a word.
    if(state->cfg.cuda_api_trace() && state->api_rows == 0)
        std::fprintf(stderr,
                     "[rocprofv3] warning: CUDA API tracing (--runtime-trace, --sys-trace, "
                     "--cuda-runtime-trace, --cuda-driver-trace): no CUDA runtime or driver call "
                     "was traced (the process used no CUDA device, or CUPTI was unavailable: see "
                     "the SDK's warnings); cuda_api_trace.csv has no rows\n");
    auto errors  = std::vector<std::string>{};
    auto written = std::vector<std::string>{};
    if(state->pftrace)
    {
        state->pftrace->finish();
        append_pftrace();
    }
    for(auto* stream : {&state->kernel_trace_stream,
                        &state->counter_stream,
                        &state->memory_copy_stream,
                        &state->marker_stream,
                        &state->api_stream,
                        &state->pftrace_stream,
                        &state->missing_stream})
    {
        if(stream->path().empty()) continue;
        auto error = std::string{};
        if(stream->finish(error))
            written.emplace_back(stream->path());
        else
            errors.emplace_back(error);
    }
    if(!state->rocpd.path().empty())
    {
        auto error = std::string{};
        if(state->rocpd.finish(state->data, error))
            written.emplace_back(state->rocpd.path());
        else
            errors.emplace_back(error);
    }
    for(auto& path : write_outputs(state->cfg, state->data, errors, true, &state->replay.report()))
        written.emplace_back(std::move(path));
    // The spilled records are in results.json now (or its write failed, which is reported).
    for(const auto& [what, spill] : spills(state->data))
    {
        if(!spill->error().empty()) errors.emplace_back(spill->error());
        spill->remove();
    }
    if(end.kind == run_end::signal)
    {
        const auto note =
            "rocprofv3: process " + std::to_string(state->data.pid) + " was ended by signal " +
            std::to_string(end.number) + " (" + signal_name(end.number) +
            "); its outputs were written when the signal arrived: every dispatch that completed "
            "before it is recorded, dispatches in flight may be missing.\n";
        std::fprintf(stderr, "[rocprofv3] warning: %s", note.c_str() + 11);
        if(write_file_atomically(incomplete_note_path(), note, errors))
            written.emplace_back(incomplete_note_path());
    }
    for(const auto& e : errors)
    {
        std::fprintf(stderr, "[rocprofv3] error: %s\n", e.c_str());
        run_report::send("error", e);
    }
    if(state->data.dropped_records > 0)
        std::fprintf(stderr,
                     "[rocprofv3] warning: %llu records were dropped\n",
                     static_cast<unsigned long long>(state->data.dropped_records));
    if(state->cfg.summary)
        std::fputs(format_summary(compute_kernel_stats(state->data)).c_str(), stderr);
    report_kernel_replay();
    if(state->progress)
        for(const auto& path : written)
            std::fprintf(stderr, "[rocprofv3] wrote %s\n", path.c_str());
    std::fflush(stderr);
    run_report::send("end",
                     end.kind == run_end::signal ? "signal\t" + std::to_string(end.number)
                                                 : std::string{"exit"});
    prefix_lock::release();
    state->finalize_state.store(2);
}

void
finalize()
{
    finalize_outputs(run_end{run_end::exit, 0});
}

void
finalize_on_signal(int number)
{
    guarded("the signal handler's finalization",
            [number] {
                finalize_outputs(run_end{run_end::signal, number});
            });
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    return guarded("tool_initialize", 1, [] { return initialize(); });
}

void
tool_finalize(void*)
{
    guarded("tool_finalize", [] { finalize(); });
}
} // namespace
} // namespace rocprofiler::tool

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id)
{
    using namespace rocprofiler::tool;
    try
    {
        if(client_id != nullptr) client_id->name = "rocprofv3";
        // rocprofv3's pre-run agent query (query.cpp) loads this library without profiling.
        if(std::getenv("ROCPROFV3_TOOL_HELPER_MODE") != nullptr) return nullptr;
        run_report::open_from_environment();
        auto parsed = read_config([](const char* name) { return std::getenv(name); });
        if(!parsed.errors.empty())
        {
            // A bad configuration deactivates the tool; the application still runs, and
            // rocprofv3 learns that its outputs will be missing.
            for(const auto& e : parsed.errors)
                std::fprintf(stderr, "[rocprofv3] error: %s\n", e.c_str());
            std::fprintf(stderr, "[rocprofv3] error: profiling is disabled for this process\n");
            run_report::send("disabled", parsed.errors.front());
            return nullptr;
        }
        state              = new tool_state{std::move(parsed.cfg)};
        state->progress    = state->cfg.progress || isatty(STDERR_FILENO) != 0;
        static auto result = rocprofiler_tool_configure_result_t{
            sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, nullptr};
        return &result;
    }
    catch(const std::exception& e)
    {
        std::fprintf(stderr, "[rocprofv3] error: %s; profiling is disabled\n", e.what());
        run_report::send("disabled", e.what());
        return nullptr;
    }
    catch(...)
    {
        std::fprintf(stderr, "[rocprofv3] error: unknown exception; profiling is disabled\n");
        return nullptr;
    }
}
