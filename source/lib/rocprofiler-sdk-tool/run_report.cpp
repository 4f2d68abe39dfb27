#include "run_report.hpp"

#include <fcntl.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace rocprofiler::tool::run_report
{
namespace
{
int report_fd = -1;
}

void
open_from_environment()
{
    const auto* text = std::getenv("ROCPROFV3_REPORT_FD");
    if(text == nullptr || *text == '\0') return;
    char* end = nullptr;
    auto  fd  = std::strtol(text, &end, 10);
    if(end == nullptr || *end != '\0' || fd < 0 || fd > INT_MAX) return;
    struct stat info = {};
    if(fstat(static_cast<int>(fd), &info) != 0 || !S_ISFIFO(info.st_mode)) return;
    // A private copy: the application may close or reuse the inherited number; the inherited one
    // stays open for the processes the application starts.
    report_fd = fcntl(static_cast<int>(fd), F_DUPFD_CLOEXEC, 100);
}

void
send(std::string_view kind, std::string_view text)
{
    if(report_fd < 0) return;
    auto line = std::string{kind} + '\t' + std::to_string(getpid()) + '\t' + std::string{text};
    for(auto& c : line)
        if(c == '\n') c = ' ';
    if(line.size() > PIPE_BUF - 1) line.resize(PIPE_BUF - 1);
    line += '\n';
    // The pipe is non-blocking: when rocprofv3 cannot keep up, the line is lost, never the run.
    while(write(report_fd, line.data(), line.size()) < 0 && errno == EINTR)
    {
    }
}
} // namespace rocprofiler::tool::run_report
