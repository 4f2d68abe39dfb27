// The tool's state for one process, shared by the capture side (the SDK callbacks, capture/) and
// the session (outputs, flusher, finalization, session/). Created by rocprofiler_configure and
// intentionally leaked: finalization may run from atexit handlers.
//
// Threading: the ENQUEUE, replay, replay outcome and counter dispatch callbacks run on the
// submitting thread; the buffer and counter record callbacks on SDK threads; CODE_OBJECT callbacks
// on the registering thread, or on the thread that starts the context for symbols registered
// before. All shared state is behind tool_state::mutex, except the kernel filter (its own lock),
// the counters below that are atomic, and the thread-local replay pass and marker stack.
#pragma once

#include "capture/counter_setup.hpp"
#include "capture/kernel_filter.hpp"
#include "capture/marker_pairing.hpp"
#include "config/config.hpp"
#include "model/replay_report.hpp"
#include "model/results.hpp"
#include "session/flusher.hpp"
#include "sinks/fan_out.hpp"

#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::tool
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
    results                  data           = {}; // the model: plain records and accumulators
    rocprofiler_context_id_t context        = {};
    rocprofiler_context_id_t replay_context = {};
    // --marker-trace / --selected-regions: the marker calls, in a context of their own that is
    // never paused (it receives roctxProfilerResume while the others are stopped).
    rocprofiler_context_id_t marker_context      = {};
    process_ranges           open_process_ranges = {};   // roctxRangeStartA ranges open now
    bool                     collecting          = true; // not paused
    rocprofiler_buffer_id_t  buffer              = {};
    // --pc-sampling-*: PC sampling in a context of its own (a context that counts dispatches
    // cannot also sample), with its own buffer (capture/pc_sampling.cpp).
    rocprofiler_context_id_t pc_context      = {};
    rocprofiler_buffer_id_t  pc_buffer       = {};
    counter_plan             counters        = {};
    bool                     progress        = false; // stderr is a terminal
    std::atomic<uint64_t>    dispatches_seen = 0;     // at ENQUEUE, pass 0
    std::atomic<uint64_t>    passes_run      = 0;
    // Under kernel replay: the account of each dispatch rocprofv3 asked to replay, closed as its
    // records and outcome arrive (record_replay_outcome writes it).
    replay_ledger replay   = {};
    uint64_t      api_rows = 0; // CUDA API rows recorded
    // Every output of the run (sinks/): the only way records reach a file.
    fan_out outputs = {};
    flusher flush   = {};
    // Whole-file outputs are rewritten when the data changed, as often as the pacing allows.
    bool              changed = false;
    checkpoint_pacing pacing  = {};
    // 0: not finalized; 1: finalizing; 2: done. Normal and signal finalization never overlap.
    std::atomic<int> finalize_state = 0;
};

extern tool_state* state;

// The replay pass being executed on this thread: set at PASS ENTER, cleared at PASS EXIT, so
// that the counter dispatch callback of that pass (same thread, inside the pass) picks its group.
extern thread_local std::optional<uint64_t> current_replay_pass;

// capture/callbacks.cpp
bool accept(const rocprofiler_kernel_dispatch_info_t& info);
void record_replay_outcome(const replay_outcome& outcome, const std::vector<uint64_t>& missing);
void
code_object_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*);
void kernel_dispatch_callback(rocprofiler_callback_tracing_record_t record,
                              rocprofiler_user_data_t*,
                              void*);
void buffer_callback(rocprofiler_context_id_t,
                     rocprofiler_buffer_id_t,
                     rocprofiler_record_header_t** headers,
                     size_t                        num_headers,
                     void*,
                     uint64_t drop_count);
void counting_dispatch_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                                rocprofiler_counter_config_id_t*             config,
                                rocprofiler_user_data_t*                     user_data,
                                void*);
void counting_record_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                              rocprofiler_counter_record_t*                records,
                              size_t                                       record_count,
                              rocprofiler_user_data_t                      user_data,
                              void*);
// capture/replay.cpp
bool setup_kernel_replay();
void report_progress_total();
void report_kernel_replay();
// capture/pc_sampling.cpp: the PC sampling context, not yet started; false (with @p errors)
// when no agent offers the configuration or the SDK refuses it.
bool setup_pc_sampling(const config& cfg, std::vector<std::string>& errors);
// capture/markers.cpp
bool setup_markers();
// capture/ncu_capture.cpp: --target-processes (false: this process is not profiled), the marker
// ranges of --nvtx (followed from the marker callback; whether a dispatch gets counters and
// replay), --print-summary and what the range filters chose (print_ncu_summary, at the end, with
// state->mutex held).
bool target_process();
void follow_marker_range(const rocprofiler_callback_tracing_record_t& record);
bool ranges_allow(const rocprofiler_kernel_dispatch_info_t& info);
void summarize_dispatch(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& record);
void print_ncu_summary();
// capture/contexts.cpp
int initialize();
// session/outputs.cpp
void start_outputs();
void finalize_outputs(run_end end);
void finalize_on_signal(int number);
} // namespace rocprofiler::tool
