// -f otf2: <prefix>_results.otf2, <prefix>_results.def and <prefix>_results/, an OTF2 archive of
// the run's kernel dispatches, memory copies, markers, API calls and counter values (otf2_trace.hpp
// says where each goes). The records are kept as compact intervals while the run goes on (the OTF2
// archive wants each location's events in time order, which the records do not arrive in) and the
// archive is written once, at the end; a run ended abruptly (SIGKILL) has no archive.
#pragma once

#include "config/config.hpp"
#include "otf2/otf2_trace.hpp"
#include "sinks/sink.hpp"

#include <string>
#include <vector>

namespace rocprofiler::tool
{
// "<program> (pid N, rank R, host H)": how the archive names a process (its location group).
std::string otf2_process_name(const std::string& program,
                              const std::string& pid,
                              const std::string& rank,
                              const std::string& host);

class otf2_sink final : public sink
{
public:
    otf2_sink(const config& cfg, const results& data, std::vector<std::string>& errors);

    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r) override;
    void memory_copy(const results&                                         data,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& r) override;
    void counters(const results& data, const counter_dispatch& rec) override;
    void marker(const results& data, const marker_event& e) override;
    void api_call(const results& data, const marker_event& e) override;
    void finish(const results&            data,
                std::vector<std::string>& written,
                std::vector<std::string>& errors) override;

private:
    otf2_trace  m_trace     = {};
    size_t      m_process   = 0;
    std::string m_directory = {};
    std::string m_name      = {};
    bool        m_done      = false;
};
} // namespace rocprofiler::tool
