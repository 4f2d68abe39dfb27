// What the runtime does in a child forked without exec: only the forking thread exists there, so
// the worker and queue threads, and any lock they held at the fork, are gone. Each piece of the
// device resets itself (`reset_after_fork`, called on the child's only thread, from the device's
// fork handler): locks and condition variables start afresh, the parent's threads are forgotten
// (never joined: a join would fail or wait forever) and new ones are started.
#pragma once

#include <new>
#include <thread>

namespace rocprofiler
{
namespace host
{
// Builds a fresh `T` (a mutex, a condition variable) where the parent's copy lies, without its
// destructor: that copy may be locked or waited on by a thread that does not exist here.
template <typename T>
void
renew_after_fork(T& object)
{
    ::new(static_cast<void*>(&object)) T{};
}

// Forgets a thread that exists only in the parent: the object becomes empty without a join and
// without the destructor (which would terminate for a joinable thread).
inline void
forget_thread_after_fork(std::thread& thread)
{
    ::new(static_cast<void*>(&thread)) std::thread{};
}
} // namespace host
} // namespace rocprofiler
