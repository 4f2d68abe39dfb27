#include "common/thread_hooks.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"

#include <mutex>
#include <vector>

namespace rocprofiler::common::thread_hooks
{
namespace
{
struct registration
{
    rocprofiler_internal_thread_library_cb_t precreate  = nullptr;
    rocprofiler_internal_thread_library_cb_t postcreate = nullptr;
    int                                      libs       = 0;
    void*                                    data       = nullptr;
};

// A tool's state: a test reset forgets the registrations with the tool that made them.
struct registry
{
    std::mutex                mutex   = {};
    std::vector<registration> entries = {};
};

registry&
get_registry()
{
    return static_object<registry, reset_order::registration>::get();
}

// The registrations at the time of the call: copied, so that a callback may take as long as it
// likes (or start threads of its own) without holding the registry.
std::vector<registration>
snapshot()
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    return reg.entries;
}

void
call(bool before) noexcept
{
    try
    {
        for(const auto& entry : snapshot())
        {
            if((entry.libs & ROCPROFILER_LIBRARY) == 0) continue;
            auto fn = before ? entry.precreate : entry.postcreate;
            if(fn != nullptr) fn(ROCPROFILER_LIBRARY, entry.data);
        }
    }
    catch(...)
    {
        log::warn_once("thread-hooks",
                       "the internal-thread callbacks could not be called (out of memory)");
    }
}
} // namespace

void
add(rocprofiler_internal_thread_library_cb_t precreate,
    rocprofiler_internal_thread_library_cb_t postcreate,
    int                                      libs,
    void*                                    data)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    reg.entries.push_back({precreate, postcreate, libs, data});
}

void
before_create() noexcept
{
    call(true);
}

void
after_create() noexcept
{
    call(false);
}
} // namespace rocprofiler::common::thread_hooks
