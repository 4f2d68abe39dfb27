// What rocprofv3 learns about each profiled process at the end of a run, and what it completes
// for a process that ended without finalizing the tool (_exit, SIGKILL, a finalization that hung).
// The tool library reports in files of the run's directory, or on a pipe (see the tool's
// run_report.hpp):
//   init     <pid> <output directory> <prefix>
//   error    <pid> <message>
//   disabled <pid> <reason>
//   end      <pid> exit | signal <N>
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rocprofv3
{
struct profiled_process
{
    std::string directory = {};
    std::string prefix    = {};
    bool        ended     = false; // the tool finalized (normally or from a signal handler)
};

class run_reports
{
public:
    // Feeds bytes read from the pipe or a report file; complete lines are parsed.
    void add(const char* data, size_t size);

    const std::map<int64_t, profiled_process>& processes() const { return m_processes; }
    const std::vector<std::string>&            errors() const { return m_errors; }
    // "process <pid>: <reason>" for each process whose tool disabled profiling.
    const std::vector<std::string>& disabled() const { return m_disabled; }

private:
    std::string                         m_partial   = {};
    std::map<int64_t, profiled_process> m_processes = {};
    std::vector<std::string>            m_errors    = {};
    std::vector<std::string>            m_disabled  = {};
};

// Completes the outputs of a process that started profiling and never finalized: a CSV row cut
// in the middle of a write is removed, so is a Perfetto packet cut short, leftover temporary files
// are removed, results.json's metadata.end says how the process ended, and <prefix>_incomplete.txt
// explains what may be missing. @p how is "exit code N" or "signal N (NAME)" (or empty when
// unknown). Returns the note (for stderr); problems met while completing are appended to @p errors.
std::string complete_outputs(int64_t                   pid,
                             const profiled_process&   process,
                             const std::string&        how,
                             std::vector<std::string>& errors);
} // namespace rocprofv3
