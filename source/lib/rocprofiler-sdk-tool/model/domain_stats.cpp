#include "model/domain_stats.hpp"
#include "untrusted/printable.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <utility>

namespace rocprofiler::tool
{
void
add_duration(duration_totals& totals, uint64_t start, uint64_t end)
{
    const auto duration = end >= start ? end - start : 0;
    totals.calls += 1;
    totals.total += duration;
    totals.min = std::min(totals.min, duration);
    totals.max = std::max(totals.max, duration);
    totals.sum_sq += static_cast<double>(duration) * static_cast<double>(duration);
}

void
merge_totals(duration_totals& into, const duration_totals& from)
{
    into.calls += from.calls;
    into.total += from.total;
    into.min = std::min(into.min, from.min);
    into.max = std::max(into.max, from.max);
    into.sum_sq += from.sum_sq;
}

void
domain_stats_accumulator::add(std::string_view   domain,
                              const std::string& name,
                              uint64_t           start,
                              uint64_t           end)
{
    auto it = m_domains.find(domain);
    if(it == m_domains.end()) it = m_domains.emplace(std::string{domain}, by_name{}).first;
    add_duration(it->second[name], start, end);
}

namespace
{
void
sort_rows(std::vector<kernel_stat>& rows)
{
    std::sort(rows.begin(),
              rows.end(),
              [](const auto& l, const auto& r)
              { return l.total_ns != r.total_ns ? l.total_ns > r.total_ns : l.name < r.name; });
}
} // namespace

kernel_stat
stat_row(const std::string& name, const duration_totals& acc, double all_total)
{
    auto s     = kernel_stat{};
    s.name     = name;
    s.calls    = acc.calls;
    s.total_ns = acc.total;
    s.average_ns =
        acc.calls > 0 ? static_cast<double>(acc.total) / static_cast<double>(acc.calls) : 0.0;
    s.percentage = all_total > 0 ? 100.0 * static_cast<double>(acc.total) / all_total : 0.0;
    s.min_ns     = acc.calls > 0 ? acc.min : 0;
    s.max_ns     = acc.max;
    auto var     = acc.calls > 0
                       ? acc.sum_sq / static_cast<double>(acc.calls) - s.average_ns * s.average_ns
                       : 0.0;
    s.stddev_ns  = var > 0 ? std::sqrt(var) : 0.0;
    return s;
}

std::vector<kernel_stat>
stat_rows(const std::map<std::string, duration_totals>& by_name)
{
    auto all_total = 0.0;
    for(const auto& [name, acc] : by_name)
        all_total += static_cast<double>(acc.total);
    auto out = std::vector<kernel_stat>{};
    for(const auto& [name, acc] : by_name)
        out.emplace_back(stat_row(name, acc, all_total));
    sort_rows(out);
    return out;
}

std::vector<kernel_stat>
domain_rows(const std::vector<domain_totals>& domains)
{
    auto per_domain = std::map<std::string, duration_totals>{};
    for(const auto& d : domains)
    {
        auto& acc = per_domain[d.domain];
        for(const auto& [name, totals] : d.by_name)
            merge_totals(acc, totals);
    }
    return stat_rows(per_domain);
}

std::map<std::string, duration_totals>
group_totals(const std::vector<domain_totals>& domains, const std::regex& group)
{
    auto out = std::map<std::string, duration_totals>{};
    for(const auto& d : domains)
    {
        if(!std::regex_match(d.domain, group)) continue;
        for(const auto& [name, totals] : d.by_name)
            merge_totals(out[name], totals);
    }
    return out;
}

bool
parse_summary_unit(std::string_view word, summary_unit& unit)
{
    if(word == "sec")
        unit = summary_unit::sec;
    else if(word == "msec")
        unit = summary_unit::msec;
    else if(word == "usec")
        unit = summary_unit::usec;
    else if(word == "nsec")
        unit = summary_unit::nsec;
    else
        return false;
    return true;
}

std::string
format_stats_table(const std::string&              title,
                   const std::vector<kernel_stat>& rows,
                   summary_unit                    unit)
{
    auto divisor = 1.0;
    auto suffix  = std::string{"NS"};
    switch(unit)
    {
    case summary_unit::sec:
        divisor = 1e9, suffix = "SEC";
        break;
    case summary_unit::msec:
        divisor = 1e6, suffix = "MSEC";
        break;
    case summary_unit::usec:
        divisor = 1e3, suffix = "USEC";
        break;
    case summary_unit::nsec:
        break;
    }
    // Names as a terminal line can hold them (control characters escaped).
    auto names = std::vector<std::string>{};
    auto width = size_t{4};
    for(const auto& s : rows)
        width = std::max(width, names.emplace_back(untrusted::printable(s.name)).size());
    width          = std::min<size_t>(width, 60);
    const auto w   = static_cast<int>(width);
    const auto in  = [&](double ns) { return ns / divisor; };
    auto       out = std::ostringstream{};
    out << '\n' << title << '\n';
    out << std::left << std::setw(w) << "NAME" << std::right << std::setw(10) << "CALLS"
        << std::setw(16) << "TOTAL_" + suffix << std::setw(14) << "AVERAGE_" + suffix
        << std::setw(9) << "PERCENT" << std::setw(12) << "MIN_" + suffix << std::setw(12)
        << "MAX_" + suffix << std::setw(12) << "STDDEV" << '\n';
    out << std::fixed;
    const auto precision = unit == summary_unit::nsec ? 2 : 6;
    for(size_t i = 0; i < rows.size(); ++i)
    {
        const auto& s    = rows[i];
        const auto& full = names[i];
        auto        name = full.size() > width ? full.substr(0, width - 3) + "..." : full;
        out << std::left << std::setw(w) << name << std::right << std::setw(10) << s.calls;
        if(unit == summary_unit::nsec)
            out << std::setw(16) << s.total_ns;
        else
            out << std::setprecision(precision) << std::setw(16)
                << in(static_cast<double>(s.total_ns));
        out << std::setprecision(precision) << std::setw(14) << in(s.average_ns)
            << std::setprecision(2) << std::setw(9) << s.percentage;
        if(unit == summary_unit::nsec)
            out << std::setw(12) << s.min_ns << std::setw(12) << s.max_ns;
        else
            out << std::setprecision(precision) << std::setw(12)
                << in(static_cast<double>(s.min_ns)) << std::setw(12)
                << in(static_cast<double>(s.max_ns));
        out << std::setprecision(precision) << std::setw(12) << in(s.stddev_ns) << '\n';
    }
    return out.str();
}

std::string
format_summary_tables(const std::vector<domain_totals>& domains, const summary_request& request)
{
    const auto title = [](const std::string& what, size_t rows)
    {
        return "rocprofv3 summary of " + what + " (" + std::to_string(rows) +
               (rows == 1 ? " name)" : " names)");
    };
    auto out = std::string{};
    if(request.per_domain)
    {
        for(const auto& d : domains)
        {
            auto rows = stat_rows(d.by_name);
            out += format_stats_table(title(d.domain, rows.size()), rows, request.unit);
        }
    }
    else
    {
        auto names = std::string{};
        for(const auto& d : domains)
            names += (names.empty() ? "" : ", ") + d.domain;
        auto rows = stat_rows(group_totals(domains, std::regex{".*"}));
        out +=
            format_stats_table(title(names.empty() ? std::string{"no domain"} : names, rows.size()),
                               rows,
                               request.unit);
    }
    if(domains.size() > 1 || request.per_domain)
    {
        auto rows = domain_rows(domains);
        out += format_stats_table("rocprofv3 summary per domain (" + std::to_string(rows.size()) +
                                      (rows.size() == 1 ? " domain)" : " domains)"),
                                  rows,
                                  request.unit);
    }
    for(const auto& [text, group] : request.groups)
    {
        auto rows = stat_rows(group_totals(domains, group));
        out += format_stats_table(
            title("the domains matching '" + text + "'", rows.size()), rows, request.unit);
    }
    return out;
}
} // namespace rocprofiler::tool
