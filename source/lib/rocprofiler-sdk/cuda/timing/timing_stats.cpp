#include "cuda/timing/timing_stats.hpp"

#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/replay/memory.hpp"
#include "cuda/timing/cupti_activity.hpp"
#include "cuda/timing/timing_state.hpp"

#include <cstdio>

namespace rocprofiler::cuda::timing
{
void
print_stats()
{
    auto& st       = get_state();
    auto  lock     = std::lock_guard{st.records_mutex};
    auto  overhead = int64_t{0}, shift = int64_t{0};
    auto  samples = uint64_t{0};
    for(auto& [ctx, clock] : st.clocks)
    {
        overhead = clock.overhead.median();
        shift    = clock.shift.median();
        samples += clock.overhead.count();
    }
    const auto  mem = memory_stats();
    const auto& s   = st.stats;
    std::fprintf(stderr,
                 "[cuda-timing] source=%s records=%llu flushes=%llu flush_us_total=%.1f "
                 "flush_us_max=%.1f cal_samples=%llu overhead_ns=%lld shift_ns=%lld "
                 "dur_err_ns_p50=%lld dur_err_ns_max=%lld start_err_ns_p50=%lld "
                 "start_err_ns_max=%lld err_samples=%zu cal_waits=%llu cal_wait_us_total=%.1f "
                 "cal_wait_timeouts=%llu anchors=%llu anchor_uncertainty_us_max=%.1f "
                 "pass_syncs=%llu snapshot_bytes_max=%zu restores=%llu restore_us_mean=%.1f "
                 "restore_us_max=%.1f flush_policy=%s flush_period_ms=%u buffer_records=%zu "
                 "pass_flushes=%llu record_wait_us_max=%.1f record_timeouts=%llu\n",
                 timestamp_source() == source::events ? "events" : "cupti",
                 static_cast<unsigned long long>(s.records),
                 static_cast<unsigned long long>(s.flushes),
                 s.flush_total_ns / 1e3,
                 s.flush_max_ns / 1e3,
                 static_cast<unsigned long long>(samples),
                 static_cast<long long>(overhead),
                 static_cast<long long>(shift),
                 static_cast<long long>(s.dur_err.quantile(0.5)),
                 static_cast<long long>(s.dur_err.quantile(1.0)),
                 static_cast<long long>(s.start_err.quantile(0.5)),
                 static_cast<long long>(s.start_err.quantile(1.0)),
                 s.dur_err.values.size(),
                 static_cast<unsigned long long>(s.cal_waits),
                 s.cal_wait_total_ns / 1e3,
                 static_cast<unsigned long long>(s.cal_wait_timeouts),
                 static_cast<unsigned long long>(s.anchors),
                 s.anchor_uncertainty_max_ns / 1e3,
                 static_cast<unsigned long long>(s.pass_syncs),
                 mem.max_snapshot_bytes,
                 static_cast<unsigned long long>(mem.restores),
                 mem.restores ? mem.restore_total_ns / 1e3 / mem.restores : 0.0,
                 mem.restore_max_ns / 1e3,
                 flush_policy() == flush_mode::loop ? "loop" : "owner",
                 flush_period_ms(),
                 buffer_records(),
                 static_cast<unsigned long long>(s.pass_flushes),
                 s.record_wait_max_ns / 1e3,
                 static_cast<unsigned long long>(s.record_timeouts));
}
} // namespace rocprofiler::cuda::timing
