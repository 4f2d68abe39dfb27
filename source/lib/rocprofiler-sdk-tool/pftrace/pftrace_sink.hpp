// -f pftrace: results.pftrace, a Perfetto trace encoded record by record (pftrace_builder,
// perfetto.hpp) and appended to its file like CSV rows (csv_stream).
#pragma once

#include "config/config.hpp"
#include "files/csv_stream.hpp"
#include "pftrace/pftrace_builder.hpp"
#include "sinks/sink.hpp"

#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
class pftrace_sink final : public sink
{
public:
    // Opens the file with the trace's first packets; an error is appended to @p errors and the
    // trace is then missing.
    pftrace_sink(const config& cfg, const results& data, std::vector<std::string>& errors);

    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r) override;
    void counters(const results& data, const counter_dispatch& rec) override;
    void memory_copy(const results&                                         data,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& r) override;
    void marker(const results& data, const marker_event& e) override;
    void api_call(const results& data, const marker_event& e) override;
    void batch_end() override;
    void checkpoint() override;
    void finish(const results&            data,
                std::vector<std::string>& written,
                std::vector<std::string>& errors) override;

private:
    std::optional<pftrace_builder> m_trace = {};
    csv_stream                     m_file  = {};
};
} // namespace rocprofiler::tool
