#include "kernel_replay/engine.hpp"

#include "common/environment.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "context/context.hpp"
#include "dispatch/interception.hpp"
#include "kernel_replay/deferred_counting.hpp"
#include "kernel_replay/local_context.hpp"
#include "kernel_replay/plan.hpp"
#include "kernel_replay/replay_callbacks.hpp"

#include <algorithm>
#include <atomic>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::kernel_replay
{
namespace
{
using dispatch::decline_reason;

// The adapters' trackers and the agents' isolation locks: process lifetime, kept by a test reset.
struct domain_state
{
    std::mutex                             mutex       = {};
    std::vector<std::function<void()>>     trackers    = {};
    std::map<uint64_t, std::shared_mutex*> agent_locks = {};
};

domain_state&
get_state()
{
    return common::static_object<domain_state, common::reset_order::never>::get();
}

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

std::shared_mutex&
isolation_lock(rocprofiler_agent_id_t agent)
{
    auto& st   = get_state();
    auto  lock = std::lock_guard{st.mutex};
    auto& slot = st.agent_locks[agent.handle];
    if(slot == nullptr) slot = new std::shared_mutex{};
    return *slot;
}

// Agents whose isolation lock this thread holds exclusively (a replay window is open on it).
// Dispatches this thread makes from inside replay callbacks must not take the lock again.
thread_local std::vector<uint64_t> this_thread_exclusive_agents = {};
// True from CONFIG ENTER to the end of the window on this thread.
thread_local bool this_thread_in_window = false;

bool
holds_exclusively(rocprofiler_agent_id_t agent)
{
    const auto& held = this_thread_exclusive_agents;
    return std::find(held.begin(), held.end(), agent.handle) != held.end();
}

// The agent's isolation lock, held exclusively for the rest of the window.
class exclusive_agent_lock
{
public:
    explicit exclusive_agent_lock(rocprofiler_agent_id_t agent)
        : m_agent{agent.handle}
        , m_lock{isolation_lock(agent)}
    {
        m_lock.lock();
        this_thread_exclusive_agents.emplace_back(m_agent);
    }

    ~exclusive_agent_lock()
    {
        auto& held = this_thread_exclusive_agents;
        held.erase(std::find(held.begin(), held.end(), m_agent));
        m_lock.unlock();
    }

    exclusive_agent_lock(const exclusive_agent_lock&)            = delete;
    exclusive_agent_lock& operator=(const exclusive_agent_lock&) = delete;

private:
    uint64_t           m_agent;
    std::shared_mutex& m_lock;
};

class window_scope
{
public:
    window_scope() { this_thread_in_window = true; }
    ~window_scope() { this_thread_in_window = false; }

    window_scope(const window_scope&)            = delete;
    window_scope& operator=(const window_scope&) = delete;
};

// ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS bounds the wait for earlier work of the agent before the
// snapshot. Read per window (a getenv next to a replay costs nothing; tests change it).
uint64_t
drain_timeout_ns()
{
    return common::env::get(common::env::settings::replay_drain_timeout_ms) * 1000 * 1000;
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

// --- diagnostics -------------------------------------------------------------------------------

enum class outcome
{
    replayed,
    declined,
};

std::string
diagnostic_line(const dispatch::logical_dispatch& dispatch,
                uint64_t                          executions,
                outcome                           result,
                decline_reason                    reason)
{
    auto out = std::ostringstream{};
    out << "[kernel-replay] dispatch_id=" << dispatch.info.dispatch_id
        << " kernel=" << dispatch.kernel_name << " passes=" << executions
        << " outcome=" << (result == outcome::replayed ? "replayed" : "declined")
        << " reason=" << dispatch::name(reason);
    return out.str();
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
    if(reason == decline_reason::stream_capture)
        line += " (a captured launch runs in a graph launch, which is not traced or replayed)";
    common::log::warn_once(std::string{"kernel-replay:"} + std::string{dispatch::name(reason)},
                           line);
}

void
report_replay(const dispatch::logical_dispatch& dispatch, uint64_t passes, decline_reason failure)
{
    if(failure == decline_reason::none)
    {
        ROCP_LOG(debug) << diagnostic_line(dispatch, passes, outcome::replayed, failure);
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
    ROCP_LOG(error) << diagnostic_line(dispatch, passes, outcome::replayed, failure)
                    << " (replay ended after this pass; the application sees its results)";
}

// --- the window --------------------------------------------------------------------------------

// Why a dispatch is not a candidate at all (no CONFIG callback), or nothing.
std::optional<decline_reason>
gate(const dispatch::launch_backend& backend)
{
    if(this_thread_in_window) return decline_reason::reentrant_dispatch;
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

// Drain, then snapshot. Returns the decline reason on failure (nothing is kept then).
std::optional<decline_reason>
prepare_memory(const dispatch::logical_dispatch& dispatch, dispatch::launch_backend& backend)
{
    auto* memory = backend.memory();
    if(memory == nullptr) return decline_reason::snapshot_failed;
    if(!memory->drain(drain_timeout_ns())) return decline_reason::agent_drain_stuck;
    return memory->snapshot(dispatch.arguments);
}

struct loop_outcome
{
    uint64_t                   passes  = 0;                    // passes executed
    dispatch::execution_result last    = {};                   // of the last executed pass
    decline_reason             failure = decline_reason::none; // pass_failed, restore_failed
};

// The pass loop, on the submitting thread, with the memory snapshot taken. Every pass starts from
// the snapshot; the last executed pass is never followed by a restore.
loop_outcome
run_passes(replay_sequence& seq, const plan& loop, dispatch::launch_backend& backend)
{
    auto& memory   = *backend.memory();
    auto  contexts = local_context_scope{};
    auto  out      = loop_outcome{};
    // Backends may measure counters over several passes and deliver them later; they are told
    // how many passes are planned (none when replay_continue may end the loop early).
    auto counting = deferred_counting{
        loop.kind == loop_kind::fixed && !loop.has_continue ? loop.total_passes : 0};
    for(uint64_t pass = 0;; ++pass)
    {
        execute_pass_phase_enter(seq, loop, pass, contexts);
        out.last   = counting.run_pass(*seq.dispatch, backend, pass);
        out.passes = pass + 1;
        execute_pass_phase_exit(seq, loop, pass);

        if(!out.last.ok)
        {
            out.failure = decline_reason::pass_failed;
            break;
        }
        // A PASS callback or replay_continue that threw ends the loop after the pass that ran.
        const auto more = seq.tool_exception == nullptr && should_continue_replay(seq, loop, pass);
        if(seq.tool_exception != nullptr)
        {
            out.failure = decline_reason::tool_exception;
            break;
        }
        if(!more) break;
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
    const auto count = seq.tool_exception == nullptr ? request_pass_count(seq) : std::nullopt;
    const auto loop  = make_plan(count, seq.continue_cb != nullptr);
    if(seq.tool_exception != nullptr || !loop.replays())
    {
        report_decline(
            dispatch, seq.tool_exception != nullptr ? decline_reason::tool_exception : loop.reason);
        run_once(dispatch, backend);
        return;
    }

    auto lock = exclusive_agent_lock{dispatch.info.agent_id};
    if(auto reason = prepare_memory(dispatch, *backend))
    {
        report_decline(dispatch, *reason);
        run_once(dispatch, backend);
        return;
    }

    const auto result = run_passes(seq, loop, *backend);
    backend->memory()->release();
    backend->signal_application(result.last);
    report_replay(dispatch, result.passes, result.failure);
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

    void* begin_ordinary(const dispatch::logical_dispatch& dispatch,
                         const dispatch::launch_backend&   backend) override
    {
        return new ordinary_dispatch_guard{dispatch.info.agent_id, backend};
    }

    void end_ordinary(void* token) override { delete static_cast<ordinary_dispatch_guard*>(token); }
};

dispatch::dispatch_interceptor&
get_interceptor()
{
    return common::static_object<replay_interceptor, common::reset_order::never>::get();
}
} // namespace

void
report_excluded_launch(std::string_view kernel_name, decline_reason reason)
{
    if(!is_configured()) return;
    auto launch        = dispatch::logical_dispatch{}; // dispatch_id 0: no dispatch was made
    auto name          = std::string{kernel_name};
    launch.kernel_name = name.c_str();
    report_decline(launch, reason);
}

bool
is_configured()
{
    return domain_owner().load(std::memory_order_relaxed) != 0;
}

rocprofiler_status_t
claim_domain(uint64_t context_id)
{
    auto& st     = get_state();
    auto  to_run = std::vector<std::function<void()>>{};
    {
        auto lock     = std::lock_guard{st.mutex};
        auto expected = uint64_t{0};
        if(!domain_owner().compare_exchange_strong(expected, context_id))
            return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        to_run = st.trackers;
    }
    dispatch::install_interceptor(get_interceptor());
    for(auto& fn : to_run)
        fn();
    return ROCPROFILER_STATUS_SUCCESS;
}

void
on_tracking_enabled(std::function<void()> enable)
{
    auto& st = get_state();
    {
        auto lock = std::lock_guard{st.mutex};
        st.trackers.emplace_back(enable);
        if(domain_owner().load() == 0) return;
    }
    enable();
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

ordinary_dispatch_guard::ordinary_dispatch_guard(rocprofiler_agent_id_t          agent,
                                                 const dispatch::launch_backend& backend)
{
    if(!is_configured()) return;
    // The thread already holds the lock exclusively (a dispatch from inside its own replay
    // callbacks), or the dispatch comes from a device thread that a draining or replaying thread
    // may be waiting for: taking the lock would deadlock.
    if(holds_exclusively(agent) || backend.replay_exclusion() == decline_reason::reentrant_dispatch)
        return;
    m_lock = &isolation_lock(agent);
    m_lock->lock_shared();
}

ordinary_dispatch_guard::~ordinary_dispatch_guard()
{
    if(m_lock != nullptr) m_lock->unlock_shared();
}

memory_release_guard::memory_release_guard(std::vector<rocprofiler_agent_id_t> agents)
{
    if(!is_configured()) return;
    std::sort(agents.begin(),
              agents.end(),
              [](const auto& a, const auto& b) { return a.handle < b.handle; });
    for(size_t i = 0; i < agents.size(); ++i)
    {
        if(i > 0 && agents[i].handle == agents[i - 1].handle) continue;
        if(holds_exclusively(agents[i])) continue;
        m_locks.emplace_back(&isolation_lock(agents[i]));
        m_locks.back()->lock_shared();
    }
}

memory_release_guard::~memory_release_guard()
{
    for(auto itr = m_locks.rbegin(); itr != m_locks.rend(); ++itr)
        (*itr)->unlock_shared();
}
} // namespace rocprofiler::kernel_replay
