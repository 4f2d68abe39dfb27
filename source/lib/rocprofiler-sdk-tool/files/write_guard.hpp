// Output writes never signal the application. A write past RLIMIT_FSIZE (`ulimit -f`) makes the
// kernel send SIGXFSZ to the writing thread, and its default action ends the process: a limit
// meant for the application's files would kill it because of the profiler's. Every write of an
// output runs inside a sigxfsz_guard (write_all for plain files; rocpd.cpp around SQLite's calls):
// the signal is blocked on the writing thread for the write, and one that the write itself made
// pending is consumed, so the write fails with EFBIG and is reported like any other write error. A
// SIGXFSZ that was pending before the guard (the application's own) is left pending.
#pragma once

#include <csignal>
#include <cstddef>

namespace rocprofiler::tool
{
// Scoped to one thread: construct and destroy on the same thread, around the writes only.
class sigxfsz_guard
{
public:
    sigxfsz_guard();
    ~sigxfsz_guard();
    sigxfsz_guard(const sigxfsz_guard&)            = delete;
    sigxfsz_guard& operator=(const sigxfsz_guard&) = delete;

private:
    sigset_t m_old_mask    = {};
    bool     m_was_pending = false;
    bool     m_active      = false; // a file size limit is set
};

// Writes all of @p size bytes at @p data to @p fd inside a sigxfsz_guard: 0, or the errno.
int write_all(int fd, const char* data, size_t size);
} // namespace rocprofiler::tool
