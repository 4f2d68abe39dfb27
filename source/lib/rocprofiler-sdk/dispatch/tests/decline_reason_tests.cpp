// Every decline reason has one distinct name, and the name table is the inverse of the parser.
#include "dispatch/decline_reason.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace dp = rocprofiler::dispatch;

TEST(decline_reason, every_reason_has_a_distinct_name_that_parses_back)
{
    auto seen = std::set<std::string>{};
    for(int i = 0; i < static_cast<int>(dp::decline_reason::last); ++i)
    {
        const auto reason = static_cast<dp::decline_reason>(i);
        const auto text   = std::string{dp::name(reason)};
        EXPECT_FALSE(text.empty()) << i;
        EXPECT_NE(text, "unknown") << i;
        EXPECT_TRUE(seen.insert(text).second) << "duplicate name " << text;
        auto parsed = dp::decline_reason_by_name(text);
        ASSERT_TRUE(parsed.has_value()) << text;
        EXPECT_EQ(*parsed, reason) << text;
    }
    EXPECT_EQ(seen.size(), static_cast<size_t>(dp::decline_reason::last));
}

// The names are part of the documented log format: a tool or script that greps for them keeps
// working.
TEST(decline_reason, documented_names_are_stable)
{
    EXPECT_EQ(dp::name(dp::decline_reason::none), "none");
    EXPECT_EQ(dp::name(dp::decline_reason::footprint_budget), "footprint_budget");
    EXPECT_EQ(dp::name(dp::decline_reason::stream_capture), "stream_capture");
    EXPECT_EQ(dp::name(dp::decline_reason::collective_kernel), "collective_kernel");
    EXPECT_EQ(dp::name(dp::decline_reason::reentrant_dispatch), "reentrant_dispatch");
    EXPECT_EQ(dp::name(dp::decline_reason::indefinite_without_continue),
              "indefinite_without_continue");
    EXPECT_EQ(dp::name(dp::decline_reason::restore_failed), "restore_failed");
    EXPECT_EQ(dp::name(dp::decline_reason::graph_launch), "graph_launch");
    EXPECT_EQ(dp::name(dp::decline_reason::last), "unknown");
    EXPECT_FALSE(dp::decline_reason_by_name("unknown").has_value());
    EXPECT_FALSE(dp::decline_reason_by_name("").has_value());
}

TEST(decline_reason, only_the_tools_own_choices_are_not_problems)
{
    for(int i = 0; i < static_cast<int>(dp::decline_reason::last); ++i)
    {
        const auto reason = static_cast<dp::decline_reason>(i);
        const auto choice = reason == dp::decline_reason::not_requested ||
                            reason == dp::decline_reason::single_pass;
        EXPECT_EQ(dp::is_tool_choice(reason), choice) << dp::name(reason);
    }
}
