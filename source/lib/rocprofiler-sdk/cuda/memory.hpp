// Kernel replay's view of CUDA device memory: an allocation tracker that is switched on only when
// a tool configures the replay service, and a per-launch memory backend that drains the launch's
// context, snapshots the tracked allocations of its device into device shadow memory (pinned host
// memory as the fallback) and restores them between passes.
//
// Per-dispatch costs are kept off the replay window where possible: the drain's
// cuCtxSynchronize runs on a persistent worker thread per context (not a thread per drain), shadow
// blocks come from a pool per context that grows and is reused (not cuMemAlloc/cuMemFree per
// dispatch), and when the launch's stream is known the snapshot and restore copies are queued on
// it ahead of the pass instead of being waited for on the host.
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

// Starts tracking (idempotent). Allocations made before are not known (module globals are: see
// track_module_global).
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

// Devices whose replay snapshots may cover the tracked memory in [ptr, ptr + bytes) (bytes 0: the
// allocation that starts at ptr): its device, or every device for managed memory; empty when
// nothing there is tracked. Frees wait for those devices' replay windows
// (kernel_replay::memory_release_guard), so that no restore writes into freed memory.
std::vector<int> devices_covering(CUdeviceptr ptr, size_t bytes = 0);

// Devices of the tracked globals of `module` (a CUmodule or CUlibrary), for its unload.
std::vector<int> module_devices(const void* module);

// Module globals (`__device__` variables) as the runtime resolves them (cuModuleGetGlobal,
// cuLibraryGetGlobal), owned by `module` (a CUmodule or CUlibrary). Remembered even before
// tracking starts (the runtime resolves them when it loads a module, which can come before the
// application's first allocation); part of the snapshots once tracking is on.
void track_module_global(CUdeviceptr ptr, size_t bytes, int device, const void* module);

struct tracked_global
{
    CUdeviceptr ptr    = 0;
    size_t      bytes  = 0;
    int         device = 0;
};

// Before `module` is unloaded: forgets its globals and returns them, so that a failed unload can
// give them back (track_module_globals).
std::vector<tracked_global> untrack_module(const void* module);
void track_module_globals(const void* module, const std::vector<tracked_global>& globals);

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
// ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY=1). Words inside tracked memory are accepted without asking
// the driver.
std::optional<std::string> check_arguments(const std::vector<std::byte>& args);

// An allocation of the application failed for lack of device memory: frees the shadow memory kept
// (idle) for replay windows of the current context. True when something was freed (retry then).
bool release_idle_shadow_memory();

struct context_pool; // shadow blocks and events kept per context (memory.cpp)

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

    // The stream every pass of the launch goes to (its effective stream: CU_STREAM_PER_THREAD for
    // the per-thread default stream). When set, snapshot and restore copies are queued on it ahead
    // of the next pass, which stream order starts only after them, and the host does not wait for
    // them; otherwise they run on the SDK's own stream and are waited for.
    void set_launch_stream(CUstream stream)
    {
        m_stream       = stream;
        m_stream_known = true;
    }

    bool                       drain(uint64_t timeout_ns) override;
    std::optional<std::string> snapshot(const void* kernel_args, size_t args_size) override;
    bool                       restore() override;
    void                       release() override;

    // Where the last snapshot went ("device", "host").
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

    void drop(); // gives the shadow block back, without statistics
    bool copy_shadows(bool to_shadow, CUstream stream);
    void finish_restore_timing(); // the GPU time of the last stream-ordered restore

    CUcontext                     m_ctx             = nullptr;
    int                           m_device          = 0;
    const std::vector<std::byte>* m_args            = nullptr;
    CUstream                      m_stream          = nullptr;
    bool                          m_stream_known    = false;
    std::vector<shadow>           m_shadows         = {};
    context_pool*                 m_pool            = nullptr;
    CUdeviceptr                   m_device_block    = 0;
    void*                         m_host_block      = nullptr;
    bool                          m_pooled          = false; // the block is the pool's
    bool                          m_host            = false;
    bool                          m_window          = false;
    bool                          m_events          = false; // the pool's restore events held
    bool                          m_restore_pending = false; // restore events recorded, unread
    uint64_t                      m_pending_host_ns = 0;
    uint64_t                      m_window_start_ns = 0;
    CUresult                      m_drain_result    = CUDA_SUCCESS;
};

// Replay memory statistics for ROCPROFILER_CUDA_TIMING_STATS: the largest snapshot (bytes), and the
// restores (count, total and largest time, ns). A restore waited for on the host is host-timed; a
// stream-ordered one (the host does not wait) is timed by events around its copies on the stream.
struct replay_memory_stats
{
    size_t   max_snapshot_bytes = 0;
    uint64_t restores           = 0;
    uint64_t restore_total_ns   = 0;
    uint64_t restore_max_ns     = 0;
};

replay_memory_stats memory_stats();
} // namespace rocprofiler::cuda
