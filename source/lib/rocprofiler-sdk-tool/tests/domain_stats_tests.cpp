// The statistics of every domain (model/domain_stats.hpp): the sums per name and per domain, the
// summary groups and units.
#include "model/domain_stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

namespace
{
using rocprofiler::tool::domain_stats_accumulator;
using rocprofiler::tool::domain_totals;

std::vector<domain_totals>
sample_domains()
{
    auto acc = domain_stats_accumulator{};
    acc.add("MEMORY_COPY", "MEMORY_COPY_HOST_TO_DEVICE", 100, 130); // 30
    acc.add("MEMORY_COPY", "MEMORY_COPY_HOST_TO_DEVICE", 200, 210); // 10
    acc.add("MEMORY_COPY", "MEMORY_COPY_DEVICE_TO_HOST", 300, 360); // 60
    acc.add("MARKER_API", "outer", 0, 100);                         // 100
    acc.add("MARKER_API", "mark", 50, 40);                          // ends before it starts: 0
    auto out = std::vector<domain_totals>{};
    for(const auto& [domain, by_name] : acc.domains())
        out.push_back(domain_totals{domain, by_name});
    return out;
}
} // namespace

TEST(domain_stats, rows_per_name_sum_and_sort_by_total)
{
    const auto domains = sample_domains();
    ASSERT_EQ(domains.size(), 2u);
    EXPECT_EQ(domains[1].domain, "MEMORY_COPY");
    auto rows = rocprofiler::tool::stat_rows(domains[1].by_name);
    ASSERT_EQ(rows.size(), 2u);
    EXPECT_EQ(rows[0].name, "MEMORY_COPY_DEVICE_TO_HOST");
    EXPECT_EQ(rows[0].total_ns, 60u);
    EXPECT_EQ(rows[1].name, "MEMORY_COPY_HOST_TO_DEVICE");
    EXPECT_EQ(rows[1].calls, 2u);
    EXPECT_EQ(rows[1].total_ns, 40u);
    EXPECT_DOUBLE_EQ(rows[1].average_ns, 20.0);
    EXPECT_DOUBLE_EQ(rows[1].percentage, 40.0);
    EXPECT_EQ(rows[1].min_ns, 10u);
    EXPECT_EQ(rows[1].max_ns, 30u);
    EXPECT_DOUBLE_EQ(rows[1].stddev_ns, 10.0);
}

TEST(domain_stats, one_row_per_domain)
{
    auto rows = rocprofiler::tool::domain_rows(sample_domains());
    ASSERT_EQ(rows.size(), 2u);
    // A tie of totals (100 each) is ordered by name.
    EXPECT_EQ(rows[0].name, "MARKER_API");
    EXPECT_EQ(rows[0].calls, 2u);
    EXPECT_EQ(rows[0].min_ns, 0u);
    EXPECT_EQ(rows[1].name, "MEMORY_COPY");
    EXPECT_EQ(rows[1].calls, 3u);
    EXPECT_EQ(rows[1].total_ns, 100u);
    EXPECT_DOUBLE_EQ(rows[1].percentage, 50.0);
    EXPECT_EQ(rows[1].max_ns, 60u);
}

TEST(domain_stats, groups_match_whole_domain_names)
{
    const auto domains = sample_domains();
    auto       copies  = rocprofiler::tool::group_totals(domains, std::regex{"MEMORY_COPY"});
    EXPECT_EQ(copies.size(), 2u);
    EXPECT_TRUE(rocprofiler::tool::group_totals(domains, std::regex{"MEMORY"}).empty());
    auto both = rocprofiler::tool::group_totals(domains, std::regex{"MARKER_API|MEMORY_COPY"});
    EXPECT_EQ(both.size(), 4u);
}

TEST(domain_stats, units)
{
    auto unit = rocprofiler::tool::summary_unit::nsec;
    EXPECT_TRUE(rocprofiler::tool::parse_summary_unit("msec", unit));
    EXPECT_EQ(unit, rocprofiler::tool::summary_unit::msec);
    EXPECT_FALSE(rocprofiler::tool::parse_summary_unit("minutes", unit));
    EXPECT_EQ(unit, rocprofiler::tool::summary_unit::msec);
    auto rows  = std::vector<rocprofiler::tool::kernel_stat>(1);
    rows[0]    = {"k", 1, 2500000, 2500000.0, 100.0, 2500000, 2500000, 0.0};
    auto table = rocprofiler::tool::format_stats_table("t", rows, unit);
    EXPECT_NE(table.find("TOTAL_MSEC"), std::string::npos) << table;
    EXPECT_NE(table.find("2.500000"), std::string::npos) << table;
    table = rocprofiler::tool::format_stats_table("t", rows, rocprofiler::tool::summary_unit::nsec);
    EXPECT_NE(table.find("TOTAL_NS"), std::string::npos) << table;
    EXPECT_NE(table.find("2500000"), std::string::npos) << table;
}

TEST(domain_stats, summary_tables)
{
    auto request = rocprofiler::tool::summary_request{};
    auto text    = rocprofiler::tool::format_summary_tables(sample_domains(), request);
    EXPECT_NE(text.find("summary of MARKER_API, MEMORY_COPY (4 names)"), std::string::npos) << text;
    EXPECT_NE(text.find("summary per domain (2 domains)"), std::string::npos) << text;
    request.per_domain = true;
    request.groups.emplace_back("MEMORY_.*", std::regex{"MEMORY_.*"});
    text = rocprofiler::tool::format_summary_tables(sample_domains(), request);
    EXPECT_NE(text.find("summary of MARKER_API (2 names)"), std::string::npos) << text;
    EXPECT_NE(text.find("summary of MEMORY_COPY (2 names)"), std::string::npos) << text;
    EXPECT_NE(text.find("summary of the domains matching 'MEMORY_.*' (2 names)"), std::string::npos)
        << text;
}
