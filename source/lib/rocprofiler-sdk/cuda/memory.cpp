#include "cuda/memory.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/driver.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace rocprofiler::cuda
{
namespace
{
std::mutex&
stats_mutex()
{
    static auto* value = new std::mutex{};
    return *value;
}

replay_memory_stats&
stats_value()
{
    static auto* value = new replay_memory_stats{};
    return *value;
}

struct range
{
    size_t bytes  = 0;
    int    device = 0;
};

struct tracker
{
    std::mutex                                              mutex   = {};
    std::atomic<bool>                                       enabled = false;
    std::map<CUdeviceptr, range>                            live    = {}; // start -> range
    std::unordered_map<CUmemGenericAllocationHandle, range> handles = {}; // VMM physical memory
};

tracker&
get_tracker()
{
    static auto* value = new tracker{}; // never destroyed: frees can happen at exit
    return *value;
}

bool
env_flag(const char* name)
{
    const char* value = std::getenv(name);
    return value != nullptr && std::string_view{value} == "1";
}

// ROCPROFILER_REPLAY_SHADOW: "device" or "host" forces where shadows go; default "auto".
std::string_view
shadow_policy()
{
    const char* value = std::getenv("ROCPROFILER_REPLAY_SHADOW");
    if(value == nullptr || *value == '\0') return "auto";
    return value;
}

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

// The SDK's own stream of a context: restores and snapshots never queue behind application work.
CUstream
private_stream(CUcontext ctx)
{
    static std::mutex mutex;
    static auto*      streams = new std::unordered_map<CUcontext, CUstream>{};
    auto              lock    = std::lock_guard{mutex};
    auto&             slot    = (*streams)[ctx];
    if(slot == nullptr)
    {
        auto scope = internal_call_scope{};
        if(driver()->cuStreamCreate(&slot, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS) slot = nullptr;
    }
    return slot;
}

constexpr size_t shadow_alignment = 256;

size_t
align_up(size_t value)
{
    return (value + shadow_alignment - 1) / shadow_alignment * shadow_alignment;
}

// The tracked range containing ptr, if any. Caller holds the tracker's mutex.
const std::pair<const CUdeviceptr, range>*
find_range(const tracker& trk, CUdeviceptr ptr)
{
    auto itr = trk.live.upper_bound(ptr);
    if(itr == trk.live.begin()) return nullptr;
    --itr;
    if(ptr >= itr->first && ptr < itr->first + itr->second.bytes) return &*itr;
    return nullptr;
}
} // namespace

void
enable_allocation_tracking()
{
    auto& trk = get_tracker();
    if(trk.enabled.exchange(true)) return;
    ROCP_LOG(debug) << "[kernel-replay] CUDA allocation tracker enabled";
}

bool
tracking_enabled()
{
    return get_tracker().enabled.load(std::memory_order_relaxed);
}

void
track_allocation(CUdeviceptr ptr, size_t bytes, int device)
{
    if(ptr == 0 || bytes == 0) return;
    auto& trk     = get_tracker();
    auto  lock    = std::lock_guard{trk.mutex};
    trk.live[ptr] = range{bytes, device};
}

void
track_free(CUdeviceptr ptr)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    trk.live.erase(ptr);
}

void
track_vmm_create(CUmemGenericAllocationHandle handle, size_t bytes, int device)
{
    auto& trk           = get_tracker();
    auto  lock          = std::lock_guard{trk.mutex};
    trk.handles[handle] = range{bytes, device};
}

void
track_vmm_map(CUdeviceptr ptr, size_t bytes, CUmemGenericAllocationHandle handle)
{
    auto& trk    = get_tracker();
    auto  lock   = std::lock_guard{trk.mutex};
    auto  device = 0;
    if(auto itr = trk.handles.find(handle); itr != trk.handles.end())
        device = itr->second.device;
    else
        return; // physical memory created before tracking started: untracked
    trk.live[ptr] = range{bytes, device};
}

void
track_vmm_unmap(CUdeviceptr ptr, size_t bytes)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  itr  = trk.live.lower_bound(ptr);
    while(itr != trk.live.end() && itr->first < ptr + bytes)
        itr = trk.live.erase(itr);
}

