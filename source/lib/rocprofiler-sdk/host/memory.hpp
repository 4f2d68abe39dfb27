// Kernel replay's view of the host device's memory: an allocation tracker that is switched on
// only when a tool configures the replay service, and a memory backend that snapshots the tracked
// allocations into host shadow copies and restores them between passes.
#pragma once

#include "dispatch/dispatch.hpp"

#include <cstddef>
#include <cstdint>

namespace rocprofiler::host
{
class device;

// Starts tracking: every live allocation is taken in, and every later allocation and free is
// observed. Idempotent.
void enable_allocation_tracking(device& dev);

// Number of allocations and bytes tracked now (0, 0 while tracking is off).
struct tracked_footprint
{
    size_t allocations = 0;
    size_t bytes       = 0;
};

tracked_footprint tracked();

// The memory backend of the host agent.
dispatch::memory_backend& host_memory(device& dev);
} // namespace rocprofiler::host
