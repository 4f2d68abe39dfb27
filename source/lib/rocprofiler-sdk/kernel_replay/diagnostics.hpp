// What the replay engine reports: one diagnostic line per candidate (`[kernel-replay]
// dispatch_id=... outcome=... reason=...`, the format docs/kernel_replay.md documents) and the
// tool's outcome callback (experimental/kernel_replay_outcome.h).
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/decline_reason.hpp"
#include "dispatch/dispatch.hpp"

#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>

#include <cstdint>
#include <vector>

namespace rocprofiler::kernel_replay
{
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
    bool     learned         = false; // the snapshot came from what earlier dispatches wrote
    bool     learned_outside = true;  // the prediction covers the writes outside from now on
    bool     partly          = false; // learned, but some arguments still at first sight
    uint64_t baseline_hashed = 0;     // bytes of V hashed for the baseline (the rest kept)
    bool     baseline_kept   = false; // some changed piece's baseline came from the cache
    std::vector<dispatch::memory_range> outside = {}; // where a pass wrote outside the snapshot
};

// Gives the outcome to the tool's outcome callback, if one is set.
void notify_outcome(const dispatch::logical_dispatch&        dispatch,
                    rocprofiler_kernel_replay_outcome_kind_t kind,
                    dispatch::decline_reason                 reason,
                    uint64_t                                 passes_run,
                    uint64_t                                 passes_planned,
                    const window_stats&                      stats);

// A candidate that ran once: its diagnostic line (a warning once per reason, or debug for a
// tool's own choice).
void report_decline(const dispatch::logical_dispatch& dispatch, dispatch::decline_reason reason);

// A candidate whose replay was declined: the line, and its outcome.
void decline_candidate(const dispatch::logical_dispatch& dispatch,
                       dispatch::decline_reason          reason,
                       uint64_t                          planned,
                       const window_stats&               stats = {});

// A replayed candidate: its line (debug when every pass ran; why it ended early otherwise).
void report_replay(const dispatch::logical_dispatch& dispatch,
                   uint64_t                          passes,
                   dispatch::decline_reason          failure,
                   const window_stats&               stats);
} // namespace rocprofiler::kernel_replay
