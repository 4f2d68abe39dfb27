// The tool's report to rocprofv3: one line per event on the pipe whose write end rocprofv3 passes
// in ROCPROFV3_REPORT_FD, so that rocprofv3 learns what no file can tell it (a write error when
// the output directory is gone, a process that started profiling and never finalized). Lines are
// tab-separated and at most PIPE_BUF bytes, so that lines of several processes never interleave:
//   init  <pid> <output directory> <prefix>
//   error <pid> <message>
//   end   <pid> exit | signal <N>
// Without the variable (the tool used on its own) nothing is sent.
#pragma once

#include <string_view>

namespace rocprofiler::tool::run_report
{
// Reads ROCPROFV3_REPORT_FD; accepts it only when it names a pipe.
void open_from_environment();

void send(std::string_view kind, std::string_view text);
} // namespace rocprofiler::tool::run_report
