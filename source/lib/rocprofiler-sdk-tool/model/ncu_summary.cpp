#include "model/ncu_summary.hpp"

#include <algorithm>
#include <cmath>

namespace rocprofiler::tool
{
namespace
{
template <typename Key>
std::vector<kernel_stat>
rows_of(const std::map<Key, kernel_stats_accumulator::per_kernel>& table,
        const std::function<std::string(const Key&)>&              name_of)
{
    auto rows  = std::vector<kernel_stat>{};
    auto total = uint64_t{0};
    for(const auto& [key, t] : table)
        total += t.total;
    for(const auto& [key, t] : table)
    {
        auto row       = kernel_stat{};
        row.name       = name_of(key);
        row.calls      = t.calls;
        row.total_ns   = t.total;
        row.average_ns = t.calls > 0 ? static_cast<double>(t.total) / t.calls : 0.0;
        row.percentage = total > 0 ? 100.0 * static_cast<double>(t.total) / total : 0.0;
        row.min_ns     = t.calls > 0 ? t.min : 0;
        row.max_ns     = t.max;
        const auto variance =
            t.calls > 0 ? t.sum_sq / t.calls - row.average_ns * row.average_ns : 0.0;
        row.stddev_ns = variance > 0.0 ? std::sqrt(variance) : 0.0;
        rows.push_back(std::move(row));
    }
    std::sort(rows.begin(),
              rows.end(),
              [](const kernel_stat& a, const kernel_stat& b)
              { return a.total_ns != b.total_ns ? a.total_ns > b.total_ns : a.name < b.name; });
    return rows;
}
} // namespace

void
ncu_summary::add_to(totals& t, uint64_t duration)
{
    ++t.calls;
    t.total += duration;
    t.min = std::min(t.min, duration);
    t.max = std::max(t.max, duration);
    t.sum_sq += static_cast<double>(duration) * static_cast<double>(duration);
}

void
ncu_summary::add(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r,
                 const std::string&                                         ranges)
{
    if(m_recent.number(r.dispatch_info.dispatch_id) != 0) return; // a replay pass
    const auto duration =
        r.end_timestamp > r.start_timestamp ? r.end_timestamp - r.start_timestamp : uint64_t{0};
    add_to(m_agents[r.dispatch_info.agent_id.handle], duration);
    add_to(m_ranges[ranges], duration);
}

std::string
ncu_summary::per_gpu(const std::function<std::string(uint64_t)>& agent_name) const
{
    return format_titled_summary(
        "agent",
        "agents",
        rows_of<uint64_t>(m_agents, [&](const uint64_t& id) { return agent_name(id); }));
}

std::string
ncu_summary::per_nvtx() const
{
    return format_titled_summary(
        "marker range",
        "range contexts",
        rows_of<std::string>(m_ranges, [](const std::string& name) { return name; }));
}

std::string
format_titled_summary(const std::string&              title,
                      const std::string&              what,
                      const std::vector<kernel_stat>& rows)
{
    // format_summary's table under another title: its first line names kernels.
    auto table = format_summary(rows);
    auto body  = table.find('\n', 1);
    return "\nrocprofv3 " + title + " summary (" + std::to_string(rows.size()) + " " + what + ")" +
           (body == std::string::npos ? std::string{"\n"} : table.substr(body));
}
} // namespace rocprofiler::tool
