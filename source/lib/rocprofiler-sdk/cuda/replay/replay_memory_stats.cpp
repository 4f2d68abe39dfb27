#include "cuda/replay/replay_memory_stats.hpp"
#include "common/static_object.hpp"

#include "cuda/interpose/settings_driver.hpp"

#include <cstdio>

namespace rocprofiler::cuda
{
namespace detail
{
namespace
{
struct stats_mutex_tag; // the statistics' own mutex, distinct from other std::mutex objects
} // namespace

std::mutex&
stats_mutex()
{
    return common::static_object<std::mutex, common::reset_order::never, stats_mutex_tag>::get();
}

replay_memory_stats&
stats_value()
{
    return common::static_object<replay_memory_stats, common::reset_order::never>::get();
}

phase_stats&
phases()
{
    return common::static_object<phase_stats, common::reset_order::never>::get();
}

} // namespace detail

namespace
{
// Bytes per nanosecond are GB/s (10^9 bytes per second).
double
gbps(uint64_t bytes, uint64_t ns)
{
    return ns != 0 ? static_cast<double>(bytes) / static_cast<double>(ns) : 0.0;
}
} // namespace

bool
stats_enabled()
{
    return settings::timing_stats();
}

void
print_memory_stats()
{
    if(!stats_enabled()) return;
    auto  lock = std::lock_guard{detail::stats_mutex()};
    auto& ph   = detail::phases();
    std::fprintf(stderr,
                 "[cuda-replay-memory] windows=%llu window_us_mean=%.1f drain_us_mean=%.1f "
                 "drain_us_max=%.1f snapshot_us_mean=%.1f snapshot_us_max=%.1f "
                 "restore_host_us_mean=%.1f restore_host_us_max=%.1f restore_gpu_us_mean=%.1f "
                 "restore_gpu_us_max=%.1f restore_gpu_samples=%llu release_us_mean=%.1f "
                 "release_us_max=%.1f stream_ordered=%llu host_synced=%llu pool_hits=%llu "
                 "pool_allocs=%llu pool_frees=%llu temp_blocks=%llu host_shadows=%llu "
                 "copy_calls=%llu batch_calls=%llu batch_failures=%llu drain_timeouts=%llu "
                 "drain_errors=%llu hash_calls=%llu hash_us_mean=%.1f hash_us_max=%.1f "
                 "hash_bytes=%llu hash_gbps=%.1f hash_failures=%llu compare_calls=%llu "
                 "compare_us_mean=%.1f compare_us_max=%.1f compare_bytes=%llu compare_gbps=%.1f "
                 "compare_failures=%llu\n",
                 static_cast<unsigned long long>(ph.window.count),
                 ph.window.mean_us(),
                 ph.drain.mean_us(),
                 ph.drain.max_ns / 1e3,
                 ph.snapshot.mean_us(),
                 ph.snapshot.max_ns / 1e3,
                 ph.restore_host.mean_us(),
                 ph.restore_host.max_ns / 1e3,
                 ph.restore_gpu.mean_us(),
                 ph.restore_gpu.max_ns / 1e3,
                 static_cast<unsigned long long>(ph.restore_gpu.count),
                 ph.release.mean_us(),
                 ph.release.max_ns / 1e3,
                 static_cast<unsigned long long>(ph.stream_ordered),
                 static_cast<unsigned long long>(ph.host_synced),
                 static_cast<unsigned long long>(ph.pool_hits),
                 static_cast<unsigned long long>(ph.pool_allocs),
                 static_cast<unsigned long long>(ph.pool_frees),
                 static_cast<unsigned long long>(ph.temp_blocks),
                 static_cast<unsigned long long>(ph.host_shadows),
                 static_cast<unsigned long long>(ph.copies),
                 static_cast<unsigned long long>(ph.batches),
                 static_cast<unsigned long long>(ph.batch_failures),
                 static_cast<unsigned long long>(ph.drain_timeouts),
                 static_cast<unsigned long long>(ph.drain_errors),
                 static_cast<unsigned long long>(ph.hash.count),
                 ph.hash.mean_us(),
                 ph.hash.max_ns / 1e3,
                 static_cast<unsigned long long>(ph.hash_bytes),
                 gbps(ph.hash_bytes, ph.hash.total_ns),
                 static_cast<unsigned long long>(ph.hash_failures),
                 static_cast<unsigned long long>(ph.compare.count),
                 ph.compare.mean_us(),
                 ph.compare.max_ns / 1e3,
                 static_cast<unsigned long long>(ph.compare_bytes),
                 gbps(ph.compare_bytes, ph.compare.total_ns),
                 static_cast<unsigned long long>(ph.compare_failures));
}
replay_memory_stats
memory_stats()
{
    auto lock = std::lock_guard{detail::stats_mutex()};
    return detail::stats_value();
}

} // namespace rocprofiler::cuda
