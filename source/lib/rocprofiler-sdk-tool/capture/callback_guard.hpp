// The exception firewall of the tool: every function the SDK calls (callbacks, tool_initialize,
// tool_finalize) runs its body through guarded(), so that no exception crosses into the SDK. A
// caught exception is reported on stderr (the first few only) and the callback returns its
// fallback value.
#pragma once

#include "log.hpp"

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <type_traits>
#include <utility>

namespace rocprofiler::tool
{
// Reports an exception caught in @p where; at most report_limit are printed per process. Returns
// the number of exceptions caught so far (tests read it). Any thread.
inline uint64_t
report_callback_exception(const char* where, const char* what)
{
    constexpr uint64_t           report_limit = 8;
    static std::atomic<uint64_t> caught       = 0;
    auto                         n            = ++caught;
    if(n <= report_limit) log::error(std::string{"exception in "} + where + ": " + what);
    if(n == report_limit) log::error("further exceptions in callbacks are not shown");
    return n;
}

// Runs @p fn; returns its result, or @p fallback when it throws.
template <typename Result, typename Fn>
Result
guarded(const char* where, Result fallback, Fn&& fn) noexcept
{
    try
    {
        return std::forward<Fn>(fn)();
    }
    catch(const std::exception& e)
    {
        report_callback_exception(where, e.what());
    }
    catch(...)
    {
        report_callback_exception(where, "unknown exception");
    }
    return fallback;
}

// Runs @p fn, a callback without result.
template <typename Fn>
void
guarded(const char* where, Fn&& fn) noexcept
{
    (void)guarded(where,
                  0,
                  [&fn]()
                  {
                      std::forward<Fn>(fn)();
                      return 0;
                  });
}
} // namespace rocprofiler::tool
