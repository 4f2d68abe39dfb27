// The version, timestamp and thread-id entry points of rocprofiler.h.

#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <ctime>
#include <thread>

namespace
{
uint64_t
monotonic_ns()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL) + static_cast<uint64_t>(ts.tv_nsec);
}

TEST(version, matches_the_header_macros)
{
    uint32_t major = 99, minor = 99, patch = 99;
    ASSERT_EQ(rocprofiler_get_version(&major, &minor, &patch), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(major, static_cast<uint32_t>(ROCPROFILER_VERSION_MAJOR));
    EXPECT_EQ(minor, static_cast<uint32_t>(ROCPROFILER_VERSION_MINOR));
    EXPECT_EQ(patch, static_cast<uint32_t>(ROCPROFILER_VERSION_PATCH));
    EXPECT_EQ((10000 * major) + (100 * minor) + patch, static_cast<uint32_t>(ROCPROFILER_VERSION));
}

TEST(version, null_pointers_are_skipped)
{
    EXPECT_EQ(rocprofiler_get_version(nullptr, nullptr, nullptr), ROCPROFILER_STATUS_SUCCESS);

    uint32_t minor = 99;
    EXPECT_EQ(rocprofiler_get_version(nullptr, &minor, nullptr), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(minor, static_cast<uint32_t>(ROCPROFILER_VERSION_MINOR));
}

TEST(timestamp, is_monotonic_nanoseconds)
{
    rocprofiler_timestamp_t previous = 0;
    ASSERT_EQ(rocprofiler_get_timestamp(&previous), ROCPROFILER_STATUS_SUCCESS);
    for(int i = 0; i < 10000; ++i)
    {
        rocprofiler_timestamp_t now = 0;
        ASSERT_EQ(rocprofiler_get_timestamp(&now), ROCPROFILER_STATUS_SUCCESS);
        ASSERT_GE(now, previous);
        previous = now;
    }
}

TEST(timestamp, is_on_the_clock_monotonic_clock)
{
    const uint64_t          before = monotonic_ns();
    rocprofiler_timestamp_t ts     = 0;
    ASSERT_EQ(rocprofiler_get_timestamp(&ts), ROCPROFILER_STATUS_SUCCESS);
    const uint64_t after = monotonic_ns();
    EXPECT_GE(ts, before);
    EXPECT_LE(ts, after);
}

TEST(timestamp, null_is_an_invalid_argument)
{
    EXPECT_EQ(rocprofiler_get_timestamp(nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST(thread_id, is_the_os_thread_id)
{
    rocprofiler_thread_id_t tid = 0;
    ASSERT_EQ(rocprofiler_get_thread_id(&tid), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(tid, static_cast<rocprofiler_thread_id_t>(::syscall(SYS_gettid)));

    rocprofiler_thread_id_t other_tid      = 0;
    uint64_t                other_expected = 1;
    auto                    other          = std::thread{[&]
                             {
                                 rocprofiler_get_thread_id(&other_tid);
                                 other_expected = static_cast<uint64_t>(::syscall(SYS_gettid));
                             }};
    other.join();
    EXPECT_EQ(other_tid, other_expected);
    EXPECT_NE(other_tid, tid);
}

TEST(thread_id, null_is_an_invalid_argument)
{
    EXPECT_EQ(rocprofiler_get_thread_id(nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}
} // namespace
