// Completion and timestamps of launches. Each execution gets a start and an end event on its
// stream; a completion thread waits for the end event, then takes the kernel's CUPTI activity
// record (CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, timestamps on CLOCK_MONOTONIC through
// cuptiActivityRegisterTimestampCallback) and calls the execution's completion. Without CUPTI the
// times come from the events (exact duration, end placed at the moment the completion thread saw
// the end event).
#pragma once

#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstdint>

namespace rocprofiler::cuda::timing
{
// Loads CUPTI and starts kernel activity collection, once. Safe to call on every launch.
void
initialize();

// True when kernel timestamps come from CUPTI.
bool
cupti_active();

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

private:
    CUcontext m_ctx    = nullptr;
    CUstream  m_stream = nullptr;
    CUevent   m_start  = nullptr;
    CUevent   m_end    = nullptr;
    bool      m_handed = false;
};

// Waits (bounded) until every execution handed over was completed. At finalization.
void
drain(uint64_t timeout_ns);
}  // namespace rocprofiler::cuda::timing
