#include "cuda/timing/record_matcher.hpp"

#include <gtest/gtest.h>

using rocprofiler::cuda::kernel_times;
using rocprofiler::cuda::record_matcher;

TEST(record_matcher, matches_driver_id_first_then_runtime_id)
{
    auto m = record_matcher{};
    m.add(7, kernel_times{10, 20});
    m.add(9, kernel_times{30, 40});
    EXPECT_TRUE(m.has(9, 0));
    auto by_runtime = m.take(100, 7); // driver id unknown to CUPTI: the runtime id matches
    ASSERT_TRUE(by_runtime);
    EXPECT_EQ(by_runtime->start_ns, 10u);
    auto by_driver = m.take(9, 7);
    ASSERT_TRUE(by_driver);
    EXPECT_EQ(by_driver->end_ns, 40u);
    EXPECT_FALSE(m.take(9, 7));
    EXPECT_EQ(m.unclaimed(), 0u);
}

TEST(record_matcher, passes_sharing_a_runtime_id_match_in_order)
{
    auto m = record_matcher{};
    for(uint64_t pass = 0; pass < 3; ++pass)
        m.add(5, kernel_times{pass * 100, pass * 100 + 50});
    for(uint64_t pass = 0; pass < 3; ++pass)
    {
        auto t = m.take(0, 5);
        ASSERT_TRUE(t);
        EXPECT_EQ(t->start_ns, pass * 100);
    }
    EXPECT_FALSE(m.has(0, 5));
}

TEST(record_matcher, zero_ids_never_match)
{
    auto m = record_matcher{};
    m.add(0, kernel_times{1, 2});
    EXPECT_FALSE(m.has(0, 0));
    EXPECT_FALSE(m.take(0, 0));
}

TEST(record_matcher, unclaimed_records_are_bounded_oldest_first)
{
    auto m = record_matcher{4};
    for(uint32_t id = 1; id <= 10; ++id)
        m.add(id, kernel_times{id, id});
    EXPECT_EQ(m.unclaimed(), 4u);
    EXPECT_FALSE(m.has(6, 0));
    EXPECT_TRUE(m.has(7, 0));
    EXPECT_TRUE(m.take(10, 0));
    m.add(11, kernel_times{11, 11});
    EXPECT_EQ(m.unclaimed(), 4u);
    EXPECT_TRUE(m.has(7, 0));
}
