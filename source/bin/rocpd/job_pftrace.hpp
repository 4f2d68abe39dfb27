// rocpd convert -f pftrace: one Perfetto trace of the whole job (<-o or rocpd>_results.pftrace).
//
// Each database is traced by the tool library's own builder (pftrace/pftrace_builder.hpp), the one
// rocprofv3 -f pftrace uses, so the tracks, slice names and annotations are rocprofv3's: a process
// track, its agents and their queues, memory copies, marker and API threads. A builder numbers its
// tracks from 1 and writes one packet sequence, as a trace of one process does; to put several
// processes in one file, each builder's packets are re-encoded here on their own sequence (the
// process's number + 1) and with their track uuids moved into the process's own range (the
// process's number + 1, shifted left by 32 bits), every other field copied as it is. Packets are
// appended to the file as records arrive (nothing grows with the number of rows).
#pragma once

#include "pftrace/pftrace_builder.hpp"

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace rocpd
{
class job_pftrace
{
public:
    // Opens (truncates) @p path; throws failure{output} when it cannot.
    explicit job_pftrace(std::string path);
    job_pftrace(const job_pftrace&)            = delete;
    job_pftrace& operator=(const job_pftrace&) = delete;
    // Removes an unfinished file (a conversion that failed part-way).
    ~job_pftrace();

    // Starts the next process: @p data's pid and command name its process track.
    rocprofiler::tool::pftrace_builder& begin_process(const rocprofiler::tool::results& data);
    // Appends what the current process's builder encoded since the last call.
    void flush();
    // Ends the current process (finish() of its builder, and its last packets).
    void end_process();
    // Closes the file; throws failure{output} when it could not be written.
    void close();

    size_t             processes() const { return m_processes; }
    const std::string& path() const { return m_path; }

private:
    std::string                                       m_path      = {};
    std::ofstream                                     m_out       = {};
    std::optional<rocprofiler::tool::pftrace_builder> m_builder   = {};
    size_t                                            m_processes = 0;
    bool                                              m_closed    = false;
};

// The packets of @p trace (a Trace message) re-encoded on @p sequence with every track uuid, as
// defined and as referred to, plus @p uuid_base (0 stays 0: no parent). Throws failure{internal}
// on bytes that are not a well-formed Trace.
std::string renumber_trace(std::string_view trace, uint32_t sequence, uint64_t uuid_base);
} // namespace rocpd
