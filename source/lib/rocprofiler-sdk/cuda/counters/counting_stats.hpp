// Where a counted execution's time goes: the mean microseconds of each phase of the range
// profiler's work (enable, set_config, flush, start, launch, stop, wait, decode, evaluate...), of
// the per-dispatch schedule and of the batched path. Printed at exit as one "[cuda-metrics]" line
// on stderr when ROCPROFILER_CUDA_TIMING_STATS=1. Counters are atomics: any thread may time a
// phase.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>

namespace rocprofiler::cuda::metrics
{
struct phase_stat
{
    std::atomic<uint64_t> ns    = 0;
    std::atomic<uint64_t> calls = 0;
};

struct phase_stats
{
    phase_stat enable, reenable, counter_data, set_config, flush, start, launch, stop, wait, decode,
        evaluate, total;
    // The per-dispatch schedule: executions that ran one pass of a CUPTI replay cycle, executions
    // answered from a finished cycle without counting, and finished cycles.
    phase_stat cycle_pass, from_cycle, cycles;
    // The batched path (counter_batch.hpp): executions put in a batch (their time on the launching
    // thread), sessions opened (SetConfig and Start), batches closed (Stop, wait, decode and every
    // evaluation), closes because the image was full, and executions whose range was lost.
    phase_stat batched, batch_open, batch_close, batch_full, batch_dropped;

    ~phase_stats(); // prints the line (when asked for and something was counted)
};

// The process's statistics, destroyed (and printed) at exit.
phase_stats& phases();

// Adds the time from its construction to its destruction, and one call, to a phase.
class phase_timer
{
public:
    explicit phase_timer(phase_stat& stat)
        : m_stat{stat}
        , m_start{std::chrono::steady_clock::now()}
    {
    }
    ~phase_timer()
    {
        const auto ns = std::chrono::duration_cast<std::chrono::nanoseconds>(
                            std::chrono::steady_clock::now() - m_start)
                            .count();
        m_stat.ns += static_cast<uint64_t>(ns);
        m_stat.calls += 1;
    }

    phase_timer(const phase_timer&)            = delete;
    phase_timer& operator=(const phase_timer&) = delete;

private:
    phase_stat&                           m_stat;
    std::chrono::steady_clock::time_point m_start;
};
} // namespace rocprofiler::cuda::metrics
