// Kernel replay's view of CUDA device memory: an allocation tracker that is switched on only when
// a tool configures the replay service, and a per-launch memory backend that drains the launch's
// context, snapshots the tracked allocations of its device into device shadow memory (pinned host
// memory as the fallback) and restores them between passes.
#pragma once

#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda
{
// Device ordinal of allocations that migrate (managed memory): part of every device's snapshot.
constexpr int any_device = -1;

// Starts tracking (idempotent). Allocations made before are not known.
void enable_allocation_tracking();

// True once tracking is on (a relaxed load).
bool tracking_enabled();

// Called by the allocation wrappers after the driver succeeded, on the allocating thread.
void track_allocation(CUdeviceptr ptr, size_t bytes, int device);
void track_free(CUdeviceptr ptr);
void track_vmm_create(CUmemGenericAllocationHandle handle, size_t bytes, int device);
void track_vmm_map(CUdeviceptr ptr, size_t bytes, CUmemGenericAllocationHandle handle);
void track_vmm_unmap(CUdeviceptr ptr, size_t bytes);
void track_vmm_release(CUmemGenericAllocationHandle handle);

// Number of allocations and bytes tracked now, for one device (any_device: all).
struct tracked_footprint
{
    size_t allocations = 0;
    size_t bytes       = 0;
};

tracked_footprint tracked(int device);

// Why kernel arguments make a launch unreplayable ("untracked_memory"), or nothing. Each
// 8-byte-aligned word of the argument block that the driver knows as a pointer must point into
// tracked device memory; host-pinned or registered memory never qualifies (unless
// ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY=1).
std::optional<std::string> check_arguments(const std::vector<std::byte>& args);

// The memory of one launch's device. Called on the submitting thread, which holds the launch's
// context current, while the replaying dispatch holds the agent's isolation lock exclusively.
class launch_memory final : public dispatch::memory_backend
{
public:
    launch_memory(CUcontext ctx, int device, const std::vector<std::byte>* args)
        : m_ctx{ctx}
        , m_device{device}
        , m_args{args}
    {
    }
    ~launch_memory() override { release(); }

    launch_memory(const launch_memory&)            = delete;
    launch_memory& operator=(const launch_memory&) = delete;

    bool                       drain(uint64_t timeout_ns) override;
    std::optional<std::string> snapshot(const void* kernel_args, size_t args_size) override;
    bool                       restore() override;
    void                       release() override;

    // Where the last snapshot went ("device", "host"), bytes, and the time its copy took.
    const char* shadow_kind() const { return m_host ? "host" : "device"; }

    // True between a successful snapshot and release(): executions are replay passes.
    bool in_window() const { return m_window; }

private:
    struct shadow
    {
        CUdeviceptr start  = 0;
        size_t      bytes  = 0;
        size_t      offset = 0; // into the shadow block
    };

    CUcontext                     m_ctx          = nullptr;
    int                           m_device       = 0;
    const std::vector<std::byte>* m_args         = nullptr;
    std::vector<shadow>           m_shadows      = {};
    CUdeviceptr                   m_device_block = 0;
    void*                         m_host_block   = nullptr;
    bool                          m_host         = false;
    bool                          m_window       = false;
};

// Replay memory statistics for ROCPROFILER_CUDA_TIMING_STATS: the largest snapshot (bytes), and the
// restores (count, total and largest host-side time, ns).
struct replay_memory_stats
{
    size_t   max_snapshot_bytes = 0;
    uint64_t restores           = 0;
    uint64_t restore_total_ns   = 0;
    uint64_t restore_max_ns     = 0;
};

replay_memory_stats memory_stats();
} // namespace rocprofiler::cuda
