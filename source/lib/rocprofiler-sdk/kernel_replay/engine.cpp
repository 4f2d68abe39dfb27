// The replay engine's window and pass loop, and the engine as the dispatch pipeline's
// interceptor. Isolation (isolation.cpp), the window's memory (window_memory.cpp) and what the
// engine reports (diagnostics.cpp) live beside it.
#include "kernel_replay/engine.hpp"

#include "common/static_object.hpp"
#include "context/context.hpp"
#include "dispatch/interception.hpp"
#include "kernel_replay/deferred_counting.hpp"
#include "kernel_replay/diagnostics.hpp"
#include "kernel_replay/isolation.hpp"
#include "kernel_replay/local_context.hpp"
#include "kernel_replay/plan.hpp"
#include "kernel_replay/replay_callbacks.hpp"
#include "kernel_replay/window_memory.hpp"

#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>

#include <atomic>
#include <memory>
#include <vector>

namespace rocprofiler::kernel_replay
{
namespace
{
using dispatch::decline_reason;

// The context that configured the domain (0: none); a test reset unclaims the domain.
std::atomic<uint64_t>&
domain_owner()
{
    struct owner
    {
        std::atomic<uint64_t> context = 0;
    };
    return common::static_object<owner, common::reset_order::replay>::get().context;
}

// The context that owns the domain, when it is active and covers CONFIG (the activation key).
context::context*
replay_context()
{
    auto* ctx = context::get(rocprofiler_context_id_t{domain_owner().load()});
    if(ctx == nullptr || !ctx->active.load(std::memory_order_acquire) || !ctx->callback_tracer)
        return nullptr;
    const auto& cfg = ctx->callback_tracer->kinds[ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY];
    if(!cfg.has_value() || !cfg->covers(ROCPROFILER_KERNEL_REPLAY_CONFIG)) return nullptr;
    return ctx;
}

// --- the window --------------------------------------------------------------------------------

// Why a dispatch is not a candidate at all (no CONFIG callback), or nothing.
std::optional<decline_reason>
gate(const dispatch::launch_backend& backend)
{
    if(this_thread_in_window()) return decline_reason::reentrant_dispatch;
    return backend.replay_exclusion();
}

// The single fall-through run of a declined candidate; the caller holds the isolation lock
// exclusively, or it is taken shared here like for any ordinary dispatch.
void
run_once(const dispatch::logical_dispatch&          dispatch,
         std::shared_ptr<dispatch::launch_backend>& backend)
{
    auto guard = ordinary_dispatch_guard{dispatch.info.agent_id, *backend};
    dispatch::run_execution_async(dispatch, backend);
}

struct loop_outcome
{
    uint64_t                   passes  = 0;                    // passes executed
    dispatch::execution_result last    = {};                   // of the last executed pass
    decline_reason             failure = decline_reason::none; // pass_failed, restore_failed, ...
    std::shared_ptr<dispatch::late_execution> late = {};       // pass_drain_stuck: that pass
};

// The pass loop, on the submitting thread, with the memory snapshot taken. Every pass starts from
// the snapshot; the last executed pass is never followed by a restore.
loop_outcome
run_passes(replay_sequence&          seq,
           const plan&               loop,
           dispatch::launch_backend& backend,
           window_memory&            wm)
{
    auto& memory   = *wm.backend;
    auto  contexts = local_context_scope{};
    auto  out      = loop_outcome{};
    // Backends may measure counters over several passes and deliver them later; they are told
    // how many passes are planned (none when replay_continue may end the loop early).
    auto counting = deferred_counting{
        loop.kind == loop_kind::fixed && !loop.has_continue ? loop.total_passes : 0};
    for(uint64_t pass = 0;; ++pass)
    {
        execute_pass_phase_enter(seq, loop, pass, contexts);
        const auto children_before =
            work().device_thread_dispatches.load(std::memory_order_acquire);
        out.last   = counting.run_pass(*seq.dispatch, backend, pass);
        out.passes = pass + 1;
        execute_pass_phase_exit(seq, loop, pass);

        if(!out.last.ok)
        {
            out.late    = counting.late();
            out.failure = out.late ? decline_reason::pass_drain_stuck : decline_reason::pass_failed;
            break;
        }
        // Dispatches the pass launched from the device finish before its memory is compared,
        // verified or restored: a restore under a running child would tear its writes.
        const bool children =
            work().device_thread_dispatches.load(std::memory_order_acquire) != children_before;
        if(children && !memory.drain(drain_timeout_ns()))
        {
            out.failure = decline_reason::child_dispatch;
            break;
        }
        if(pass == 0) learn_from_first_pass(wm);
        // A PASS callback or replay_continue that threw ends the loop after the pass that ran.
        const auto more = seq.tool_exception == nullptr && should_continue_replay(seq, loop, pass);
        if(seq.tool_exception != nullptr)
        {
            out.failure = decline_reason::tool_exception;
            break;
        }
        if(!more) break;
        // Children that wrote outside the snapshot are seen only when all of it is verified (or
        // restored): otherwise the pass that launched them is the application's run.
        if(children && wm.settings.snapshot != snapshot_scope::all &&
           wm.settings.verify != verify_scope::all)
        {
            out.failure = decline_reason::child_dispatch;
            break;
        }
        // A pass that wrote outside the snapshot cannot be undone: it is the application's run.
        if(auto failure = verify_pass(wm, pass); failure != decline_reason::none)
        {
            out.failure = failure;
            break;
        }
        if(!memory.restore())
        {
            out.failure = decline_reason::restore_failed;
            break;
        }
    }
    counting.finish(*seq.dispatch, backend);
    return out;
}

void
run_window(const dispatch::logical_dispatch&          dispatch,
           std::shared_ptr<dispatch::launch_backend>& backend,
           context::context&                          ctx)
{
    auto in_window = window_scope{};
    auto seq       = make_sequence(dispatch, ctx);
    execute_config_phase_enter(seq);
    execute_config_phase_exit(seq);

    // A CONFIG callback or replay_pass_count that threw: the dispatch runs once, not replayed.
    const auto count   = seq.tool_exception == nullptr ? request_pass_count(seq) : std::nullopt;
    const auto loop    = make_plan(count, seq.continue_cb != nullptr);
    const auto planned = count.value_or(1);
    if(seq.tool_exception != nullptr || !loop.replays())
    {
        decline_candidate(dispatch,
                          seq.tool_exception != nullptr ? decline_reason::tool_exception
                                                        : loop.reason,
                          planned);
        run_once(dispatch, backend);
        return;
    }

    auto lock    = exclusive_agent_lock{dispatch.info.agent_id};
    auto counted = counted_window{dispatch.info.agent_id};
    auto wm      = window_memory{};
    if(auto reason = prepare_memory(dispatch, *backend, wm))
    {
        decline_candidate(dispatch, *reason, planned, wm.stats);
        run_once(dispatch, backend);
        return;
    }

    const auto result = run_passes(seq, loop, *backend, wm);
    keep_baseline(wm, result.failure);
    wm.backend->release();
    report_replay(dispatch, result.passes, result.failure, wm.stats);
    notify_outcome(dispatch,
                   result.failure == decline_reason::none
                       ? ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED
                       : ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY,
                   result.failure,
                   result.passes,
                   loop.total_passes,
                   wm.stats);
    if(result.late) // the pass still runs: it signals the application when it finishes
        result.late->hand_off([backend](const auto& last) { backend->signal_once(last); });
    else
        backend->signal_once(result.last);
}
} // namespace

namespace
{
// The engine as the dispatch pipeline's interceptor, installed when the domain is first claimed.
class replay_interceptor final : public dispatch::dispatch_interceptor
{
public:
    bool take(const dispatch::logical_dispatch&          dispatch,
              std::shared_ptr<dispatch::launch_backend>& backend) override
    {
        return try_replay(dispatch, backend);
    }

