#include "kernel_replay/window_memory.hpp"

#include "common/dcheck.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "kernel_replay/isolation.hpp"
#include "kernel_replay/settings.hpp"

#include <map>
#include <mutex>

namespace rocprofiler::kernel_replay
{
using dispatch::decline_reason;

uint64_t
drain_timeout_ns()
{
    return settings().drain_timeout_ns;
}

namespace
{
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

// The engine's part of the epochs a kept baseline of `agent` must match.
uint64_t
engine_epoch(const agent_baseline& slot)
{
    return work().ordinary_dispatches.load(std::memory_order_acquire) +
           (work().windows_opened.load(std::memory_order_acquire) - slot.own_windows);
}

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
} // namespace

counted_window::counted_window(rocprofiler_agent_id_t agent)
    : m_slot{baseline_of(agent)}
{
    ROCP_DCHECK(holds_exclusively(agent),
                "a window is counted with its agent's isolation lock held exclusively");
    count();
}

counted_window::~counted_window()
{
    count();
}

void
counted_window::count()
{
    m_slot.own_windows += 1;
    work().windows_opened.fetch_add(1, std::memory_order_acq_rel);
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
    wm.settings  = settings().write_set;
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
} // namespace rocprofiler::kernel_replay
