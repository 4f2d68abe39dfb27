// Run-time checks of the library's internal contracts (exactly-once calls, threading rules, state
// transitions), in the manner of Chromium's DCHECK: on in debug, sanitizer and TSan builds
// (ROCPROFILER_DCHECKS, set by the build), compiled out of release builds, where the condition is
// not evaluated. A failed check writes one line naming the contract and the place, then aborts:
// the contract is broken and continuing could corrupt the application's memory.
//
// Use them for what the code itself guarantees, never for input (bad input gets a status).
#pragma once

#include <atomic>
#include <string_view>

namespace rocprofiler::common::dcheck
{
#if defined(ROCPROFILER_DCHECKS) && ROCPROFILER_DCHECKS
inline constexpr bool enabled = true;
#else
inline constexpr bool enabled = false;
#endif

// Writes "internal check failed: <condition> (<what>) at <file>:<line>" to stderr and aborts.
[[noreturn]] void
fail(std::string_view condition, std::string_view what, std::string_view file, int line) noexcept;

// Marks a call that must happen at most once on its object (signal_application, hand_off): a
// second mark fails. Costs one atomic exchange with checks on, nothing (an empty object) without.
class once
{
public:
#if defined(ROCPROFILER_DCHECKS) && ROCPROFILER_DCHECKS
    bool first() noexcept
    {
        return !m_done.exchange(true, std::memory_order_acq_rel);
    }

private:
    std::atomic<bool> m_done = false;
#else
    static constexpr bool first() noexcept
    {
        return true;
    }
#endif
};
} // namespace rocprofiler::common::dcheck

#if defined(ROCPROFILER_DCHECKS) && ROCPROFILER_DCHECKS
#    define ROCP_DCHECK(condition, what)                                                           \
        ((condition) ? static_cast<void>(0)                                                        \
                     : ::rocprofiler::common::dcheck::fail(#condition, what, __FILE__, __LINE__))
#else
// Not evaluated, but still compiled: a check cannot rot in release builds.
#    define ROCP_DCHECK(condition, what)                                                           \
        static_cast<void>(sizeof(static_cast<bool>(condition)) + sizeof(what))
#endif

// The second call of something that must happen once fails.
#define ROCP_DCHECK_ONCE(once_object, what) ROCP_DCHECK((once_object).first(), what)
