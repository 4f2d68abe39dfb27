// The shadow pool of kernel replay: per CUDA context, one device block and one pinned host block
// kept between replay windows (grown in 2 MiB steps, reused, freed under memory pressure), the
// SDK's own stream, and the two events that time stream-ordered restores. Blocks are handed to
// one window at a time; every function is thread-safe. Calls the driver on the calling thread,
// which holds the context current.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>

namespace rocprofiler::cuda
{
// Shadow blocks and restore events of one context, kept between replay windows. Never destroyed
// (a context's entry outlives the context; blocks are validated by buffer id before reuse).
struct context_pool
{
    struct block
    {
        uint64_t           address   = 0; // CUdeviceptr, or the pinned host pointer
        size_t             bytes     = 0;
        unsigned long long buffer_id = 0; // CU_POINTER_ATTRIBUTE_BUFFER_ID, unique per allocation
        bool               busy      = false;
    };

    std::mutex mutex         = {};
    block      device        = {};
    block      host          = {};
    CUevent    restore_start = nullptr; // statistics only: GPU time of stream-ordered restores
    CUevent    restore_end   = nullptr;
    bool       events_busy   = false;
    bool       events_failed = false;
};

// The pool of a context; nullptr when it has none and `create` is false. Never destroyed.
context_pool* find_pool(CUcontext ctx, bool create);

// A shadow block of at least `total` bytes for the current context (`host`: pinned host memory),
// or nothing when it does not fit the budget (device: max(1 GiB, 5%) stays free; host: half of the
// available memory) or the allocation fails. `pooled` says whether the block is the pool's.
std::optional<uint64_t> acquire_block(context_pool& pool, size_t total, bool host, bool& pooled);

// The end of a window: the block goes back to the pool, or is freed when it is not the pool's or
// is larger than the pool keeps (ROCPROFILER_REPLAY_SHADOW_POOL_MB).
void give_back_block(context_pool* pool, uint64_t address, bool host, bool pooled);

// The pool's two restore events for one window (statistics only), created on first use; false
// when another window holds them or they cannot be created.
bool take_restore_events(context_pool& pool);
void give_back_restore_events(context_pool& pool);

// The SDK's own stream of a context: snapshots and restores that are waited for on the host never
// queue behind application work. nullptr when it cannot be created.
CUstream private_stream(CUcontext ctx);

// An allocation of the application failed for lack of device memory: frees the shadow memory kept
// (idle) for replay windows of the current context. True when something was freed (retry then).
bool release_idle_shadow_memory();
} // namespace rocprofiler::cuda
