// The one exception firewall of the library. Every place where C++ code of the SDK is entered from
// C (the public API, the CUDA interposers, threads the SDK starts, callbacks a runtime calls) runs
// its body through guarded(), so that no exception unwinds through a C frame.
//
// A caught exception is logged with the boundary's name: the first one of each boundary at warning
// level, later ones at debug level, so that a repeating failure does not flood the log. The caller
// chooses what happens instead (a status, a fallback value, a direct call into the driver).
#pragma once

#include <exception>
#include <string>
#include <type_traits>
#include <utility>

namespace rocprofiler::common
{
// What a guarded call caught.
enum class caught
{
    out_of_memory, // std::bad_alloc
    exception,     // another std::exception
    unknown,       // anything else
};

// Describes and logs the exception being handled (call only inside a catch block). @p where names
// the boundary ("rocprofiler_create_context", "cuLaunchKernel"). Any thread. Never throws.
caught report_current_exception(const char* where) noexcept;

// Runs @p fn; returns its result. When it throws, the exception is reported and the result of
// @p on_error(caught) is returned instead (for void functions, on_error is called and returns
// nothing). on_error must not throw.
template <typename Fn, typename OnError>
auto
guarded(const char* where, Fn&& fn, OnError&& on_error) noexcept -> std::invoke_result_t<Fn>
{
    try
    {
        return std::forward<Fn>(fn)();
    }
    catch(...)
    {
        const auto what = report_current_exception(where);
        return std::forward<OnError>(on_error)(what);
    }
}

// Runs @p fn, which returns nothing; a thrown exception is reported and swallowed.
template <typename Fn>
void
guarded(const char* where, Fn&& fn) noexcept
{
    guarded(where, std::forward<Fn>(fn), [](caught) {});
}
} // namespace rocprofiler::common
