// replay_until_stable: replays each dispatch until its duration is stable, instead of a fixed
// number of times. replay_pass_count returns 0 (an indefinite loop) and replay_continue, called
// after every pass, stops the loop once the relative spread (max - min) / median of the last K
// durations falls under a threshold.
//
// An indefinite loop is unbounded in the SDK: no pass cap, no time limit, and the application's
// completion is deferred until the loop ends, so a replay_continue that never returns 0 hangs the
// application. Convergence depends on measured data, which may never settle (a noisy machine, a
// kernel whose duration drifts, a pass whose timing never arrived). So replay_continue checks a
// hard cap first, using only the pass index the SDK gives it, and returns 0 on its own error path
// too: the loop ends on every path.
//
// The durations come from kernel-dispatch *callback* tracing: a pass's COMPLETE callback runs on
// the submitting thread between PASS ENTER and PASS EXIT, so the duration is known before
// replay_continue decides. Buffer records would arrive later, too late for the decision.
//
// Environment: REPLAY_STABLE_WINDOW (K, default 5), REPLAY_STABLE_THRESHOLD (relative spread,
// default 0.05), REPLAY_STABLE_MAX_PASSES (cap, default 50), REPLAY_STABLE_OUTPUT (CSV path,
// default replay_until_stable.csv).
#include "common/sample_common.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <string>
#include <vector>

namespace
{
using namespace replay_sample;

// The replay loop running on this thread. Loops on one thread never overlap (a dispatch made
// inside a replay callback is not a candidate), so one object per thread suffices. Its address
// goes into the sequence's user_data at CONFIG ENTER. It is not heap-allocated per dispatch
// because no callback follows the end of every loop (a declined replay or a failed pass skips
// replay_continue), so per-dispatch heap state would leak on those paths.
struct loop_state
{
    rocprofiler_dispatch_id_t dispatch_id   = 0;
    rocprofiler_kernel_id_t   kernel_id     = 0;
    std::optional<double>     pass_duration = std::nullopt; // COMPLETE of the running pass
    std::vector<double>       durations     = {};           // one per pass that reported one
    uint64_t                  passes        = 0;            // passes that ran (PASS EXIT seen)
};

thread_local loop_state this_thread_loop = {};
thread_local bool       in_pass          = false;

// The outcome of one dispatch's loop.
struct dispatch_row
{
    rocprofiler_kernel_id_t kernel_id  = 0;
    uint64_t                passes     = 0;
    std::string             stopped_by = "unknown"; // "stable", "cap", or "error"
    double                  spread     = -1;        // of the last K durations; -1: too few
    duration_stats          window     = {};        // the last K durations
};

struct tool_state
{
    uint64_t                 window      = 5;
    double                   threshold   = 0.05;
    uint64_t                 max_passes  = 50;
    std::string              output_path = "replay_until_stable.csv";
    rocprofiler_context_id_t context     = {};
    kernel_names             names       = {};

    std::mutex                                        mutex = {};
    std::map<rocprofiler_dispatch_id_t, dispatch_row> rows  = {}; // guarded by mutex
};

tool_state* state = nullptr; // leaked on purpose: finalize may run during process exit

std::vector<double>
last_window(const loop_state& loop)
{
    auto count = std::min<size_t>(loop.durations.size(), state->window);
    return {loop.durations.end() - static_cast<std::ptrdiff_t>(count), loop.durations.end()};
}

// (max - min) / median of the last K durations, or nullopt while there are fewer than K.
std::optional<double>
relative_spread(const loop_state& loop)
{
    if(loop.durations.size() < state->window) return std::nullopt;
    auto s = summarize(last_window(loop));
    if(s.median <= 0) return std::nullopt;
    return (s.max - s.min) / s.median;
}

void
record_outcome(const loop_state& loop, const char* stopped_by)
{
    auto row                      = dispatch_row{};
    row.kernel_id                 = loop.kernel_id;
    row.passes                    = loop.passes;
    row.stopped_by                = stopped_by;
    row.spread                    = relative_spread(loop).value_or(-1);
    row.window                    = summarize(last_window(loop));
    auto lock                     = std::lock_guard{state->mutex};
    state->rows[loop.dispatch_id] = row;
}

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return 0; // indefinite: replay_continue decides, and must end the loop on every path
}

// Called after every pass, after its PASS EXIT. Non-zero runs another pass.
int
replay_continue(rocprofiler_kernel_dispatch_info_t,
                uint64_t current_pass,
                uint64_t, // total_passes: 0 for an indefinite loop
                rocprofiler_user_data_t user_data)
{
    // Any exception stops the loop (fallback 0): an error must never mean "replay forever".
    return guarded("replay_continue",
                   0,
                   [&]
                   {
                       auto* loop = static_cast<loop_state*>(user_data.ptr);
                       if(loop == nullptr) return 0;
                       // The cap first, from the SDK's pass index alone: it holds even if no
                       // duration arrived.
                       if(current_pass + 1 >= state->max_passes)
                       {
                           record_outcome(*loop, "cap");
                           return 0;
                       }
                       if(auto spread = relative_spread(*loop);
                          spread && *spread < state->threshold)
                       {
                           record_outcome(*loop, "stable");
                           return 0;
                       }
                       return 1;
                   });
}

