#include "cuda/memory.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/driver.hpp"
#include "cuda/settings_driver.hpp"
#include "registration/shutdown.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
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

namespace
{
bool
stats_enabled()
{
    return settings::timing_stats();
}

std::atomic<bool> batch_broken = false; // a batch failed once: single copies from then on
// A copy over adjacent allocations failed once (or merging is off: the default, because on the
// H200 the driver refuses a copy that spans two cuMemAlloc allocations even when they are adjacent;
// ROCPROFILER_REPLAY_MERGE_ADJACENT=1 tries it, for allocators that carve one reservation).
std::atomic<bool> merge_broken = !settings::merge_adjacent();

// --- statistics --------------------------------------------------------------------------------

struct phase
{
    uint64_t count    = 0;
    uint64_t total_ns = 0;
    uint64_t max_ns   = 0;

    void add(uint64_t ns)
    {
        count += 1;
        total_ns += ns;
        max_ns = std::max(max_ns, ns);
    }
    double mean_us() const { return count ? total_ns / 1e3 / count : 0.0; }
};

struct phase_stats
{
    phase    drain          = {};
    phase    snapshot       = {};
    phase    restore_host   = {}; // host time of restore() (enqueue only when stream-ordered)
    phase    restore_gpu    = {}; // event-timed copies of stream-ordered restores
    phase    release        = {};
    phase    window         = {}; // drain start to release end
    uint64_t pool_hits      = 0;
    uint64_t pool_allocs    = 0;
    uint64_t pool_frees     = 0; // blocks freed: over the retain limit, grown, or memory pressure
    uint64_t temp_blocks    = 0; // the pool's block was in use: a block of the window's own
    uint64_t host_shadows   = 0;
    uint64_t stream_ordered = 0; // snapshots queued on the launch stream
    uint64_t host_synced    = 0; // snapshots waited for on the SDK's stream
    uint64_t copies         = 0; // single copy calls
    uint64_t batches        = 0; // cuMemcpyBatchAsync calls
    uint64_t batch_failures = 0;
    uint64_t drain_timeouts = 0;
    uint64_t drain_errors   = 0;
};

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

phase_stats&
phases()
{
    static auto* value = new phase_stats{};
    return *value;
}

template <typename Fn>
void
update_stats(Fn&& fn)
{
    auto lock = std::lock_guard{stats_mutex()};
    fn(stats_value(), phases());
}

// --- the tracker -------------------------------------------------------------------------------

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
    // Module globals by owner (CUmodule/CUlibrary), known whether or not tracking is on; in `live`
    // while it is.
    std::unordered_map<const void*, std::map<CUdeviceptr, range>> globals = {};
};