    dispatch::ordinary_hold begin_ordinary(const dispatch::logical_dispatch& dispatch,
                                           const dispatch::launch_backend&   backend) override
    {
        return kernel_replay::begin_ordinary(dispatch.info.agent_id, backend);
    }

    void end_ordinary(const dispatch::ordinary_hold& hold) override
    {
        kernel_replay::end_ordinary(hold);
    }

    void report_excluded(std::string_view       kernel_name,
                         decline_reason         reason,
                         rocprofiler_agent_id_t agent) override
    {
        kernel_replay::report_excluded_launch(kernel_name, reason, agent);
    }

    void hold_for_release(std::vector<rocprofiler_agent_id_t> agents,
                          std::vector<std::shared_mutex*>&    taken) override
    {
        kernel_replay::hold_for_release(std::move(agents), taken);
    }
};

dispatch::dispatch_interceptor&
get_interceptor()
{
    return common::static_object<replay_interceptor, common::reset_order::never>::get();
}
} // namespace

bool
is_configured()
{
    return domain_owner().load(std::memory_order_relaxed) != 0;
}

rocprofiler_status_t
claim_domain(uint64_t context_id)
{
    auto expected = uint64_t{0};
    if(!domain_owner().compare_exchange_strong(expected, context_id))
        return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
    // Runs the adapters' tracking hooks, again after a test reset re-claims the domain.
    dispatch::install_interceptor(get_interceptor());
    return ROCPROFILER_STATUS_SUCCESS;
}

bool
try_replay(const dispatch::logical_dispatch&          dispatch,
           std::shared_ptr<dispatch::launch_backend>& backend)
{
    if(!is_configured()) return false;
    auto* ctx = replay_context();
    if(ctx == nullptr) return false;
    if(auto reason = gate(*backend))
    {
        report_decline(dispatch, *reason);
        return false;
    }
    run_window(dispatch, backend, *ctx);
    return true;
}
} // namespace rocprofiler::kernel_replay
