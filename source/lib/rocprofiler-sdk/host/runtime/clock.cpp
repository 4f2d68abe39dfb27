#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <chrono>

namespace rocprofiler
{
namespace host
{
uint64_t
now_ns() noexcept
{
    static_assert(std::chrono::steady_clock::is_steady);
    return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                     std::chrono::steady_clock::now().time_since_epoch())
                                     .count());
}
} // namespace host
} // namespace rocprofiler
