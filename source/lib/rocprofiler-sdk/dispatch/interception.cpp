// The interception point's state: the installed interceptor and the backends' tracking hooks.
#include "dispatch/interception.hpp"

#include "common/static_object.hpp"

#include <atomic>
#include <mutex>
#include <utility>

namespace rocprofiler::dispatch
{
namespace
{
// Process lifetime, kept by a test reset: the interceptor is never removed, and the hooks are
// registered once by adapters that attach once.
struct interception_state
{
    std::atomic<dispatch_interceptor*> interceptor = nullptr; // read on every dispatch
    std::mutex                         mutex       = {};
    std::vector<std::function<void()>> on_install  = {};
};

interception_state&
state()
{
    return common::static_object<interception_state, common::reset_order::never>::get();
}
} // namespace

bool
install_interceptor(dispatch_interceptor& interceptor)
{
    auto& st     = state();
    auto  to_run = std::vector<std::function<void()>>{};
    {
        auto lock     = std::lock_guard{st.mutex};
        auto expected = static_cast<dispatch_interceptor*>(nullptr);
        if(!st.interceptor.compare_exchange_strong(expected, &interceptor) &&
           expected != &interceptor)
            return false;
        to_run = st.on_install;
    }
    // Outside the lock: a hook may query devices, which may register further hooks.
    for(auto& fn : to_run)
        fn();
    return true;
}

dispatch_interceptor*
installed_interceptor()
{
    return state().interceptor.load(std::memory_order_acquire);
}

bool
interception_active()
{
    return installed_interceptor() != nullptr;
}

void
on_interception_installed(std::function<void()> enable)
{
    auto& st = state();
    {
        auto lock = std::lock_guard{st.mutex};
        st.on_install.emplace_back(enable);
        if(st.interceptor.load(std::memory_order_acquire) == nullptr) return;
    }
    enable();
}

void
report_excluded_launch(std::string_view       kernel_name,
                       decline_reason         reason,
                       rocprofiler_agent_id_t agent)
{
    if(auto* interceptor = installed_interceptor())
        interceptor->report_excluded(kernel_name, reason, agent);
}

memory_release_scope::memory_release_scope(std::vector<rocprofiler_agent_id_t> agents)
{
    if(auto* interceptor = installed_interceptor())
        interceptor->hold_for_release(std::move(agents), m_locks);
}

memory_release_scope::~memory_release_scope()
{
    for(auto itr = m_locks.rbegin(); itr != m_locks.rend(); ++itr)
        (*itr)->unlock_shared();
}
} // namespace rocprofiler::dispatch
