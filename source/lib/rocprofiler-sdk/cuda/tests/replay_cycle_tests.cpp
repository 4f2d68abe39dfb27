// The transition function of a dispatch's CUPTI replay cycle (replay_cycle.hpp), every state
// against every event, and the paths the per-dispatch schedule takes through it.
#include "cuda/counters/replay_cycle.hpp"

#include <gtest/gtest.h>

#include <array>

namespace
{
using rocprofiler::cuda::metrics::cycle_event;
using rocprofiler::cuda::metrics::cycle_phase;
using rocprofiler::cuda::metrics::is_open;
using rocprofiler::cuda::metrics::next_phase;

constexpr auto all_phases = std::array{cycle_phase::idle,
                                       cycle_phase::running,
                                       cycle_phase::interrupted,
                                       cycle_phase::complete,
                                       cycle_phase::ended};

TEST(replay_cycle, open_starts_a_cycle_from_any_phase)
{
    for(auto phase : all_phases)
        EXPECT_EQ(next_phase(phase, cycle_event::open), cycle_phase::running);
}

TEST(replay_cycle, an_interruption_matters_only_while_running)
{
    EXPECT_EQ(next_phase(cycle_phase::running, cycle_event::interrupt), cycle_phase::interrupted);
    for(auto phase : all_phases)
    {
        if(phase != cycle_phase::running)
        {
            EXPECT_EQ(next_phase(phase, cycle_event::interrupt), phase);
        }
    }
}

TEST(replay_cycle, abandon_ends_without_values_unless_never_opened)
{
    EXPECT_EQ(next_phase(cycle_phase::idle, cycle_event::abandon), cycle_phase::idle);
    for(auto phase : all_phases)
    {
        if(phase != cycle_phase::idle)
        {
            EXPECT_EQ(next_phase(phase, cycle_event::abandon), cycle_phase::ended);
        }
    }
}

TEST(replay_cycle, complete_gives_values_from_any_phase)
{
    for(auto phase : all_phases)
        EXPECT_EQ(next_phase(phase, cycle_event::complete), cycle_phase::complete);
}

TEST(replay_cycle, only_running_and_interrupted_cycles_are_open)
{
    EXPECT_FALSE(is_open(cycle_phase::idle));
    EXPECT_TRUE(is_open(cycle_phase::running));
    EXPECT_TRUE(is_open(cycle_phase::interrupted));
    EXPECT_FALSE(is_open(cycle_phase::complete));
    EXPECT_FALSE(is_open(cycle_phase::ended));
}

TEST(replay_cycle, a_dispatch_that_is_interrupted_then_reopens_and_completes)
{
    auto phase = cycle_phase::idle;
    phase      = next_phase(phase, cycle_event::open);
    phase      = next_phase(phase, cycle_event::interrupt); // another dispatch took the profiler
    ASSERT_EQ(phase, cycle_phase::interrupted);
    phase = next_phase(phase, cycle_event::abandon); // its next pass ends the cycle
    ASSERT_EQ(phase, cycle_phase::ended);
    phase = next_phase(phase, cycle_event::open);
    phase = next_phase(phase, cycle_event::complete);
    EXPECT_EQ(phase, cycle_phase::complete);
    // A later pass outside the finished cycle opens a new one.
    EXPECT_EQ(next_phase(phase, cycle_event::open), cycle_phase::running);
}

static_assert(next_phase(cycle_phase::running, cycle_event::interrupt) == cycle_phase::interrupted);
} // namespace
