// Kernel replay's settings (common/environment.hpp's ROCPROFILER_REPLAY_* entries), read from the
// environment once per session: at the first use after the library loaded or after a reset
// (common::reset_order::replay), so that every window of a session works with the same values
// and no window reads the environment. Tests that change a variable call reread_settings().
#pragma once

#include "kernel_replay/write_set.hpp"

#include <cstdint>

namespace rocprofiler::kernel_replay
{
struct replay_settings
{
    uint64_t           max_passes       = 0; // ROCPROFILER_REPLAY_MAX_PASSES
    uint64_t           drain_timeout_ns = 0; // ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS
    uint64_t           pass_timeout_ns  = 0; // ROCPROFILER_REPLAY_PASS_TIMEOUT_MS; 0: no limit
    write_set_settings write_set        = {};
};

// The session's settings. Thread-safe.
const replay_settings& settings();

// Reads the environment again (tests, between windows, with no replay in flight).
void reread_settings();
} // namespace rocprofiler::kernel_replay
