#include "cuda/counters/counting_stats.hpp"

#include "cuda/cupti/settings_cupti.hpp"

#include <cstdio>

namespace rocprofiler::cuda::metrics
{
phase_stats::~phase_stats()
{
    if(!settings::read_timing_stats() || total.calls.load() == 0) return;
    auto mean = [](const phase_stat& p)
    {
        const auto n = p.calls.load();
        return n == 0 ? 0.0 : static_cast<double>(p.ns.load()) / 1e3 / static_cast<double>(n);
    };
    std::fprintf(stderr,
                 "[cuda-metrics] executions=%llu total_us_mean=%.1f enable_us_mean=%.1f "
                 "reenables=%llu reenable_us_mean=%.1f counter_data_us_mean=%.1f "
                 "set_config_us_mean=%.1f flush_us_mean=%.1f start_us_mean=%.1f "
                 "launch_us_mean=%.1f stop_us_mean=%.1f wait_us_mean=%.1f decode_us_mean=%.1f "
                 "evaluate_us_mean=%.1f cycles=%llu cycle_passes=%llu cycle_pass_us_mean=%.1f "
                 "from_cycle=%llu batched=%llu batched_us_mean=%.1f batch_sessions=%llu "
                 "batch_open_us_mean=%.1f batch_closes=%llu batch_close_us_mean=%.1f "
                 "batch_full=%llu batch_dropped=%llu\n",
                 static_cast<unsigned long long>(total.calls.load()),
                 mean(total),
                 mean(enable),
                 static_cast<unsigned long long>(reenable.calls.load()),
                 mean(reenable),
                 mean(counter_data),
                 mean(set_config),
                 mean(flush),
                 mean(start),
                 mean(launch),
                 mean(stop),
                 mean(wait),
                 mean(decode),
                 mean(evaluate),
                 static_cast<unsigned long long>(cycles.calls.load()),
                 static_cast<unsigned long long>(cycle_pass.calls.load()),
                 mean(cycle_pass),
                 static_cast<unsigned long long>(from_cycle.calls.load()),
                 static_cast<unsigned long long>(batched.calls.load()),
                 mean(batched),
                 static_cast<unsigned long long>(batch_open.calls.load()),
                 mean(batch_open),
                 static_cast<unsigned long long>(batch_close.calls.load()),
                 mean(batch_close),
                 static_cast<unsigned long long>(batch_full.calls.load()),
                 static_cast<unsigned long long>(batch_dropped.calls.load()));
}

phase_stats&
phases()
{
    static auto value = phase_stats{}; // destroyed at exit, when it prints
    return value;
}
} // namespace rocprofiler::cuda::metrics
