// Changing a ROCPROFILER_REPLAY_* variable in a test: kernel replay reads its settings once per
// session (kernel_replay/settings.hpp), so a test that changes one between windows re-reads them.
#pragma once

#include "kernel_replay/settings.hpp"

#include <cstdlib>

namespace replay_test
{
inline void
set_replay_env(const char* name, const char* value)
{
    setenv(name, value, 1);
    rocprofiler::kernel_replay::reread_settings();
}

inline void
unset_replay_env(const char* name)
{
    unsetenv(name);
    rocprofiler::kernel_replay::reread_settings();
}
} // namespace replay_test
