// The exit codes of rocprofv3-avail (docs/rocprofv3-avail.md, "Exit codes"): one per kind of
// answer, so that a script can tell a typo from a counter set that needs several passes.
#pragma once

namespace rocprofv3_avail
{
inline constexpr int exit_ok              = 0; // answered; pmc-check: every set fits in one pass
inline constexpr int exit_usage           = 1; // unknown command or option, bad value
inline constexpr int exit_unknown_agent   = 2; // -d/--device or :device= names no GPU agent
inline constexpr int exit_unknown_counter = 3; // a counter or metric set the agent does not have
inline constexpr int exit_needs_passes    = 4; // pmc-check: a set does not fit in one pass
inline constexpr int exit_setup_error     = 5; // the SDK could not be asked, a metrics file is bad
} // namespace rocprofv3_avail
