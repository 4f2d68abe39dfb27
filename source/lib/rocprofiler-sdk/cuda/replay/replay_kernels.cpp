#include "cuda/replay/replay_kernels.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "cuda/interpose/driver.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <unordered_map>

namespace rocprofiler::cuda
{
namespace
{
constexpr const char* kernels_ptx =
#include "cuda/replay/replay_kernels_ptx.inc"
    ;

constexpr size_t scratch_granule   = size_t{1} << 20;
constexpr int    max_blocks_per_sm = 4; // resident blocks the grid asks for per multiprocessor

// The kernels and scratch memory of one context. Never destroyed (an entry outlives its context;
// the device scratch's buffer id tells whether the context still holds what was loaded).
struct context_kernels
{
    std::mutex mutex    = {};
    bool       loaded   = false;
    bool       failed   = false; // loading failed: not tried again for this context
    CUmodule   module   = nullptr;
    CUfunction hash     = nullptr;
    CUfunction compare  = nullptr;
    int        sm_count = 1;
    // Blocks of each kernel resident at once: the grid never has blocks waiting for a slot (they
    // would start after the others finished their equal share, doubling the time).
    unsigned           hash_grid    = 1;
    unsigned           compare_grid = 1;
    CUdeviceptr        device       = 0; // descriptors, then the output
    size_t             dev_bytes    = 0;
    unsigned long long buffer_id    = 0;
    void*              host         = nullptr; // pinned: the same layout
    size_t             host_bytes   = 0;
};

context_kernels&
kernels_of(CUcontext ctx)
{
    static std::mutex mutex;
    struct table_tag;
    static auto* table = &common::static_object<std::unordered_map<CUcontext, context_kernels*>,
                                                common::reset_order::never,
                                                table_tag>::get();
    auto         lock  = std::lock_guard{mutex};
    auto*&       slot  = (*table)[ctx];
    if(slot == nullptr) slot = new context_kernels{};
    return *slot;
}

bool
check(CUresult result, const char* what)
{
    if(result == CUDA_SUCCESS) return true;
    ROCP_LOG(warning) << "[kernel-replay] " << what << " returned " << error_name(result);
    return false;
}

// Whether what was loaded for the context is still there: a context reset frees it all (the
// scratch block's buffer id changes or is gone); then it is loaded again.
bool
still_loaded(const context_kernels& k)
{
    if(!k.loaded || k.device == 0) return k.loaded;
    auto id = 0ULL;
    return driver()->cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, k.device) ==
               CUDA_SUCCESS &&
           id == k.buffer_id;
}

bool
load(context_kernels& k)
{
    if(still_loaded(k)) return true;
    if(k.loaded)
    {
        // The context was reset: its module and scratch memory went with it.
        ROCP_LOG(debug) << "[kernel-replay] the replay kernels are loaded again (context reset)";
        k.loaded     = false;
        k.module     = nullptr;
        k.hash       = nullptr;
        k.compare    = nullptr;
        k.device     = 0;
        k.dev_bytes  = 0;
        k.buffer_id  = 0;
        k.host       = nullptr; // pinned memory of the context: freed with it
        k.host_bytes = 0;
    }
    if(k.failed) return false;
    const auto* drv = driver();
    auto        dev = CUdevice{};
    auto        sms = 0;
    const bool  ok =
        check(drv->cuModuleLoadData(&k.module, kernels_ptx), "cuModuleLoadData") &&
        check(drv->cuModuleGetFunction(&k.hash, k.module, "rocp_replay_hash"),
              "cuModuleGetFunction") &&
        check(drv->cuModuleGetFunction(&k.compare, k.module, "rocp_replay_compare"),
              "cuModuleGetFunction") &&
        check(drv->cuCtxGetDevice(&dev), "cuCtxGetDevice") &&
        check(drv->cuDeviceGetAttribute(&sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, dev),
              "cuDeviceGetAttribute");
    if(!ok)
    {
        k.failed = true;
        common::log::warn_once("cuda-replay-kernels",
                               "cuda: the replay hash/compare kernels could not be loaded; "
                               "replays that need them are declined (verification_failed)");
        return false;
    }
    k.sm_count      = std::max(sms, 1);
    const auto grid = [&](CUfunction fn)
    {
        auto blocks = 0;
        if(drv->cuOccupancyMaxActiveBlocksPerMultiprocessor == nullptr ||
           drv->cuOccupancyMaxActiveBlocksPerMultiprocessor(
               &blocks, fn, static_cast<int>(replay_pieces::block_threads), 0) != CUDA_SUCCESS)
            blocks = 1;
        return static_cast<unsigned>(std::clamp(blocks, 1, max_blocks_per_sm) * k.sm_count);
    };
    k.hash_grid    = grid(k.hash);
    k.compare_grid = grid(k.compare);
    k.loaded       = true;
    return true;
}

// Scratch of at least `bytes` on the device and in pinned host memory. The caller waited for
// the last use of the old blocks.
bool
reserve(context_kernels& k, size_t bytes)
{
    const auto* drv  = driver();
    const auto  want = (bytes + scratch_granule - 1) / scratch_granule * scratch_granule;
    if(k.dev_bytes < bytes)
    {
        if(k.device != 0) drv->cuMemFree_v2(k.device);
        k.device    = 0;
        k.dev_bytes = 0;
        auto id     = 0ULL;
        if(!check(drv->cuMemAlloc_v2(&k.device, want), "cuMemAlloc (replay scratch)")) return false;
        if(drv->cuPointerGetAttribute(&id, CU_POINTER_ATTRIBUTE_BUFFER_ID, k.device) !=
           CUDA_SUCCESS)
        {
            drv->cuMemFree_v2(k.device);
            k.device = 0;
            return false;
        }
        k.dev_bytes = want;
        k.buffer_id = id;
    }
    if(k.host_bytes < bytes)
    {
        if(k.host != nullptr) drv->cuMemFreeHost(k.host);
        k.host       = nullptr;
        k.host_bytes = 0;
        if(!check(drv->cuMemHostAlloc(&k.host, want, 0), "cuMemHostAlloc (replay scratch)"))
            return false;
        k.host_bytes = want;
    }
    return true;
}

// One round trip: descriptors and `init` up, `fn` over the plan, the output down, one wait.
bool
run(CUcontext                       ctx,
    CUstream                        stream,
    const replay_pieces::work_plan& plan,
    uint64_t                        piece_bytes,
    bool                            compare,
    std::vector<uint64_t>&          out)
{
    const auto entries = static_cast<size_t>(plan.pieces) * (compare ? 3 : 1);
    out.assign(entries, 0);
    if(compare)
        std::fill(out.begin(), out.begin() + static_cast<std::ptrdiff_t>(plan.pieces), ~0ULL);
    if(plan.units == 0 || plan.descs.empty()) return true; // nothing to read
    if(plan.descs.size() > UINT32_MAX) return false;

    auto& k    = kernels_of(ctx);
    auto  lock = std::lock_guard{k.mutex};
    if(!load(k)) return false;
    const auto desc_bytes = plan.descs.size() * sizeof(replay_pieces::range_desc);
    const auto out_offset = (desc_bytes + 255) / 256 * 256;
    const auto out_bytes  = entries * sizeof(uint64_t);
    if(!reserve(k, out_offset + out_bytes)) return false;

    auto* host = static_cast<std::byte*>(k.host);
    std::memcpy(host, plan.descs.data(), desc_bytes);
    std::memcpy(host + out_offset, out.data(), out_bytes);

    const auto* drv            = driver();
    auto        ranges         = k.device;
    auto        count          = static_cast<uint32_t>(plan.descs.size());
    auto        units          = static_cast<unsigned long long>(plan.units);
    auto        piece          = static_cast<unsigned long long>(piece_bytes);
    auto        per_piece      = plan.unit_chunks;
    auto        output         = k.device + out_offset;
    auto        pieces         = static_cast<unsigned long long>(plan.pieces);
    void*       hash_args[]    = {&ranges, &count, &units, &piece, &per_piece, &output};
    void*       compare_args[] = {&ranges, &count, &units, &piece, &per_piece, &output, &pieces};
    const auto  grid           = static_cast<unsigned>(
        std::min<uint64_t>(plan.units, compare ? k.compare_grid : k.hash_grid));
    const bool ok =
        check(drv->cuMemcpyHtoDAsync_v2(k.device, host, out_offset + out_bytes, stream),
              "cuMemcpyHtoDAsync (replay descriptors)") &&
        check(drv->cuLaunchKernel(compare ? k.compare : k.hash,
                                  grid,
                                  1,
                                  1,
                                  replay_pieces::block_threads,
                                  1,
                                  1,
                                  0,
                                  stream,
                                  compare ? compare_args : hash_args,
                                  nullptr),
              compare ? "cuLaunchKernel (replay compare)" : "cuLaunchKernel (replay hash)") &&
        check(drv->cuMemcpyDtoHAsync_v2(host + out_offset, output, out_bytes, stream),
              "cuMemcpyDtoHAsync (replay results)");
    // Waited for even after a failed call: the host buffer may still be read by a queued copy.
    const bool done = check(drv->cuStreamSynchronize(stream), "cuStreamSynchronize (replay)");
    if(!ok || !done) return false;
    std::memcpy(out.data(), host + out_offset, out_bytes);
    return true;
}
} // namespace

bool
run_hash_kernel(CUcontext                       ctx,
                CUstream                        stream,
                const replay_pieces::work_plan& plan,
                uint64_t                        piece_bytes,
                std::vector<uint64_t>&          sums)
{
    return run(ctx, stream, plan, piece_bytes, false, sums);
}

bool
run_compare_kernel(CUcontext                       ctx,
                   CUstream                        stream,
                   const replay_pieces::work_plan& plan,
                   uint64_t                        piece_bytes,
                   std::vector<uint64_t>&          out)
{
    return run(ctx, stream, plan, piece_bytes, true, out);
}
} // namespace rocprofiler::cuda
