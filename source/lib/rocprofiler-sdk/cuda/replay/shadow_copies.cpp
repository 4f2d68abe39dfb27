#include "cuda/replay/shadow_copies.hpp"

#include "common/logging.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/replay/allocation_tracker.hpp"
#include "cuda/replay/replay_memory_stats.hpp"

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>

namespace rocprofiler::cuda
{
namespace
{
std::atomic<bool> batch_broken = false; // a batch failed once: single copies from then on
// A copy over adjacent allocations failed once (or merging is off: the default, because on the
// H200 the driver refuses a copy that spans two cuMemAlloc allocations even when they are adjacent;
// ROCPROFILER_REPLAY_MERGE_ADJACENT=1 tries it, for allocators that carve one reservation).
std::atomic<bool> merge_broken = !settings::merge_adjacent();

// A copy call the driver refused for its arguments (not an error of the context).
bool
refused(CUresult result)
{
    return result == CUDA_ERROR_INVALID_VALUE || result == CUDA_ERROR_NOT_SUPPORTED;
}

bool
is_legacy_stream(CUstream stream)
{
    return stream == nullptr || stream == CU_STREAM_LEGACY;
}

CUdeviceptr
shadow_address(const copy_target& t, size_t offset)
{
    return t.host ? static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(t.host_block) + offset)
                  : t.device_block + offset;
}

// The plan step: which copy calls to make. A restore reads the tracker under its lock and skips
// the ranges no longer inside tracked memory (freed or unmapped during the window); a snapshot
// range is any part of tracked memory, not only a whole allocation.
std::vector<copy_op>
plan(const copy_target& t, const std::vector<shadow_span>& shadows)
{
    const bool merge = !merge_broken.load(std::memory_order_relaxed);
    if(t.to_shadow) return plan_copies(shadows, merge, [](const shadow_span&) { return true; });
    const auto lock = tracker_lock{};
    return plan_copies(shadows,
                       merge,
                       [&lock](const shadow_span& s)
                       { return lock.inside_tracked(s.start, s.bytes); });
}

// The batch step: one call for many copies; stream order holds for the batch as a whole. Nothing
// when no batch was made or the driver refused it (then batches are not tried again, and the
// caller copies one by one: copying the same bytes again is harmless); else the call's result.
std::optional<CUresult>
copy_in_batch(const driver_table& drv, const copy_target& t, const std::vector<copy_op>& ops)
{
    if(!use_batch(ops.size(),
                  settings::batch_min(),
                  is_legacy_stream(t.stream),
                  batch_broken.load(std::memory_order_relaxed)) ||
       drv.cuMemcpyBatchAsync_v2 == nullptr)
        return std::nullopt;
    auto dsts  = std::vector<CUdeviceptr>(ops.size());
    auto srcs  = std::vector<CUdeviceptr>(ops.size());
    auto sizes = std::vector<size_t>(ops.size());
    for(size_t i = 0; i < ops.size(); ++i)
    {
        const auto shadow = shadow_address(t, ops[i].offset);
        dsts[i]           = t.to_shadow ? shadow : ops[i].app;
        srcs[i]           = t.to_shadow ? ops[i].app : shadow;
        sizes[i]          = ops[i].bytes;
    }
    auto attr             = CUmemcpyAttributes{};
    attr.srcAccessOrder   = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
    attr.srcLocHint.type  = CU_MEM_LOCATION_TYPE_DEVICE;
    attr.srcLocHint.id    = t.device;
    attr.dstLocHint       = attr.srcLocHint;
    attr.flags            = 0;
    auto       attr_index = size_t{0};
    const auto result     = drv.cuMemcpyBatchAsync_v2(
        dsts.data(), srcs.data(), sizes.data(), ops.size(), &attr, &attr_index, 1, t.stream);
    if(result == CUDA_SUCCESS)
    {
        update_stats([](auto&, auto& ph) { ph.batches += 1; });
        return result;
    }
    update_stats([](auto&, auto& ph) { ph.batch_failures += 1; });
    if(!refused(result)) return result;
    batch_broken.store(true);
    ROCP_LOG(warning) << "[kernel-replay] cuMemcpyBatchAsync returned " << error_name(result)
                      << "; shadow copies are issued one by one from now on";
    return std::nullopt;
}

CUresult
copy_one(const driver_table& drv, const copy_target& t, uint64_t app, size_t offset, size_t bytes)
{
    if(!t.host)
        return t.to_shadow
                   ? drv.cuMemcpyDtoDAsync_v2(shadow_address(t, offset), app, bytes, t.stream)
                   : drv.cuMemcpyDtoDAsync_v2(app, shadow_address(t, offset), bytes, t.stream);
    auto* host = static_cast<std::byte*>(t.host_block) + offset;
    return t.to_shadow ? drv.cuMemcpyDtoHAsync_v2(host, app, bytes, t.stream)
                       : drv.cuMemcpyHtoDAsync_v2(app, host, bytes, t.stream);
}

// The fallback step: one call per planned copy. A copy over adjacent allocations that the driver
// refuses is made once per allocation, and merging stops for the process.
CUresult
copy_one_by_one(const driver_table&             drv,
                const copy_target&              t,
                const std::vector<copy_op>&     ops,
                const std::vector<shadow_span>& shadows)
{
    auto       calls = size_t{0};
    const auto copy  = [&](uint64_t app, size_t offset, size_t bytes)
    {
        ++calls;
        return copy_one(drv, t, app, offset, bytes);
    };
    auto result = CUDA_SUCCESS;
    for(const auto& o : ops)
    {
        result = copy(o.app, o.offset, o.bytes);
        if(o.count > 1 && refused(result))
        {
            if(!merge_broken.exchange(true))
                ROCP_LOG(warning) << "[kernel-replay] a copy over " << o.count
                                  << " adjacent allocations returned " << error_name(result)
                                  << "; shadow copies are made per allocation from now on";
            result = CUDA_SUCCESS;
            for(size_t i = o.first; i < o.first + o.count && result == CUDA_SUCCESS; ++i)
                result = copy(shadows[i].start, shadows[i].offset, shadows[i].bytes);
        }
        if(result != CUDA_SUCCESS) break;
    }
    update_stats([calls](auto&, auto& ph) { ph.copies += calls; });
    return result;
}
} // namespace

bool
copy_shadows(const copy_target& target, const std::vector<shadow_span>& shadows)
{
    const auto ops = plan(target, shadows);
    if(ops.empty()) return true;
    const auto* drv    = driver();
    auto        result = copy_in_batch(*drv, target, ops);
    if(!result) result = copy_one_by_one(*drv, target, ops, shadows);
    if(*result != CUDA_SUCCESS)
    {
        ROCP_LOG(error) << "[kernel-replay] " << (target.to_shadow ? "snapshot" : "restore")
                        << " copy failed: " << error_name(*result);
        return false;
    }
    return true;
}
} // namespace rocprofiler::cuda
