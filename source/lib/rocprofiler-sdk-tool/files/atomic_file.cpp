#include "files/atomic_file.hpp"
#include "files/descriptor.hpp"
#include "files/write_guard.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <random>
#include <utility>

namespace rocprofiler::tool
{
std::string
output_file(const config& cfg, uint64_t pid, std::string_view suffix)
{
    auto prefix = cfg.output_file_name.empty() ? std::to_string(pid) : cfg.output_file_name;
    return (std::filesystem::path{cfg.output_path} / (prefix + "_" + std::string{suffix})).string();
}

std::string
symbolic_link_refusal(const std::string& path)
{
    struct stat st = {};
    if(::lstat(path.c_str(), &st) == 0 && S_ISLNK(st.st_mode))
        return "refusing to write '" + path + "': it is a symbolic link";
    return {};
}

int
open_output(const std::string& path, int flags, mode_t mode, std::string& error)
{
    const auto fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if(fd >= 0) return fd;
    const auto err = errno;
    // O_NOFOLLOW answers ELOOP for a link at the last component.
    error = err == ELOOP ? symbolic_link_refusal(path) : std::string{};
    if(error.empty()) error = "could not write '" + path + "': " + errno_text(err);
    errno = err;
    return -1;
}

int
create_temporary(const std::string& path, mode_t mode, std::string& temporary)
{
    static const char alphabet[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    auto              random     = std::random_device{};
    for(int attempt = 0; attempt < 100; ++attempt)
    {
        temporary = path + ".tmp-";
        for(int i = 0; i < 12; ++i)
            temporary += alphabet[random() % (sizeof(alphabet) - 1)];
        const auto fd =
            ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if(fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

bool
write_file_atomically(const std::string&             path,
                      const std::function<int(int)>& write_contents,
                      std::vector<std::string>&      errors)
{
    // rename() would replace a link at the name, not follow it; it is refused all the same, as a
    // link at a streamed output's name is.
    if(auto refusal = symbolic_link_refusal(path); !refusal.empty())
    {
        errors.emplace_back(std::move(refusal));
        return false;
    }
    auto temporary = std::string{};
    auto fail      = [&](int err)
    {
        errors.emplace_back("could not write '" + path + "': " + errno_text(err));
        if(!temporary.empty()) unlink(temporary.c_str());
        return false;
    };
    const auto fd = create_temporary(path, 0644, temporary);
    if(fd < 0)
    {
        const auto err = errno;
        temporary.clear(); // not ours
        return fail(err);
    }
    if(auto err = write_contents(fd); err != 0)
    {
        ::close(fd);
        return fail(err);
    }
    if(::close(fd) != 0) return fail(errno);
    if(::rename(temporary.c_str(), path.c_str()) != 0) return fail(errno);
    return true;
}

bool
write_file_atomically(const std::string&        path,
                      const std::string&        contents,
                      std::vector<std::string>& errors)
{
    return write_file_atomically(
        path,
        [&contents](int fd) { return write_all(fd, contents.data(), contents.size()); },
        errors);
}
} // namespace rocprofiler::tool
