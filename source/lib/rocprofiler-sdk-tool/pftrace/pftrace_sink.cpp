#include "pftrace/pftrace_sink.hpp"
#include "files/atomic_file.hpp"

namespace rocprofiler::tool
{
pftrace_sink::pftrace_sink(const config& cfg, const results& data, std::vector<std::string>& errors)
{
    m_trace.emplace(data, cfg.kernel_replay);
    if(!m_file.open(output_file(cfg, data.pid, "results.pftrace"), m_trace->take()))
    {
        errors.emplace_back(m_file.error());
        m_trace.reset();
    }
}

void
pftrace_sink::dispatch(const results&                                             data,
                       const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    if(m_trace) m_trace->dispatch(data, r);
}

void
pftrace_sink::counters(const results& data, const counter_dispatch& rec)
{
    if(!m_trace) return;
    m_trace->counters(data, rec);
    batch_end();
}

void
pftrace_sink::memory_copy(const results&                                         data,
                          const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    if(m_trace) m_trace->memory_copy(data, r);
}

void
pftrace_sink::marker(const results&, const marker_event& e)
{
    if(!m_trace) return;
    m_trace->marker(e);
    batch_end();
}

void
pftrace_sink::api_call(const results&, const marker_event& e)
{
    if(!m_trace) return;
    m_trace->api_call(e);
    batch_end();
}

// What the builder encoded since the last call, to the file.
void
pftrace_sink::batch_end()
{
    constexpr size_t threshold = size_t{1} << 16U;
    if(!m_trace || !m_file.is_open()) return;
    m_file.append(m_trace->take());
    if(m_file.pending() >= threshold) m_file.flush();
}

void
pftrace_sink::checkpoint()
{
    m_file.flush();
}

void
pftrace_sink::finish(const results&,
                     std::vector<std::string>& written,
                     std::vector<std::string>& errors)
{
    if(m_trace)
    {
        m_trace->finish();
        batch_end();
    }
    if(m_file.path().empty()) return;
    auto error = std::string{};
    if(m_file.finish(error))
        written.emplace_back(m_file.path());
    else
        errors.emplace_back(error);
}
} // namespace rocprofiler::tool
