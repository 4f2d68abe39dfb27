// The allocation tracker of kernel replay: which device memory the application holds, so that a
// replay snapshot can copy it aside. Switched on only when a tool configures the replay service;
// fed by the allocation wrappers (interpose_memory.cpp) on the allocating thread. Every function
// is thread-safe.
#pragma once

#include "dispatch/backend.hpp"

#include "cuda/replay/shadow_plan.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda
{
// Device ordinal of allocations that migrate (managed memory): part of every device's snapshot.
constexpr int any_device = -1;

// Starts tracking (idempotent). Allocations made before are not known (module globals are: see
// track_module_global).
void enable_allocation_tracking();

// True once tracking is on (a relaxed load).
bool tracking_enabled();

// Called by the allocation wrappers after the driver succeeded, on the allocating thread. `ctx`:
// the context whose kernels can reach the memory (a cuMemAlloc allocation is mapped in its own
// context only); nullptr: every context of the device.
void track_allocation(CUdeviceptr ptr, size_t bytes, int device, CUcontext ctx = nullptr);
void track_free(CUdeviceptr ptr);
void track_vmm_create(CUmemGenericAllocationHandle handle, size_t bytes, int device);
void track_vmm_map(CUdeviceptr ptr, size_t bytes, CUmemGenericAllocationHandle handle);
void track_vmm_unmap(CUdeviceptr ptr, size_t bytes);
void track_vmm_release(CUmemGenericAllocationHandle handle);
// The mappings in [ptr, ptr + bytes) are readable by `device` (cuMemSetAccess was called for them;
// see refresh_mapped_access).
void track_vmm_access(CUdeviceptr ptr, size_t bytes, int device);

// Asks the driver (cuMemGetAccess) whether the mappings of `device`'s memory not yet known to be
// readable by it are now: a mapping is readable only once the application set its access, and a
// kernel that reads it before faults the context, so device_ranges() leaves such mappings out.
// Calls the driver on the calling thread (not under the tracker's lock).
void refresh_mapped_access(int device);

// Devices whose replay snapshots may cover the tracked memory in [ptr, ptr + bytes) (bytes 0: the
// allocation that starts at ptr): its device, or every device for managed memory; empty when
// nothing there is tracked. Frees wait for those devices' replay windows
// (dispatch::memory_release_scope), so that no restore writes into freed memory.
std::vector<int> devices_covering(CUdeviceptr ptr, size_t bytes = 0);

// Devices of the tracked globals of `module` (a CUmodule or CUlibrary), for its unload.
std::vector<int> module_devices(const void* module);

// Module globals (`__device__` variables) as the runtime resolves them (cuModuleGetGlobal,
// cuLibraryGetGlobal), owned by `module` (a CUmodule or CUlibrary). Remembered even before
// tracking starts (the runtime resolves them when it loads a module, which can come before the
// application's first allocation); part of the snapshots once tracking is on.
void track_module_global(
    CUdeviceptr ptr, size_t bytes, int device, const void* module, CUcontext ctx = nullptr);

struct tracked_global
{
    CUdeviceptr ptr    = 0;
    size_t      bytes  = 0;
    int         device = 0;
    CUcontext   ctx    = nullptr;
};

// Before `module` is unloaded: forgets its globals and returns them, so that a failed unload can
// give them back (track_module_globals).
std::vector<tracked_global> untrack_module(const void* module);
void track_module_globals(const void* module, const std::vector<tracked_global>& globals);

// The tracked allocations of `device` and the managed ones, in address order: what a snapshot of
// that device may copy. Adjacent mappings of physical memory (cuMemMap), as an allocator that
// grows one virtual reservation map by map makes them, are one range; separate allocations are
// never joined, even when they are adjacent.
// With `ctx`, memory only another context's kernels can reach is left out (a kernel reading it
// would fault).
std::vector<address_range> device_ranges(int device, CUcontext ctx = nullptr);

// The managed ranges among device_ranges(): the host may write them with plain stores.
std::vector<address_range> managed_ranges();

// How often the tracked memory changed (allocated, freed, mapped, unmapped, made reachable):
// part of kernel replay's write epoch (write_observer.hpp).
uint64_t tracked_changes();

// Holds the tracker's lock while it lives, so that the tracked allocations cannot change
// meanwhile. Keep it short: the application's allocation calls wait for it.
class tracker_lock
{
public:
    tracker_lock();

    tracker_lock(const tracker_lock&)            = delete;
    tracker_lock& operator=(const tracker_lock&) = delete;

    // Whether a tracked allocation starts at `start` and has `bytes` bytes.
    bool tracked_exactly(uint64_t start, size_t bytes) const;
    // Whether [start, start + bytes) lies inside tracked memory (adjacent allocations count as
    // one); true for an empty range.
    bool inside_tracked(uint64_t start, uint64_t bytes) const;

private:
    std::unique_lock<std::mutex> m_lock;
};

// Why kernel arguments make a launch unreplayable (untracked_memory), or nothing. Each
// 8-byte-aligned word of the argument block that the driver knows as a pointer must point into
// tracked device memory; host-pinned or registered memory never qualifies (unless
// ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY=1). Words inside tracked memory are accepted without asking
// the driver. Calls the driver on the calling thread.
std::optional<dispatch::decline_reason> check_arguments(const dispatch::kernel_arguments& args);
} // namespace rocprofiler::cuda
