// The counting of one replayed dispatch across its passes: the executions whose counter values the
// backend deferred (execution_result::counters_deferred), with what their records need
// (participants, the timestamps of their own pass), until the values arrive in a later pass or
// from launch_backend::finish_counting(). Owned by the pass loop, on the submitting thread.
#pragma once

#include "dispatch/dispatch.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace rocprofiler::kernel_replay
{
class deferred_counting
{
public:
    // `pass_count`: the planned passes, or 0 (execution_request::pass_count). Each pass is waited
    // for at most ROCPROFILER_REPLAY_PASS_TIMEOUT_MS (settings.hpp; 0: no limit).
    explicit deferred_counting(uint64_t pass_count);

    // Runs pass `pass` of the dispatch (dispatch::run_execution_sync), keeps its execution when
    // the backend deferred its values, and delivers the values this pass resolved. A pass that
    // did not finish in time is a failed result and is reported (an error line); late() then
    // holds it, and the caller must end the loop and hand the application's completion to it.
    dispatch::execution_result run_pass(const dispatch::logical_dispatch& dispatch,
                                        dispatch::launch_backend&         backend,
                                        uint64_t                          pass);

    // The pass that did not finish in time, or nullptr.
    const std::shared_ptr<dispatch::late_execution>& late() const { return m_late; }

    // After the last pass: delivers the values the backend still holds, and reports executions
    // whose values never came. Called once.
    void finish(const dispatch::logical_dispatch& dispatch, dispatch::launch_backend& backend);

private:
    struct pending_execution
    {
        uint64_t                           execution    = 0;
        uint64_t                           pass         = 0;
        std::vector<dispatch::participant> participants = {};
        dispatch::execution_result         result       = {}; // timestamps of its own pass
    };

    // Delivers the records of deferred executions whose values arrived; values for executions not
    // pending (or delivered twice) are logged and dropped.
    void deliver_resolved(const dispatch::logical_dispatch&               dispatch,
                          const std::vector<dispatch::deferred_counters>& resolved);

    dispatch::replay_pass                     m_pass    = {};
    std::vector<pending_execution>            m_pending = {};
    std::shared_ptr<dispatch::late_execution> m_late    = {};
};
} // namespace rocprofiler::kernel_replay
