#include "cuda/replay/allocation_tracker.hpp"
#include "common/static_object.hpp"
#include "cuda/replay/write_observer.hpp"

#include "common/logging.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/replay/replay_memory_stats.hpp"
#include "registration/shutdown.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <unordered_map>

namespace rocprofiler::cuda
{
namespace
{
struct range
{
    size_t    bytes  = 0;
    int       device = 0;
    bool      mapped = false;   // a mapping of physical memory (cuMemMap)
    bool      access = true;    // readable by the device that holds it (mappings: once confirmed)
    CUcontext ctx    = nullptr; // the only context whose kernels reach it; nullptr: every one
};

struct tracker
{
    std::mutex                                              mutex   = {};
    std::atomic<bool>                                       enabled = false;
    std::map<CUdeviceptr, range>                            live    = {}; // start -> range
    std::unordered_map<CUmemGenericAllocationHandle, range> handles = {}; // VMM physical memory
    // Module globals by owner (CUmodule/CUlibrary), known whether or not tracking is on; in `live`
    // while it is.
    std::unordered_map<const void*, std::map<CUdeviceptr, range>> globals = {};
    // Changes of `live`: memory appeared, disappeared or became reachable (tracked_changes()).
    std::atomic<uint64_t> changes = 0;
};

tracker&
get_tracker()
{
    return common::static_object<tracker, common::reset_order::never>::get();
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

// The globals of `module`, or nullptr. Caller holds the tracker's mutex.
std::map<CUdeviceptr, range>*
globals_of(tracker& trk, const void* module)
{
    auto itr = trk.globals.find(module);
    return itr != trk.globals.end() ? &itr->second : nullptr;
}

void
add_device(std::vector<int>& devices, int device)
{
    if(std::find(devices.begin(), devices.end(), device) == devices.end())
        devices.emplace_back(device);
}
} // namespace

void
enable_allocation_tracking()
{
    auto& trk = get_tracker();
    {
        auto lock = std::lock_guard{trk.mutex};
        if(trk.enabled.exchange(true)) return;
        trk.changes += 1;
        for(const auto& [module, ranges] : trk.globals)
            for(const auto& [ptr, r] : ranges)
                trk.live[ptr] = r;
    }
    // Pooled shadow memory is not freed at exit: the process's exit frees it, and a cuMemFree
    // there would wait for the device (forever, behind a kernel that never ends).
    registration::add_shutdown_hook(print_memory_stats);
    start_write_observer();
    ROCP_LOG(debug) << "[kernel-replay] CUDA allocation tracker enabled";
}

bool
tracking_enabled()
{
    return get_tracker().enabled.load(std::memory_order_relaxed);
}

void
track_allocation(CUdeviceptr ptr, size_t bytes, int device, CUcontext ctx)
{
    if(ptr == 0 || bytes == 0) return;
    auto& trk     = get_tracker();
    auto  lock    = std::lock_guard{trk.mutex};
    trk.live[ptr] = range{bytes, device, false, true, ctx};
    trk.changes += 1;
}

void
track_free(CUdeviceptr ptr)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    trk.live.erase(ptr);
    trk.changes += 1;
}

std::vector<int>
devices_covering(CUdeviceptr ptr, size_t bytes)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = std::vector<int>{};
    if(bytes == 0)
    {
        if(auto itr = trk.live.find(ptr); itr != trk.live.end())
            add_device(out, itr->second.device);
        return out;
    }
    for(auto itr = trk.live.lower_bound(ptr); itr != trk.live.end() && itr->first < ptr + bytes;
        ++itr)
        add_device(out, itr->second.device);
    return out;
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
    trk.live[ptr] = range{bytes, device, true, false};
    trk.changes += 1;
}

void
track_vmm_unmap(CUdeviceptr ptr, size_t bytes)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  itr  = trk.live.lower_bound(ptr);
    while(itr != trk.live.end() && itr->first < ptr + bytes)
        itr = trk.live.erase(itr);
    trk.changes += 1;
}

void
track_vmm_release(CUmemGenericAllocationHandle handle)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    trk.handles.erase(handle);
}

void
track_vmm_access(CUdeviceptr ptr, size_t bytes, int device)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    for(auto itr = trk.live.lower_bound(ptr); itr != trk.live.end() && itr->first < ptr + bytes;
        ++itr)
        if(itr->second.mapped && itr->second.device == device &&
           itr->first + itr->second.bytes <= ptr + bytes)
        {
            itr->second.access = true;
            trk.changes += 1;
        }
}

void
refresh_mapped_access(int device)
{
    auto& trk     = get_tracker();
    auto  pending = std::vector<std::pair<CUdeviceptr, size_t>>{};
    {
        auto lock = std::lock_guard{trk.mutex};
        for(const auto& [start, r] : trk.live)
            if(r.mapped && !r.access && r.device == device) pending.emplace_back(start, r.bytes);
    }
    if(pending.empty()) return;
    const auto* drv = driver();
    if(drv->cuMemGetAccess == nullptr) return;
    auto scope    = internal_call_scope{};
    auto location = CUmemLocation{};
    location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    location.id   = device;
    for(const auto& [start, bytes] : pending)
    {
        auto flags = 0ULL;
        if(drv->cuMemGetAccess(&flags, &location, start) == CUDA_SUCCESS &&
           (flags & CU_MEM_ACCESS_FLAGS_PROT_READ) != 0)
            track_vmm_access(start, bytes, device);
    }
}

