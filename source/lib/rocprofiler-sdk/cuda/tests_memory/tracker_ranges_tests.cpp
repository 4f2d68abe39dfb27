// The ranges the CUDA allocation tracker reports for replay snapshots
// (cuda/replay/allocation_tracker.hpp): adjacent mappings of one virtual reservation are one range,
// separate allocations never join. The tracker is process-wide; each test uses addresses of its
// own.
#include "cuda/replay/allocation_tracker.hpp"

#include <gtest/gtest.h>

namespace rocprofiler::cuda
{
namespace
{
constexpr int device = 7; // no other test tracks memory of this device

std::vector<address_range>
ranges_in(uint64_t lo, uint64_t hi)
{
    auto out = std::vector<address_range>{};
    for(const auto& r : device_ranges(device))
        if(r.start >= lo && r.start < hi) out.push_back(r);
    return out;
}

TEST(tracker_ranges, adjacent_mappings_are_one_range)
{
    enable_allocation_tracking();
    const auto base = uint64_t{0x7000'0000'0000};
    track_vmm_create(101, 2 << 20, device);
    track_vmm_create(102, 2 << 20, device);
    track_vmm_create(103, 4 << 20, device);
    track_vmm_map(base, 2 << 20, 101);
    track_vmm_map(base + (2 << 20), 2 << 20, 102);
    track_vmm_map(base + (4 << 20), 4 << 20, 103);
    // Not readable until the application sets the access.
    EXPECT_TRUE(ranges_in(base, base + (64 << 20)).empty());
    track_vmm_access(base, 8 << 20, device);
    auto got = ranges_in(base, base + (64 << 20));
    ASSERT_EQ(got.size(), 1u);
    EXPECT_EQ(got[0].start, base);
    EXPECT_EQ(got[0].bytes, size_t{8} << 20);
    {
        const auto lock = tracker_lock{};
        EXPECT_TRUE(lock.inside_tracked(base + (1 << 20), 4 << 20));  // across two maps
        EXPECT_FALSE(lock.inside_tracked(base + (7 << 20), 2 << 20)); // past the end
    }

    // Unmapping the middle leaves two ranges.
    track_vmm_unmap(base + (2 << 20), 2 << 20);
    got = ranges_in(base, base + (64 << 20));
    ASSERT_EQ(got.size(), 2u);
    EXPECT_EQ(got[0].bytes, size_t{2} << 20);
    EXPECT_EQ(got[1].start, base + (4 << 20));
    {
        const auto lock = tracker_lock{};
        EXPECT_FALSE(lock.inside_tracked(base + (1 << 20), 4 << 20));
    }
    track_vmm_unmap(base, 8 << 20);
    EXPECT_TRUE(ranges_in(base, base + (64 << 20)).empty());
}

TEST(tracker_ranges, adjacent_allocations_stay_separate)
{
    enable_allocation_tracking();
    const auto base = uint64_t{0x7100'0000'0000};
    track_allocation(base, 4096, device);
    track_allocation(base + 4096, 4096, device);
    // A mapping right after an allocation does not join it either.
    track_vmm_create(201, 2 << 20, device);
    track_vmm_map(base + 8192, 2 << 20, 201);
    track_vmm_access(base + 8192, 2 << 20, device);
    const auto got = ranges_in(base, base + (64 << 20));
    ASSERT_EQ(got.size(), 3u);
    EXPECT_EQ(got[0].bytes, 4096u);
    EXPECT_EQ(got[1].bytes, 4096u);
    EXPECT_EQ(got[2].bytes, size_t{2} << 20);
    {
        // Containment still spans adjacent allocations (a restore of a range the engine joined).
        const auto lock = tracker_lock{};
        EXPECT_TRUE(lock.inside_tracked(base + 100, 8000));
        EXPECT_TRUE(lock.inside_tracked(base, 0));
    }
    track_free(base);
    track_free(base + 4096);
    track_vmm_unmap(base + 8192, 2 << 20);
    {
        const auto lock = tracker_lock{};
        EXPECT_FALSE(lock.inside_tracked(base + 100, 10));
    }
}

TEST(tracker_ranges, memory_of_another_context_is_left_out)
{
    enable_allocation_tracking();
    const auto base  = uint64_t{0x7300'0000'0000};
    auto*      mine  = reinterpret_cast<CUcontext>(uintptr_t{0x1000});
    auto*      other = reinterpret_cast<CUcontext>(uintptr_t{0x2000});
    track_allocation(base, 4096, device, mine);
    track_allocation(base + 65536, 4096, device, other);
    track_allocation(base + 131072, 4096, device); // every context (managed memory, mappings)
    auto in = [&](CUcontext ctx)
    {
        auto out = std::vector<address_range>{};
        for(const auto& r : device_ranges(device, ctx))
            if(r.start >= base && r.start < base + (1 << 20)) out.push_back(r);
        return out;
    };
    ASSERT_EQ(in(mine).size(), 2u);
    EXPECT_EQ(in(mine)[0].start, base);
    EXPECT_EQ(in(mine)[1].start, base + 131072);
    ASSERT_EQ(in(other).size(), 2u);
    EXPECT_EQ(in(other)[0].start, base + 65536);
    EXPECT_EQ(in(nullptr).size(), 3u);
    track_free(base);
    track_free(base + 65536);
    track_free(base + 131072);
}

TEST(tracker_ranges, maps_of_memory_created_before_tracking_are_not_tracked)
{
    enable_allocation_tracking();
    const auto base = uint64_t{0x7200'0000'0000};
    track_vmm_map(base, 2 << 20, 9999); // no cuMemCreate seen for this handle
    EXPECT_TRUE(ranges_in(base, base + (64 << 20)).empty());
}
} // namespace
} // namespace rocprofiler::cuda
