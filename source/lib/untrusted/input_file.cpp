#include "untrusted/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

namespace rocprofiler::untrusted
{
namespace
{
std::string
kind_of(mode_t mode)
{
    if(S_ISREG(mode)) return {};
    if(S_ISDIR(mode)) return "a directory";
    if(S_ISFIFO(mode)) return "a FIFO";
    if(S_ISSOCK(mode)) return "a socket";
    if(S_ISCHR(mode)) return "a character device";
    if(S_ISBLK(mode)) return "a block device";
    return "not a file";
}

std::string
size_text(size_t bytes)
{
    if(bytes >= (size_t{1} << 20) && bytes % (size_t{1} << 20) == 0)
        return std::to_string(bytes >> 20) + " MiB";
    return std::to_string(bytes) + " bytes";
}

read_result
failure(std::string error)
{
    auto result  = read_result{};
    result.error = std::move(error);
    return result;
}

struct fd_closer
{
    int fd = -1;
    ~fd_closer()
    {
        if(fd >= 0) ::close(fd);
    }
};
} // namespace

std::string
non_regular_kind(const std::string& path)
{
    struct stat st = {};
    if(::stat(path.c_str(), &st) != 0) return {};
    return kind_of(st.st_mode);
}

read_result
read_bounded(const std::string& path, size_t max_bytes)
{
    // Checked before opening: opening a FIFO for reading blocks until a writer comes (O_NONBLOCK
    // avoids that, but a device may still have side effects on open).
    if(auto kind = non_regular_kind(path); !kind.empty())
        return failure(path + " is " + kind + ", not a regular file");
    auto file = fd_closer{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if(file.fd < 0) return failure(path + " cannot be read: " + std::strerror(errno));
    struct stat st = {};
    if(::fstat(file.fd, &st) != 0)
        return failure(path + " cannot be read: " + std::strerror(errno));
    // Swapped for something else between the check and the open.
    if(auto kind = kind_of(st.st_mode); !kind.empty())
        return failure(path + " is " + kind + ", not a regular file");
    if(static_cast<uint64_t>(st.st_size) > max_bytes)
        return failure(path + " is " + std::to_string(st.st_size) + " bytes, over the limit of " +
                       size_text(max_bytes) + " for this file");
    // Regular files ignore O_NONBLOCK for reads; clear it anyway so that a short read is only EOF.
    ::fcntl(file.fd, F_SETFL, ::fcntl(file.fd, F_GETFL) & ~O_NONBLOCK);

    auto result = read_result{};
    result.text.resize(static_cast<size_t>(st.st_size));
    size_t done = 0;
    while(true)
    {
        if(done == result.text.size())
        {
            // The file may have grown since fstat(): read on, one byte past the cap at most.
            result.text.resize(std::min(max_bytes + 1, result.text.size() + 65536));
        }
        auto n = ::read(file.fd, result.text.data() + done, result.text.size() - done);
        if(n < 0 && errno == EINTR) continue;
        if(n < 0) return failure(path + " cannot be read: " + std::strerror(errno));
        if(n == 0) break;
        done += static_cast<size_t>(n);
        if(done > max_bytes)
            return failure(path + " grew past the limit of " + size_text(max_bytes) +
                           " while it was read");
    }
    result.text.resize(done);
    result.ok = true;
    return result;
}
} // namespace rocprofiler::untrusted
