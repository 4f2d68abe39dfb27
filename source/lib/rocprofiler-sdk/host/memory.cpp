#include "host/memory.hpp"
#include "common/static_object.hpp"

#include "common/environment.hpp"
#include "common/logging.hpp"
#include "host/process_memory.hpp"
#include "host/runtime/runtime.hpp"
#include "host/settings.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::host
{
namespace
{
struct tracker
{
    std::mutex                  mutex   = {};
    bool                        enabled = false;
    std::map<uintptr_t, size_t> live    = {}; // start -> bytes
    uint64_t                    changes = 0;  // allocations and frees observed
};

// How far outside a tracked allocation an argument word still counts as pointing to it.
constexpr uint64_t tracked_slack = 256;

tracker&
get_tracker()
{
    return common::static_object<tracker, common::reset_order::never>::get();
}

// Shadow copies may use at most this many bytes of host memory. ROCPROFILER_REPLAY_HOST_BUDGET_MB
// overrides; the default leaves half of the memory that is available now to the application.
size_t
snapshot_budget()
{
    if(auto mb = common::env::get(settings::replay_host_budget_mb))
        return static_cast<size_t>(*mb) << 20;
    auto pages     = sysconf(_SC_AVPHYS_PAGES);
    auto page_size = sysconf(_SC_PAGESIZE);
    if(pages <= 0 || page_size <= 0) return size_t{1} << 30;
    return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 2;
}

// The live allocation that contains `address`, if any.
std::optional<std::pair<uintptr_t, size_t>>
containing(const std::map<uintptr_t, size_t>& live, uintptr_t address)
{
    auto itr = live.upper_bound(address);
    if(itr == live.begin()) return std::nullopt;
    --itr;
    if(address >= itr->first && address < itr->first + itr->second) return *itr;
    return std::nullopt;
}

// A 64-bit content hash of `bytes` bytes: the sum over 8-byte words of a mix of the word and its
// index (tail bytes zero-padded), plus a mix of the length. Equal bytes hash equal; a change of any
// word changes one term of the sum.
uint64_t
mix(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

uint64_t
content_hash(const std::byte* data, uint64_t bytes)
{
    auto       h     = mix(bytes);
    const auto words = bytes / 8;
    for(uint64_t i = 0; i < words; ++i)
    {
        auto word = uint64_t{0};
        std::memcpy(&word, data + i * 8, 8);
        h += mix(word ^ (i * 0x9e3779b97f4a7c15ULL));
    }
    if(const auto tail = bytes % 8; tail != 0)
    {
        auto word = uint64_t{0};
        std::memcpy(&word, data + words * 8, tail);
        h += mix(word ^ (words * 0x9e3779b97f4a7c15ULL));
    }
    return h;
}

// Whether [address, address + bytes) lies inside tracked allocations (adjacent ones count as one).
bool
inside_tracked(const std::map<uintptr_t, size_t>& live, uint64_t address, uint64_t bytes)
{
    auto       at  = address;
    const auto end = address + bytes;
    while(at < end)
    {
        auto found = containing(live, at);
        if(!found) return false;
        at = found->first + found->second;
    }
    return true;
}

// The memory backend of the host device: copies, compares and hashes what the replay engine asks
// for (kernel_replay/write_set.hpp decides what). Other threads may keep using memory outside the
// snapshot during a window: it is never written back.
class host_memory_backend final : public dispatch::memory_backend
{
public:
    explicit host_memory_backend(device& dev)
        : m_device{dev}
    {
    }

    bool drain(uint64_t timeout_ns) override { return m_device.drain(timeout_ns); }

    // A host-device kernel can write any memory of the process: an argument pointing into
    // writable memory the allocator did not hand out (plain malloc, a global, a stack) is a write
    // replay cannot undo, declined as CUDA declines pinned host memory, unless the user opts in.
    std::optional<dispatch::decline_reason>
    check_arguments(const dispatch::kernel_arguments& args) override
    {
        if(common::env::get(common::env::settings::replay_allow_host_memory)) return std::nullopt;
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        // Near a tracked allocation counts as inside it (one past its end, `x - 1`), as for the
        // prediction's anchors.
        const auto near_tracked = [&trk](uint64_t word)
        {
            auto itr = trk.live.upper_bound(static_cast<uintptr_t>(word + tracked_slack));
            if(itr == trk.live.begin()) return false;
            --itr;
            return word < itr->first + itr->second + tracked_slack;
        };
        auto found = find_untracked_pointer(args.data, args.size, near_tracked);
        if(!found) return std::nullopt;
        ROCP_LOG(debug) << "host: kernel argument word at offset " << found->offset << " of "
                        << args.size << " bytes, 0x" << std::hex << found->value << std::dec
                        << ", points into writable memory of the process that "
                           "rocprofiler_host_malloc did not allocate: replay declined "
                           "(untracked_memory; ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY=1 replays "
                           "it, its writes there not restored)";
        return dispatch::decline_reason::untracked_memory;
    }

    std::vector<dispatch::memory_range> tracked(bool& tracking) override
    {
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        tracking   = trk.enabled;
        auto out   = std::vector<dispatch::memory_range>{};
        out.reserve(trk.live.size());
        for(const auto& [start, bytes] : trk.live)
            out.push_back({start, bytes});
        return out;
    }

    bool read(uint64_t address, void* out, size_t bytes) override
    {
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        if(!inside_tracked(trk.live, address, bytes)) return false;
        std::memcpy(out, reinterpret_cast<const void*>(address), bytes);
        return true;
    }

    std::optional<dispatch::decline_reason>
    snapshot(const std::vector<dispatch::memory_range>& ranges) override
    {
        release();
        auto total = uint64_t{0};
        for(const auto& r : ranges)
            total += r.bytes;
        if(total > snapshot_budget()) return dispatch::decline_reason::footprint_budget;
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        try
        {
            m_shadows.reserve(ranges.size());
            for(const auto& r : ranges)
            {
                if(!inside_tracked(trk.live, r.start, r.bytes))
                {
                    m_shadows.clear();
                    return dispatch::decline_reason::snapshot_failed;
                }
                auto copy = std::make_unique<std::byte[]>(r.bytes);
                std::memcpy(copy.get(), reinterpret_cast<const void*>(r.start), r.bytes);
                m_shadows.push_back(shadow{r, std::move(copy)});
            }
        }
        catch(const std::bad_alloc&)
        {
            m_shadows.clear();
            return dispatch::decline_reason::snapshot_failed;
        }
        return std::nullopt;
    }

    bool restore() override
    {
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        for(const auto& entry : m_shadows)
        {
            // Memory freed during the window is not written back.
            if(!inside_tracked(trk.live, entry.range.start, entry.range.bytes)) continue;
            std::memcpy(
                reinterpret_cast<void*>(entry.range.start), entry.data.get(), entry.range.bytes);
        }
        return true;
    }

    bool compare(uint64_t piece_bytes, std::vector<dispatch::range_change>& out) override
    {
        out.clear();
        if(piece_bytes == 0) return false;
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        for(const auto& entry : m_shadows)
        {
            const bool  live = inside_tracked(trk.live, entry.range.start, entry.range.bytes);
            const auto* now  = reinterpret_cast<const std::byte*>(entry.range.start);
            for(uint64_t at = 0; at < entry.range.bytes; at += piece_bytes)
            {
                const auto size   = std::min(piece_bytes, entry.range.bytes - at);
                auto       change = dispatch::range_change{};
                for(uint64_t i = 0; live && i < size; ++i)
                {
                    if(now[at + i] == entry.data[at + i]) continue;
                    const auto address = entry.range.start + at + i;
                    if(change.changed_bytes == 0) change.first = address;
                    change.last = address + 1;
                    ++change.changed_bytes;
                }
                out.push_back(change);
            }
        }
        return true;
    }

    bool hash(const std::vector<dispatch::memory_range>& ranges,
              uint64_t                                   piece_bytes,
              std::vector<uint64_t>&                     out) override
    {
        out.clear();
        if(piece_bytes == 0) return false;
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        for(const auto& r : ranges)
        {
            // Memory freed during the window hashes as 0: it no longer holds what it held.
            const bool live = inside_tracked(trk.live, r.start, r.bytes);
            for(uint64_t at = 0; at < r.bytes; at += piece_bytes)
            {
                const auto size = std::min(piece_bytes, r.bytes - at);
                out.push_back(
                    live ? content_hash(reinterpret_cast<const std::byte*>(r.start + at), size)
                         : 0);
            }
        }
        return true;
    }

    void release() override { m_shadows.clear(); }

    // Host code may store into host-device memory at any time, unseen: the epoch exists only when
    // the application declares that it writes that memory through kernels and
    // rocprofiler_host_memcpy/memset alone (ROCPROFILER_HOST_OBSERVED_WRITES=1).
    std::optional<uint64_t> write_epoch() override
    {
        if(!common::env::get(settings::observed_writes)) return std::nullopt;
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        return trk.changes + m_device.memory_writes();
    }

private:
    struct shadow
    {
        dispatch::memory_range       range = {};
        std::unique_ptr<std::byte[]> data  = {};
    };

    device&             m_device;
    std::vector<shadow> m_shadows = {};
};
} // namespace

void
enable_allocation_tracking(device& dev)
{
    auto& trk = get_tracker();
    {
        auto lock = std::lock_guard{trk.mutex};
        if(trk.enabled) return;
        trk.enabled = true;
    }
    auto observer        = allocation_observer{};
    observer.on_allocate = [](const allocation& a)
    {
        auto& t                                    = get_tracker();
        auto  lock                                 = std::lock_guard{t.mutex};
        t.live[reinterpret_cast<uintptr_t>(a.ptr)] = a.size;
        t.changes += 1;
    };
    observer.on_free = [](const allocation& a)
    {
        auto& t    = get_tracker();
        auto  lock = std::lock_guard{t.mutex};
        t.live.erase(reinterpret_cast<uintptr_t>(a.ptr));
        t.changes += 1;
    };
    dev.set_allocation_observer(std::move(observer), /*report_live_allocations=*/true);
    ROCP_LOG(debug) << "[kernel-replay] host allocation tracker enabled";
}

tracked_footprint
tracked()
{
    auto& trk       = get_tracker();
    auto  lock      = std::lock_guard{trk.mutex};
    auto  out       = tracked_footprint{};
    out.allocations = trk.live.size();
    for(const auto& [start, bytes] : trk.live)
        out.bytes += bytes;
    return out;
}

dispatch::memory_backend&
host_memory(device& dev)
{
    static auto* backend = new host_memory_backend{dev};
    return *backend;
}
} // namespace rocprofiler::host
