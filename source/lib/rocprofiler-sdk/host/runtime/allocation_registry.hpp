#pragma once

#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace rocprofiler
{
namespace host
{
// Owns the device memory and notifies the allocation observer. See allocation_observer in
// runtime.hpp for the notification contract.
class allocation_registry
{
public:
    allocation_registry() = default;
    // Releases every live allocation without notifying.
    ~allocation_registry();

    allocation_registry(const allocation_registry&)            = delete;
    allocation_registry& operator=(const allocation_registry&) = delete;

    rocprofiler_host_status_t allocate(size_t bytes, void** ptr);
    rocprofiler_host_status_t deallocate(void* ptr);

    void set_observer(allocation_observer observer, bool report_live);

    std::vector<allocation>   live() const;
    std::optional<allocation> find(const void* ptr) const;
    // True when [ptr, ptr + bytes) does not start inside a live allocation that ends before it.
    bool range_is_valid(const void* ptr, size_t bytes) const;

    // In a forked child (after_fork.hpp): locks of threads that are gone start afresh.
    void reset_after_fork();

private:
    std::optional<allocation> find_locked(const void* ptr) const;

    // Serializes notifications, observer changes, and the registry updates they report. Taken
    // before m_registry_mutex, never the other way round.
    std::mutex                                 m_observer_mutex;
    std::shared_ptr<const allocation_observer> m_observer;

    mutable std::mutex          m_registry_mutex;
    std::map<uintptr_t, size_t> m_live; // start address -> requested size
};
} // namespace host
} // namespace rocprofiler
