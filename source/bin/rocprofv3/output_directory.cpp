#include "output_directory.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace rocprofv3
{
namespace
{
std::string
reason(const std::error_code& ec)
{
    return ec.message();
}

// Creates and removes a file in @p dir: write permission, a read-only file system and an
// over-long path all show here, before the application runs.
bool
probe_writable(const fs::path& dir, std::string& error)
{
    const auto probe = dir / (".rocprofv3-write-check-" + std::to_string(getpid()));
    const auto fd = open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if(fd < 0)
    {
        error = "output directory '" + dir.string() + "' is not writable: " + std::strerror(errno);
        return false;
    }
    close(fd);
    unlink(probe.c_str());
    return true;
}
} // namespace

std::optional<std::string>
prepare_output_directory(const std::string& directory, std::string& error)
{
    if(directory.empty())
    {
        error = "the output directory (-d, --output-directory) is empty";
        return std::nullopt;
    }
    auto ec  = std::error_code{};
    auto dir = fs::absolute(fs::path{directory}, ec);
    if(ec)
    {
        error = "cannot resolve the output directory '" + directory +
                "' (relative to the current directory): " + reason(ec);
        return std::nullopt;
    }
    dir = dir.lexically_normal();
    if(fs::create_directories(dir, ec); ec)
    {
        error = "cannot create the output directory '" + dir.string() + "': " + reason(ec);
        return std::nullopt;
    }
    if(!fs::is_directory(dir, ec))
    {
        error = "the output directory '" + dir.string() + "' is not a directory" +
                (ec ? ": " + reason(ec) : std::string{});
        return std::nullopt;
    }
    if(!probe_writable(dir, error)) return std::nullopt;
    return dir.string();
}
} // namespace rocprofv3
