#include "kernel_replay/engine.hpp"

#include "common/dcheck.hpp"
#include "common/environment.hpp"
#include "common/guard.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "context/context.hpp"
#include "dispatch/interception.hpp"
#include "kernel_replay/deferred_counting.hpp"
#include "kernel_replay/local_context.hpp"
#include "kernel_replay/plan.hpp"
#include "kernel_replay/replay_callbacks.hpp"
#include "kernel_replay/write_set.hpp"

#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>

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

// The agents' isolation locks: process lifetime, kept by a test reset.
struct domain_state
{
    std::mutex                             mutex       = {};
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
        ROCP_DCHECK(!holds_exclusively(agent),
                    "a thread opens one window per agent at a time (a nested window would "
                    "deadlock on its own isolation lock)");
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
    window_scope()
    {
        ROCP_DCHECK(!this_thread_in_window,
                    "replay windows do not nest on a thread (a dispatch from inside a window is "
                    "declined as reentrant_dispatch before it gets here)");
        this_thread_in_window = true;
    }
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

// What the memory of one window cost and found: the figures of the diagnostics and the outcome.
struct window_stats
{
    uint64_t snapshot_bytes  = 0;
    uint64_t verified_bytes  = 0;
    uint64_t written_bytes   = 0;
    uint64_t failed_pass     = 0;
    bool     learned         = false;       // the snapshot came from what earlier dispatches wrote
    bool     learned_outside = true;        // the prediction covers the writes outside from now on
    bool     partly          = false;       // learned, but some arguments still at first sight
    uint64_t baseline_hashed = 0;           // bytes of V hashed for the baseline (the rest kept)
    bool     baseline_kept   = false;       // some changed piece's baseline came from the cache
    std::vector<memory_range> outside = {}; // where a pass wrote outside the snapshot
};

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
                  const window_stats&               stats = {})
{
    report_decline(dispatch, reason);
    notify_outcome(dispatch, ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED, reason, 1, planned, stats);
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

// Work that may write tracked memory between two windows of an agent, as the engine sees it:
// ordinary dispatches (the single runs of declined candidates included) and replay windows of
// other agents (a kernel may write memory another agent's snapshots cover), counted since the
// process started.
std::atomic<uint64_t> ordinary_dispatches = 0;
std::atomic<uint64_t> windows_opened      = 0;
// Dispatches made on a device thread (a kernel that dispatches kernels), counted when submitted:
// a pass during which this moved launched children that may still write memory.
std::atomic<uint64_t> device_thread_dispatches = 0;

// Per agent: the verification baseline its last verified window left (write_set.hpp) and how many
// windows it opened. Used under the agent's isolation lock, held exclusively. A test reset forgets
// them.
struct agent_baseline
{
    baseline_cache cache       = {};
    uint64_t       own_windows = 0;
};

struct baseline_caches
{
    std::mutex                         mutex  = {};
    std::map<uint64_t, agent_baseline> agents = {};
};

agent_baseline&
baseline_of(rocprofiler_agent_id_t agent)
{
    auto& caches = common::static_object<baseline_caches, common::reset_order::replay>::get();
    auto  lock   = std::lock_guard{caches.mutex};
    return caches.agents[agent.handle];
}

// A window on one agent, counted when it opens and again when it ends (its isolation lock held
// exclusively both times): its kernels may write memory another agent's snapshots cover, also
// after its start, so an other agent's window that began meanwhile keeps nothing, and one that
// begins later does not use hashes taken before.
class counted_window
{
public:
    explicit counted_window(rocprofiler_agent_id_t agent)
        : m_slot{baseline_of(agent)}
    {
        ROCP_DCHECK(holds_exclusively(agent),
                    "a window is counted with its agent's isolation lock held exclusively");
        count();
    }
    ~counted_window() { count(); }

    counted_window(const counted_window&)            = delete;
    counted_window& operator=(const counted_window&) = delete;

private:
    void count()
    {
        m_slot.own_windows += 1;
        windows_opened.fetch_add(1, std::memory_order_acq_rel);
    }

    agent_baseline& m_slot;
};

// The engine's part of the epochs a kept baseline of `agent` must match.
uint64_t
engine_epoch(const agent_baseline& slot)
{
    return ordinary_dispatches.load(std::memory_order_acquire) +
           (windows_opened.load(std::memory_order_acquire) - slot.own_windows);
}

// The memory side of one window: the prediction, the snapshot of it and the hashes of what lies
// outside it (kernel_replay/write_set.hpp).
struct window_memory
{
    dispatch::memory_backend* backend         = nullptr;
    shape_key                 key             = {};
    write_set_settings        settings        = {};
    prediction                predicted       = {};
    std::vector<memory_range> tracked         = {};
    std::vector<memory_range> pieces          = {}; // V cut at the piece grid
    std::vector<uint64_t>     baseline        = {}; // hashes of `pieces` before pass 0
    std::vector<char>         kept            = {}; // per piece: its baseline came from the cache
    agent_baseline*           slot            = nullptr; // when baselines may be kept
    baseline_epochs           epochs          = {};      // at the window's start
    bool                      cache_was_valid = false;
    bool                      verified        = false; // a verification after a pass found nothing
    window_stats              stats           = {};
};

// The baseline of `wm.pieces`: kept hashes where the agent's cache holds them, the rest hashed.
bool
hash_baseline(window_memory& wm)
{
    auto& memory = *wm.backend;
    auto  need   = std::vector<size_t>{};
    if(wm.slot != nullptr)
        need = wm.slot->cache.lookup(wm.tracked, wm.epochs, wm.pieces, wm.baseline);
    else
    {
        wm.baseline.assign(wm.pieces.size(), 0);
        need.resize(wm.pieces.size());
        for(size_t i = 0; i < need.size(); ++i)
            need[i] = i;
    }
    wm.kept.assign(wm.pieces.size(), 1);
    if(need.empty()) return true;
    auto ranges = std::vector<memory_range>{};
    ranges.reserve(need.size());
    for(auto i : need)
    {
        ranges.push_back(wm.pieces[i]);
        wm.kept[i] = 0;
        wm.stats.baseline_hashed += wm.pieces[i].bytes;
    }
    auto hashes = std::vector<uint64_t>{};
    if(!memory.hash(ranges, wm.settings.piece_bytes, hashes) || hashes.size() != need.size())
        return false;
    for(size_t k = 0; k < need.size(); ++k)
        wm.baseline[need[k]] = hashes[k];
    return true;
}

// After the passes: the hashes the next window of the agent may start from, or none.
void
keep_baseline(window_memory& wm, decline_reason failure)
{
    if(wm.slot == nullptr) return;
    auto&      cache = wm.slot->cache;
    const auto epoch = wm.backend->write_epoch();
    const auto now = baseline_epochs{engine_epoch(*wm.slot), epoch.value_or(wm.epochs.backend + 1)};
    // Unverified (one pass), ended early, or something issued work that may have written tracked
    // memory while the window was open: nothing is known of the memory after it.
    if(failure != decline_reason::none || !wm.verified || !epoch || now != wm.epochs)
    {
        cache.clear();
        return;
    }
    cache.keep(wm.tracked,
               wm.epochs,
               wm.cache_was_valid,
               wm.predicted.snapshot,
               normalize(wm.backend->externally_writable()),
               wm.pieces,
               wm.baseline);
}

// Drain, predict, snapshot, hash what lies outside the snapshot. Returns the decline reason on
// failure (nothing is kept then).
std::optional<decline_reason>
prepare_memory(const dispatch::logical_dispatch& dispatch,
               dispatch::launch_backend&         backend,
               window_memory&                    wm)
{
    wm.backend = backend.memory();
    if(wm.backend == nullptr) return decline_reason::snapshot_failed;
    auto& memory = *wm.backend;
    if(!memory.drain(drain_timeout_ns())) return decline_reason::agent_drain_stuck;
    auto tracking       = false;
    wm.tracked          = memory.tracked(tracking);
    const auto& tracked = wm.tracked;
    if(!tracking) return decline_reason::untracked_memory;
    if(auto reason = memory.check_arguments(dispatch.arguments)) return reason;

    wm.key       = shape_key{dispatch.info.kernel_id,
                       rocprofiler_dim3_t{dispatch.info.grid_size.x,
                                          dispatch.info.grid_size.y,
                                          dispatch.info.grid_size.z},
                       dispatch.info.workgroup_size};
    wm.settings  = current_settings();
    wm.predicted = predict(
        wm.key,
        dispatch.arguments,
        tracked,
        [&memory](uint64_t address, void* out, size_t bytes)
        { return memory.read(address, out, bytes); },
        wm.settings);
    wm.stats.snapshot_bytes = wm.predicted.snapshot_bytes();
    wm.stats.verified_bytes = wm.predicted.verify_bytes();
    wm.stats.learned        = wm.predicted.learned;
    wm.stats.partly         = wm.predicted.partly;
    if(auto reason = memory.snapshot(wm.predicted.snapshot)) return reason;
    wm.pieces = grid_pieces(wm.predicted.verify, wm.settings.piece_bytes);
    // Every window of an agent that keeps baselines takes part, also one that verifies nothing:
    // its snapshot's hashes must leave the cache.
    if(auto epoch = wm.settings.keep_baseline ? memory.write_epoch() : std::nullopt)
    {
        wm.slot            = &baseline_of(dispatch.info.agent_id);
        wm.epochs          = {engine_epoch(*wm.slot), *epoch};
        wm.cache_was_valid = wm.slot->cache.valid_for(wm.tracked, wm.epochs);
    }
    if(!wm.pieces.empty() && !hash_baseline(wm))
    {
        if(wm.slot != nullptr) wm.slot->cache.clear();
        memory.release();
        return decline_reason::verification_failed;
    }
    return std::nullopt;
}

// After pass 0: what it changed inside the snapshot, learned for the next dispatch of the shape.
void
learn_from_first_pass(window_memory& wm)
{
    if(wm.settings.snapshot == snapshot_scope::all || wm.predicted.snapshot.empty()) return;
    auto changes = std::vector<dispatch::range_change>{};
    if(!wm.backend->compare(wm.settings.compare_piece_bytes, changes))
    {
        ROCP_LOG(warning) << "[kernel-replay] comparing the snapshot with its copy failed; the "
                             "kernel's write set is not learned from this dispatch";
        return;
    }
    wm.stats.written_bytes = learn_written(wm.key, wm.predicted, changes);
}

// After a pass that another pass follows: whether it changed memory outside the snapshot.
decline_reason
verify_pass(window_memory& wm, uint64_t pass)
{
    if(wm.pieces.empty())
    {
        wm.verified = true;
        return decline_reason::none;
    }
    auto after = std::vector<uint64_t>{};
    if(!wm.backend->hash(wm.pieces, wm.settings.piece_bytes, after))
        return decline_reason::verification_failed;
    auto outside = changed_pieces(wm.pieces, wm.settings.piece_bytes, wm.baseline, after);
    if(outside.empty())
    {
        wm.verified = true;
        return decline_reason::none;
    }
    for(size_t i = 0; i < wm.pieces.size() && i < after.size(); ++i)
        if(wm.kept[i] != 0 && wm.baseline[i] != after[i]) wm.stats.baseline_kept = true;
    wm.stats.learned_outside = learn_outside(wm.key, wm.predicted, outside);
    wm.stats.failed_pass     = pass;
    wm.stats.outside         = std::move(outside);
    return decline_reason::write_outside_snapshot;
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
        const auto children_before = device_thread_dispatches.load(std::memory_order_acquire);
        out.last                   = counting.run_pass(*seq.dispatch, backend, pass);
        out.passes                 = pass + 1;
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
            device_thread_dispatches.load(std::memory_order_acquire) != children_before;
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

void
set_outcome_callback(rocprofiler_kernel_replay_outcome_cb_t callback, void* data)
{
    auto& sink    = get_outcome_sink();
    auto  lock    = std::lock_guard{sink.mutex};
    sink.callback = callback;
    sink.data     = data;
}

dispatch::ordinary_hold
begin_ordinary(rocprofiler_agent_id_t agent, const dispatch::launch_backend& backend)
{
    auto hold = dispatch::ordinary_hold{};
    if(!is_configured()) return hold;
    // The thread already holds the lock exclusively (a dispatch from inside its own replay
    // callbacks), or the dispatch comes from a device thread that a draining or replaying thread
    // may be waiting for: taking the lock would deadlock.
    hold.counted = true;
    if(holds_exclusively(agent)) return hold;
    if(backend.replay_exclusion() == decline_reason::reentrant_dispatch)
    {
        device_thread_dispatches.fetch_add(1, std::memory_order_acq_rel);
        return hold;
    }
    hold.shared_lock = &isolation_lock(agent);
    hold.shared_lock->lock_shared();
    return hold;
}

void
end_ordinary(const dispatch::ordinary_hold& hold)
{
    // Its kernel may write any tracked memory: no verification baseline taken before it is used
    // after it. Counted once its work was submitted and before the lock is released, so that a
    // window that begins later (and drains that work first) sees the count changed.
    if(hold.counted) ordinary_dispatches.fetch_add(1, std::memory_order_acq_rel);
    if(hold.shared_lock != nullptr) hold.shared_lock->unlock_shared();
}

void
hold_for_release(std::vector<rocprofiler_agent_id_t> agents, std::vector<std::shared_mutex*>& taken)
{
    if(!is_configured()) return;
    std::sort(agents.begin(),
              agents.end(),
              [](const auto& a, const auto& b) { return a.handle < b.handle; });
    for(size_t i = 0; i < agents.size(); ++i)
    {
        if(i > 0 && agents[i].handle == agents[i - 1].handle) continue;
        if(holds_exclusively(agents[i])) continue;
        taken.emplace_back(&isolation_lock(agents[i]));
        taken.back()->lock_shared();
    }
}
} // namespace rocprofiler::kernel_replay
