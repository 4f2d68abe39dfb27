// The counting of one replayed dispatch across its passes: the executions whose counter values the
// backend deferred (execution_result::counters_deferred), with what their records need
// (participants, the timestamps of their own pass), until the values arrive in a later pass or
// from launch_backend::finish_counting(). Owned by the pass loop, on the submitting thread.
#pragma once

#include "dispatch/dispatch.hpp"

#include <cstdint>
#include <vector>

namespace rocprofiler::kernel_replay
{
class deferred_counting
{
public:
    // `pass_count`: the planned passes, or 0 (execution_request::pass_count).
    explicit deferred_counting(uint64_t pass_count);

    // Runs pass `pass` of the dispatch (dispatch::run_execution_sync), keeps its execution when
    // the backend deferred its values, and delivers the values this pass resolved.
    dispatch::execution_result run_pass(const dispatch::logical_dispatch& dispatch,
                                        dispatch::launch_backend&         backend,
                                        uint64_t                          pass);

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

    dispatch::replay_pass          m_pass    = {};
    std::vector<pending_execution> m_pending = {};
};
} // namespace rocprofiler::kernel_replay
