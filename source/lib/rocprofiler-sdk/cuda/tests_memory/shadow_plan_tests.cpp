// The shadow layout and copy plan of CUDA kernel replay (cuda/replay/shadow_plan.hpp).
#include "cuda/replay/shadow_plan.hpp"

#include <gtest/gtest.h>

namespace rocprofiler::cuda
{
namespace
{
constexpr auto keep_all = [](const shadow_span&) { return true; };

TEST(shadow_layout, empty)
{
    const auto layout = layout_shadows({});
    EXPECT_TRUE(layout.shadows.empty());
    EXPECT_EQ(layout.total, 0u);
}

TEST(shadow_layout, separate_allocations_start_aligned)
{
    const auto layout = layout_shadows({{0x10000, 100}, {0x20000, 300}});
    ASSERT_EQ(layout.shadows.size(), 2u);
    EXPECT_EQ(layout.shadows[0].offset, 0u);
    EXPECT_EQ(layout.shadows[1].offset, 256u);
    EXPECT_EQ(layout.total, 768u); // 256 + 300, aligned up
}

TEST(shadow_layout, adjacent_allocations_stay_contiguous)
{
    const auto layout = layout_shadows({{0x10000, 100}, {0x10000 + 100, 50}, {0x30000, 8}});
    ASSERT_EQ(layout.shadows.size(), 3u);
    EXPECT_EQ(layout.shadows[1].offset, 100u);
    EXPECT_EQ(layout.shadows[2].offset, 256u);
    EXPECT_EQ(layout.total, 512u);
}

TEST(shadow_layout, copies_keep_the_address_modulo_the_alignment)
{
    // The compare kernel reads a range and its copy with the same aligned words.
    const auto layout = layout_shadows({{0x10005, 100}, {0x10005 + 100, 7}, {0x200f3, 300}});
    ASSERT_EQ(layout.shadows.size(), 3u);
    for(const auto& s : layout.shadows)
        EXPECT_EQ(s.offset % shadow_alignment, s.start % shadow_alignment) << s.start;
    EXPECT_EQ(layout.shadows[0].offset, 5u);
    EXPECT_EQ(layout.shadows[1].offset, 105u); // continues the previous copy
    EXPECT_EQ(layout.shadows[2].offset, 256u + 0xf3);
    EXPECT_EQ(layout.total, 1024u); // 256 + 0xf3 + 300 = 799, aligned up
}

TEST(copy_plan, one_copy_per_allocation_without_merging)
{
    const auto layout = layout_shadows({{0x10000, 100}, {0x10000 + 100, 50}});
    const auto ops    = plan_copies(layout.shadows, false, keep_all);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[1].app, 0x10000u + 100);
    EXPECT_EQ(ops[1].offset, 100u);
    EXPECT_EQ(ops[1].first, 1u);
    EXPECT_EQ(ops[1].count, 1u);
}

TEST(copy_plan, merging_joins_runs_contiguous_in_memory_and_shadow)
{
    const auto layout = layout_shadows({{0x10000, 100}, {0x10000 + 100, 50}, {0x30000, 8}});
    const auto ops    = plan_copies(layout.shadows, true, keep_all);
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].bytes, 150u);
    EXPECT_EQ(ops[0].first, 0u);
    EXPECT_EQ(ops[0].count, 2u);
    EXPECT_EQ(ops[1].app, 0x30000u);
    EXPECT_EQ(ops[1].first, 2u);
}

TEST(copy_plan, skipped_allocation_breaks_a_run)
{
    // A restore skips an allocation freed during the window; its neighbours are not joined across
    // the gap.
    const auto layout = layout_shadows({{0x10000, 100}, {0x10000 + 100, 50}, {0x10000 + 150, 10}});
    const auto ops =
        plan_copies(layout.shadows, true, [](const shadow_span& s) { return s.bytes != 50; });
    ASSERT_EQ(ops.size(), 2u);
    EXPECT_EQ(ops[0].count, 1u);
    EXPECT_EQ(ops[1].first, 2u);
    EXPECT_EQ(ops[1].bytes, 10u);
}

TEST(copy_plan, batch_rule)
{
    EXPECT_TRUE(use_batch(8, 8, false, false));
    EXPECT_FALSE(use_batch(7, 8, false, false));
    EXPECT_FALSE(use_batch(100, 0, false, false)); // 0: never
    EXPECT_FALSE(use_batch(100, 8, true, false));  // the legacy stream
    EXPECT_FALSE(use_batch(100, 8, false, true));  // a batch failed before
}
} // namespace
} // namespace rocprofiler::cuda
