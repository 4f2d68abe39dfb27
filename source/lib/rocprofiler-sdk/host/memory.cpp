#include "host/memory.hpp"

#include "common/logging.hpp"
#include "host/runtime/runtime.hpp"

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <new>
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
    std::map<uintptr_t, size_t> live    = {};  // start -> bytes
};

tracker&
get_tracker()
{
    static auto* value = new tracker{};  // never destroyed: frees can happen at exit
    return *value;
}

// Shadow copies may use at most this many bytes of host memory. ROCPROFILER_REPLAY_HOST_BUDGET_MB
// overrides; the default leaves half of the memory that is available now to the application.
size_t
snapshot_budget()
{
    if(const char* env = std::getenv("ROCPROFILER_REPLAY_HOST_BUDGET_MB"); env != nullptr && *env)
    {
        char* end = nullptr;
        auto  mb  = std::strtoull(env, &end, 10);
        if(end != nullptr && *end == '\0') return static_cast<size_t>(mb) * 1024 * 1024;
        ROCP_LOG(warning) << "ROCPROFILER_REPLAY_HOST_BUDGET_MB='" << env
                          << "' is not a number of MiB; using the default";
    }
    auto pages     = sysconf(_SC_AVPHYS_PAGES);
    auto page_size = sysconf(_SC_PAGESIZE);
    if(pages <= 0 || page_size <= 0) return size_t{1} << 30;
    return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 2;
}

class host_memory_backend final : public dispatch::memory_backend
{
public:
    explicit host_memory_backend(device& dev)
    : m_device{dev}
    {}

    bool drain(uint64_t timeout_ns) override { return m_device.drain(timeout_ns); }

    std::optional<std::string> snapshot(const void*, size_t) override
    {
        release();
        auto& trk  = get_tracker();
        auto  lock = std::lock_guard{trk.mutex};
        if(!trk.enabled) return std::string{"untracked_memory"};
        auto total = size_t{0};
        for(const auto& [start, bytes] : trk.live)
            total += bytes;
        if(total > snapshot_budget()) return std::string{"footprint_budget"};
        try
        {
            m_shadows.reserve(trk.live.size());
            for(const auto& [start, bytes] : trk.live)
            {
                auto copy = std::make_unique<std::byte[]>(bytes);
                std::memcpy(copy.get(), reinterpret_cast<const void*>(start), bytes);
                m_shadows.push_back(shadow{start, bytes, std::move(copy)});
            }
        } catch(const std::bad_alloc&)
        {
            m_shadows.clear();
            return std::string{"snapshot_failed"};
        }
        return std::nullopt;
    }

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
    std::vector<shadow> m_shadows = {};
};
}  // namespace

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
    observer.on_allocate = [](const allocation& a) {
        auto& t    = get_tracker();
        auto  lock = std::lock_guard{t.mutex};
        t.live[reinterpret_cast<uintptr_t>(a.ptr)] = a.size;
    };
    observer.on_free = [](const allocation& a) {
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
    auto& trk  = get_tracker();
    auto  lock = std::lock_guard{trk.mutex};
    auto  out  = tracked_footprint{};
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
}  // namespace rocprofiler::host
