// The host device runtime's own environment variables, in the library's registry format
// (common/environment.hpp): the runtime reads them, the host backend registers them with the rest
// of its table (host/settings.hpp).
#pragma once

#include "rocprofiler-sdk/common/environment.hpp"

namespace rocprofiler::host::runtime::settings
{
namespace env = common::env;

// clang-format off
inline constexpr auto workers             = env::number_or_computed("ROCPROFILER_HOST_WORKERS", "hardware threads, at least 2", {1, 4096, "threads"}, "worker threads of the host device");
inline constexpr auto shutdown_timeout_ms = env::number("ROCPROFILER_HOST_SHUTDOWN_TIMEOUT_MS", 5000, {1, env::max_scaled, "ms"}, "how long exit waits for host-device work");
// clang-format on
} // namespace rocprofiler::host::runtime::settings
