// The copies of kernel replay's snapshots and restores between the application's allocations and
// their shadow block: planned (shadow_plan.hpp), then issued as one cuMemcpyBatchAsync when there
// are enough of them, else one call each. Called on the submitting thread with the launch's
// context current, while the replaying dispatch holds the agent's isolation lock exclusively.
#pragma once

#include "cuda/replay/shadow_plan.hpp"

#include <cuda.h>

#include <vector>

namespace rocprofiler::cuda
{
// Where the copies of one snapshot or restore go.
struct copy_target
{
    bool        to_shadow    = true;    // a snapshot; false: a restore
    CUstream    stream       = nullptr; // the copies are queued on it; nobody waits here
    int         device       = 0;
    bool        host         = false; // the shadow block is pinned host memory
    CUdeviceptr device_block = 0;
    void*       host_block   = nullptr;
};

// Queues the copies of every allocation of `shadows` to or from its shadow; a restore skips
// allocations freed or remapped during the window. False when a copy failed (logged).
bool copy_shadows(const copy_target& target, const std::vector<shadow_span>& shadows);
} // namespace rocprofiler::cuda
