#include "session/run_report.hpp"

#include "contract/environment.hpp"
#include "contract/report_line.hpp"
#include "files/write_guard.hpp"

#include <fcntl.h>
#include <limits.h> // PIPE_BUF
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace rocprofiler::tool::run_report
{
namespace
{
int   report_fd  = -1;
dev_t report_dev = 0;
ino_t report_ino = 0;
// The run directory (contract::run_dir), where the report files go. Never destroyed: the last line
// is sent from exit-time handlers, after static destructors may have run.
const std::string* report_dir = nullptr;
} // namespace

void
open_from_environment()
{
    if(report_fd >= 0 || report_dir != nullptr) return;
    const auto channel = contract::decode_report_channel(std::getenv);
    if(!channel.run_dir.empty())
    {
        report_dir = new std::string{channel.run_dir};
        return;
    }
    if(!channel.report_fd) return;
    const auto  fd   = *channel.report_fd;
    struct stat info = {};
    if(fstat(fd, &info) != 0 || !S_ISFIFO(info.st_mode)) return;
    // A private copy: the application may close or reuse the inherited number; the inherited one
    // stays open for the processes the application starts.
    report_fd  = fcntl(fd, F_DUPFD_CLOEXEC, 100);
    report_dev = info.st_dev;
    report_ino = info.st_ino;
}

void
send(std::string_view kind, std::string_view text)
{
    send(kind, {text});
}

void
send(std::string_view kind, std::initializer_list<std::string_view> fields)
{
    if(report_fd < 0 && report_dir == nullptr) return;
    auto line = contract::encode_report_line(kind, getpid(), fields);
    if(line.size() > PIPE_BUF - 1) line.resize(PIPE_BUF - 1);
    line += '\n';
    if(report_dir != nullptr)
    {
        // Opened for each line: an application that closes every descriptor it did not open
        // (closefrom(3)) cannot take this channel away, nor make a line land in a file of its own.
        const auto path = *report_dir + "/report." + std::to_string(getpid());
        const auto fd =
            ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0600);
        if(fd < 0) return; // the run is over (rocprofv3 removed the directory)
        (void)write_all(fd, line.data(), line.size());
        ::close(fd);
        return;
    }
    // The descriptor must still be the pipe: the application may have closed it and opened
    // something else under its number.
    struct stat info = {};
    if(report_fd < 0 || fstat(report_fd, &info) != 0 || info.st_dev != report_dev ||
       info.st_ino != report_ino)
        return;
    // The pipe is non-blocking: when rocprofv3 cannot keep up, the line is lost, never the run.
    while(write(report_fd, line.data(), line.size()) < 0 && errno == EINTR)
    {
    }
}
} // namespace rocprofiler::tool::run_report
