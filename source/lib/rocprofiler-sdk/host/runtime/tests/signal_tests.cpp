#include "test_support.hpp"

#include <chrono>
#include <thread>

namespace host = rocprofiler::host;
using host::test::make_params;
using host::test::patience;

namespace
{
constexpr auto patience_ns = std::chrono::nanoseconds{patience}.count();
constexpr auto eq          = ROCPROFILER_HOST_SIGNAL_CONDITION_EQ;
constexpr auto ne          = ROCPROFILER_HOST_SIGNAL_CONDITION_NE;
constexpr auto lt          = ROCPROFILER_HOST_SIGNAL_CONDITION_LT;
constexpr auto gte         = ROCPROFILER_HOST_SIGNAL_CONDITION_GTE;
} // namespace

TEST(host_signals, each_completion_decrements_by_one)
{
    auto q   = rocprofiler_host_queue_t{};
    auto sig = rocprofiler_host_signal_t{};
    auto k   = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q));
    HOST_ASSERT_OK(rocprofiler_host_create_signal(10, &sig));
    auto name = host::test::unique_name("noop");
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(
        name.c_str(), +[](const rocprofiler_host_work_item_t*, void*) {}, 0, 0, &k));
    // A big grid still decrements once, not once per workgroup.
    auto params = make_params(k, {16, 4, 2}, {8, 2, 1}, nullptr, 0, sig);
    for(int i = 0; i < 3; ++i)
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q, &params));
    HOST_ASSERT_OK(rocprofiler_host_queue_synchronize(q));
    auto value = int64_t{0};
    HOST_ASSERT_OK(rocprofiler_host_signal_load(sig, &value));
    EXPECT_EQ(value, 7);
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(sig, eq, 7, 0, &value));
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(sig));
}

TEST(host_signals, wait_times_out_when_the_condition_is_not_reached)
{
    auto sig = rocprofiler_host_signal_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_signal(1, &sig));
    auto observed = int64_t{-5};
    auto start    = std::chrono::steady_clock::now();
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT,
                       rocprofiler_host_signal_wait(sig, lt, 1, 20'000'000, &observed));
    auto waited = std::chrono::steady_clock::now() - start;
    EXPECT_GE(waited, std::chrono::milliseconds{20});
    EXPECT_LT(waited, std::chrono::milliseconds{1500});
    EXPECT_EQ(observed, 1);
    // A zero timeout tests once.
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT,
                       rocprofiler_host_signal_wait(sig, eq, 0, 0, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(sig));
}

TEST(host_signals, conditions_and_store)
{
    auto sig = rocprofiler_host_signal_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_signal(5, &sig));
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(sig, eq, 5, 0, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(sig, ne, 4, 0, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(sig, lt, 6, 0, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(sig, gte, 5, 0, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT,
                       rocprofiler_host_signal_wait(sig, ne, 5, 0, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT,
                       rocprofiler_host_signal_wait(sig, lt, 5, 0, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT,
                       rocprofiler_host_signal_wait(sig, gte, 6, 0, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_signal_store(sig, -3));
    auto value = int64_t{0};
    HOST_ASSERT_OK(rocprofiler_host_signal_load(sig, &value));
    EXPECT_EQ(value, -3);

    // A store from another thread wakes an infinite wait.
    auto setter = std::thread{[sig]
                              {
                                  std::this_thread::sleep_for(std::chrono::milliseconds{5});
                                  rocprofiler_host_signal_store(sig, 100);
                              }};
    HOST_ASSERT_OK(
        rocprofiler_host_signal_wait(sig, gte, 100, ROCPROFILER_HOST_TIMEOUT_INFINITE, &value));
    EXPECT_EQ(value, 100);
    setter.join();
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(sig));
}

TEST(host_signals, invalid_arguments)
{
    auto sig = rocprofiler_host_signal_t{};
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_create_signal(0, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_create_signal(0, &sig));
    auto value   = int64_t{0};
    auto zero    = rocprofiler_host_signal_t{0};
    auto unknown = rocprofiler_host_signal_t{1u << 30};
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_signal_load(sig, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_signal_load(zero, &value));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_signal_load(unknown, &value));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_signal_store(zero, 1));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_signal_store(unknown, 1));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_signal_wait(zero, eq, 0, 0, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_signal_wait(unknown, eq, 0, 0, nullptr));
    HOST_EXPECT_STATUS(
        ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
        rocprofiler_host_signal_wait(sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LAST, 0, 0, nullptr));
    HOST_EXPECT_STATUS(
        ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
        rocprofiler_host_signal_wait(
            sig, static_cast<rocprofiler_host_signal_condition_t>(7), 0, 0, nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_destroy_signal(zero));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(sig));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_destroy_signal(sig));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_signal_load(sig, &value));
}

TEST(host_signals, destroying_a_signal_with_pending_dispatches_is_safe)
{
    // A kernel that is still running (or queued) when its completion signal goes.
    auto k    = rocprofiler_host_kernel_t{};
    auto name = host::test::unique_name("sleepy");
    HOST_ASSERT_OK(rocprofiler_host_register_kernel(
        name.c_str(),
        +[](const rocprofiler_host_work_item_t*, void*)
        { std::this_thread::sleep_for(std::chrono::milliseconds{2}); },
        0,
        0,
        &k));
    auto q = rocprofiler_host_queue_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q));
    auto sig = rocprofiler_host_signal_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_signal(1, &sig));
    auto params = make_params(k, {1, 1, 1}, {1, 1, 1}, nullptr, 0, sig);
    HOST_ASSERT_OK(rocprofiler_host_dispatch(q, &params));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(sig));
    HOST_ASSERT_OK(rocprofiler_host_queue_synchronize(q));
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q));
}
