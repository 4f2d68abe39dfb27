#include "host/memory.hpp"
#include "common/static_object.hpp"

#include "common/environment.hpp"
#include "common/logging.hpp"
#include "host/runtime/runtime.hpp"

#include <unistd.h>

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
};

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
    if(auto mb = common::env::get(common::env::settings::replay_host_budget_mb))
        return static_cast<size_t>(*mb) << 20;
    auto pages     = sysconf(_SC_AVPHYS_PAGES);
    auto page_size = sysconf(_SC_PAGESIZE);
    if(pages <= 0 || page_size <= 0) return size_t{1} << 30;
    return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 2;
}

bool
snapshot_everything()
{
    return common::env::get(common::env::settings::replay_host_snapshot) ==
           common::env::snapshot_scope::all;
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

// Allocations reachable from the argument bytes through 8-byte-aligned pointer-sized words.
std::vector<std::pair<uintptr_t, size_t>>
reachable(const std::map<uintptr_t, size_t>& live, const void* args, size_t args_size)
{
    auto chosen  = std::map<uintptr_t, size_t>{};
    auto pending = std::vector<std::pair<uintptr_t, size_t>>{};
    auto scan    = [&](const std::byte* bytes, size_t size)
    {
        for(size_t offset = 0; offset + sizeof(uintptr_t) <= size; offset += sizeof(uintptr_t))
        {
            auto word = uintptr_t{0};
            std::memcpy(&word, bytes + offset, sizeof(word));
            if(auto found = containing(live, word); found && chosen.emplace(*found).second)
                pending.push_back(*found);
        }
    };
    scan(static_cast<const std::byte*>(args), args_size);
    while(!pending.empty())
    {
        auto [start, bytes] = pending.back();
        pending.pop_back();
        scan(reinterpret_cast<const std::byte*>(start), bytes);
    }
    return {chosen.begin(), chosen.end()};
}

class host_memory_backend final : public dispatch::memory_backend
{
public:
    explicit host_memory_backend(device& dev)
        : m_device{dev}
    {
    }

    bool drain(uint64_t timeout_ns) override { return m_device.drain(timeout_ns); }

    // What the snapshot covers: by default the tracked allocations a kernel can reach, that is
    // those that a pointer-sized, 8-byte-aligned word of its arguments points into, and,
    // transitively, those that such a word inside an already reached allocation points into
    // (conservatively, as a garbage collector scans: a word that merely looks like a pointer
    // only makes the snapshot larger). Allocations the kernel cannot reach are not copied and,
    // above all, never written back, so other threads may keep using them during the window.
    // ROCPROFILER_REPLAY_HOST_SNAPSHOT=all snapshots every tracked allocation instead (for
    // kernels that reach device memory through something other than their arguments).
    std::optional<dispatch::decline_reason>
    snapshot(const dispatch::kernel_arguments& args) override
    {
        release();
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        if(!trk.enabled) return dispatch::decline_reason::untracked_memory;

        auto chosen = std::vector<std::pair<uintptr_t, size_t>>{};
        if(args.data == nullptr || snapshot_everything())
            chosen.assign(trk.live.begin(), trk.live.end());
        else
            chosen = reachable(trk.live, args.data, args.size);

        auto total = size_t{0};
        for(const auto& [start, bytes] : chosen)
            total += bytes;
        if(total > snapshot_budget()) return dispatch::decline_reason::footprint_budget;
        try
        {
            m_shadows.reserve(chosen.size());
            for(const auto& [start, bytes] : chosen)
            {
                auto copy = std::make_unique<std::byte[]>(bytes);
                std::memcpy(copy.get(), reinterpret_cast<const void*>(start), bytes);
                m_shadows.push_back(shadow{start, bytes, std::move(copy)});
            }
        }
        catch(const std::bad_alloc&)
        {
            m_shadows.clear();
            return dispatch::decline_reason::snapshot_failed;
        }
        m_last_bytes = total;
        return std::nullopt;
    }

    size_t last_snapshot_bytes() const { return m_last_bytes; }

    bool restore() override
    {
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        for(const auto& entry : m_shadows)
        {
            // An allocation freed during the window is not written back.
            auto itr = trk.live.find(entry.start);
            if(itr == trk.live.end() || itr->second != entry.bytes) continue;
            std::memcpy(reinterpret_cast<void*>(entry.start), entry.data.get(), entry.bytes);
        }
        return true;
    }

    void release() override { m_shadows.clear(); }

private:
    struct shadow
    {
        uintptr_t                    start = 0;
        size_t                       bytes = 0;
        std::unique_ptr<std::byte[]> data  = {};
    };

    device&             m_device;
    std::vector<shadow> m_shadows    = {};
    size_t              m_last_bytes = 0;
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
    };
    observer.on_free = [](const allocation& a)
    {
        auto& t    = get_tracker();
        auto  lock = std::lock_guard{t.mutex};
        t.live.erase(reinterpret_cast<uintptr_t>(a.ptr));
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
