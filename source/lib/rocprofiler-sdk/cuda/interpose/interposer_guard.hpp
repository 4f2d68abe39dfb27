// The exception firewall of the CUDA interposers. An interposer is entered from the application,
// the CUDA runtime or the driver (C frames): no exception may leave it. When the SDK's work around
// the driver call throws, the exception is logged (once per interposer, common::guarded) and the
// application still gets the driver's answer: the result of the call already made, or else the
// driver function called directly, without the SDK. No CUDA header: pure, tested on a CPU.
#pragma once

#include "common/guard.hpp"

namespace rocprofiler::cuda
{
// The driver call an interposer stands for, as the SDK made it.
template <typename Result> class driver_call
{
public:
    // Notes what the application's call returns now that the driver was called (the last
    // recorded value wins); returns it.
    Result record(Result result) noexcept
    {
        m_made   = true;
        m_result = result;
        return result;
    }

    bool   made() const noexcept { return m_made; }
    Result result() const noexcept { return m_result; }

private:
    bool   m_made   = false;
    Result m_result = {};
};

// Runs `body(call)`, the SDK's handling of one intercepted call, which makes the driver call and
// passes each result through call.record(). When body throws: the recorded result when the driver
// was called already (it is never called twice for one application call), else `direct()`, the
// driver function called directly. direct must not throw.
template <typename Result, typename Body, typename Direct>
Result
guarded_interposer(const char* where, Body&& body, Direct&& direct) noexcept
{
    auto call = driver_call<Result>{};
    return common::guarded(
        where,
        [&]() -> Result { return body(call); },
        [&](common::caught) -> Result { return call.made() ? call.result() : direct(); });
}
} // namespace rocprofiler::cuda
