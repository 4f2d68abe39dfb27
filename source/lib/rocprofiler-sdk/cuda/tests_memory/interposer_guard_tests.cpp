// The CUDA interposers' exception guard (cuda/interpose/interposer_guard.hpp): the application's
// call always gets the driver's answer, and the driver is never called twice for one call.
#include "cuda/interpose/interposer_guard.hpp"

#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

namespace rocprofiler::cuda
{
namespace
{
constexpr int driver_result = 7;

struct fake_driver
{
    int calls = 0;
    int call()
    {
        ++calls;
        return driver_result;
    }
};

TEST(interposer_guard, no_exception_returns_the_body_result)
{
    auto drv    = fake_driver{};
    auto result = guarded_interposer<int>(
        "test",
        [&](driver_call<int>& made) { return made.record(drv.call()) + 1; },
        [&] { return drv.call(); });
    EXPECT_EQ(result, driver_result + 1);
    EXPECT_EQ(drv.calls, 1);
}

TEST(interposer_guard, throw_before_the_driver_call_calls_the_driver_directly)
{
    auto drv    = fake_driver{};
    auto result = guarded_interposer<int>(
        "test.before",
        [&](driver_call<int>&) -> int { throw std::runtime_error{"sdk failed"}; },
        [&] { return drv.call(); });
    EXPECT_EQ(result, driver_result);
    EXPECT_EQ(drv.calls, 1);
}

TEST(interposer_guard, throw_after_the_driver_call_returns_its_result)
{
    auto drv    = fake_driver{};
    auto result = guarded_interposer<int>(
        "test.after",
        [&](driver_call<int>& made) -> int
        {
            made.record(drv.call());
            throw std::bad_alloc{};
        },
        [&] { return drv.call(); });
    EXPECT_EQ(result, driver_result);
    EXPECT_EQ(drv.calls, 1); // not launched or allocated twice
}

TEST(interposer_guard, any_exception_is_caught)
{
    auto drv = fake_driver{};
    for(int i = 0; i < 3; ++i) // a repeated failure is reported each time (logged once)
    {
        auto result = guarded_interposer<int>(
            "test.unknown",
            [&](driver_call<int>&) -> int { throw 42; },
            [&] { return drv.call(); });
        EXPECT_EQ(result, driver_result);
    }
    EXPECT_EQ(drv.calls, 3);
}

TEST(interposer_guard, the_last_recorded_result_wins)
{
    // An allocation retried after freeing shadow memory: the retry's result is the call's.
    auto result = guarded_interposer<int>(
        "test.retry",
        [&](driver_call<int>& made) -> int
        {
            made.record(2);
            made.record(0);
            throw std::runtime_error{"tracking failed"};
        },
        [] { return -1; });
    EXPECT_EQ(result, 0);
}
} // namespace
} // namespace rocprofiler::cuda
