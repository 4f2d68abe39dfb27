// Replay memory statistics: the figures memory_stats() reports to the timing line, and the phase
// breakdown of replay windows that ROCPROFILER_CUDA_TIMING_STATS=1 prints at exit as one
// [cuda-replay-memory] line. Thread-safe (one lock).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>

namespace rocprofiler::cuda
{
// Replay memory statistics for ROCPROFILER_CUDA_TIMING_STATS: the largest snapshot (bytes), and the
// restores (count, total and largest time, ns). A restore waited for on the host is host-timed; a
// stream-ordered one (the host does not wait) is timed by events around its copies on the stream.
struct replay_memory_stats
{
    size_t   max_snapshot_bytes = 0;
    uint64_t restores           = 0;
    uint64_t restore_total_ns   = 0;
    uint64_t restore_max_ns     = 0;
};

replay_memory_stats memory_stats();

// One phase of replay windows: how often, total and longest time (ns).
struct phase
{
    uint64_t count    = 0;
    uint64_t total_ns = 0;
    uint64_t max_ns   = 0;

    void add(uint64_t ns)
    {
        count += 1;
        total_ns += ns;
        max_ns = std::max(max_ns, ns);
    }
    double mean_us() const { return count ? total_ns / 1e3 / count : 0.0; }
};

struct phase_stats
{
    phase    drain            = {};
    phase    snapshot         = {};
    phase    restore_host     = {}; // host time of restore() (enqueue only when stream-ordered)
    phase    restore_gpu      = {}; // event-timed copies of stream-ordered restores
    phase    release          = {};
    phase    hash             = {}; // hash(): host time, the kernel's round trip included
    phase    compare          = {}; // compare(): likewise
    uint64_t hash_bytes       = 0;  // bytes hashed (live ranges)
    uint64_t compare_bytes    = 0;  // bytes compared with their copies
    uint64_t hash_failures    = 0;
    uint64_t compare_failures = 0;
    phase    window           = {}; // drain start to release end
    uint64_t pool_hits        = 0;
    uint64_t pool_allocs      = 0;
    uint64_t pool_frees       = 0; // blocks freed: over the retain limit, grown, or memory pressure
    uint64_t temp_blocks      = 0; // the pool's block was in use: a block of the window's own
    uint64_t host_shadows     = 0;
    uint64_t stream_ordered   = 0; // snapshots queued on the launch stream
    uint64_t host_synced      = 0; // snapshots waited for on the SDK's stream
    uint64_t copies           = 0; // single copy calls
    uint64_t batches          = 0; // cuMemcpyBatchAsync calls
    uint64_t batch_failures   = 0;
    uint64_t drain_timeouts   = 0;
    uint64_t drain_errors     = 0;
};

// Whether ROCPROFILER_CUDA_TIMING_STATS asks for statistics.
bool stats_enabled();

// Prints the [cuda-replay-memory] line when statistics are on (a shutdown hook).
void print_memory_stats();

namespace detail
{
std::mutex&          stats_mutex();
replay_memory_stats& stats_value();
phase_stats&         phases();
} // namespace detail

// Calls fn(replay_memory_stats&, phase_stats&) under the statistics' lock.
template <typename Fn>
void
update_stats(Fn&& fn)
{
    auto lock = std::lock_guard{detail::stats_mutex()};
    fn(detail::stats_value(), detail::phases());
}
} // namespace rocprofiler::cuda
