// The host reference device's environment variables: its table of the library's registry
// (common/environment.hpp), which the backend registers (device_backend::settings()) as it
// registers its device. docs/api.md lists every table.
#pragma once

#include "common/environment.hpp"
#include "host/runtime/settings.hpp"

#include <array>

namespace rocprofiler::host::settings
{
namespace env = common::env;

// clang-format off
inline constexpr const auto& workers             = runtime::settings::workers;
inline constexpr const auto& shutdown_timeout_ms = runtime::settings::shutdown_timeout_ms;
inline constexpr auto counter_slots              = env::number("ROCPROFILER_HOST_COUNTER_SLOTS", 4, {1, 64, "slots"}, "counter slots per pass of the host device");
inline constexpr auto pc_sampling_ring           = env::number("ROCPROFILER_HOST_PC_SAMPLING_RING", 4096, {1, 1048576, "samples"}, "PC samples one host-device worker keeps per dispatch; more are dropped and reported");
inline constexpr auto spm_samples                = env::number("ROCPROFILER_HOST_SPM_SAMPLES", 65536, {2, 1048576, "samples"}, "SPM samples one host-device execution keeps, the one at its end included; more are dropped, flagged DATA_LOSS and reported");
inline constexpr auto replay_host_budget_mb      = env::number_or_computed("ROCPROFILER_REPLAY_HOST_BUDGET_MB", "half of the memory available when a snapshot is taken", {0, env::max_scaled, "MiB"}, "host memory that replay snapshots of the host device may use");
inline constexpr auto observed_writes            = env::flag("ROCPROFILER_HOST_OBSERVED_WRITES", false, "`1`: the application writes host-device memory only through kernels and rocprofiler_host_memcpy/memset, so replay verification may keep its hashes between windows");
// clang-format on

// The table, in docs/api.md's order.
inline constexpr auto all = std::to_array<const env::setting*>({&workers.def,
                                                                &shutdown_timeout_ms.def,
                                                                &counter_slots.def,
                                                                &pc_sampling_ring.def,
                                                                &spm_samples.def,
                                                                &replay_host_budget_mb.def,
                                                                &observed_writes.def});
} // namespace rocprofiler::host::settings
