#include "kernel_replay/isolation.hpp"

#include "common/dcheck.hpp"
#include "common/static_object.hpp"
#include "dispatch/backend.hpp"
#include "kernel_replay/engine.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

namespace rocprofiler::kernel_replay
{
namespace
{
using dispatch::decline_reason;

// The agents' isolation locks: process lifetime, kept by a test reset (a lock may be held or
// waited for by a thread of the application at any time).
struct isolation_locks
{
    std::mutex                                             mutex = {};
    std::map<uint64_t, std::unique_ptr<std::shared_mutex>> locks = {};
};

// Agents whose isolation lock this thread holds exclusively (a replay window is open on it).
// Dispatches this thread makes from inside replay callbacks must not take the lock again.
thread_local std::vector<uint64_t> this_thread_exclusive_agents = {};
// True from CONFIG ENTER to the end of the window on this thread.
thread_local bool in_window = false;
} // namespace

std::shared_mutex&
isolation_lock(rocprofiler_agent_id_t agent)
{
    auto& st   = common::static_object<isolation_locks, common::reset_order::never>::get();
    auto  lock = std::lock_guard{st.mutex};
    auto& slot = st.locks[agent.handle];
    if(slot == nullptr) slot = std::make_unique<std::shared_mutex>();
    return *slot;
}

bool
holds_exclusively(rocprofiler_agent_id_t agent)
{
    const auto& held = this_thread_exclusive_agents;
    return std::find(held.begin(), held.end(), agent.handle) != held.end();
}

bool
this_thread_in_window()
{
    return in_window;
}

exclusive_agent_lock::exclusive_agent_lock(rocprofiler_agent_id_t agent)
    : m_agent{agent.handle}
    , m_lock{isolation_lock(agent)}
{
    ROCP_DCHECK(!holds_exclusively(agent),
                "a thread opens one window per agent at a time (a nested window would deadlock "
                "on its own isolation lock)");
    m_lock.lock();
    this_thread_exclusive_agents.emplace_back(m_agent);
}

exclusive_agent_lock::~exclusive_agent_lock()
{
    auto& held = this_thread_exclusive_agents;
    held.erase(std::find(held.begin(), held.end(), m_agent));
    m_lock.unlock();
}

window_scope::window_scope()
{
    ROCP_DCHECK(!in_window,
                "replay windows do not nest on a thread (a dispatch from inside a window is "
                "declined as reentrant_dispatch before it gets here)");
    in_window = true;
}

window_scope::~window_scope()
{
    in_window = false;
}

work_counters&
work()
{
    return common::static_object<work_counters, common::reset_order::never>::get();
}

dispatch::ordinary_hold
begin_ordinary(rocprofiler_agent_id_t agent, const dispatch::launch_backend& backend)
{
    auto hold = dispatch::ordinary_hold{};
    if(!is_configured()) return hold;
    // The thread already holds the lock exclusively (a dispatch from inside its own replay
    // callbacks), or the dispatch comes from a device thread that a draining or replaying thread
    // may be waiting for: taking the lock would deadlock.
    hold.counted = true;
    if(holds_exclusively(agent)) return hold;
    if(backend.replay_exclusion() == decline_reason::reentrant_dispatch)
    {
        work().device_thread_dispatches.fetch_add(1, std::memory_order_acq_rel);
        return hold;
    }
    hold.shared_lock = &isolation_lock(agent);
    hold.shared_lock->lock_shared();
    return hold;
}

void
end_ordinary(const dispatch::ordinary_hold& hold)
{
    // Its kernel may write any tracked memory: no verification baseline taken before it is used
    // after it. Counted once its work was submitted and before the lock is released, so that a
    // window that begins later (and drains that work first) sees the count changed.
    if(hold.counted) work().ordinary_dispatches.fetch_add(1, std::memory_order_acq_rel);
    if(hold.shared_lock != nullptr) hold.shared_lock->unlock_shared();
}

void
hold_for_release(std::vector<rocprofiler_agent_id_t> agents, std::vector<std::shared_mutex*>& taken)
{
    if(!is_configured()) return;
    std::sort(agents.begin(),
              agents.end(),
              [](const auto& a, const auto& b) { return a.handle < b.handle; });
    for(size_t i = 0; i < agents.size(); ++i)
    {
        if(i > 0 && agents[i].handle == agents[i - 1].handle) continue;
        if(holds_exclusively(agents[i])) continue;
        taken.emplace_back(&isolation_lock(agents[i]));
        taken.back()->lock_shared();
    }
}
} // namespace rocprofiler::kernel_replay