void
track_vmm_release(CUmemGenericAllocationHandle handle)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    trk.handles.erase(handle);
}

tracked_footprint
tracked(int device)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = tracked_footprint{};
    for(const auto& [start, r] : trk.live)
    {
        if(device != any_device && r.device != device && r.device != any_device) continue;
        ++out.allocations;
        out.bytes += r.bytes;
    }
    return out;
}

std::optional<std::string>
check_arguments(const std::vector<std::byte>& args)
{
    const auto* drv        = driver();
    const bool  allow_host = env_flag("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY");
    auto        scope      = internal_call_scope{};
    auto&       trk        = get_tracker();
    for(size_t offset = 0; offset + sizeof(uint64_t) <= args.size(); offset += sizeof(uint64_t))
    {
        auto word = uint64_t{0};
        std::memcpy(&word, args.data() + offset, sizeof(word));
        if(word < 0x10000) continue; // small integers, flags, null
        auto type = 0u;
        if(drv->cuPointerGetAttribute(&type,
                                      CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      static_cast<CUdeviceptr>(word)) != CUDA_SUCCESS)
            continue; // not memory the driver knows: a value, or pageable host memory
        if(type == CU_MEMORYTYPE_HOST)
        {
            if(allow_host) continue;
            return std::string{"untracked_memory"};
        }
        auto lock = std::lock_guard{trk.mutex};
        if(find_range(trk, static_cast<CUdeviceptr>(word)) == nullptr)
            return std::string{"untracked_memory"};
    }
    return std::nullopt;
}

bool
launch_memory::drain(uint64_t timeout_ns)
{
    // cuCtxSynchronize cannot time out, so it runs on a helper thread that the window stops
    // waiting for after timeout_ns; a stuck helper is left behind and finishes when the device
    // does.
    struct state
    {
        std::mutex              mutex  = {};
        std::condition_variable cv     = {};
        bool                    done   = false;
        CUresult                result = CUDA_SUCCESS;
    };
    auto st     = std::make_shared<state>();
    auto ctx    = m_ctx;
    auto helper = std::thread{[st, ctx]
                              {
                                  auto        scope  = internal_call_scope{};
                                  const auto* drv    = driver();
                                  CUresult    result = drv->cuCtxSetCurrent(ctx);
                                  if(result == CUDA_SUCCESS) result = drv->cuCtxSynchronize();
                                  auto lock  = std::lock_guard{st->mutex};
                                  st->done   = true;
                                  st->result = result;
                                  st->cv.notify_all();
                              }};
    auto lock   = std::unique_lock{st->mutex};
    if(!st->cv.wait_for(lock, std::chrono::nanoseconds{timeout_ns}, [&st] { return st->done; }))
    {
        lock.unlock();
        helper.detach();
        return false;
    }
    lock.unlock();
    helper.join();
    if(st->result != CUDA_SUCCESS)
        ROCP_LOG(warning) << "[kernel-replay] cuCtxSynchronize before the snapshot returned "
                          << error_name(st->result);
    return true;
}

