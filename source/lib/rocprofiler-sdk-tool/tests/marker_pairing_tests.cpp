// Marker pairing (capture/marker_pairing.hpp): pushes and pops per thread, starts and stops by id.
#include "capture/marker_pairing.hpp"

#include <gtest/gtest.h>

namespace
{
using rocprofiler::tool::marker_event;
using rocprofiler::tool::process_ranges;
using rocprofiler::tool::thread_ranges;

marker_event
opened(const char* message, uint64_t at)
{
    auto e     = marker_event{};
    e.domain   = "MARKER_CORE_API";
    e.function = message;
    e.start    = at;
    e.end      = at;
    return e;
}

TEST(marker_pairing, a_pop_closes_the_innermost_push)
{
    auto stack = thread_ranges{};
    stack.push(opened("outer", 10));
    stack.push(opened("inner", 20));
    auto inner = stack.pop(30);
    ASSERT_TRUE(inner);
    EXPECT_EQ(inner->function, "inner");
    EXPECT_EQ(inner->start, 20u);
    EXPECT_EQ(inner->end, 30u);
    EXPECT_FALSE(inner->process_range);
    auto outer = stack.pop(40);
    ASSERT_TRUE(outer);
    EXPECT_EQ(outer->function, "outer");
    EXPECT_EQ(outer->start, 10u);
    EXPECT_EQ(outer->end, 40u);
    EXPECT_EQ(stack.open(), 0u);
}

TEST(marker_pairing, a_pop_without_a_push_is_ignored)
{
    auto stack = thread_ranges{};
    EXPECT_FALSE(stack.pop(5));
    stack.push(opened("a", 1));
    EXPECT_TRUE(stack.pop(2));
    EXPECT_FALSE(stack.pop(3));
}

TEST(marker_pairing, a_stop_closes_its_start_in_any_order)
{
    auto ranges = process_ranges{};
    ranges.start(7, opened("first", 100));
    ranges.start(8, opened("second", 110));
    EXPECT_EQ(ranges.open(), 2u);
    auto first = ranges.stop(7, 150);
    ASSERT_TRUE(first);
    EXPECT_EQ(first->function, "first");
    EXPECT_EQ(first->start, 100u);
    EXPECT_EQ(first->end, 150u);
    EXPECT_TRUE(first->process_range);
    auto second = ranges.stop(8, 160);
    ASSERT_TRUE(second);
    EXPECT_EQ(second->function, "second");
    EXPECT_TRUE(second->process_range);
    EXPECT_EQ(ranges.open(), 0u);
}

TEST(marker_pairing, a_stop_of_an_unknown_or_closed_range_is_ignored)
{
    auto ranges = process_ranges{};
    EXPECT_FALSE(ranges.stop(1, 10));
    ranges.start(1, opened("r", 5));
    EXPECT_TRUE(ranges.stop(1, 10));
    EXPECT_FALSE(ranges.stop(1, 20));
}

TEST(marker_pairing, a_range_left_open_is_never_closed)
{
    auto stack = thread_ranges{};
    stack.push(opened("never popped", 1));
    EXPECT_EQ(stack.open(), 1u);
    auto ranges = process_ranges{};
    ranges.start(3, opened("never stopped", 1));
    EXPECT_EQ(ranges.open(), 1u);
}
} // namespace
