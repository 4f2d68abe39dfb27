// The per-dispatch counter schedule (ROCPROFILER_CUDA_COUNTER_SCHEDULE=dispatch, the default):
// the passes of a replayed dispatch are one CUPTI replay cycle of the union of the agent's counter
// configurations, set at the start of the cycle; each pass runs the next of CUPTI's passes; after
// the last one the values are decoded and every pass's request is answered from them. When the
// union does not fit (more CUPTI passes than the dispatch has left or than its configurations
// take one by one) or a pass asks for counters outside it, the pass measures its own
// configuration instead (metrics.cpp). A configuration of several CUPTI passes is measured by a
// cycle of its own under the per-pass schedule. docs/cuda.md has the details.
//
// Threading: everything here runs under the context profiler's lock.
#pragma once

#include "cuda/counters/metrics.hpp"
#include "cuda/counters/range_profiler.hpp"
#include "cuda/counters/replay_cycle.hpp"

#include <cuda.h>

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda::metrics
{
// The counting state of one logical dispatch (dispatch_counting).
struct dispatch_counting::state
{
    struct waiting_execution
    {
        uint64_t                                         execution = 0;
        std::vector<const counters::counter_definition*> counters  = {};
    };

    context_profiler*              prof    = nullptr; // the context it counts on
    collection_config*             cycle   = nullptr; // the union of the current cycle
    cycle_phase                    phase   = cycle_phase::idle;
    uint32_t                       run     = 0; // CUPTI passes run in the current cycle
    std::vector<double>            values  = {};
    std::vector<waiting_execution> waiting = {};
};

// One counted execution as the schedules see it: where it runs, what it asks for, how to launch
// it, and where its measurement goes.
struct counted_execution
{
    int                                device;
    CUstream                           stream;
    const dispatch::execution_request& request;
    const std::function<CUresult()>&   launch;
    measurement&                       out;
};

// Whether replayed dispatches use the per-dispatch schedule (the setting, read once).
bool schedule_per_dispatch();

// What a dispatch's CUPTI replay cycle collects: the union of the agent's configurations (the
// per-dispatch schedule), or the pass's own configuration when that takes several CUPTI passes
// (the per-pass schedule; one-pass configurations need no cycle there).
enum class cycle_scope
{
    agent_union,
    own,
};

// One counted execution of a replayed dispatch in a CUPTI replay cycle of `scope`. Returns the
// launch's result, or nothing when this execution is to measure its own configuration instead.
std::optional<CUresult> measure_in_cycle(context_profiler&         prof,
                                         dispatch_counting::state& st,
                                         const counted_execution&  exec,
                                         cycle_scope               scope);

// Ends the dispatch's cycle without values: every waiting execution gets `why` in `resolved`.
void end_cycle(context_profiler&                         prof,
               dispatch_counting::state&                 st,
               const std::string&                        why,
               std::vector<dispatch::deferred_counters>& resolved);

// True when `names` are all in `set` (sorted).
bool covers(const std::vector<std::string>& set, const std::vector<std::string>& names);

// The sorted union of the counter names of `configs` and `request`.
std::vector<std::string>
union_names(const std::vector<std::shared_ptr<const counters::config>>& configs,
            const dispatch::execution_request&                          request);
} // namespace rocprofiler::cuda::metrics
