#include "csv/csv_sink.hpp"
#include "csv/rows.hpp"
#include "files/atomic_file.hpp"
#include "files/csv_stream.hpp"
#include "model/replay_report.hpp"

namespace rocprofiler::tool
{
namespace
{
// Rows are written once enough gathered; the flusher writes the rest (checkpoint).
void
append(csv_stream& stream, std::string_view rows)
{
    constexpr size_t threshold = size_t{1} << 16U;
    if(!stream.is_open()) return;
    stream.append(rows);
    if(stream.pending() >= threshold) stream.flush();
}
} // namespace

csv_sink::csv_sink(const config& cfg, const results& data, std::vector<std::string>& errors)
{
    auto open = [&](bool wanted, csv_stream& stream, const char* suffix, const std::string& header)
    {
        if(wanted && !stream.open(output_file(cfg, data.pid, suffix), header))
            errors.emplace_back(stream.error());
    };
    open(cfg.kernel_trace, m_kernel_trace, "kernel_trace.csv", kernel_trace_csv_header());
    open(cfg.counter_collection,
         m_counters,
         "counter_collection.csv",
         counter_collection_csv_header());
    open(cfg.memory_copy_trace,
         m_memory_copy,
         "memory_copy_trace.csv",
         memory_copy_trace_csv_header());
    open(cfg.marker_trace, m_markers, "marker_api_trace.csv", marker_api_trace_csv_header());
    open(cfg.cuda_api_trace(), m_api, "cuda_api_trace.csv", marker_api_trace_csv_header());
    open(cfg.kernel_replay,
         m_missing,
         "counter_collection_missing.csv",
         missing_groups_csv_header());
    if(cfg.pc_sampling())
    {
        m_pc_host_trap_path  = output_file(cfg, data.pid, "pc_sampling_host_trap.csv");
        m_pc_stochastic_path = output_file(cfg, data.pid, "pc_sampling_stochastic.csv");
    }
    open(cfg.pc_sampling_method == "host_trap",
         m_pc_host_trap,
         "pc_sampling_host_trap.csv",
         pc_sampling_host_trap_csv_header());
    open(cfg.pc_sampling_method == "stochastic",
         m_pc_stochastic,
         "pc_sampling_stochastic.csv",
         pc_sampling_stochastic_csv_header());
}

namespace
{
// Opens @p stream at its first sample when the configured method did not; once.
void
open_late(csv_stream&               stream,
          const std::string&        path,
          const std::string&        header,
          std::vector<std::string>& errors)
{
    if(stream.is_open() || !stream.path().empty() || path.empty()) return;
    if(!stream.open(path, header)) errors.emplace_back(stream.error());
}
} // namespace

void
csv_sink::pc_sample(const results&, const rocprofiler_pc_sampling_record_host_trap_v0_t& r)
{
    open_late(
        m_pc_host_trap, m_pc_host_trap_path, pc_sampling_host_trap_csv_header(), m_late_errors);
    if(m_pc_host_trap.is_open()) append(m_pc_host_trap, pc_sampling_host_trap_csv_row(r));
}

void
csv_sink::pc_sample(const results& data, const rocprofiler_pc_sampling_record_stochastic_v0_t& r)
{
    open_late(
        m_pc_stochastic, m_pc_stochastic_path, pc_sampling_stochastic_csv_header(), m_late_errors);
    if(m_pc_stochastic.is_open()) append(m_pc_stochastic, pc_sampling_stochastic_csv_row(data, r));
}

void
csv_sink::dispatch(const results&                                             data,
                   const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    if(m_kernel_trace.is_open()) append(m_kernel_trace, kernel_trace_csv_row(data, r));
}

void
csv_sink::counters(const results& data, const counter_dispatch& rec)
{
    if(m_counters.is_open()) append(m_counters, counter_collection_csv_rows(data, rec));
}

void
csv_sink::memory_copy(const results& data, const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    if(m_memory_copy.is_open()) append(m_memory_copy, memory_copy_trace_csv_row(data, r));
}

void
csv_sink::marker(const results& data, const marker_event& e)
{
    if(m_markers.is_open()) append(m_markers, marker_api_trace_csv_row(data, e));
}

void
csv_sink::api_call(const results& data, const marker_event& e)
{
    if(m_api.is_open()) append(m_api, marker_api_trace_csv_row(data, e));
}

void
csv_sink::replay_outcome(const results&                           data,
                         const rocprofiler::tool::replay_outcome& outcome,
                         const std::vector<uint64_t>&             missing)
{
    if(m_missing.is_open() && !missing.empty())
        append(m_missing, missing_groups_csv_rows(data, outcome, missing));
}

std::array<csv_stream*, 8>
csv_sink::streams()
{
    return {&m_kernel_trace,
            &m_counters,
            &m_memory_copy,
            &m_markers,
            &m_api,
            &m_missing,
            &m_pc_host_trap,
            &m_pc_stochastic};
}

void
csv_sink::checkpoint()
{
    for(auto* stream : streams())
        stream->flush();
}

void
csv_sink::finish(const results&,
                 std::vector<std::string>& written,
                 std::vector<std::string>& errors)
{
    errors.insert(errors.end(), m_late_errors.begin(), m_late_errors.end());
    m_late_errors.clear();
    for(auto* stream : streams())
    {
        if(stream->path().empty()) continue;
        auto error = std::string{};
        if(stream->finish(error))
            written.emplace_back(stream->path());
        else
            errors.emplace_back(error);
    }
}
} // namespace rocprofiler::tool
