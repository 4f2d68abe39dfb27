// Completion of launches: when an execution's kernel has finished (its end event) and, in cupti
// mode, its CUPTI record has arrived (or was waited for long enough,
// ROCPROFILER_CUDA_RECORD_WAIT_MS), its times are computed and its callback is called, once. The
// completion thread does this for executions handed over (hand_over); a replay pass does it on its
// own thread with ready() and deliver().
//
// Threading: the completion thread is started by the first hand_over() and lives until exit
// (drain() empties its queue at finalization); it calls the callbacks.
#pragma once

#include "cuda/timing/timing_state.hpp"

#include <chrono>
#include <cstdint>
#include <memory>

namespace rocprofiler::cuda::timing
{
// Queues a launched execution for the completion thread.
void hand_over(std::shared_ptr<pending> p);

// Whether a finished execution can be delivered: its end event completed and, in cupti mode with
// CUPTI on and the kernel successful, its record is there or was waited for long enough.
bool ready(pending& p);

// Computes the execution's times, returns its events to the pool and calls its callback.
void deliver(const std::shared_ptr<pending>& p);

// The number of buffers CUPTI delivered so far.
uint64_t delivered_buffers();

// Waits until CUPTI delivers another buffer after `seen`, at most `timeout`.
void wait_for_buffer(uint64_t seen, std::chrono::microseconds timeout);
} // namespace rocprofiler::cuda::timing