tracker&
get_tracker()
{
    static auto* value = new tracker{}; // never destroyed: frees can happen at exit
    return *value;
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

// The SDK's own stream of a context: snapshots and restores that are waited for on the host never
// queue behind application work.
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
constexpr size_t block_granule    = size_t{2} << 20; // pool blocks grow in 2 MiB steps

size_t
align_up(size_t value, size_t alignment = shadow_alignment)
{
    return (value + alignment - 1) / alignment * alignment;
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

// --- the shadow pool ---------------------------------------------------------------------------

context_pool*
find_pool(CUcontext ctx, bool create)
{
    static std::mutex mutex;
    static auto*      pools = new std::unordered_map<CUcontext, context_pool*>{};
    auto              lock  = std::lock_guard{mutex};
    auto              itr   = pools->find(ctx);
    if(itr != pools->end()) return itr->second;
    if(!create) return nullptr;
    auto* pool = new context_pool{};
    pools->emplace(ctx, pool);
    return pool;
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

// A shadow block of at least `total` bytes for the current context (`host`: pinned host memory),
// or nothing when it does not fit the budget (device: max(1 GiB, 5%) stays free; host: half of the
// available memory) or the allocation fails. `pooled` says whether the block is the pool's.
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

// The end of a window: the block goes back to the pool, or is freed when it is not the pool's or
// is larger than the pool keeps. The device is idle then (the last pass was waited for; a window
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

// --- drain -------------------------------------------------------------------------------------

void
cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}

// cuCtxSynchronize cannot time out, so it runs on a worker thread of the context that the replay
// window stops waiting for after the timeout. One worker per context lives for the process;
// requests coalesce: a worker still stuck in an earlier synchronize serves the next request when
// it returns (the device had not drained, so that request times out too).
class drain_worker
{
public:
    explicit drain_worker(CUcontext ctx)
        : m_ctx{ctx}
    {
        std::thread{[this] { run(); }}.detach(); // never joined: the worker lives until exit
    }

    // The result of a cuCtxSynchronize that started after this call, or nothing on timeout.
    std::optional<CUresult> synchronize(uint64_t timeout_ns)
    {
        const auto start    = std::chrono::steady_clock::now();
        const auto deadline = start + std::chrono::nanoseconds{timeout_ns};
        auto       gen      = uint64_t{0};
        {
            auto lock = std::lock_guard{m_mutex};
            gen       = m_requested.load(std::memory_order_relaxed) + 1;
            m_requested.store(gen, std::memory_order_release);
        }
        m_wake.notify_one();
        const auto spin_until =
            start +
            std::chrono::nanoseconds{std::min<uint64_t>(timeout_ns, settings::drain_spin_ns())};
        while(m_completed.load(std::memory_order_acquire) < gen &&
              std::chrono::steady_clock::now() < spin_until)
            cpu_relax();
        auto lock = std::unique_lock{m_mutex};
        if(!m_done.wait_until(
               lock, deadline, [&] { return m_completed.load(std::memory_order_acquire) >= gen; }))
            return std::nullopt;
        return m_result;
    }

private:
    void run()
    {
        auto        scope = internal_call_scope{}; // for the thread's life
        const auto* drv   = driver();
        auto        lock  = std::unique_lock{m_mutex};
        for(;;)
        {
            const auto pending = [this]
            {
                return m_requested.load(std::memory_order_acquire) >
                       m_completed.load(std::memory_order_relaxed);
            };
            if(!pending() && settings::drain_worker_spin_ns() > 0)
            {
                lock.unlock();
                const auto until = std::chrono::steady_clock::now() +
                                   std::chrono::nanoseconds{settings::drain_worker_spin_ns()};
                while(!pending() && std::chrono::steady_clock::now() < until)
                    cpu_relax();
                lock.lock();
            }
            m_wake.wait(lock, pending);
            const auto target = m_requested.load(std::memory_order_acquire);
            lock.unlock();
            // Set every time: a handle reused by a new context (after a reset) is resolved anew.
            auto result = drv->cuCtxSetCurrent(m_ctx);
            if(result == CUDA_SUCCESS) result = drv->cuCtxSynchronize();
            lock.lock();
            m_result = result;
            m_completed.store(target, std::memory_order_release);
            m_done.notify_all();
        }
    }

    CUcontext               m_ctx       = nullptr;
    std::mutex              m_mutex     = {};
    std::condition_variable m_wake      = {};
    std::condition_variable m_done      = {};
    std::atomic<uint64_t>   m_requested = 0;
    std::atomic<uint64_t>   m_completed = 0;
    CUresult                m_result    = CUDA_SUCCESS; // of the last completed synchronize
};

drain_worker*
worker_of(CUcontext ctx)
{
    static std::mutex mutex;
    static auto*      workers = new std::unordered_map<CUcontext, drain_worker*>{};
    auto              lock    = std::lock_guard{mutex};
    auto&             slot    = (*workers)[ctx];
    if(slot == nullptr)
    {
        try
        {
            slot = new drain_worker{ctx}; // never destroyed (its thread uses it)
        }
        catch(const std::exception& e)
        {
            common::log::warn_once("kernel-replay:drain-worker",
                                   std::string{"[kernel-replay] cannot start a drain thread: "} +
                                       e.what());
            return nullptr;
        }
    }
    return slot;
}

// --- exit ----------------------------------------------------------------------------------------

void
print_memory_stats()
{
    if(!stats_enabled()) return;
    auto  lock = std::lock_guard{stats_mutex()};
    auto& ph   = phases();
    std::fprintf(stderr,
                 "[cuda-replay-memory] windows=%llu window_us_mean=%.1f drain_us_mean=%.1f "
                 "drain_us_max=%.1f snapshot_us_mean=%.1f snapshot_us_max=%.1f "
                 "restore_host_us_mean=%.1f restore_host_us_max=%.1f restore_gpu_us_mean=%.1f "
                 "restore_gpu_us_max=%.1f restore_gpu_samples=%llu release_us_mean=%.1f "
                 "release_us_max=%.1f stream_ordered=%llu host_synced=%llu pool_hits=%llu "
                 "pool_allocs=%llu pool_frees=%llu temp_blocks=%llu host_shadows=%llu "
                 "copy_calls=%llu batch_calls=%llu batch_failures=%llu drain_timeouts=%llu "
                 "drain_errors=%llu\n",
                 static_cast<unsigned long long>(ph.window.count),
                 ph.window.mean_us(),
                 ph.drain.mean_us(),
                 ph.drain.max_ns / 1e3,
                 ph.snapshot.mean_us(),
                 ph.snapshot.max_ns / 1e3,
                 ph.restore_host.mean_us(),
                 ph.restore_host.max_ns / 1e3,
                 ph.restore_gpu.mean_us(),
                 ph.restore_gpu.max_ns / 1e3,
                 static_cast<unsigned long long>(ph.restore_gpu.count),
                 ph.release.mean_us(),
                 ph.release.max_ns / 1e3,
                 static_cast<unsigned long long>(ph.stream_ordered),
                 static_cast<unsigned long long>(ph.host_synced),
                 static_cast<unsigned long long>(ph.pool_hits),
                 static_cast<unsigned long long>(ph.pool_allocs),
                 static_cast<unsigned long long>(ph.pool_frees),
                 static_cast<unsigned long long>(ph.temp_blocks),
                 static_cast<unsigned long long>(ph.host_shadows),
                 static_cast<unsigned long long>(ph.copies),
                 static_cast<unsigned long long>(ph.batches),
                 static_cast<unsigned long long>(ph.batch_failures),
                 static_cast<unsigned long long>(ph.drain_timeouts),
                 static_cast<unsigned long long>(ph.drain_errors));
}
} // namespace

void
enable_allocation_tracking()
{
    auto& trk = get_tracker();
    {
        auto lock = std::lock_guard{trk.mutex};
        if(trk.enabled.exchange(true)) return;
        for(const auto& [module, ranges] : trk.globals)
            for(const auto& [ptr, r] : ranges)
                trk.live[ptr] = r;
    }
    // Pooled shadow memory is not freed at exit: the process's exit frees it, and a cuMemFree
    // there would wait for the device (forever, behind a kernel that never ends).
    registration::add_shutdown_hook(print_memory_stats);
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

std::vector<int>
devices_covering(CUdeviceptr ptr, size_t bytes)
{
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = std::vector<int>{};
    auto  add  = [&out](int device)
    {
        if(std::find(out.begin(), out.end(), device) == out.end()) out.emplace_back(device);
    };
    if(bytes == 0)
    {
        if(auto itr = trk.live.find(ptr); itr != trk.live.end()) add(itr->second.device);
        return out;
    }
    for(auto itr = trk.live.lower_bound(ptr); itr != trk.live.end() && itr->first < ptr + bytes;
        ++itr)
        add(itr->second.device);
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

void
track_module_global(CUdeviceptr ptr, size_t bytes, int device, const void* module)
{
    if(ptr == 0 || bytes == 0) return;
    auto& trk                = get_tracker();
    auto  lock               = std::lock_guard{trk.mutex};
    trk.globals[module][ptr] = range{bytes, device};
    if(trk.enabled.load()) trk.live[ptr] = range{bytes, device};
}

std::vector<int>
module_devices(const void* module)
{
    auto  out  = std::vector<int>{};
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  itr  = trk.globals.find(module);
    if(itr == trk.globals.end()) return out;
    for(const auto& [ptr, r] : itr->second)
        if(std::find(out.begin(), out.end(), r.device) == out.end()) out.emplace_back(r.device);
    return out;
}

std::vector<tracked_global>
untrack_module(const void* module)
{
    auto  out  = std::vector<tracked_global>{};
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  itr  = trk.globals.find(module);
    if(itr == trk.globals.end()) return out;
    for(const auto& [ptr, r] : itr->second)
    {
        out.push_back(tracked_global{ptr, r.bytes, r.device});
        if(auto live = trk.live.find(ptr); live != trk.live.end() && live->second.bytes == r.bytes)
            trk.live.erase(live);
    }
    trk.globals.erase(itr);
    return out;
}

void
track_module_globals(const void* module, const std::vector<tracked_global>& globals)
{
    for(const auto& g : globals)
        track_module_global(g.ptr, g.bytes, g.device, module);
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
    // Words inside tracked memory need no driver call; the others are asked about.
    auto& trk     = get_tracker();
    auto  unknown = std::vector<uint64_t>{};
    {
        auto lock = std::lock_guard{trk.mutex};
        for(size_t offset = 0; offset + sizeof(uint64_t) <= args.size(); offset += sizeof(uint64_t))
        {
            auto word = uint64_t{0};
            std::memcpy(&word, args.data() + offset, sizeof(word));
            if(word < 0x10000) continue; // small integers, flags, null
            if(find_range(trk, static_cast<CUdeviceptr>(word)) == nullptr) unknown.push_back(word);
        }
    }
    if(unknown.empty()) return std::nullopt;
    const auto* drv        = driver();
    const bool  allow_host = settings::allow_host_memory();
    auto        scope      = internal_call_scope{};
    for(auto word : unknown)
    {
        auto type = 0u;
        if(drv->cuPointerGetAttribute(&type,
                                      CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                      static_cast<CUdeviceptr>(word)) != CUDA_SUCCESS)
            continue; // not memory the driver knows: a value, or pageable host memory
        if(type == CU_MEMORYTYPE_HOST && allow_host) continue;
        return std::string{"untracked_memory"}; // host memory, or device memory not tracked
    }
    return std::nullopt;
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

bool
launch_memory::drain(uint64_t timeout_ns)
{
    m_window_start_ns  = common::timestamp_ns();
    m_drain_result     = CUDA_SUCCESS;
    auto*      worker  = worker_of(m_ctx);
    auto       result  = worker ? worker->synchronize(timeout_ns) : std::optional<CUresult>{};
    const auto took_ns = common::timestamp_ns() - m_window_start_ns;
    update_stats(
        [&](auto&, auto& ph)
        {
            ph.drain.add(took_ns);
            if(!result) ph.drain_timeouts += 1;
            if(result && *result != CUDA_SUCCESS) ph.drain_errors += 1;
        });
    if(!result) return false;
    m_drain_result = *result;
    if(*result != CUDA_SUCCESS)
        ROCP_LOG(warning) << "[kernel-replay] cuCtxSynchronize before the snapshot returned "
                          << error_name(*result);
    return true;
}

bool
launch_memory::copy_shadows(bool to_shadow, CUstream stream)
{
    // Runs of allocations contiguous both in memory and in the shadow block are copied at once
    // (until the driver refuses a copy that spans two allocations: then one copy per allocation
    // from then on). A restore skips allocations freed (or remapped) during the window.
    struct op
    {
        CUdeviceptr app    = 0;
        size_t      offset = 0;
        size_t      bytes  = 0;
        size_t      first  = 0; // its allocations: m_shadows[first .. first + count)
        size_t      count  = 0;
    };
    const bool merge = !merge_broken.load(std::memory_order_relaxed);
    auto       ops   = std::vector<op>{};
    ops.reserve(m_shadows.size());
    {
        auto& trk  = get_tracker();
        auto  lock = std::unique_lock{trk.mutex, std::defer_lock};
        if(!to_shadow) lock.lock();
        for(size_t i = 0; i < m_shadows.size(); ++i)
        {
            const auto& s = m_shadows[i];
            if(!to_shadow)
            {
                auto itr = trk.live.find(s.start);
                if(itr == trk.live.end() || itr->second.bytes != s.bytes) continue;
            }
            auto* last = ops.empty() ? nullptr : &ops.back();
            if(merge && last != nullptr && last->first + last->count == i &&
               last->app + last->bytes == s.start && last->offset + last->bytes == s.offset)
            {
                last->bytes += s.bytes;
                last->count += 1;
            }
            else
                ops.push_back(op{s.start, s.offset, s.bytes, i, 1});
        }
    }
    if(ops.empty()) return true;

    const auto* drv        = driver();
    const auto  shadow_ptr = [this](size_t offset)
    {
        return m_host ? static_cast<CUdeviceptr>(reinterpret_cast<uintptr_t>(m_host_block) + offset)
                      : m_device_block + offset;
    };

    // One call for many copies; stream order holds for the batch as a whole. Not on the legacy
    // stream (the API refuses it). A failed batch is repeated with single copies (copying the same
    // bytes again is harmless) and batches are not tried again.
    if(settings::batch_min() > 0 && ops.size() >= settings::batch_min() &&
       !is_legacy_stream(stream) && drv->cuMemcpyBatchAsync_v2 != nullptr &&
       !batch_broken.load(std::memory_order_relaxed))
    {
        auto dsts  = std::vector<CUdeviceptr>(ops.size());
        auto srcs  = std::vector<CUdeviceptr>(ops.size());
        auto sizes = std::vector<size_t>(ops.size());
        for(size_t i = 0; i < ops.size(); ++i)
        {
            const auto shadow = shadow_ptr(ops[i].offset);
            dsts[i]           = to_shadow ? shadow : ops[i].app;
            srcs[i]           = to_shadow ? ops[i].app : shadow;
            sizes[i]          = ops[i].bytes;
        }
        auto attr             = CUmemcpyAttributes{};
        attr.srcAccessOrder   = CU_MEMCPY_SRC_ACCESS_ORDER_STREAM;
        attr.srcLocHint.type  = CU_MEM_LOCATION_TYPE_DEVICE;
        attr.srcLocHint.id    = m_device;
        attr.dstLocHint       = attr.srcLocHint;
        attr.flags            = 0;
        auto       attr_index = size_t{0};
        const auto result     = drv->cuMemcpyBatchAsync_v2(
            dsts.data(), srcs.data(), sizes.data(), ops.size(), &attr, &attr_index, 1, stream);
        if(result == CUDA_SUCCESS)
        {
            update_stats([](auto&, auto& ph) { ph.batches += 1; });
            return true;
        }
        update_stats([](auto&, auto& ph) { ph.batch_failures += 1; });
        if(!refused(result))
        {
            ROCP_LOG(error) << "[kernel-replay] " << (to_shadow ? "snapshot" : "restore")
                            << " copy failed: " << error_name(result);
            return false;
        }
        batch_broken.store(true);
        ROCP_LOG(warning) << "[kernel-replay] cuMemcpyBatchAsync returned " << error_name(result)
                          << "; shadow copies are issued one by one from now on";
    }

    auto       calls = size_t{0};
    const auto copy  = [&](CUdeviceptr app, size_t offset, size_t bytes)
    {
        ++calls;
        if(!m_host)
            return to_shadow ? drv->cuMemcpyDtoDAsync_v2(shadow_ptr(offset), app, bytes, stream)
                             : drv->cuMemcpyDtoDAsync_v2(app, shadow_ptr(offset), bytes, stream);
        auto* host = static_cast<std::byte*>(m_host_block) + offset;
        return to_shadow ? drv->cuMemcpyDtoHAsync_v2(host, app, bytes, stream)
                         : drv->cuMemcpyHtoDAsync_v2(app, host, bytes, stream);
    };
    auto result = CUDA_SUCCESS;
    for(const auto& o : ops)
    {
        result = copy(o.app, o.offset, o.bytes);
        if(o.count > 1 && refused(result))
        {
            // A copy over adjacent allocations refused: one copy per allocation, and no more
            // merging.
            if(!merge_broken.exchange(true))
                ROCP_LOG(warning) << "[kernel-replay] a copy over " << o.count
                                  << " adjacent allocations returned " << error_name(result)
                                  << "; shadow copies are made per allocation from now on";
            result = CUDA_SUCCESS;
            for(size_t i = o.first; i < o.first + o.count && result == CUDA_SUCCESS; ++i)
                result = copy(m_shadows[i].start, m_shadows[i].offset, m_shadows[i].bytes);
        }
        if(result != CUDA_SUCCESS) break;
    }
    update_stats([calls](auto&, auto& ph) { ph.copies += calls; });
    if(result != CUDA_SUCCESS)
    {
        ROCP_LOG(error) << "[kernel-replay] " << (to_shadow ? "snapshot" : "restore")
                        << " copy failed: " << error_name(result);
        return false;
    }
    return true;
}

std::optional<std::string>
launch_memory::snapshot(const void*, size_t)
{
    drop();
    const auto started = common::timestamp_ns();
    auto&      trk     = get_tracker();
    if(!trk.enabled.load()) return std::string{"untracked_memory"};
    // A context with an error (a kernel faulted earlier) can copy nothing; the dispatch runs once
    // and the application sees the error from its launch.
    if(m_drain_result != CUDA_SUCCESS) return std::string{"snapshot_failed"};
    if(m_args != nullptr)
        if(auto reason = check_arguments(*m_args)) return reason;

    auto scope = internal_call_scope{};
    auto total = size_t{0};
    {
        auto lock = std::lock_guard{trk.mutex};
        m_shadows.reserve(trk.live.size());
        for(const auto& [start, r] : trk.live)
        {
            if(r.device != m_device && r.device != any_device) continue;
            // An allocation that starts where the previous one ends stays contiguous in the
            // shadow too, so that both are copied at once.
            const bool adjacent =
                !m_shadows.empty() && m_shadows.back().start + m_shadows.back().bytes == start;
            const auto offset = adjacent ? total : align_up(total);
            m_shadows.push_back(shadow{start, r.bytes, offset});
            total = offset + r.bytes;
        }
    }
    total = align_up(total);
    if(m_shadows.empty())
    {
        m_window = true; // nothing to copy: every execution is still a pass
        return std::nullopt;
    }

    const bool ordered = m_stream_known;
    auto       stream  = ordered ? m_stream : private_stream(m_ctx);
    if(!ordered && stream == nullptr)
    {
        m_shadows.clear();
        return std::string{"snapshot_failed"};
    }

    m_pool            = find_pool(m_ctx, true);
    const auto policy = settings::replay_shadow();
    auto       block  = std::optional<uint64_t>{};
    if(policy != settings::shadow_placement::host)
        block = acquire_block(*m_pool, total, false, m_pooled);
    if(block)
    {
        m_host         = false;
        m_device_block = static_cast<CUdeviceptr>(*block);
    }
    else if(policy != settings::shadow_placement::device &&
            (block = acquire_block(*m_pool, total, true, m_pooled)))
    {
        m_host       = true;
        m_host_block = reinterpret_cast<void*>(*block);
    }
    else
    {
        m_shadows.clear();
        return std::string{"footprint_budget"};
    }

    if(!copy_shadows(true, stream))
    {
        drop();
        return std::string{"snapshot_failed"};
    }
    if(!ordered)
    {
        if(auto result = driver()->cuStreamSynchronize(stream); result != CUDA_SUCCESS)
        {
            ROCP_LOG(error) << "[kernel-replay] snapshot copy failed: " << error_name(result);
            drop();
            return std::string{"snapshot_failed"};
        }
    }

    // Restore timing (statistics only): the pool's two events, when no other window holds them.
    if(stats_enabled())
    {
        auto lock = std::lock_guard{m_pool->mutex};
        if(!m_pool->events_busy && !m_pool->events_failed)
        {
            const auto* drv = driver();
            if(m_pool->restore_start == nullptr &&
               (drv->cuEventCreate(&m_pool->restore_start, CU_EVENT_DEFAULT) != CUDA_SUCCESS ||
                drv->cuEventCreate(&m_pool->restore_end, CU_EVENT_DEFAULT) != CUDA_SUCCESS))
                m_pool->events_failed = true;
            else
                m_pool->events_busy = m_events = true;
        }
    }

    m_window           = true;
    const auto took_ns = common::timestamp_ns() - started;
    const bool host    = m_host;
    update_stats(
        [&](auto& st, auto& ph)
        {
            st.max_snapshot_bytes = std::max(st.max_snapshot_bytes, total);
            ph.snapshot.add(took_ns);
            (ordered ? ph.stream_ordered : ph.host_synced) += 1;
            if(host) ph.host_shadows += 1;
        });
    ROCP_LOG(debug) << "[kernel-replay] snapshot of " << m_shadows.size() << " allocations, "
                    << total << " bytes, in " << shadow_kind() << " memory"
                    << (ordered ? ", stream-ordered" : "");
    return std::nullopt;
}

void
launch_memory::finish_restore_timing()
{
    if(!m_restore_pending) return;
    m_restore_pending = false;
    auto        ms    = 0.0f;
    const auto* drv   = driver(false);
    const bool  timed =
        drv != nullptr && drv->cuEventElapsedTime_v2 != nullptr &&
        drv->cuEventElapsedTime_v2(&ms, m_pool->restore_start, m_pool->restore_end) == CUDA_SUCCESS;
    const auto gpu_ns  = static_cast<uint64_t>(static_cast<double>(ms) * 1.0e6);
    const auto host_ns = m_pending_host_ns;
    update_stats(
        [&](auto& st, auto& ph)
        {
            const auto ns = timed ? gpu_ns : host_ns;
            if(timed) ph.restore_gpu.add(gpu_ns);
            st.restores += 1;
            st.restore_total_ns += ns;
            st.restore_max_ns = std::max(st.restore_max_ns, ns);
        });
}

bool
launch_memory::restore()
{
    if(m_shadows.empty()) return true;
    finish_restore_timing();
    const auto  started = common::timestamp_ns();
    const auto* drv     = driver();
    auto        scope   = internal_call_scope{};
    const bool  ordered = m_stream_known;
    auto        stream  = ordered ? m_stream : private_stream(m_ctx);
    if(!ordered && stream == nullptr) return false;
    const bool timed =
        m_events && ordered && drv->cuEventRecord(m_pool->restore_start, stream) == CUDA_SUCCESS;
    if(!copy_shadows(false, stream)) return false;
    if(ordered)
    {
        // The next pass is launched on `stream` after these copies: stream order completes them
        // first; the host does not wait.
        const bool ended = timed && drv->cuEventRecord(m_pool->restore_end, stream) == CUDA_SUCCESS;
        const auto took_ns = common::timestamp_ns() - started;
        update_stats([&](auto&, auto& ph) { ph.restore_host.add(took_ns); });
        if(ended)
        {
            m_restore_pending = true;
            m_pending_host_ns = took_ns;
            return true;
        }
        update_stats(
            [&](auto& st, auto&)
            {
                st.restores += 1;
                st.restore_total_ns += took_ns;
                st.restore_max_ns = std::max(st.restore_max_ns, took_ns);
            });
        return true;
    }
    if(auto result = drv->cuStreamSynchronize(stream); result != CUDA_SUCCESS)
    {
        ROCP_LOG(error) << "[kernel-replay] restore failed: " << error_name(result);
        return false;
    }
    const auto took_ns = common::timestamp_ns() - started;
    update_stats(
        [&](auto& st, auto& ph)
        {
            ph.restore_host.add(took_ns);
            st.restores += 1;
            st.restore_total_ns += took_ns;
            st.restore_max_ns = std::max(st.restore_max_ns, took_ns);
        });
    return true;
}

replay_memory_stats
memory_stats()
{
    auto lock = std::lock_guard{stats_mutex()};
    return stats_value();
}

void
launch_memory::drop()
{
    auto scope = internal_call_scope{};
    finish_restore_timing();
    if(m_device_block != 0) give_back_block(m_pool, m_device_block, false, m_pooled);
    if(m_host_block != nullptr)
        give_back_block(m_pool, reinterpret_cast<uint64_t>(m_host_block), true, m_pooled);
    if(m_events && m_pool != nullptr)
    {
        auto lock           = std::lock_guard{m_pool->mutex};
        m_pool->events_busy = false;
    }
    m_events       = false;
    m_device_block = 0;
    m_host_block   = nullptr;
    m_pooled       = false;
    m_window       = false;
    m_shadows.clear();
}

void
launch_memory::release()
{
    const bool held = m_window || m_device_block != 0 || m_host_block != nullptr;
    if(!held)
    {
        m_shadows.clear();
        return;
    }
    const auto started = common::timestamp_ns();
    drop();
    const auto now = common::timestamp_ns();
    update_stats(
        [&](auto&, auto& ph)
        {
            ph.release.add(now - started);
            if(m_window_start_ns != 0) ph.window.add(now - m_window_start_ns);
        });
    m_window_start_ns = 0;
}
} // namespace rocprofiler::cuda
