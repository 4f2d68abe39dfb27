// Clock anchors and calibration, for ROCPROFILER_CUDA_TIMESTAMPS=events (experimental): an
// execution's times come from its CUDA events, placed on the SDK clock through an anchor (an event
// on the SDK's own idle stream whose time on the SDK clock is known) and corrected by the
// calibration learned from CUPTI's kernel records, which arrive later and are waited for only for
// the first executions of a context. Measured on the H200, event brackets include the host's
// launch time on an idle stream, so they miss the 1 us target; docs/cuda.md has the numbers.
//
// Threading: the calibration lives in the timing state under its records_mutex
// (timing_state.hpp); functions here take that lock themselves unless they say otherwise.
#pragma once

#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstdint>
#include <deque>
#include <memory>

namespace rocprofiler::cuda::timing
{
struct pending;
struct completion_state;

// Medians of the last samples of a quantity (ns).
class sample_window
{
public:
    void add(int64_t value)
    {
        m_values.push_back(value);
        if(m_values.size() > 63) m_values.pop_front();
        ++m_count;
    }
    bool     empty() const { return m_values.empty(); }
    uint64_t count() const { return m_count; }
    int64_t  median() const
    {
        if(m_values.empty()) return 0;
        auto copy = std::vector<int64_t>{m_values.begin(), m_values.end()};
        std::nth_element(copy.begin(), copy.begin() + copy.size() / 2, copy.end());
        return copy[copy.size() / 2];
    }

private:
    std::deque<int64_t> m_values = {};
    uint64_t            m_count  = 0;
};

// An event whose time on the SDK clock is known: recorded on the SDK's own (idle) stream between
// two reads of the SDK clock.
struct clock_anchor
{
    CUevent  event          = nullptr;
    uint64_t ns             = 0; // the event's time on the SDK clock (midpoint of the bracket)
    uint64_t taken_ns       = 0; // when it was taken
    uint64_t uncertainty_ns = 0; // half the bracket
};

// One execution whose CUPTI record, when it arrives, calibrates event times (and checks them).
struct calibration_entry
{
    uint32_t  driver_id   = 0;
    uint32_t  runtime_id  = 0;
    int64_t   event_start = 0;     // the start event's time through the anchor
    int64_t   event_dur   = 0;     // elapsed(start event, end event)
    bool      calibrating = false; // waited for: not counted in the error statistics
    bool      matched     = false;
    bool      reported    = false;
    CUcontext ctx         = nullptr;
    int64_t   cupti_start = 0, cupti_end = 0;
    int64_t   rep_start = 0, rep_end = 0;
};

// Per context: the SDK's anchor stream, the current anchor, the calibration.
struct context_clock
{
    CUstream                      stream     = nullptr;
    std::shared_ptr<clock_anchor> current    = {};
    sample_window                 overhead   = {}; // event duration - CUPTI duration
    sample_window                 shift      = {}; // CUPTI start - start event (current anchor)
    uint64_t                      executions = 0;
};

// The current anchor of `ctx` (current on the calling thread); taken when there is none, or
// replaced when `refresh` and it is stale.
std::shared_ptr<clock_anchor> anchor_for(CUcontext ctx, bool refresh);

// Under records_mutex: a kernel record (correlation id `id`, CUPTI times) arrived; the calibration
// entry it belongs to, if any, takes it as a sample.
void match_calibration_record(completion_state& st, uint32_t id, int64_t start, int64_t end);

// Event times of a finished execution, on the SDK clock, calibrated. May wait (bounded) for the
// execution's CUPTI record while the context's calibration has too few samples.
void event_times(pending& p, dispatch::execution_result& result);

// A flush now and then, so that calibration samples keep arriving (events mode only, never more
// often than every 50 ms and only while samples are wanted).
void maybe_background_flush();
} // namespace rocprofiler::cuda::timing
