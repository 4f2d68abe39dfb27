// Every environment setting of the CUPTI side of the CUDA backend (counters, timestamps, CUPTI's
// library), each read by one function through the library's environment registry
// (common/environment.hpp): the accepted values and defaults are the registry's (docs/api.md), and
// a value it does not accept is reported once and gives the default. They read the environment on
// every call: the callers cache what must stay fixed for the process. Pure C++ (no CUDA or CUPTI
// header); docs/cuda.md describes what the settings do.
#pragma once

#include "cuda/settings.hpp"

#include <cstdint>
#include <optional>
#include <string>

namespace rocprofiler::cuda::settings
{
// The value of `read` at the first call, for the settings that stay fixed for the process.
template <auto read>
auto
read_once()
{
    static const auto value = read();
    return value;
}

// ROCPROFILER_CUDA_COUNTER_SCHEDULE: "dispatch" (default, also when unset or empty) measures the
// passes of a replayed dispatch as one CUPTI replay cycle (true); "pass" measures each pass's
// configuration by itself (false).
bool read_counter_schedule_per_dispatch();

// ROCPROFILER_CUDA_CACHE_CONTROL: "all" (default, also when unset or empty) flushes the GPU's
// caches before every counted execution (true); "none" does not (false).
bool read_cache_control_flush();

// ROCPROFILER_CUDA_RANGE_MODE: "user" gives true (a user range around each counted execution);
// "auto" (the default) gives false (CUPTI's auto range).
bool read_range_mode_user();

// ROCPROFILER_CUDA_COUNTER_BATCH: how many counted dispatches of a one-pass configuration that are
// not replayed share one range-profiler session (one range each) before it is decoded; 0 measures
// each by itself (default 128).
uint64_t read_counter_batch();

// The name of the metric filter of device `ordinal`: ROCPROFILER_CUDA_METRIC_FILTER_DEVICE<N>.
std::string metric_filter_variable(uint32_t ordinal);

// The regular expression of metric_filter_variable(ordinal), or nothing when unset, empty or not a
// valid expression (reported once).
std::optional<std::string> read_metric_filter(uint32_t ordinal);

// ROCPROFILER_CUDA_TIMING_STATS: on prints the timing statistics at exit (default off).
bool read_timing_stats();

// ROCPROFILER_CUDA_TIMESTAMPS: "events" (experimental) takes kernel times from CUDA events,
// calibrated against CUPTI's records; "cupti" (the default) waits for every execution's CUPTI
// record.
timestamp_source read_timestamp_source();

// ROCPROFILER_CUDA_FLUSH: "loop" (diagnostic) makes the completion thread flush CUPTI's buffers
// until a record arrives; "owner" (the default) leaves flushing to their owner
// (cupti_activity.hpp has the details).
flush_mode read_flush_mode();

// ROCPROFILER_CUDA_FLUSH_PERIOD_MS: CUPTI's worker flush period in ms (0: CUPTI's heuristics);
// `fallback` when unset or not valid.
uint64_t read_flush_period_ms(uint64_t fallback);

// ROCPROFILER_CUDA_BUFFER_RECORDS: kernel records per activity buffer (0: as many as fit);
// `fallback` when unset or not valid.
uint64_t read_buffer_records(uint64_t fallback);

// ROCPROFILER_CUDA_RECORD_WAIT_MS: how long (ms) a finished kernel waits for its CUPTI record
// before event times are used (default 500).
uint64_t read_record_wait_ms();

// ROCPROFILER_CUDA_PER_THREAD_BUFFERS: CUPTI's per-thread activity buffers on (1) or off (0);
// nothing (CUPTI's default, on) when unset or not valid.
std::optional<uint8_t> read_per_thread_buffers();

// ROCPROFILER_CUDA_CUPTI: off turns CUPTI's kernel activity off (timestamps from CUDA events);
// on (the default) leaves it on.
bool read_cupti_activity_enabled();

// ROCPROFILER_CUPTI_LIBRARY: the libcupti to open before the usual names, or nothing when unset
// or empty.
std::optional<std::string> read_cupti_library();
} // namespace rocprofiler::cuda::settings
