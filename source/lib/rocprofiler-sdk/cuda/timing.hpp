// Completion and timestamps of launches. Each execution gets a start and an end event on its
// stream. By default (ROCPROFILER_CUDA_TIMESTAMPS=cupti) the completion thread waits for each
// execution's CUPTI record. ROCPROFILER_CUDA_TIMESTAMPS=events (experimental) takes them from the
// events instead:
// cuEventElapsedTime against a clock anchor (an event on the SDK's own stream whose time on the
// SDK clock is known), corrected by a calibration learned from CUPTI's kernel records
// (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, on the SDK clock through
// cuptiActivityRegisterTimestampCallback), which arrive later and are never waited for except for
// the first executions of a context. Measured on the H200, event brackets include the host's
// launch time on an idle stream, so they miss the 1 us target; docs/cuda.md has the numbers.
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
struct calibration_entry;

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
