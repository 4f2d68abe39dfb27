// The tool's report to rocprofv3, so that rocprofv3 learns what no file can tell it (a write error
// when the output directory is gone, a process that started profiling and never finalized, one
// whose profiling was disabled). One line per event, appended to the file report.<pid> in the
// run's directory (ROCPROFV3_RUN_DIR), which rocprofv3 reads when the application has ended; when
// rocprofv3 has no run directory, on the pipe whose write end it passes in ROCPROFV3_REPORT_FD.
// Lines are tab-separated, each field escaped (contract/report_line.hpp), and at most PIPE_BUF
// bytes, so that lines of several processes never interleave on the pipe:
//   init     <pid> <output directory> <prefix>
//   error    <pid> <message>
//   disabled <pid> <reason>
//   end      <pid> exit | signal <N>
// Without either variable (the tool used on its own) nothing is sent.
#pragma once

#include <initializer_list>
#include <string_view>

namespace rocprofiler::tool::run_report
{
// Reads ROCPROFV3_RUN_DIR, else ROCPROFV3_REPORT_FD (accepted only when it names a pipe). Called
// again, it keeps what it found first.
void open_from_environment();

void send(std::string_view kind, std::string_view text);
// A line of several fields (init: the output directory and the prefix).
void send(std::string_view kind, std::initializer_list<std::string_view> fields);
} // namespace rocprofiler::tool::run_report
