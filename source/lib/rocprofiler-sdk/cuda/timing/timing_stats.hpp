// Statistics of the timing layer (flushes, calibration, record waits, errors of event times
// against CUPTI's), printed at exit as one "[cuda-timing]" line on stderr when
// ROCPROFILER_CUDA_TIMING_STATS=1, with the memory backend's snapshot and restore figures.
//
// Threading: the statistics live in the timing state under its records_mutex (timing_state.hpp).
#pragma once

#include "cuda/cupti/settings_cupti.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprofiler::cuda::timing
{
// Absolute errors (ns) of reported times against CUPTI's, for the statistics.
struct error_stats
{
    std::vector<int64_t> values = {};
    void                 add(int64_t v)
    {
        if(values.size() < 100000) values.push_back(v < 0 ? -v : v);
    }
    int64_t quantile(double q) const
    {
        if(values.empty()) return -1;
        auto copy = values;
        std::sort(copy.begin(), copy.end());
        return copy[std::min(copy.size() - 1, static_cast<size_t>(q * copy.size()))];
    }
};

struct timing_stats
{
    uint64_t    flushes = 0, flush_total_ns = 0, flush_max_ns = 0;
    uint64_t    cal_waits = 0, cal_wait_total_ns = 0, cal_wait_timeouts = 0;
    uint64_t    anchors = 0, anchor_uncertainty_max_ns = 0;
    uint64_t    pass_syncs = 0, records = 0;
    uint64_t    pass_flushes       = 0; // flushes on a replaying thread
    uint64_t    record_wait_max_ns = 0; // end event seen -> record there (async path)
    uint64_t    record_timeouts    = 0; // records not there in time: event times
    error_stats dur_err            = {};
    error_stats start_err          = {};
};

// Whether the statistics are printed at exit (the setting, read once).
inline bool
stats_enabled()
{
    return settings::read_once<settings::read_timing_stats>();
}

// Prints the line. Takes records_mutex.
void print_stats();
} // namespace rocprofiler::cuda::timing
