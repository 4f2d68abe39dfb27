// Kernel replay (--replay-mode kernel): how many passes each dispatch takes, which pass runs on
// this thread, and what became of each dispatch rocprofv3 asked to replay; the progress lines.
#include "capture/agents.hpp"
#include "capture/callback_guard.hpp"
#include "capture/tool_state.hpp"
#include "log.hpp"

#include <mutex>
#include <numeric>
#include <string>

namespace rocprofiler::tool
{
namespace
{
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
    log::info(name + " (dispatch " + std::to_string(outcome.dispatch_id) +
              "): " + std::to_string(outcome.passes_run) + " of " +
              std::to_string(outcome.passes_planned) + " passes");
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
                       if(!accept(dispatch_info) || !ranges_allow(dispatch_info)) return 1;
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
                if(!accept(info) || !ranges_allow(info)) return;
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
} // namespace

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
        log::warning(line);
    else if(state->progress && closed > 0)
        log::info(line);
}

void
report_progress_total()
{
    if(!state->progress || state->dispatches_seen.load() == 0) return;
    auto passes = state->passes_run.load();
    if(passes > 0)
        log::info(std::to_string(state->dispatches_seen.load()) + " dispatches profiled, " +
                  std::to_string(passes) + " replay passes");
    else
        log::info(std::to_string(state->dispatches_seen.load()) + " dispatches profiled");
}
} // namespace rocprofiler::tool
