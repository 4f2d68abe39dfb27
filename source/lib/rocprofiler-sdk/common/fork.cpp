#include "common/fork.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>

namespace rocprofiler::common
{
namespace
{
// Process-wide by nature and never reset: a fork cannot be undone.
std::atomic<bool> in_child  = false;
const pid_t       loaded_in = getpid();

void
on_fork_in_child()
{
    in_child.store(true, std::memory_order_relaxed);
}

// Registered when the library loads, before any thread of the SDK exists.
const bool registered = (pthread_atfork(nullptr, nullptr, on_fork_in_child), true);
} // namespace

bool
forked_child() noexcept
{
    return in_child.load(std::memory_order_relaxed);
}

pid_t
profiled_process() noexcept
{
    (void)registered;
    return loaded_in;
}
} // namespace rocprofiler::common
