// The memory side of one replay window (kernel_replay/write_set.hpp has the policy): draining
// the agent, predicting what the kernel writes, the snapshot of it, the hashes of the tracked
// memory outside it before pass 0 and after each pass, what pass 0 wrote (learned for the next
// dispatch of the launch shape), and the verification baseline an agent's next window may keep.
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/decline_reason.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/diagnostics.hpp"
#include "kernel_replay/write_set.hpp"

#include <cstdint>
#include <optional>
#include <vector>

namespace rocprofiler::kernel_replay
{
// ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS bounds the wait for earlier work of the agent before the
// snapshot, and for dispatches a pass made from the device.
uint64_t drain_timeout_ns();

// Per agent: the verification baseline its last verified window left (write_set.hpp) and how many
// windows it opened. Used under the agent's isolation lock, held exclusively. A test reset forgets
// them.
struct agent_baseline
{
    baseline_cache cache       = {};
    uint64_t       own_windows = 0;
};

// A window on one agent, counted when it opens and again when it ends (its isolation lock held
// exclusively both times): its kernels may write memory another agent's snapshots cover, also
// after its start, so an other agent's window that began meanwhile keeps nothing, and one that
// begins later does not use hashes taken before.
class counted_window
{
public:
    explicit counted_window(rocprofiler_agent_id_t agent);
    ~counted_window();

    counted_window(const counted_window&)            = delete;
    counted_window& operator=(const counted_window&) = delete;

private:
    void count();

    agent_baseline& m_slot;
};

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

// Drain, predict, snapshot, hash what lies outside the snapshot. Returns the decline reason on
// failure (nothing is kept then).
std::optional<dispatch::decline_reason> prepare_memory(const dispatch::logical_dispatch& dispatch,
                                                       dispatch::launch_backend&         backend,
                                                       window_memory&                    wm);

// After pass 0: what it changed inside the snapshot, learned for the next dispatch of the shape.
void learn_from_first_pass(window_memory& wm);

// After a pass that another pass follows: whether it changed memory outside the snapshot.
dispatch::decline_reason verify_pass(window_memory& wm, uint64_t pass);

// After the passes: the hashes the next window of the agent may start from, or none.
void keep_baseline(window_memory& wm, dispatch::decline_reason failure);
} // namespace rocprofiler::kernel_replay