void
replay_callback(rocprofiler_callback_tracing_record_t record,
                rocprofiler_user_data_t*              user_data,
                void*)
{
    guarded("replay callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
                auto* payload =
                    static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
                auto& loop = this_thread_loop;
                if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
                   record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                {
                    loop             = loop_state{};
                    loop.dispatch_id = payload->dispatch_info.dispatch_id;
                    loop.kernel_id   = payload->dispatch_info.kernel_id;
                    user_data->ptr   = &loop; // reaches replay_continue with this sequence
                    payload->replay_pass_count = pass_count;
                    payload->replay_continue   = replay_continue;
                }
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS &&
                        record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                {
                    loop.pass_duration.reset();
                    in_pass = true;
                }
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
                {
                    in_pass = false;
                    ++loop.passes;
                    if(loop.pass_duration) loop.durations.push_back(*loop.pass_duration);
                    // Kept up to date after every pass, so a loop that ends without replay_continue
                    // (a failed pass) still has a row; replay_continue overwrites it with its
                    // reason.
                    record_outcome(loop, "error");
                }
            });
}

// COMPLETE of a replay pass: on the submitting thread, inside the pass. COMPLETE of an ordinary
// dispatch may run on a device thread, where in_pass is false; those are ignored.
void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    guarded("dispatch callback",
            [&]
            {
                if(!in_pass || record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
                   record.operation != ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
                    return;
                const auto* payload =
                    static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(
                        record.payload);
                if(payload->dispatch_info.dispatch_id != this_thread_loop.dispatch_id) return;
                this_thread_loop.pass_duration =
                    static_cast<double>(payload->end_timestamp - payload->start_timestamp);
            });
}

void
write_report()
{
    auto out = std::ofstream{state->output_path};
    out << "dispatch_id,kernel,passes,stopped_by,spread,window_min_ns,window_median_ns,"
           "window_max_ns\n";
    auto total  = uint64_t{0};
    auto capped = uint64_t{0};
    for(const auto& [dispatch_id, row] : state->rows)
    {
        out << dispatch_id << ',' << csv_field(state->names.lookup(row.kernel_id)) << ','
            << row.passes << ',' << row.stopped_by << ',' << row.spread << ',' << row.window.min
            << ',' << row.window.median << ',' << row.window.max << '\n';
        total += row.passes;
        if(row.stopped_by != "stable") ++capped;
    }
    out.flush();
    std::fprintf(stderr,
                 "[%s] %zu dispatches, %llu passes in total (window %llu, threshold %g, cap "
                 "%llu); %llu stopped without converging\n",
                 tool_name,
                 state->rows.size(),
                 static_cast<unsigned long long>(total),
                 static_cast<unsigned long long>(state->window),
                 state->threshold,
                 static_cast<unsigned long long>(state->max_passes),
                 static_cast<unsigned long long>(capped));
    if(!out)
        std::fprintf(
            stderr, "[%s] error: cannot write %s\n", tool_name, state->output_path.c_str());
    else
        std::fprintf(stderr, "[%s] wrote %s\n", tool_name, state->output_path.c_str());
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    return guarded("initialize",
                   1,
                   []
                   {
                       auto& ctx = state->context;
                       auto  complete =
                           rocprofiler_tracing_operation_t{ROCPROFILER_KERNEL_DISPATCH_COMPLETE};
                       auto ok = REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&ctx)) &&
                                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
                                     ctx,
                                     ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                     &complete,
                                     1,
                                     dispatch_callback,
                                     nullptr)) &&
                                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
                                     ctx,
                                     ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                     nullptr,
                                     0,
                                     replay_callback,
                                     nullptr));
                       if(ok) state->names.subscribe(ctx); // optional: only names depend on it
                       ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_start_context(ctx));
                       if(!ok)
                           std::fprintf(stderr, "[%s] error: the tool is disabled\n", tool_name);
                       return ok ? 0 : 1;
                   });
}

void
tool_finalize(void*)
{
    guarded("finalize",
            []
            {
                auto lock = std::lock_guard{state->mutex};
                write_report();
            });
}
} // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id)
{
    return guarded("configure",
                   static_cast<rocprofiler_tool_configure_result_t*>(nullptr),
                   [&]
                   {
                       tool_name = "replay_until_stable";
                       if(client_id != nullptr) client_id->name = tool_name;
                       state             = new tool_state{};
                       state->window     = env_uint("REPLAY_STABLE_WINDOW", 5, 2, 10000);
                       state->threshold  = env_double("REPLAY_STABLE_THRESHOLD", 0.05, 0.0, 1e9);
                       state->max_passes = env_uint("REPLAY_STABLE_MAX_PASSES", 50, 1, 100000);
                       if(auto path = env_string("REPLAY_STABLE_OUTPUT"))
                           state->output_path = *path;
                       static auto result = rocprofiler_tool_configure_result_t{
                           sizeof(rocprofiler_tool_configure_result_t),
                           tool_initialize,
                           tool_finalize,
                           nullptr};
                       return &result;
                   });
}
