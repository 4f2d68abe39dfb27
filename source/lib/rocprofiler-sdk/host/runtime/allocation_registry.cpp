#include "rocprofiler-sdk/host/runtime/allocation_registry.hpp"
#include "rocprofiler-sdk/host/runtime/after_fork.hpp"

#include <cstdlib>
#include <new>

namespace rocprofiler
{
namespace host
{
namespace
{
// Set while this thread runs an observer callback: allocating there would self-deadlock on the
// observer mutex, so such calls are refused.
thread_local bool tl_in_observer = false;

struct observer_scope
{
    observer_scope() noexcept { tl_in_observer = true; }
    ~observer_scope() { tl_in_observer = false; }
    observer_scope(const observer_scope&)            = delete;
    observer_scope& operator=(const observer_scope&) = delete;
};

void
notify(const std::function<void(const allocation&)>& fn, const allocation& alloc) noexcept
{
    if(!fn) return;
    auto scope = observer_scope{};
    try
    {
        fn(alloc);
    }
    catch(...)
    {
        // An observer's failure must not turn a successful allocation into a failed one.
    }
}
} // namespace

allocation_registry::~allocation_registry()
{
    for(auto& [address, size] : m_live)
        std::free(reinterpret_cast<void*>(address));
}

rocprofiler_host_status_t
allocation_registry::allocate(size_t bytes, void** ptr)
{
    if(!ptr) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    *ptr = nullptr;
    if(tl_in_observer) return ROCPROFILER_HOST_STATUS_INVALID_OPERATION;
    if(bytes == 0) return ROCPROFILER_HOST_STATUS_SUCCESS;

    constexpr auto alignment = size_t{ROCPROFILER_HOST_ALLOCATION_ALIGNMENT};
    if(bytes > SIZE_MAX - alignment) return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;
    // aligned_alloc requires a multiple of the alignment.
    auto* memory = std::aligned_alloc(alignment, (bytes + alignment - 1) / alignment * alignment);
    if(!memory) return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;

    auto alloc    = allocation{memory, bytes};
    auto observer = std::shared_ptr<const allocation_observer>{};
    auto lock     = std::unique_lock{m_observer_mutex};
    try
    {
        auto registry_lock = std::lock_guard{m_registry_mutex};
        m_live.emplace(reinterpret_cast<uintptr_t>(memory), bytes);
    }
    catch(const std::bad_alloc&)
    {
        std::free(memory);
        return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;
    }
    if(m_observer) notify(m_observer->on_allocate, alloc);
    *ptr = memory;
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

rocprofiler_host_status_t
allocation_registry::deallocate(void* ptr)
{
    if(!ptr) return ROCPROFILER_HOST_STATUS_SUCCESS;
    if(tl_in_observer) return ROCPROFILER_HOST_STATUS_INVALID_OPERATION;

    auto lock  = std::unique_lock{m_observer_mutex};
    auto alloc = allocation{};
    {
        auto registry_lock = std::lock_guard{m_registry_mutex};
        auto it            = m_live.find(reinterpret_cast<uintptr_t>(ptr));
        if(it == m_live.end()) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
        alloc = allocation{ptr, it->second};
        m_live.erase(it);
    }
    if(m_observer) notify(m_observer->on_free, alloc);
    lock.unlock();
    std::free(ptr);
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

void
allocation_registry::set_observer(allocation_observer observer, bool report_live)
{
    auto next = std::shared_ptr<const allocation_observer>{};
    if(observer.on_allocate || observer.on_free)
        next = std::make_shared<const allocation_observer>(std::move(observer));

    auto lock  = std::lock_guard{m_observer_mutex};
    m_observer = next;
    if(report_live && m_observer && m_observer->on_allocate)
    {
        // Holding the observer mutex keeps the registry unchanged while we report it.
        for(const auto& alloc : live())
            notify(m_observer->on_allocate, alloc);
    }
}

std::vector<allocation>
allocation_registry::live() const
{
    auto lock   = std::lock_guard{m_registry_mutex};
    auto result = std::vector<allocation>{};
    result.reserve(m_live.size());
    for(const auto& [address, size] : m_live)
        result.push_back(allocation{reinterpret_cast<void*>(address), size});
    return result;
}

std::optional<allocation>
allocation_registry::find(const void* ptr) const
{
    auto lock = std::lock_guard{m_registry_mutex};
    return find_locked(ptr);
}

std::optional<allocation>
allocation_registry::find_locked(const void* ptr) const
{
    auto address = reinterpret_cast<uintptr_t>(ptr);
    auto it      = m_live.upper_bound(address);
    if(it == m_live.begin()) return std::nullopt;
    --it;
    // A zero-byte range at the very end belongs to no allocation.
    if(address - it->first >= it->second) return std::nullopt;
    return allocation{reinterpret_cast<void*>(it->first), it->second};
}

bool
allocation_registry::range_is_valid(const void* ptr, size_t bytes) const
{
    auto lock  = std::lock_guard{m_registry_mutex};
    auto alloc = find_locked(ptr);
    if(!alloc) return true;
    auto offset = reinterpret_cast<uintptr_t>(ptr) - reinterpret_cast<uintptr_t>(alloc->ptr);
    return bytes <= alloc->size - offset;
}

void
allocation_registry::reset_after_fork()
{
    renew_after_fork(m_observer_mutex);
    renew_after_fork(m_registry_mutex);
}
} // namespace host
} // namespace rocprofiler
