// The environment variables of the CUDA backend's driver side (agents, replay memory), one small
// function each, read through the library's environment registry (common/environment.hpp): the
// accepted values and defaults are the registry's (docs/api.md), and a value it does not accept is
// reported once and gives the default. Any thread.
#pragma once

#include "cuda/settings.hpp"

#include <cstddef>
#include <cstdint>

namespace rocprofiler::cuda::settings
{
// ROCPROFILER_CUDA_AGENTS: whether devices are listed as agents. Read on every call.
enum class agents_mode
{
    when_loaded, // unset or any other value: only when the process has loaded the driver already
    always,      // "1": the driver is loaded to list them
    never,       // "0"
};
agents_mode cuda_agents();

// ROCPROFILER_CUDA_TIMING_STATS on: the [cuda-replay-memory] line at exit. Read once.
bool timing_stats();

// ROCPROFILER_REPLAY_SHADOW: where replay snapshots go (cuda/settings.hpp's enum). Read on every
// call.
shadow_placement replay_shadow();

// ROCPROFILER_REPLAY_SHADOW_POOL_MB, in bytes: the largest shadow block a context keeps between
// replay windows (default 2048 MiB; 0: none). Read once.
size_t shadow_pool_retain_bytes();

// ROCPROFILER_REPLAY_DRAIN_SPIN_US, in ns: how long the replaying thread polls for the drain
// before it sleeps (default 200 us). Read once.
uint64_t drain_spin_ns();

// ROCPROFILER_REPLAY_BATCH_MIN: copies of one snapshot or restore from which one
// cuMemcpyBatchAsync replaces single copies (default 8; 0: never). Read once.
size_t batch_min();

// ROCPROFILER_REPLAY_MERGE_ADJACENT on: copies may span adjacent allocations (default off).
// Read on every call.
bool merge_adjacent();

// ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY on: kernels that receive pinned host memory are
// replayed (default off). Read on every call.
bool allow_host_memory();
} // namespace rocprofiler::cuda::settings
