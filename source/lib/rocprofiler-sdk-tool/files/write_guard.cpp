#include "files/write_guard.hpp"

#include <pthread.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <ctime>

namespace rocprofiler::tool
{
namespace
{
sigset_t
only_sigxfsz()
{
    auto set = sigset_t{};
    sigemptyset(&set);
    sigaddset(&set, SIGXFSZ);
    return set;
}

bool
sigxfsz_pending()
{
    auto pending = sigset_t{};
    return sigpending(&pending) == 0 && sigismember(&pending, SIGXFSZ) == 1;
}
} // namespace

sigxfsz_guard::sigxfsz_guard()
{
    // Without a file size limit no write raises SIGXFSZ: one system call instead of four (rocpd
    // guards every row it inserts). A limit set by another thread between this check and the write
    // is not covered.
    auto limit = rlimit{};
    if(getrlimit(RLIMIT_FSIZE, &limit) == 0 && limit.rlim_cur == RLIM_INFINITY) return;
    m_active         = true;
    const auto block = only_sigxfsz();
    pthread_sigmask(SIG_BLOCK, &block, &m_old_mask);
    m_was_pending = sigxfsz_pending();
}

sigxfsz_guard::~sigxfsz_guard()
{
    if(!m_active) return;
    if(!m_was_pending && sigxfsz_pending())
    {
        // Ours: the kernel sends SIGXFSZ to the thread whose write went past the limit.
        const auto set   = only_sigxfsz();
        auto       none  = timespec{};
        const auto saved = errno;
        while(sigtimedwait(&set, nullptr, &none) < 0 && errno == EINTR)
        {
        }
        errno = saved;
    }
    pthread_sigmask(SIG_SETMASK, &m_old_mask, nullptr);
}

int
write_all(int fd, const char* data, size_t size)
{
    auto   guard = sigxfsz_guard{};
    size_t done  = 0;
    while(done < size)
    {
        auto n = ::write(fd, data + done, size - done);
        if(n < 0 && errno == EINTR) continue;
        if(n < 0) return errno;
        done += static_cast<size_t>(n);
    }
    return 0;
}
} // namespace rocprofiler::tool
