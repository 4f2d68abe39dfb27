#pragma once

#include <rocprofiler-sdk-host/host.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>

namespace rocprofiler
{
namespace host
{
// Waits on `cv` until `pred` holds, at most `timeout_ns` (ROCPROFILER_HOST_TIMEOUT_INFINITE:
// forever). Returns the final value of `pred`. Timeouts too large for the clock count as infinite.
template <typename Predicate>
bool
wait_for_ns(std::condition_variable&      cv,
            std::unique_lock<std::mutex>& lock,
            uint64_t                      timeout_ns,
            Predicate&&                   pred)
{
    // About 292 years: beyond that a steady_clock time_point would overflow.
    constexpr auto max_finite_ns = uint64_t{1} << 63;
    if(timeout_ns == ROCPROFILER_HOST_TIMEOUT_INFINITE || timeout_ns >= max_finite_ns / 2)
    {
        cv.wait(lock, pred);
        return true;
    }
    auto deadline = std::chrono::steady_clock::now() + std::chrono::nanoseconds{timeout_ns};
    return cv.wait_until(lock, deadline, pred);
}
} // namespace host
} // namespace rocprofiler