std::optional<std::string>
launch_memory::snapshot(const void*, size_t)
{
    release();
    auto& trk = get_tracker();
    if(!trk.enabled.load()) return std::string{"untracked_memory"};
    if(m_args != nullptr)
        if(auto reason = check_arguments(*m_args)) return reason;

    const auto* drv   = driver();
    auto        scope = internal_call_scope{};
    auto        total = size_t{0};
    {
        auto lock = std::lock_guard{trk.mutex};
        for(const auto& [start, r] : trk.live)
        {
            if(r.device != m_device && r.device != any_device) continue;
            m_shadows.push_back(shadow{start, r.bytes, total});
            total += align_up(r.bytes);
        }
    }
    if(m_shadows.empty()) return std::nullopt;

    auto stream = private_stream(m_ctx);
    if(stream == nullptr)
    {
        m_shadows.clear();
        return std::string{"snapshot_failed"};
    }

    const auto policy  = shadow_policy();
    auto       free_b  = size_t{0};
    auto       total_b = size_t{0};
    if(drv->cuMemGetInfo_v2(&free_b, &total_b) != CUDA_SUCCESS) free_b = 0;
    const bool device_fits = free_b >= total && free_b - total >= device_reserve(total_b);
    if(policy != "host" && device_fits &&
       drv->cuMemAlloc_v2(&m_device_block, total) == CUDA_SUCCESS)
    {
        m_host = false;
        for(const auto& s : m_shadows)
            if(drv->cuMemcpyDtoDAsync_v2(m_device_block + s.offset, s.start, s.bytes, stream) !=
               CUDA_SUCCESS)
            {
                release();
                return std::string{"snapshot_failed"};
            }
    }
    else if(policy != "device" && total <= host_budget() &&
            drv->cuMemHostAlloc(&m_host_block, total, 0) == CUDA_SUCCESS)
    {
        m_host = true;
        for(const auto& s : m_shadows)
            if(drv->cuMemcpyDtoHAsync_v2(
                   static_cast<std::byte*>(m_host_block) + s.offset, s.start, s.bytes, stream) !=
               CUDA_SUCCESS)
            {
                release();
                return std::string{"snapshot_failed"};
            }
    }
    else
    {
        m_shadows.clear();
        return std::string{"footprint_budget"};
    }
    if(auto result = drv->cuStreamSynchronize(stream); result != CUDA_SUCCESS)
    {
        ROCP_LOG(error) << "[kernel-replay] snapshot copy failed: " << error_name(result);
        release();
        return std::string{"snapshot_failed"};
    }
    m_window = true;
    {
        auto lock                        = std::lock_guard{stats_mutex()};
        stats_value().max_snapshot_bytes = std::max(stats_value().max_snapshot_bytes, total);
    }
    ROCP_LOG(debug) << "[kernel-replay] snapshot of " << m_shadows.size() << " allocations, "
                    << total << " bytes, in " << shadow_kind() << " memory";
    return std::nullopt;
}

bool
launch_memory::restore()
{
    if(m_shadows.empty()) return true;
    const auto  started = common::timestamp_ns();
    const auto* drv     = driver();
    auto        scope   = internal_call_scope{};
    auto        stream  = private_stream(m_ctx);
    auto&       trk     = get_tracker();
    {
        auto lock = std::lock_guard{trk.mutex};
        for(const auto& s : m_shadows)
        {
            // An allocation freed (or remapped) during the window is not written back.
            auto itr = trk.live.find(s.start);
            if(itr == trk.live.end() || itr->second.bytes != s.bytes) continue;
            auto result = m_host ? drv->cuMemcpyHtoDAsync_v2(
                                       s.start,
                                       static_cast<const std::byte*>(m_host_block) + s.offset,
                                       s.bytes,
                                       stream)
                                 : drv->cuMemcpyDtoDAsync_v2(
                                       s.start, m_device_block + s.offset, s.bytes, stream);
            if(result != CUDA_SUCCESS)
            {
                ROCP_LOG(error) << "[kernel-replay] restore copy failed: " << error_name(result);
                return false;
            }
        }
    }
    if(auto result = drv->cuStreamSynchronize(stream); result != CUDA_SUCCESS)
    {
        ROCP_LOG(error) << "[kernel-replay] restore failed: " << error_name(result);
        return false;
    }
    const auto took = common::timestamp_ns() - started;
    auto       lock = std::lock_guard{stats_mutex()};
    auto&      st   = stats_value();
    st.restores += 1;
    st.restore_total_ns += took;
    st.restore_max_ns = std::max(st.restore_max_ns, took);
    return true;
}

replay_memory_stats
memory_stats()
{
    auto lock = std::lock_guard{stats_mutex()};
    return stats_value();
}

void
launch_memory::release()
{
    const auto* drv   = driver(false);
    auto        scope = internal_call_scope{};
    if(drv != nullptr && m_device_block != 0) drv->cuMemFree_v2(m_device_block);
    if(drv != nullptr && m_host_block != nullptr) drv->cuMemFreeHost(m_host_block);
    m_device_block = 0;
    m_host_block   = nullptr;
    m_window       = false;
    m_shadows.clear();
}
} // namespace rocprofiler::cuda
