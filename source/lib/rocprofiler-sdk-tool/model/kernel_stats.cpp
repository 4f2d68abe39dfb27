#include "model/kernel_stats.hpp"
#include "model/domain_stats.hpp"
#include "untrusted/printable.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
uint64_t
recent_dispatches::number(uint64_t dispatch_id)
{
    auto [it, added] = m_seen.try_emplace(dispatch_id, 0);
    if(!added) return ++it->second;
    m_fifo.push_back(dispatch_id);
    if(m_fifo.size() > window)
    {
        m_seen.erase(m_fifo.front());
        m_fifo.pop_front();
    }
    return 0;
}

void
kernel_stats_accumulator::add(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    // A call is a logical dispatch: a further record of a recent dispatch id is a replay pass.
    if(m_recent.number(r.dispatch_info.dispatch_id) != 0) return;
    const auto duration =
        r.end_timestamp >= r.start_timestamp ? r.end_timestamp - r.start_timestamp : 0;
    auto& acc = m_kernels[r.dispatch_info.kernel_id];
    acc.calls += 1;
    acc.total += duration;
    acc.min = std::min(acc.min, duration);
    acc.max = std::max(acc.max, duration);
    acc.sum_sq += static_cast<double>(duration) * static_cast<double>(duration);
}

std::map<std::string, kernel_stats_accumulator::per_kernel>
kernel_totals_by_name(const kernel_stats_accumulator&                    stats,
                      const std::function<const std::string&(uint64_t)>& name_of)
{
    auto per_name = std::map<std::string, kernel_stats_accumulator::per_kernel>{};
    for(const auto& [kernel_id, k] : stats.kernels())
    {
        const auto& name = name_of(kernel_id);
        merge_totals(per_name[name.empty() ? "kernel_" + std::to_string(kernel_id) : name], k);
    }
    return per_name;
}

std::vector<kernel_stat>
merge_kernel_stats(const kernel_stats_accumulator&                    stats,
                   const std::function<const std::string&(uint64_t)>& name_of)
{
    return stat_rows(kernel_totals_by_name(stats, name_of));
}

std::string
format_summary(const std::vector<kernel_stat>& stats)
{
    // Names as a terminal line can hold them (control characters escaped).
    auto names = std::vector<std::string>{};
    auto width = size_t{4};
    for(const auto& s : stats)
        width = std::max(width, names.emplace_back(untrusted::printable(s.name)).size());
    width    = std::min<size_t>(width, 60);
    auto out = std::ostringstream{};
    out << "\nrocprofv3 kernel summary (" << stats.size() << " kernels)\n";
    out << std::left << std::setw(static_cast<int>(width)) << "NAME" << std::right << std::setw(10)
        << "CALLS" << std::setw(16) << "TOTAL_NS" << std::setw(14) << "AVERAGE_NS" << std::setw(9)
        << "PERCENT" << std::setw(12) << "MIN_NS" << std::setw(12) << "MAX_NS" << std::setw(12)
        << "STDDEV" << '\n';
    out << std::fixed << std::setprecision(2);
    for(size_t i = 0; i < stats.size(); ++i)
    {
        const auto& s    = stats[i];
        const auto& full = names[i];
        auto        name = full.size() > width ? full.substr(0, width - 3) + "..." : full;
        out << std::left << std::setw(static_cast<int>(width)) << name << std::right
            << std::setw(10) << s.calls << std::setw(16) << s.total_ns << std::setw(14)
            << s.average_ns << std::setw(9) << s.percentage << std::setw(12) << s.min_ns
            << std::setw(12) << s.max_ns << std::setw(12) << s.stddev_ns << '\n';
    }
    return out.str();
}
} // namespace rocprofiler::tool