void
track_module_global(CUdeviceptr ptr, size_t bytes, int device, const void* module, CUcontext ctx)
{
    if(ptr == 0 || bytes == 0) return;
    auto&      trk           = get_tracker();
    auto       lock          = std::lock_guard{trk.mutex};
    const auto r             = range{bytes, device, false, true, ctx};
    trk.globals[module][ptr] = r;
    if(trk.enabled.load())
    {
        trk.live[ptr] = r;
        trk.changes += 1;
    }
}

std::vector<int>
module_devices(const void* module)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = std::vector<int>{};
    if(const auto* globals = globals_of(trk, module))
        for(const auto& [ptr, r] : *globals)
            add_device(out, r.device);
    return out;
}

std::vector<tracked_global>
untrack_module(const void* module)
{
    auto& trk     = get_tracker();
    auto  lock    = std::lock_guard{trk.mutex};
    auto  out     = std::vector<tracked_global>{};
    auto* globals = globals_of(trk, module);
    if(globals == nullptr) return out;
    for(const auto& [ptr, r] : *globals)
    {
        out.push_back(tracked_global{ptr, r.bytes, r.device, r.ctx});
        if(auto live = trk.live.find(ptr); live != trk.live.end() && live->second.bytes == r.bytes)
            trk.live.erase(live);
    }
    trk.globals.erase(module);
    trk.changes += 1;
    return out;
}

uint64_t
tracked_changes()
{
    return get_tracker().changes.load(std::memory_order_acquire);
}

void
track_module_globals(const void* module, const std::vector<tracked_global>& globals)
{
    for(const auto& g : globals)
        track_module_global(g.ptr, g.bytes, g.device, module, g.ctx);
}

std::optional<dispatch::decline_reason>
check_arguments(const dispatch::kernel_arguments& args)
{
    // Words inside tracked memory need no driver call; the others are asked about.
    auto& trk     = get_tracker();
    auto  unknown = std::vector<std::pair<size_t, uint64_t>>{}; // (offset, word)
    {
        auto        lock  = std::lock_guard{trk.mutex};
        const auto* bytes = static_cast<const std::byte*>(args.data);
        for(size_t offset = 0; bytes != nullptr && offset + sizeof(uint64_t) <= args.size;
            offset += sizeof(uint64_t))
        {
            auto word = uint64_t{0};
            std::memcpy(&word, bytes + offset, sizeof(word));
            if(word < 0x10000) continue; // small integers, flags, null
            if(find_range(trk, static_cast<CUdeviceptr>(word)) == nullptr)
                unknown.emplace_back(offset, word);
        }
    }
    if(unknown.empty()) return std::nullopt;
    const auto* drv        = driver();
    const bool  allow_host = settings::allow_host_memory();
    auto        scope      = internal_call_scope{};
    for(auto [offset, word] : unknown)
    {
        auto type = 0u;
        if(drv->cuPointerGetAttribute(&type,
                                      CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      static_cast<CUdeviceptr>(word)) != CUDA_SUCCESS)
            continue; // not memory the driver knows: a value, or pageable host memory
        if(type == CU_MEMORYTYPE_HOST && allow_host) continue;
        // Host memory, or device memory not tracked. Which word, and the driver's allocation
        // around it, at debug level: what a user (or we) need to tell a real pointer from a value
        // that happens to fall into memory.
        if(common::log::enabled(common::log::level::debug))
        {
            auto start = CUdeviceptr{0};
            auto size  = size_t{0};
            (void)drv->cuPointerGetAttribute(
                &start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, static_cast<CUdeviceptr>(word));
            (void)drv->cuPointerGetAttribute(
                &size, CU_POINTER_ATTRIBUTE_RANGE_SIZE, static_cast<CUdeviceptr>(word));
            ROCP_LOG(debug) << "cuda: kernel argument word at offset " << offset << " of "
                            << args.size << " bytes, 0x" << std::hex << word << ", is "
                            << (type == CU_MEMORYTYPE_HOST ? "host" : "device")
                            << " memory the allocation tracker does not track (driver range 0x"
                            << start << std::dec << ", " << size
                            << " bytes): replay declined (untracked_memory)";
        }
        return dispatch::decline_reason::untracked_memory;
    }
    return std::nullopt;
}

std::vector<address_range>
managed_ranges()
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = std::vector<address_range>{};
    for(const auto& [start, r] : trk.live)
        if(r.device == any_device) out.push_back(address_range{start, r.bytes});
    return out;
}

std::vector<address_range>
device_ranges(int device, CUcontext ctx)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = std::vector<address_range>{};
    out.reserve(trk.live.size());
    auto last_mapped = false;
    for(const auto& [start, r] : trk.live)
    {
        if((r.device != device && r.device != any_device) || !r.access) continue;
        if(ctx != nullptr && r.ctx != nullptr && r.ctx != ctx) continue;
        if(r.mapped && last_mapped && out.back().start + out.back().bytes == start)
            out.back().bytes += r.bytes;
        else
            out.push_back(address_range{start, r.bytes});
        last_mapped = r.mapped;
    }
    return out;
}

tracker_lock::tracker_lock()
    : m_lock{get_tracker().mutex}
{
}

bool
tracker_lock::tracked_exactly(uint64_t start, size_t bytes) const
{
    const auto& trk = get_tracker();
    auto        itr = trk.live.find(static_cast<CUdeviceptr>(start));
    return itr != trk.live.end() && itr->second.bytes == bytes;
}

bool
tracker_lock::inside_tracked(uint64_t start, uint64_t bytes) const
{
    const auto& trk = get_tracker();
    auto        at  = static_cast<CUdeviceptr>(start);
    const auto  end = static_cast<CUdeviceptr>(start + bytes);
    while(at < end)
    {
        const auto* found = find_range(trk, at);
        if(found == nullptr) return false;
        at = found->first + found->second.bytes;
    }
    return true;
}
} // namespace rocprofiler::cuda
