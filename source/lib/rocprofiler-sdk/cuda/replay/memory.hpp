// Kernel replay's memory backend for one CUDA launch: it drains the launch's context, snapshots the
// tracked allocations of its device (allocation_tracker.hpp) into device shadow memory (pinned host
// memory as the fallback) and restores them between passes. Hashes and comparisons run as device
// kernels (replay_kernels.hpp) in the same stream order as the copies.
//
// Per-dispatch costs are kept off the replay window where possible: the drain's
// cuCtxSynchronize runs on a persistent worker thread per context (not a thread per drain), shadow
// blocks come from a pool per context that grows and is reused (not cuMemAlloc/cuMemFree per
// dispatch), and when the launch's stream is known the snapshot and restore copies are queued on
// it ahead of the pass instead of being waited for on the host.
#pragma once

#include "cuda/replay/replay_memory_stats.hpp"
#include "cuda/replay/shadow_plan.hpp"
#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda
{
struct context_pool; // shadow blocks and events kept per context (shadow_pool.hpp)

// The memory of one launch's device. Called on the submitting thread, which holds the launch's
// context current, while the replaying dispatch holds the agent's isolation lock exclusively.
class launch_memory final : public dispatch::memory_backend
{
public:
    launch_memory(CUcontext ctx, int device)
        : m_ctx{ctx}
        , m_device{device}
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

    bool                                drain(uint64_t timeout_ns) override;
    std::vector<dispatch::memory_range> tracked(bool& tracking) override;
    // Memory the snapshot cannot restore (host-pinned) makes the launch unreplayable.
    std::optional<dispatch::decline_reason>
         check_arguments(const dispatch::kernel_arguments& args) override;
    bool read(uint64_t address, void* out, size_t bytes) override;
    std::optional<dispatch::decline_reason>
         snapshot(const std::vector<dispatch::memory_range>& ranges) override;
    bool restore() override;
    bool compare(uint64_t piece_bytes, std::vector<dispatch::range_change>& out) override;
    bool hash(const std::vector<dispatch::memory_range>& ranges,
              uint64_t                                   piece_bytes,
              std::vector<uint64_t>&                     out) override;
    void release() override;
    std::optional<uint64_t>             write_epoch() override;
    std::vector<dispatch::memory_range> externally_writable() override;

    // Where the last snapshot went ("device", "host").
    const char* shadow_kind() const { return m_host ? "host" : "device"; }

private:
    void drop(); // gives the shadow block back, without statistics
    // Where hash and compare kernels run: the launch stream, or the SDK's own; nothing when the
    // SDK's stream cannot be created.
    std::optional<CUstream> work_stream();
    // Where the snapshot goes: a shadow block of `total` bytes; the decline reason when none.
    std::optional<dispatch::decline_reason> acquire_shadow(size_t total);
    bool                                    copy_shadows(bool to_shadow, CUstream stream);
    void finish_restore_timing(); // the GPU time of the last stream-ordered restore

    CUcontext                m_ctx             = nullptr;
    int                      m_device          = 0;
    CUstream                 m_stream          = nullptr;
    bool                     m_stream_known    = false;
    std::vector<shadow_span> m_shadows         = {};
    context_pool*            m_pool            = nullptr;
    CUdeviceptr              m_device_block    = 0;
    void*                    m_host_block      = nullptr;
    bool                     m_pooled          = false; // the block is the pool's
    bool                     m_host            = false;
    bool                     m_window          = false;
    bool                     m_events          = false; // the pool's restore events held
    bool                     m_restore_pending = false; // restore events recorded, unread
    uint64_t                 m_pending_host_ns = 0;
    uint64_t                 m_window_start_ns = 0;
    CUresult                 m_drain_result    = CUDA_SUCCESS;
};

} // namespace rocprofiler::cuda
