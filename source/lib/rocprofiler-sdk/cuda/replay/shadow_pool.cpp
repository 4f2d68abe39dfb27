#include "cuda/replay/shadow_pool.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/replay/allocation_tracker.hpp"
#include "cuda/replay/replay_memory_stats.hpp"
#include "cuda/replay/shadow_plan.hpp"

#include <unistd.h>

#include <algorithm>
#include <unordered_map>

namespace rocprofiler::cuda
{
namespace
{
constexpr size_t block_granule = size_t{2} << 20; // pool blocks grow in 2 MiB steps

// Free device memory that shadows must leave to the application: max(1 GiB, 5% of the device).
size_t
device_reserve(size_t total)
{
    return std::max<size_t>(size_t{1} << 30, total / 20);
}

// Pinned host shadows may use at most half of the host memory available now.
size_t
host_budget()
{
    auto pages     = sysconf(_SC_AVPHYS_PAGES);
    auto page_size = sysconf(_SC_PAGESIZE);
    if(pages <= 0 || page_size <= 0) return size_t{1} << 30;
    return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 2;
}

std::optional<unsigned long long>
buffer_id_of(uint64_t address)
{
    auto id = 0ULL;
    if(driver()->cuPointerGetAttribute(
           &id, CU_POINTER_ATTRIBUTE_BUFFER_ID, static_cast<CUdeviceptr>(address)) != CUDA_SUCCESS)
        return std::nullopt;
    return id;
}

// Whether a kept block is still the allocation it was (a context reset frees it behind our back).
bool
still_allocated(const context_pool::block& blk)
{
    auto id = buffer_id_of(blk.address);
    return id && *id == blk.buffer_id;
}

void
free_block(uint64_t address, bool host)
{
    const auto* drv = driver(false);
    if(drv == nullptr || address == 0) return;
    if(host)
        drv->cuMemFreeHost(reinterpret_cast<void*>(address));
    else
        drv->cuMemFree_v2(static_cast<CUdeviceptr>(address));
}
} // namespace

context_pool*
find_pool(CUcontext ctx, bool create)
{
    static std::mutex mutex;
    struct pools_tag;
    static auto* pools = &common::static_object<std::unordered_map<CUcontext, context_pool*>,
                                                common::reset_order::never,
                                                pools_tag>::get();
    auto         lock  = std::lock_guard{mutex};
    auto         itr   = pools->find(ctx);
    if(itr != pools->end()) return itr->second;
    if(!create) return nullptr;
    auto* pool = new context_pool{};
    pools->emplace(ctx, pool);
    return pool;
}

std::optional<uint64_t>
acquire_block(context_pool& pool, size_t total, bool host, bool& pooled)
{
    const auto* drv  = driver();
    auto        lock = std::lock_guard{pool.mutex};
    auto&       blk  = host ? pool.host : pool.device;
    if(!blk.busy && blk.address != 0 && !still_allocated(blk)) blk = {};
    if(!blk.busy && blk.address != 0 && blk.bytes >= total)
    {
        blk.busy = true;
        pooled   = true;
        update_stats([](auto&, auto& ph) { ph.pool_hits += 1; });
        return blk.address;
    }

    // Grow the pool's block (freeing the old one first), or, while it is in use, allocate one for
    // this window alone.
    const auto reclaim = blk.busy ? size_t{0} : blk.bytes;
    auto       avail   = size_t{0};
    auto       floor   = size_t{0};
    if(host)
        avail = host_budget();
    else
    {
        auto free_b = size_t{0}, total_b = size_t{0};
        if(drv->cuMemGetInfo_v2(&free_b, &total_b) != CUDA_SUCCESS) return std::nullopt;
        avail = free_b;
        floor = device_reserve(total_b);
    }
    const auto fits = [&](size_t want) { return avail + reclaim >= want + floor; };
    auto       want = align_up(total, block_granule);
    if(!fits(want)) want = total;
    if(!fits(want)) return std::nullopt;
    if(!blk.busy && blk.address != 0)
    {
        free_block(blk.address, host);
        blk = {};
        update_stats([](auto&, auto& ph) { ph.pool_frees += 1; });
    }
    auto address = uint64_t{0};
    if(host)
    {
        void* ptr = nullptr;
        if(drv->cuMemHostAlloc(&ptr, want, 0) != CUDA_SUCCESS) return std::nullopt;
        address = reinterpret_cast<uint64_t>(ptr);
    }
    else
    {
        auto ptr = CUdeviceptr{};
        if(drv->cuMemAlloc_v2(&ptr, want) != CUDA_SUCCESS) return std::nullopt;
        address = static_cast<uint64_t>(ptr);
    }
    auto id = blk.busy ? std::nullopt : buffer_id_of(address);
    if(!id)
    {
        // In use by another window, or not identifiable later: this window's own block.
        pooled = false;
        update_stats([](auto&, auto& ph) { ph.temp_blocks += 1; });
        return address;
    }
    blk    = context_pool::block{address, want, *id, true};
    pooled = true;
    update_stats([](auto&, auto& ph) { ph.pool_allocs += 1; });
    return address;
}

// The device is idle when a block comes back (the last pass was waited for; a window
// whose pass failed to launch is followed by the next window's drain before reuse).
void
give_back_block(context_pool* pool, uint64_t address, bool host, bool pooled)
{
    if(address == 0) return;
    if(pool == nullptr || !pooled)
    {
        free_block(address, host);
        return;
    }
    auto  lock = std::lock_guard{pool->mutex};
    auto& blk  = host ? pool->host : pool->device;
    if(blk.address != address)
    {
        free_block(address, host);
        return;
    }
    blk.busy = false;
    if(blk.bytes > settings::shadow_pool_retain_bytes())
    {
        free_block(blk.address, host);
        blk = {};
        update_stats([](auto&, auto& ph) { ph.pool_frees += 1; });
    }
}

CUstream
private_stream(CUcontext ctx)
{
    static std::mutex mutex;
    struct streams_tag;
    static auto* streams = &common::static_object<std::unordered_map<CUcontext, CUstream>,
                                                  common::reset_order::never,
                                                  streams_tag>::get();
    auto         lock    = std::lock_guard{mutex};
    auto&        slot    = (*streams)[ctx];
    if(slot == nullptr)
    {
        auto scope = internal_call_scope{};
        if(driver()->cuStreamCreate(&slot, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) slot = nullptr;
    }
    return slot;
}

bool
take_restore_events(context_pool& pool)
{
    auto lock = std::lock_guard{pool.mutex};
    if(pool.events_busy || pool.events_failed) return false;
    const auto* drv = driver();
    if(pool.restore_start == nullptr &&
       (drv->cuEventCreate(&pool.restore_start, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
        drv->cuEventCreate(&pool.restore_end, CU_EVENT_DEFAULT) != CUDA_SUCCESS))
    {
        pool.events_failed = true;
        return false;
    }
    pool.events_busy = true;
    return true;
}

void
give_back_restore_events(context_pool& pool)
{
    auto lock        = std::lock_guard{pool.mutex};
    pool.events_busy = false;
}

bool
release_idle_shadow_memory()
{
    if(!tracking_enabled()) return false;
    const auto* drv = driver(false);
    if(drv == nullptr) return false;
    auto scope = internal_call_scope{};
    auto ctx   = CUcontext{};
    if(drv->cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || ctx == nullptr) return false;
    auto* pool = find_pool(ctx, false);
    if(pool == nullptr) return false;
    auto  lock = std::lock_guard{pool->mutex};
    auto& blk  = pool->device;
    if(blk.busy || blk.address == 0) return false;
    const bool alive = still_allocated(blk);
    if(alive) free_block(blk.address, false);
    blk = {};
    update_stats([](auto&, auto& ph) { ph.pool_frees += 1; });
    ROCP_LOG(debug) << "[kernel-replay] freed the idle shadow pool of a context: the application "
                       "ran out of device memory";
    return alive;
}

} // namespace rocprofiler::cuda
