#include "kernel_replay/deferred_counting.hpp"

#include "common/logging.hpp"
#include "kernel_replay/settings.hpp"

#include <algorithm>
#include <string>

namespace rocprofiler::kernel_replay
{
deferred_counting::deferred_counting(uint64_t pass_count)
{
    m_pass.pass_count = pass_count;
    m_pass.timeout_ns = settings().pass_timeout_ns;
}

dispatch::execution_result
deferred_counting::run_pass(const dispatch::logical_dispatch& dispatch,
                            dispatch::launch_backend&         backend,
                            uint64_t                          pass)
{
    m_pass.pass  = pass;
    auto outcome = dispatch::run_execution_sync(dispatch, backend, &m_pass);
    if(outcome.late)
    {
        m_late = std::move(outcome.late);
        ROCP_LOG(error) << "[kernel-replay] dispatch_id=" << dispatch.info.dispatch_id
                        << " kernel=" << dispatch.kernel_name << ": pass " << pass
                        << " did not finish within " << m_pass.timeout_ns / 1000000
                        << " ms (ROCPROFILER_REPLAY_PASS_TIMEOUT_MS). A kernel that waits for "
                           "work of another queue or stream (a flag that another kernel sets) "
                           "cannot be replayed: the replay window holds that work back. The "
                           "replay ends (reason pass_drain_stuck); this pass is the "
                           "application's run, and the application's completion fires when the "
                           "kernel finishes";
        return std::move(outcome.result);
    }
    if(outcome.result.counters_deferred && outcome.counted)
    {
        auto entry         = pending_execution{};
        entry.execution    = *outcome.counted;
        entry.pass         = pass;
        entry.participants = std::move(outcome.participants);
        entry.result       = outcome.result;
        entry.result.resolved.clear(); // delivered below, not kept
        m_pending.emplace_back(std::move(entry));
    }
    deliver_resolved(dispatch, outcome.result.resolved);
    return std::move(outcome.result);
}

void
deferred_counting::deliver_resolved(const dispatch::logical_dispatch&               dispatch,
                                    const std::vector<dispatch::deferred_counters>& resolved)
{
    for(const auto& values : resolved)
    {
        auto itr = std::find_if(m_pending.begin(),
                                m_pending.end(),
                                [&values](const auto& entry)
                                { return entry.execution == values.execution; });
        if(itr == m_pending.end())
        {
            common::log::warn_once("dispatch-counting-unknown-deferred",
                                   "dispatch counting: a backend resolved counter values of an "
                                   "execution that was not deferred; they are dropped");
            continue;
        }
        auto result              = itr->result;
        result.counters_deferred = false;
        result.counters          = values.counters;
        result.counters_error    = values.error;
        dispatch::deliver_counters(dispatch, itr->participants, result);
        m_pending.erase(itr);
    }
}

void
deferred_counting::finish(const dispatch::logical_dispatch& dispatch,
                          dispatch::launch_backend&         backend)
{
    deliver_resolved(dispatch, backend.finish_counting());
    for(auto& entry : m_pending)
    {
        auto result              = entry.result;
        result.counters_deferred = false;
        result.counters_error    = "the counter values of pass " + std::to_string(entry.pass) +
                                " never arrived from the backend";
        dispatch::deliver_counters(dispatch, entry.participants, result);
    }
    m_pending.clear();
}
} // namespace rocprofiler::kernel_replay
