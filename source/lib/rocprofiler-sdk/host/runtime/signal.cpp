#include "rocprofiler-sdk/host/runtime/after_fork.hpp"
#include "rocprofiler-sdk/host/runtime/runtime.hpp"
#include "rocprofiler-sdk/host/runtime/wait.hpp"

namespace rocprofiler
{
namespace host
{
namespace
{
bool
satisfied(rocprofiler_host_signal_condition_t condition, int64_t value, int64_t compare_value)
{
    switch(condition)
    {
    case ROCPROFILER_HOST_SIGNAL_CONDITION_EQ:
        return value == compare_value;
    case ROCPROFILER_HOST_SIGNAL_CONDITION_NE:
        return value != compare_value;
    case ROCPROFILER_HOST_SIGNAL_CONDITION_LT:
        return value < compare_value;
    case ROCPROFILER_HOST_SIGNAL_CONDITION_GTE:
        return value >= compare_value;
    case ROCPROFILER_HOST_SIGNAL_CONDITION_LAST:
        break;
    }
    return false;
}
} // namespace

signal::signal(int64_t initial_value) noexcept
    : m_value{initial_value}
{
}

int64_t
signal::load() const noexcept
{
    return m_value.load(std::memory_order_acquire);
}

void
signal::store(int64_t value)
{
    {
        // The store is made under the mutex so that a waiter between its test and its sleep
        // cannot miss the notification.
        auto lock = std::lock_guard{m_mutex};
        m_value.store(value, std::memory_order_release);
    }
    m_cv.notify_all();
}

int64_t
signal::subtract(int64_t value)
{
    auto result = int64_t{0};
    {
        auto lock = std::lock_guard{m_mutex};
        result    = m_value.fetch_sub(value, std::memory_order_acq_rel) - value;
    }
    m_cv.notify_all();
    return result;
}

bool
signal::wait(rocprofiler_host_signal_condition_t condition,
             int64_t                             compare_value,
             uint64_t                            timeout_ns,
             int64_t*                            observed) const
{
    auto lock = std::unique_lock{m_mutex};
    auto last = m_value.load(std::memory_order_acquire);
    auto ok   = wait_for_ns(m_cv,
                          lock,
                          timeout_ns,
                          [&]
                          {
                              last = m_value.load(std::memory_order_acquire);
                              return satisfied(condition, last, compare_value);
                          });
    if(observed) *observed = last;
    return ok;
}

void
signal::reset_after_fork()
{
    renew_after_fork(m_mutex);
    renew_after_fork(m_cv);
}
} // namespace host
} // namespace rocprofiler
