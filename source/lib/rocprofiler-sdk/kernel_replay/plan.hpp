// The replay plan of one dispatch: the spec's pass-count table, and nothing else.
#pragma once

#include "dispatch/decline_reason.hpp"

#include <cstdint>
#include <optional>

namespace rocprofiler::kernel_replay
{
enum class loop_kind
{
    none,       // not replayed: the dispatch runs once through the ordinary path
    fixed,      // N > 1 passes; replay_continue (if any) may end it early, never extend it
    indefinite, // until replay_continue returns zero; total_passes is reported as 0
};

struct plan
{
    loop_kind kind         = loop_kind::none;
    uint64_t  total_passes = 0;     // N for a fixed loop, 0 otherwise
    bool      has_continue = false; // replay_continue was provided
    // Why the dispatch is not replayed (kind == none): not_requested (replay_pass_count left
    // NULL), single_pass (it returned 1), indefinite_without_continue (0 with no
    // replay_continue; the only row of the table that is an error) or pass_limit (more passes
    // than the limit: declined rather than clamped, so that a fixed loop is always exactly the N
    // passes the tool asked for).
    dispatch::decline_reason reason = dispatch::decline_reason::none;

    bool replays() const { return kind != loop_kind::none; }
};

// Applies the pass-count table. `pass_count` is the value replay_pass_count returned, or nullopt
// when the tool left replay_pass_count NULL. A fixed count above `max_passes` is declined
// (pass_limit); an indefinite loop (0 with replay_continue) is not bounded by it: the spec leaves
// its end to replay_continue. Pure: logs nothing.
plan make_plan(std::optional<uint64_t> pass_count, bool has_continue, uint64_t max_passes);

// make_plan() with the limit of ROCPROFILER_REPLAY_MAX_PASSES (an invalid value is warned about
// once and the default, max_passes_default, applies).
plan make_plan(std::optional<uint64_t> pass_count, bool has_continue);

// The default of ROCPROFILER_REPLAY_MAX_PASSES.
inline constexpr uint64_t max_passes_default = 1024;

// The limit ROCPROFILER_REPLAY_MAX_PASSES sets (settings.hpp: read once per session).
uint64_t max_passes();

// True when the plan's row is a tool error that deserves a warning (0 without replay_continue,
// more passes than the limit).
bool is_rejected(const plan& value);
} // namespace rocprofiler::kernel_replay
