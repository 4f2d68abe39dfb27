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
    // NULL), single_pass (it returned 1) or indefinite_without_continue (0 with no
    // replay_continue; the only row of the table that is an error).
    dispatch::decline_reason reason = dispatch::decline_reason::none;

    bool replays() const { return kind != loop_kind::none; }
};

// Applies the pass-count table. `pass_count` is the value replay_pass_count returned, or nullopt
// when the tool left replay_pass_count NULL. Pure: logs nothing.
plan make_plan(std::optional<uint64_t> pass_count, bool has_continue);

// True when the plan's row is a tool error that deserves a warning (0 without replay_continue).
bool is_rejected(const plan& value);
} // namespace rocprofiler::kernel_replay
