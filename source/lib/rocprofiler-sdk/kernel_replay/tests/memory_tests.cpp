// Memory across the loop: the tracker, snapshot before pass 0, restore before every further pass
// and never after the last one, and declines when no snapshot can be taken.
#include "harness.hpp"
#include "replay_env.hpp"

#include "common/logging.hpp"
#include "host/memory.hpp"

#include <cstdlib>
#include <string>

namespace replay_test
{
namespace
{
using memory_tests = replay_fixture;

TEST_F(memory_tests, tracker_is_on_once_replay_is_configured)
{
    auto before = rocprofiler::host::tracked();
    auto p      = add_problem{};
    auto after  = rocprofiler::host::tracked();
    EXPECT_EQ(after.allocations, before.allocations + 2);
    EXPECT_EQ(after.bytes, before.bytes + 2 * add_problem::n * sizeof(int32_t));
}

TEST_F(memory_tests, every_pass_starts_from_the_snapshot_and_the_last_is_not_restored)
{
    auto p         = targeted_add(4);
    auto entered   = 0;
    tool().on_pass = [&](payload_t&, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            ++entered;
            EXPECT_TRUE(p.initial()) << "memory restored before pass " << entered - 1;
        }
        else
        {
            EXPECT_TRUE(p.one_run()) << "the pass ran on restored memory";
        }
    };
    p.run();
    EXPECT_EQ(entered, 4);
    EXPECT_TRUE(p.one_run()) << "no restore after the last executed pass";
}

// The loop shapes a non-idempotent kernel must survive.
struct loop_case
{
    const char* name;
    uint64_t    pass_count;
    int         stop_after; // replay_continue returns 0 after this pass; -1: none
};

void
apply(const loop_case& c)
{
    replay_fixed(c.pass_count);
    continue_until(c.stop_after);
}

class non_idempotent : public replay_fixture, public ::testing::WithParamInterface<loop_case>
{
};

TEST_P(non_idempotent, add_in_place_leaves_one_run)
{
    auto p = targeted_add();
    apply(GetParam());
    p.run();
    EXPECT_TRUE(p.one_run());
}

TEST_P(non_idempotent, atomic_histogram_leaves_one_run)
{
    constexpr uint64_t n        = 4096;
    constexpr uint32_t bins     = 16;
    auto*              in       = device_alloc<uint32_t>(n);
    auto*              hist     = device_alloc<uint32_t>(bins);
    auto               expected = std::vector<uint32_t>(bins, 0);
    for(uint64_t i = 0; i < n; ++i)
    {
        in[i] = static_cast<uint32_t>((i * 7) % 13 + i / 1000);
        ++expected[in[i] % bins];
    }
    for(uint32_t i = 0; i < bins; ++i)
        hist[i] = 0;
    tool().targets = {device().histogram.handle};
    apply(GetParam());
    auto args = histogram_args{in, hist, n, bins};
    run_kernel(device().histogram, &args, sizeof(args), n / 64);
    for(uint32_t i = 0; i < bins; ++i)
        EXPECT_EQ(hist[i], expected[i]) << "bin " << i;
    rocprofiler_host_free(in);
    rocprofiler_host_free(hist);
}

TEST_P(non_idempotent, in_place_scan_leaves_one_run)
{
    constexpr uint64_t n = 1024;
    auto*              a = device_alloc<int64_t>(n);
    for(uint64_t i = 0; i < n; ++i)
        a[i] = static_cast<int64_t>(i + 1);
    tool().targets = {device().scan.handle};
    apply(GetParam());
    auto args = scan_args{a, n};
    run_kernel(device().scan, &args, sizeof(args), 1, 1);
    for(uint64_t i = 0; i < n; ++i)
        ASSERT_EQ(a[i], static_cast<int64_t>((i + 1) * (i + 2) / 2)) << "element " << i;
    rocprofiler_host_free(a);
}

INSTANTIATE_TEST_SUITE_P(loops,
                         non_idempotent,
                         ::testing::Values(loop_case{"fixed_2", 2, -1},
                                           loop_case{"fixed_3", 3, -1},
                                           loop_case{"fixed_7", 7, -1},
                                           loop_case{"early_exit", 6, 2},
                                           loop_case{"indefinite", 0, 4}),
                         [](const auto& info) { return std::string{info.param.name}; });

// Shadows may not use more than ROCPROFILER_REPLAY_HOST_BUDGET_MB: with 0 nothing fits.
TEST_F(memory_tests, snapshot_that_cannot_be_taken_declines_and_warns_once)
{
    auto p = targeted_add(3);
    replay_test::set_replay_env("ROCPROFILER_REPLAY_HOST_BUDGET_MB", "0");
    setenv("ROCPROFILER_LOG_LEVEL", "debug", 1);
    rocprofiler::common::log::reset_level_from_environment();
    ::testing::internal::CaptureStderr();
    for(int i = 0; i < 3; ++i)
        p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_HOST_BUDGET_MB");
    unsetenv("ROCPROFILER_LOG_LEVEL");
    rocprofiler::common::log::reset_level_from_environment();

    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_CONFIG, ROCPROFILER_CALLBACK_PHASE_ENTER).size(),
        3u);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_CONFIG, ROCPROFILER_CALLBACK_PHASE_EXIT).size(),
        3u)
        << "CONFIG EXIT still fires";
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_ENTER).size(),
        0u);
    // Three runs of a[i] += b[i]: each dispatch ran exactly once.
    for(uint64_t i = 0; i < add_problem::n; ++i)
        ASSERT_EQ(p.a[i], static_cast<int32_t>(i + 3 * (3 * i + 1)));

    auto count = [&err](const std::string& needle)
    {
        size_t n = 0;
        for(auto pos = err.find(needle); pos != std::string::npos; pos = err.find(needle, pos + 1))
            ++n;
        return n;
    };
    // Only this test declines for footprint_budget, so its first run in a process sees the first
    // warning; later runs (--gtest_repeat) see debug lines only.
    static auto first_run = true;
    EXPECT_EQ(count("outcome=declined reason=footprint_budget"), 3u) << err;
    EXPECT_EQ(count("[warning] [kernel-replay]"), first_run ? 1u : 0u) << "warned once per reason\n"
                                                                       << err;
    EXPECT_EQ(count("[debug] [kernel-replay] dispatch_id="), first_run ? 2u : 3u) << err;
    first_run = false;
}
} // namespace
} // namespace replay_test
