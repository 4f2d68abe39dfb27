#include "session/prefix_lock.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>

namespace rocprofiler::tool::prefix_lock
{
namespace
{
// Plain storage: release() runs from exit-time handlers, after static destructors.
int  held_fd             = -1;
char held_path[PATH_MAX] = {};

void
forget_in_child()
{
    // The child shares the parent's open file description: closing its copy leaves the parent's
    // lock in place, and the child, which writes no outputs, holds none.
    if(held_fd >= 0) ::close(held_fd);
    held_fd      = -1;
    held_path[0] = '\0';
}

bool
same_file(int fd, const char* path)
{
    struct stat by_fd = {}, by_path = {};
    return ::fstat(fd, &by_fd) == 0 && ::stat(path, &by_path) == 0 &&
           by_fd.st_dev == by_path.st_dev && by_fd.st_ino == by_path.st_ino;
}
} // namespace

outcome
lock(const std::string& directory, const std::string& prefix)
{
    static const auto registered = pthread_atfork(nullptr, nullptr, forget_in_child) == 0;
    (void)registered;
    const auto path = directory + "/" + prefix + ".lock";
    if(path.size() >= sizeof(held_path)) return outcome::unavailable;
    // The owner removes the file at its end: a lock taken on a file that was removed meanwhile
    // protects nothing, so the path must still name the locked file.
    for(int attempt = 0; attempt < 16; ++attempt)
    {
        const auto fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0644);
        if(fd < 0) return outcome::unavailable;
        if(::flock(fd, LOCK_EX | LOCK_NB) != 0)
        {
            const auto err = errno;
            ::close(fd);
            return err == EWOULDBLOCK ? outcome::taken : outcome::unavailable;
        }
        if(!same_file(fd, path.c_str()))
        {
            ::close(fd);
            continue;
        }
        release();
        held_fd = fd;
        std::memcpy(held_path, path.c_str(), path.size() + 1);
        return outcome::locked;
    }
    return outcome::unavailable;
}

void
release()
{
    if(held_fd < 0) return;
    // Removed while still locked: a process that opened it meanwhile sees that the path no longer
    // names what it locked and tries again.
    ::unlink(held_path);
    ::close(held_fd);
    held_fd      = -1;
    held_path[0] = '\0';
}
} // namespace rocprofiler::tool::prefix_lock
