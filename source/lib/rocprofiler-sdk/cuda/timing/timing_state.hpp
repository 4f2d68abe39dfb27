// The state the timing layer's parts share: executions waiting for completion, CUPTI's kernel
// records, the calibration of event times, the statistics, the pool of CUDA events, and the two
// timestamp settings every part consults.
//
// Threading: `mutex` guards the completion queue; `records_mutex` guards everything CUPTI's
// buffer callback writes (records, calibration, clocks, statistics); `pool_mutex` the events.
#pragma once

#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/timing/event_calibration.hpp"
#include "cuda/timing/record_matcher.hpp"
#include "cuda/timing/timing_stats.hpp"
#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <unordered_map>
#include <vector>

namespace rocprofiler::cuda::timing
{
using source     = settings::timestamp_source;
using flush_mode = settings::flush_mode;

// Where kernel times come from (ROCPROFILER_CUDA_TIMESTAMPS, read once).
inline source
timestamp_source()
{
    return settings::read_once<settings::read_timestamp_source>();
}

// Who flushes CUPTI's activity buffers (ROCPROFILER_CUDA_FLUSH, read once; cupti_activity.hpp).
inline flush_mode
flush_policy()
{
    return settings::read_once<settings::read_flush_mode>();
}

// One execution handed to completion: its events, correlation ids and callback.
struct pending
{
    CUcontext                     ctx         = nullptr;
    CUevent                       start       = nullptr;
    CUevent                       end         = nullptr;
    uint32_t                      driver_id   = 0;
    uint32_t                      runtime_id  = 0;
    dispatch::completion_fn       on_complete = {};
    std::shared_ptr<clock_anchor> anchor      = {};
    bool                          gpu_done    = false;
    CUresult                      gpu_status  = CUDA_SUCCESS;
    uint64_t                      done_ns     = 0; // when the end event was seen complete
};

// `mutex`: the queue of executions handed to the completion thread and its bookkeeping.
struct completion_state
{
    std::mutex                           mutex      = {};
    std::condition_variable              cv         = {};
    std::condition_variable              idle_cv    = {};
    std::deque<std::shared_ptr<pending>> queue      = {};
    std::thread                          worker     = {};
    bool                                 started    = false;
    uint64_t                             delivering = 0; // taken off the queue, not yet delivered

    // records_mutex: CUPTI records (cupti mode), calibration entries, clocks' calibration, stats.
    std::mutex                                     records_mutex     = {};
    std::condition_variable                        records_cv        = {}; // a buffer was delivered
    uint64_t                                       buffers_delivered = 0;
    record_matcher                                 records           = {};
    std::deque<std::shared_ptr<calibration_entry>> calibration       = {};
    std::unordered_map<CUcontext, context_clock>   clocks            = {};
    timing_stats                                   stats             = {};
    uint64_t                                       last_flush_ns     = 0;

    std::mutex                                          pool_mutex = {};
    std::unordered_map<CUcontext, std::vector<CUevent>> pool       = {};
};

// The process's state, never destroyed (used at exit).
completion_state& get_state();

// A CUDA event of `ctx` from the pool (created when the pool is empty), or nullptr.
CUevent take_event(CUcontext ctx);

// Returns an event to the pool of `ctx` (nullptr is ignored).
void give_event(CUcontext ctx, CUevent event);
} // namespace rocprofiler::cuda::timing
