#include "kernel_replay/diagnostics.hpp"

#include "common/guard.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "kernel_replay/engine.hpp"
#include "kernel_replay/plan.hpp"

#include <mutex>
#include <sstream>
#include <string>
#include <string_view>

namespace rocprofiler::kernel_replay
{
using dispatch::decline_reason;

namespace
{
std::string
diagnostic_line(const dispatch::logical_dispatch& dispatch,
                uint64_t                          executions,
                outcome                           result,
                decline_reason                    reason,
                const window_stats*               stats = nullptr)
{
    auto out = std::ostringstream{};
    out << "[kernel-replay] dispatch_id=" << dispatch.info.dispatch_id
        << " kernel=" << dispatch.kernel_name << " passes=" << executions
        << " outcome=" << (result == outcome::replayed ? "replayed" : "declined")
        << " reason=" << dispatch::name(reason);
    if(stats != nullptr)
        out << " snapshot_bytes=" << stats->snapshot_bytes
            << " verified_bytes=" << stats->verified_bytes
            << " written_bytes=" << stats->written_bytes
            << " baseline_hashed_bytes=" << stats->baseline_hashed << " prediction="
            << (!stats->learned ? "first_sight"
                : stats->partly ? "partly_learned"
                                : "learned");
    return out.str();
}

// --- the outcome callback (experimental/kernel_replay_outcome.h) --------------------------------

struct outcome_sink
{
    std::mutex                             mutex    = {};
    rocprofiler_kernel_replay_outcome_cb_t callback = nullptr;
    void*                                  data     = nullptr;
};

outcome_sink&
get_outcome_sink()
{
    return common::static_object<outcome_sink, common::reset_order::replay>::get();
}

// Where a pass wrote outside the snapshot, for the report: the first few pieces.
std::string
describe_outside(const window_stats& stats)
{
    auto out   = std::ostringstream{};
    auto bytes = uint64_t{0};
    for(const auto& r : stats.outside)
        bytes += r.bytes;
    out << "pass " << stats.failed_pass << " changed memory outside the snapshot (" << bytes
        << " bytes in " << stats.outside.size() << " range"
        << (stats.outside.size() == 1 ? "" : "s") << ", from 0x" << std::hex
        << (stats.outside.empty() ? 0 : stats.outside.front().start) << std::dec << ")";
    if(stats.baseline_kept)
        out << " (the hashes before it were kept from an earlier window: the change may also come "
               "from the previous replayed dispatch's last pass)";
    return out.str();
}
} // namespace

void
notify_outcome(const dispatch::logical_dispatch&        dispatch,
               rocprofiler_kernel_replay_outcome_kind_t kind,
               decline_reason                           reason,
               uint64_t                                 passes_run,
               uint64_t                                 passes_planned,
               const window_stats&                      stats)
{
    auto& sink = get_outcome_sink();
    auto  cb   = rocprofiler_kernel_replay_outcome_cb_t{nullptr};
    auto* data = static_cast<void*>(nullptr);
    {
        auto lock = std::lock_guard{sink.mutex};
        cb        = sink.callback;
        data      = sink.data;
    }
    if(cb == nullptr) return;
    static const auto reason_names = []
    {
        auto names = std::vector<std::string>{};
        for(size_t i = 0; i < static_cast<size_t>(decline_reason::last); ++i)
            names.emplace_back(dispatch::name(static_cast<decline_reason>(i)));
        return names;
    }();
    auto record                  = rocprofiler_kernel_replay_outcome_t{};
    record.size                  = sizeof(record);
    record.dispatch_id           = dispatch.info.dispatch_id;
    record.agent_id              = dispatch.info.agent_id;
    record.kernel_id             = dispatch.info.kernel_id;
    record.kind                  = kind;
    record.reason                = reason_names.at(static_cast<size_t>(reason)).c_str();
    record.passes_run            = passes_run;
    record.passes_planned        = passes_planned;
    record.snapshot_bytes        = stats.snapshot_bytes;
    record.written_bytes         = stats.written_bytes;
    record.verified_bytes        = stats.verified_bytes;
    record.failed_pass           = stats.failed_pass;
    record.baseline_hashed_bytes = stats.baseline_hashed;
    common::guarded("the kernel replay outcome callback", [&] { cb(&record, data); });
}

// A candidate that ran once. `passes` is how often the kernel executed: 1.
void
report_decline(const dispatch::logical_dispatch& dispatch, decline_reason reason)
{
    // A tool's per-dispatch opt-out is not a problem worth a warning.
    if(dispatch::is_tool_choice(reason))
    {
        ROCP_LOG(debug) << diagnostic_line(dispatch, 1, outcome::declined, reason);
        return;
    }
    auto line = diagnostic_line(dispatch, 1, outcome::declined, reason);
    if(reason == decline_reason::indefinite_without_continue)
        line += " (replay_pass_count returned 0 but replay_continue is NULL: an indefinite loop "
                "needs replay_continue to end it)";
    if(reason == decline_reason::tool_exception)
        line += " (a replay callback or replay_pass_count threw; the dispatch ran once)";
    if(reason == decline_reason::pass_limit)
        line += " (replay_pass_count returned more than ROCPROFILER_REPLAY_MAX_PASSES=" +
                std::to_string(max_passes()) + " passes; the dispatch ran once)";
    if(reason == decline_reason::stream_capture)
        line += " (a captured launch runs in a graph launch, which is not replayed)";
    if(reason == decline_reason::graph_launch)
        line += " (the kernel nodes of a CUDA graph launch run once; they are traced, not "
                "replayed)";
    common::log::warn_once(std::string{"kernel-replay:"} + std::string{dispatch::name(reason)},
                           line);
}

// A candidate whose replay was declined: the line, and its outcome.
void
decline_candidate(const dispatch::logical_dispatch& dispatch,
                  decline_reason                    reason,
                  uint64_t                          planned,
                  const window_stats&               stats)
{
    report_decline(dispatch, reason);
    notify_outcome(dispatch, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED, reason, 1, planned, stats);
}

void
report_replay(const dispatch::logical_dispatch& dispatch,
              uint64_t                          passes,
              decline_reason                    failure,
              const window_stats&               stats)
{
    if(failure == decline_reason::none)
    {
        ROCP_LOG(debug) << diagnostic_line(dispatch, passes, outcome::replayed, failure, &stats);
        return;
    }
    // A tool that throws usually throws on every dispatch: its exception is reported once (by the
    // guard), and so is this line.
    if(failure == decline_reason::tool_exception)
    {
        common::log::warn_once("kernel-replay-ended:tool_exception",
                               diagnostic_line(dispatch, passes, outcome::replayed, failure) +
                                   " (a replay callback threw; replay ended after this pass and "
                                   "the application sees its results)");
        return;
    }
    if(failure == decline_reason::write_outside_snapshot)
    {
        // Pass 0 missing the prediction is how the engine learns (once per kernel); a later pass
        // writing where pass 0 did not is a kernel that does not repeat itself: an error.
        const auto line = diagnostic_line(dispatch, passes, outcome::replayed, failure, &stats) +
                          " (kernel " + dispatch.kernel_name + ": " + describe_outside(stats) +
                          "; replay ended after this pass and the application's memory holds "
                          "exactly that pass's results; " +
                          (stats.learned_outside
                               ? std::string{"the kernel's prediction now covers them)"}
                               : std::string{"no argument points there: the kernel's prediction "
                                             "covers them once a second dispatch writes them "
                                             "too)"});
        if(stats.failed_pass == 0)
            common::log::warn_once(std::string{"kernel-replay-outside:"} + dispatch.kernel_name,
                                   line);
        else
            ROCP_LOG(error) << line;
        return;
    }
    if(failure == decline_reason::child_dispatch)
    {
        // A property of the kernel (it dispatches kernels), not an accident: once per kernel.
        common::log::warn_once(
            std::string{"kernel-replay-child:"} + dispatch.kernel_name,
            diagnostic_line(dispatch, passes, outcome::replayed, failure, &stats) + " (kernel " +
                dispatch.kernel_name +
                " dispatched kernels from the device; they were waited for, and replay ended "
                "after this pass because they did not finish within "
                "ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS or because only "
                "ROCPROFILER_REPLAY_VERIFY=all proves that they wrote nothing the snapshot "
                "cannot restore; the application's memory holds exactly this pass's run)");
        return;
    }
    ROCP_LOG(error) << diagnostic_line(dispatch, passes, outcome::replayed, failure, &stats)
                    << " (replay ended after this pass; the application sees its results)";
}

void
report_excluded_launch(std::string_view       kernel_name,
                       decline_reason         reason,
                       rocprofiler_agent_id_t agent)
{
    if(!is_configured()) return;
    auto launch          = dispatch::logical_dispatch{}; // dispatch_id 0: no dispatch was made
    auto name            = std::string{kernel_name};
    launch.kernel_name   = name.c_str();
    launch.info.agent_id = agent;
    report_decline(launch, reason);
    // A graph launch is a decline of its own in the outcomes (dispatch id 0: its kernel nodes get
    // their ids only when their records arrive); a captured launch's decline is the graph's.
    if(reason == decline_reason::graph_launch)
        notify_outcome(launch, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED, reason, 1, 0, {});
}

void
set_outcome_callback(rocprofiler_kernel_replay_outcome_cb_t callback, void* data)
{
    auto& sink    = get_outcome_sink();
    auto  lock    = std::lock_guard{sink.mutex};
    sink.callback = callback;
    sink.data     = data;
}
} // namespace rocprofiler::kernel_replay
