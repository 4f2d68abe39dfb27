// Statistics for every traced domain, as AMD's rocprofv3 writes them: per name within a domain
// (memory_copy_stats.csv, marker_api_stats.csv, cuda_api_stats.csv, beside kernel_stats.csv) and
// one row per domain (domain_stats.csv), and the -S/-D/--summary-groups tables. The sums are
// kept per name as records arrive, in memory bounded by the number of names; no I/O, no lock.
#pragma once

#include "model/kernel_stats.hpp"

#include <cstdint>
#include <map>
#include <regex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
// The sums of one name's durations (the same as a kernel's).
using duration_totals = kernel_stats_accumulator::per_kernel;

// Adds one record lasting from @p start to @p end (0 when end precedes start).
void add_duration(duration_totals& totals, uint64_t start, uint64_t end);
// Adds @p from's sums to @p into.
void merge_totals(duration_totals& into, const duration_totals& from);

// AMD's domain names, as domain_stats.csv and the summaries show them.
inline constexpr std::string_view kernel_domain       = "KERNEL_DISPATCH";
inline constexpr std::string_view memory_copy_domain  = "MEMORY_COPY";
inline constexpr std::string_view marker_domain       = "MARKER_API";
inline constexpr std::string_view cuda_runtime_domain = "CUDA_RUNTIME_API";
inline constexpr std::string_view cuda_driver_domain  = "CUDA_DRIVER_API";

// Per domain, per name: the sums of the records of every domain but kernel dispatches (those are
// kernel_stats_accumulator's, which knows replay passes).
class domain_stats_accumulator
{
public:
    void add(std::string_view domain, const std::string& name, uint64_t start, uint64_t end);

    using by_name = std::map<std::string, duration_totals>;
    const std::map<std::string, by_name, std::less<>>& domains() const { return m_domains; }

private:
    std::map<std::string, by_name, std::less<>> m_domains = {};
};

// One domain's sums per name.
struct domain_totals
{
    std::string                            domain  = {};
    std::map<std::string, duration_totals> by_name = {};
};

// One row: @p totals under @p name, Percentage of @p all_total (0 when that is 0), the population
// standard deviation. The one place rocprofv3's statistics and `rocpd summary` compute a row.
kernel_stat stat_row(const std::string& name, const duration_totals& totals, double all_total);

// Rows per name, sorted by total duration (largest first), ties by name; Percentage is of the
// sum of all the rows' totals.
std::vector<kernel_stat> stat_rows(const std::map<std::string, duration_totals>& by_name);

// domain_stats.csv: one row per domain (its name in Name), its records' calls and durations
// together; Percentage is of all domains' total.
std::vector<kernel_stat> domain_rows(const std::vector<domain_totals>& domains);

// One --summary-groups table: every name of the domains whose name @p group matches (wholly),
// as one table. Empty when no domain matches.
std::map<std::string, duration_totals> group_totals(const std::vector<domain_totals>& domains,
                                                    const std::regex&                 group);

// The unit of the summary's duration columns (--summary-units).
enum class summary_unit
{
    sec,
    msec,
    usec,
    nsec,
};
// "sec", "msec", "usec" or "nsec"; false for any other word.
bool parse_summary_unit(std::string_view word, summary_unit& unit);

// One summary table under @p title, durations in @p unit.
std::string format_stats_table(const std::string&              title,
                               const std::vector<kernel_stat>& rows,
                               summary_unit                    unit);

// What -S/-D/--summary-groups print.
struct summary_request
{
    bool                                            per_domain = false; // -D
    std::vector<std::pair<std::string, std::regex>> groups     = {};    // --summary-groups
    summary_unit                                    unit       = summary_unit::nsec;
};

// The summary: one table of every domain's names together ("rocprofv3 summary of <domains>
// (<n> names)") and the domain table, or with per_domain one table per domain; then one table
// per group.
std::string format_summary_tables(const std::vector<domain_totals>& domains,
                                  const summary_request&            request);
} // namespace rocprofiler::tool
