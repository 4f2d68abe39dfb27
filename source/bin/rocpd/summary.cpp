// rocpd summary: per name and per domain, the calls, total, mean, min, max and stddev of the
// durations and each name's share of its domain's total; with --summary-by-rank the same per
// rank and the spread of the rank totals.
//
// The statistics are rocprofv3's (--stats): the same sums and the same row computation
// (model/domain_stats), the population standard deviation.
//
// Streamed: SQLite aggregates each database (GROUP BY name over a view), and only the per-name
// aggregates (count, sum, sum of squares, min, max) of each database reach this code, so memory
// grows with the distinct names times the databases, never with the rows.
#include "commands.hpp"
#include "job.hpp"
#include "tables.hpp"

#include "config/parse.hpp"
#include "model/domain_stats.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstdlib>
#include <limits>
#include <map>

namespace rocpd
{
namespace
{
struct domain_source
{
    const char* domain;
    const char* view;
};

constexpr domain_source sources[] = {
    {"kernel", "kernels"}, {"memory_copy", "memory_copies"}, {"region", "regions"}};

namespace tool = rocprofiler::tool;

// One name's sums (calls, total, sum of squares, min, max), combined across databases: the
// statistics rocprofv3 keeps for --stats, computed by the same code (model/domain_stats).
using by_name = std::map<std::string, tool::duration_totals>;

tool::duration_totals
sum_of(const by_name& names)
{
    auto all = tool::duration_totals{};
    for(const auto& [name, totals] : names)
        tool::merge_totals(all, totals);
    return all;
}

std::vector<cell>
stat_cells(const tool::kernel_stat& s, bool with_percent)
{
    auto out = std::vector<cell>{static_cast<int64_t>(s.calls),
                                 static_cast<int64_t>(s.total_ns),
                                 s.average_ns,
                                 s.calls > 0 ? cell{static_cast<int64_t>(s.min_ns)} : cell{},
                                 s.calls > 0 ? cell{static_cast<int64_t>(s.max_ns)} : cell{},
                                 s.stddev_ns};
    if(with_percent) out.emplace_back(s.percentage);
    return out;
}

const std::vector<std::string> stat_columns = {
    "calls", "total_ns", "mean_ns", "min_ns", "max_ns", "stddev_ns", "percent"};

// Ranks in numeric order when they are numbers ("2" before "10"), else as text.
bool
rank_less(const std::string& a, const std::string& b)
{
    char*      end_a = nullptr;
    char*      end_b = nullptr;
    const auto na    = std::strtoll(a.c_str(), &end_a, 10);
    const auto nb    = std::strtoll(b.c_str(), &end_b, 10);
    const bool num_a = !a.empty() && *end_a == '\0';
    const bool num_b = !b.empty() && *end_b == '\0';
    if(num_a != num_b) return num_a;
    if(num_a) return na < nb;
    return a < b;
}

// SQLite function rocpd_truncated_name(name): the kernel's base name, as rocprofv3
// --truncate-kernels shows it (AMD's --truncate-kernels).
void
truncated_name(sqlite3_context* context, int, sqlite3_value** argv)
{
    const auto* text = sqlite3_value_text(argv[0]);
    if(text == nullptr)
    {
        sqlite3_result_null(context);
        return;
    }
    const auto name = tool::parse::format_kernel_name(
        std::string{reinterpret_cast<const char*>(text),
                    static_cast<size_t>(sqlite3_value_bytes(argv[0]))},
        true,
        true);
    sqlite3_result_text(context, name.c_str(), static_cast<int>(name.size()), SQLITE_TRANSIENT);
}

// The rows a domain is summed over (name, duration and the times the window filters), as a
// FROM clause: the kernels by the name form asked for, the regions of the categories asked for.
std::string
source_rows(const domain_source& source, const arguments& args)
{
    const auto domain = std::string{source.domain};
    if(domain == "kernel" && args.kernel_names == kernel_name_form::mangled)
        return "(SELECT COALESCE(NULLIF(ks.kernel_name, ''), k.name) AS name, k.duration, k.start, "
               "k.\"end\" FROM kernels AS k LEFT JOIN rocpd_info_kernel_symbol AS ks ON ks.id = "
               "k.kernel_id AND ks.guid = k.guid)";
    if(domain == "kernel" && args.kernel_names == kernel_name_form::truncated)
        return "(SELECT rocpd_truncated_name(name) AS name, duration, start, \"end\" FROM kernels)";
    if(domain != "region" || !args.region_categories_given) return source.view;
    // Categories are [A-Z0-9_] (arguments.cpp); '_' is escaped for LIKE.
    auto match = std::string{};
    for(const auto& c : args.region_categories)
    {
        auto pattern = std::string{};
        for(char ch : c)
            pattern += ch == '_' ? std::string{"\\_"} : std::string{ch};
        match += (match.empty() ? "" : " OR ") + std::string{"UPPER(category) = '"} + c +
                 "' OR UPPER(category) LIKE '" + pattern + "\\_%' ESCAPE '\\'";
    }
    return "(SELECT * FROM regions WHERE " + match + ")";
}

// Whether --region-categories keeps @p domain (AMD's rule: given categories keep the views they
// name and the regions of the others; NONE keeps every view and no region).
bool
kept_by_categories(const std::string& domain, const arguments& args)
{
    if(!args.region_categories_given) return true;
    const auto& cats = args.region_categories;
    const auto  has  = [&cats](const char* c)
    { return std::find(cats.begin(), cats.end(), c) != cats.end(); };
    if(has("NONE")) return domain != "region";
    if(domain == "kernel") return has("KERNEL") || has("KERNELS");
    if(domain == "memory_copy") return has("MEMORY_COPY") || has("MEMORY_COPIES");
    return std::any_of(cats.begin(),
                       cats.end(),
                       [](const std::string& c) {
                           return c != "KERNEL" && c != "KERNELS" && c != "MEMORY_COPY" &&
                                  c != "MEMORY_COPIES";
                       });
}

double
median(std::vector<int64_t> values)
{
    std::sort(values.begin(), values.end());
    const auto n = values.size();
    if(n == 0) return 0.0;
    if(n % 2 == 1) return static_cast<double>(values[n / 2]);
    return (static_cast<double>(values[n / 2 - 1]) + static_cast<double>(values[n / 2])) / 2.0;
}
} // namespace

int
run_summary(const arguments& args)
{
    const auto the_job = job{args};
    const auto window  = the_job.window(args);
    auto       domains = std::vector<std::string>{};
    for(const auto& name : args.domains)
        if(kept_by_categories(name, args)) domains.push_back(name);

    // domain -> name -> sums, over the job and per rank.
    auto overall = std::map<std::string, by_name>{};
    auto ranks   = std::map<std::string, std::map<std::string, by_name>>{};
    the_job.each_database(
        [&](const input_database& db)
        {
            const auto rank = the_job.rank_of(db);
            auto&      mine = ranks[rank];
            if(args.kernel_names == kernel_name_form::truncated &&
               sqlite3_create_function(db.handle(),
                                       "rocpd_truncated_name",
                                       1,
                                       SQLITE_UTF8 | SQLITE_DETERMINISTIC,
                                       nullptr,
                                       truncated_name,
                                       nullptr,
                                       nullptr) != SQLITE_OK)
                db.fail(
                    SQLITE_ERROR, "cannot add the truncated-name function", exit_code::internal);
            for(const auto& source : sources)
            {
                if(std::find(domains.begin(), domains.end(), source.domain) == domains.end())
                    continue;
                auto& all  = overall[source.domain];
                auto& here = mine[source.domain];
                // A record that ends before it starts lasts 0, as rocprofv3's statistics
                // count it.
                db.each_row(std::string{"SELECT name, COUNT(*), SUM(d), SUM(CAST(d AS REAL) * d), "
                                        "MIN(d), MAX(d) FROM (SELECT name, MAX(duration, 0) AS d "
                                        "FROM "} +
                                source_rows(source, args) + " WHERE 1" + window_filter(window, "") +
                                ") GROUP BY name",
                            [&](sqlite3_stmt* s)
                            {
                                auto a          = tool::duration_totals{};
                                a.calls         = static_cast<uint64_t>(sqlite3_column_int64(s, 1));
                                a.total         = static_cast<uint64_t>(sqlite3_column_int64(s, 2));
                                a.sum_sq        = sqlite3_column_double(s, 3);
                                a.min           = static_cast<uint64_t>(sqlite3_column_int64(s, 4));
                                a.max           = static_cast<uint64_t>(sqlite3_column_int64(s, 5));
                                const auto name = column_text(s, 0);
                                tool::merge_totals(all[name], a);
                                tool::merge_totals(here[name], a);
                            });
            }
        });

    auto tables = std::vector<table>{};
    auto domain = table{"domain_summary", {"domain"}, {}};
    domain.columns.insert(domain.columns.end(), stat_columns.begin(), stat_columns.end() - 1);
    for(const auto& name : domains)
    {
        const auto& names = overall[name];
        const auto  total = sum_of(names);
        auto        t     = table{name + "_summary", {"name"}, {}};
        t.columns.insert(t.columns.end(), stat_columns.begin(), stat_columns.end());
        for(const auto& stat : tool::stat_rows(names))
        {
            auto row = std::vector<cell>{stat.name};
            for(auto& c : stat_cells(stat, true))
                row.emplace_back(std::move(c));
            t.rows.emplace_back(std::move(row));
        }
        tables.emplace_back(std::move(t));
        auto row   = std::vector<cell>{name};
        auto cells = stat_cells(tool::stat_row(name, total, 0.0), false);
        row.insert(row.end(), cells.begin(), cells.end());
        domain.rows.emplace_back(std::move(row));
    }
    tables.insert(tables.begin(), std::move(domain));

    if(args.by_rank)
    {
        auto order = std::vector<std::string>{};
        for(const auto& [rank, domains] : ranks)
            order.emplace_back(rank);
        std::sort(order.begin(), order.end(), rank_less);
        auto spread = table{"rank_spread",
                            {"domain",
                             "ranks",
                             "min_rank_total_ns",
                             "median_rank_total_ns",
                             "max_rank_total_ns",
                             "slowest_rank"},
                            {}};
        for(const auto& name : domains)
        {
            auto t = table{name + "_summary_by_rank", {"rank", "name"}, {}};
            t.columns.insert(t.columns.end(), stat_columns.begin(), stat_columns.end());
            auto totals  = std::vector<int64_t>{};
            auto slowest = std::string{};
            auto most    = std::numeric_limits<int64_t>::min();
            for(const auto& rank : order)
            {
                const auto& names = ranks[rank][name];
                const auto  total = static_cast<int64_t>(sum_of(names).total);
                totals.push_back(total);
                // The first of equal totals in rank order is named.
                if(total > most)
                {
                    most    = total;
                    slowest = rank;
                }
                for(const auto& stat : tool::stat_rows(names))
                {
                    auto row = std::vector<cell>{rank, stat.name};
                    for(auto& c : stat_cells(stat, true))
                        row.emplace_back(std::move(c));
                    t.rows.emplace_back(std::move(row));
                }
            }
            tables.emplace_back(std::move(t));
            // A domain no rank spent time in has no slowest rank (NULL), rather than rank 0.
            auto slowest_cell = most > 0 ? cell{slowest} : cell{};
            spread.rows.push_back({name,
                                   static_cast<int64_t>(order.size()),
                                   *std::min_element(totals.begin(), totals.end()),
                                   median(totals),
                                   *std::max_element(totals.begin(), totals.end()),
                                   std::move(slowest_cell)});
        }
        tables.emplace_back(std::move(spread));
    }
    write_tables(args, tables, "rocpd_summary");
    return 0;
}
} // namespace rocpd
