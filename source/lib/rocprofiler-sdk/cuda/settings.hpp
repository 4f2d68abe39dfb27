// The CUDA backend's environment variables: its table of the library's registry
// (common/environment.hpp), which the backend registers (device_backend::settings()) as it
// registers its devices, with the enums of its choice settings (one enum per setting). The
// accessors that read them are cupti/settings_cupti.hpp (CUPTI's side) and
// interpose/settings_driver.hpp (the driver's side); docs/api.md lists every table, docs/cuda.md
// says what they do. Pure C++: no CUDA or CUPTI header.
#pragma once

#include "common/environment.hpp"

#include <array>

namespace rocprofiler::cuda::settings
{
// The values of the choice settings.
enum class timestamp_source
{
    cupti,  // wait for every execution's CUPTI record
    events, // CUDA event times calibrated against later CUPTI records (experimental)
};
enum class flush_mode
{
    owner, // CUPTI's worker and the replaying thread flush; never a background thread
    loop,  // diagnostic: the completion thread flushes until the record arrives
};
enum class cache_control
{
    all,  // flush L2 before every counted execution
    none, // measure the caches as they are
};
enum class counter_schedule
{
    dispatch, // the passes of a replayed dispatch form one CUPTI replay cycle
    pass,     // each pass measures its own configuration
};
enum class range_mode
{
    automatic,
    user,
};
enum class shadow_placement
{
    automatic, // device memory when it fits, else pinned host memory
    device,
    host,
};

namespace table
{
namespace env = common::env;
using env::choice_name;

inline constexpr auto timestamp_source_names =
    std::array<choice_name, 2>{{{"cupti", 0}, {"events", 1}}};
inline constexpr auto flush_mode_names    = std::array<choice_name, 2>{{{"owner", 0}, {"loop", 1}}};
inline constexpr auto cache_control_names = std::array<choice_name, 2>{{{"all", 0}, {"none", 1}}};
inline constexpr auto counter_schedule_names =
    std::array<choice_name, 2>{{{"dispatch", 0}, {"pass", 1}}};
inline constexpr auto range_mode_names = std::array<choice_name, 2>{{{"auto", 0}, {"user", 1}}};
inline constexpr auto shadow_placement_names =
    std::array<choice_name, 3>{{{"auto", 0}, {"device", 1}, {"host", 2}}};

// clang-format off
inline constexpr auto cuda_agents                 = env::flag_or_unset("ROCPROFILER_CUDA_AGENTS", "only when the process has loaded the driver", "`1`: list CUDA devices even in a process that has not loaded the driver; `0`: never");
inline constexpr auto cupti_library               = env::text("ROCPROFILER_CUPTI_LIBRARY", "found by name", "path of libcupti, when it is not found by name");
inline constexpr auto cuda_cupti                  = env::flag("ROCPROFILER_CUDA_CUPTI", true, "`0`: no CUPTI; kernel timestamps come from CUDA events");
inline constexpr auto cuda_timestamps             = env::choice("ROCPROFILER_CUDA_TIMESTAMPS", timestamp_source_names, timestamp_source::cupti, "kernel timestamps from CUPTI records, or from events (experimental; docs/cuda.md)");
inline constexpr auto cuda_flush                  = env::choice("ROCPROFILER_CUDA_FLUSH", flush_mode_names, flush_mode::owner, "who flushes CUPTI's activity buffers; `loop` is a diagnostic (docs/cuda.md)");
inline constexpr auto cuda_flush_period_ms        = env::number_or_computed("ROCPROFILER_CUDA_FLUSH_PERIOD_MS", "1 (0 with ROCPROFILER_CUDA_FLUSH=loop)", {0, UINT32_MAX, "ms"}, "CUPTI's worker flush period (0: CUPTI's heuristics)");
inline constexpr auto cuda_buffer_records         = env::number_or_computed("ROCPROFILER_CUDA_BUFFER_RECORDS", "1 (0 with ROCPROFILER_CUDA_FLUSH=loop)", {0, UINT64_MAX, "records"}, "records per CUPTI activity buffer (0: as many as fit)");
inline constexpr auto cuda_record_wait_ms         = env::number("ROCPROFILER_CUDA_RECORD_WAIT_MS", 500, {0, env::max_scaled, "ms"}, "how long an execution waits for its CUPTI record before it takes event times");
inline constexpr auto cuda_per_thread_buffers     = env::flag_or_unset("ROCPROFILER_CUDA_PER_THREAD_BUFFERS", "CUPTI's default (1)", "CUPTI's per-thread activity buffers, for comparison");
inline constexpr auto cuda_timing_stats           = env::flag("ROCPROFILER_CUDA_TIMING_STATS", false, "`1`: print `[cuda-timing]`, `[cuda-replay-memory]` and `[cuda-metrics]` statistics at exit");
inline constexpr auto cuda_metric_filter_device   = env::indexed_regex_family("ROCPROFILER_CUDA_METRIC_FILTER_DEVICE", "every metric", "CUDA device N lists only the metrics whose name contains a match");
inline constexpr auto cuda_cache_control          = env::choice("ROCPROFILER_CUDA_CACHE_CONTROL", cache_control_names, cache_control::all, "`all`: flush L2 before every counted execution; `none`: measure caches as they are");
inline constexpr auto cuda_counter_schedule       = env::choice("ROCPROFILER_CUDA_COUNTER_SCHEDULE", counter_schedule_names, counter_schedule::dispatch, "`dispatch`: the counted passes of a replayed dispatch are one CUPTI replay cycle over the union of the agent's configurations (docs/cuda.md); `pass`: each pass measures its own configuration");
inline constexpr auto cuda_range_mode             = env::choice("ROCPROFILER_CUDA_RANGE_MODE", range_mode_names, range_mode::automatic, "CUPTI range of a counted execution");
inline constexpr auto cuda_counter_batch          = env::number("ROCPROFILER_CUDA_COUNTER_BATCH", 128, {0, 4096, "dispatches"}, "counted dispatches of a one-pass configuration that are not replayed (application replay) which share one CUPTI range-profiler session, one range each, decoded together (0: each is measured by itself)");
inline constexpr auto replay_shadow               = env::choice("ROCPROFILER_REPLAY_SHADOW", shadow_placement_names, shadow_placement::automatic, "where CUDA replay snapshots go (`auto`: device memory when it fits)");
inline constexpr auto replay_shadow_pool_mb       = env::number("ROCPROFILER_REPLAY_SHADOW_POOL_MB", 2048, {0, env::max_scaled, "MiB"}, "shadow memory a CUDA context keeps between replayed dispatches (0: free after each)");
inline constexpr auto replay_drain_spin_us        = env::number("ROCPROFILER_REPLAY_DRAIN_SPIN_US", 200, {0, env::max_scaled, "us"}, "how long the replaying thread polls for the CUDA drain before it sleeps");
inline constexpr auto replay_batch_min            = env::number("ROCPROFILER_REPLAY_BATCH_MIN", 8, {0, UINT64_MAX, "copies"}, "copies from which a CUDA snapshot goes in one `cuMemcpyBatchAsync` (0: never)");
inline constexpr auto replay_merge_adjacent       = env::flag("ROCPROFILER_REPLAY_MERGE_ADJACENT", false, "`1`: one CUDA copy over adjacent allocations (for allocators that carve one reservation)");
// clang-format on

// The table, in docs/api.md's order.
inline constexpr auto all = std::to_array<const env::setting*>({&cuda_agents.def,
                                                                &cupti_library.def,
                                                                &cuda_cupti.def,
                                                                &cuda_timestamps.def,
                                                                &cuda_flush.def,
                                                                &cuda_flush_period_ms.def,
                                                                &cuda_buffer_records.def,
                                                                &cuda_record_wait_ms.def,
                                                                &cuda_per_thread_buffers.def,
                                                                &cuda_timing_stats.def,
                                                                &cuda_metric_filter_device.def,
                                                                &cuda_cache_control.def,
                                                                &cuda_counter_schedule.def,
                                                                &cuda_range_mode.def,
                                                                &cuda_counter_batch.def,
                                                                &replay_shadow.def,
                                                                &replay_shadow_pool_mb.def,
                                                                &replay_drain_spin_us.def,
                                                                &replay_batch_min.def,
                                                                &replay_merge_adjacent.def});
} // namespace table
} // namespace rocprofiler::cuda::settings
