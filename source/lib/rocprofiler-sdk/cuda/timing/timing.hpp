// Completion and timestamps of launches. Each execution gets a start and an end event on its
// stream. By default (ROCPROFILER_CUDA_TIMESTAMPS=cupti) the completion thread waits for each
// execution's CUPTI record; ROCPROFILER_CUDA_TIMESTAMPS=events (experimental) takes them from the
// events instead, calibrated against CUPTI's records. The parts behind this interface:
//   cupti_activity.hpp     CUPTI's kernel records and the launches' correlation ids
//   completion_thread.hpp  the thread that waits for kernels and calls the callbacks
//   event_calibration.hpp  clock anchors and the calibration of event times (events mode)
//   timing_state.hpp       what they share; timing_stats.hpp its statistics
#pragma once

#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstdint>
#include <memory>

namespace rocprofiler::cuda::timing
{
// Loads CUPTI and starts kernel activity collection, once. Safe to call on every launch.
void initialize();

// True when CUPTI is loaded and collecting kernel records.
bool cupti_active();

struct clock_anchor;

// One execution's marks, from just before to just after the driver call that launches it.
class execution_marks
{
public:
    // Records the start event on `stream`; the calling thread's correlation ids are reset.
    execution_marks(CUcontext ctx, CUstream stream);
    ~execution_marks();

    execution_marks(const execution_marks&)            = delete;
    execution_marks& operator=(const execution_marks&) = delete;

    // After a successful launch: records the end event and hands the execution to the completion
    // thread, which calls on_complete exactly once.
    void complete_after_kernel(dispatch::completion_fn on_complete);

    // After a successful launch of a kernel replay pass: records the end event, waits for it on
    // the calling thread and calls on_complete there, with the pass's timestamps.
    void complete_pass(dispatch::completion_fn on_complete);

private:
    CUcontext                     m_ctx    = nullptr;
    CUstream                      m_stream = nullptr;
    CUevent                       m_start  = nullptr;
    CUevent                       m_end    = nullptr;
    std::shared_ptr<clock_anchor> m_anchor = {};
    bool                          m_handed = false;
};

// Waits (bounded) until every execution handed over was completed. At finalization; prints the
// timing statistics when ROCPROFILER_CUDA_TIMING_STATS=1.
void drain(uint64_t timeout_ns);
} // namespace rocprofiler::cuda::timing
