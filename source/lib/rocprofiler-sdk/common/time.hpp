// The SDK's clock. Every timestamp in every record is CLOCK_MONOTONIC in nanoseconds, so that
// records of different services and devices can be ordered against each other.
#pragma once

#include <cstdint>
#include <ctime>

namespace rocprofiler::common
{
inline uint64_t
timestamp_ns()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL) + static_cast<uint64_t>(ts.tv_nsec);
}
} // namespace rocprofiler::common
