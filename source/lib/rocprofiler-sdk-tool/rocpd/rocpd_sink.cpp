#include "rocpd/rocpd_sink.hpp"
#include "files/atomic_file.hpp"

namespace rocprofiler::tool
{
rocpd_sink::rocpd_sink(const config& cfg, const results& data, std::vector<std::string>& errors)
{
    if(!m_db.open(output_file(cfg, data.pid, "results.db"), data))
        errors.emplace_back(m_db.error());
}

void
rocpd_sink::dispatch(const results&                                             data,
                     const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    if(m_db.is_open()) m_db.dispatch(data, r);
}

void
rocpd_sink::counters(const results& data, const counter_dispatch& rec)
{
    if(m_db.is_open()) m_db.counters(data, rec);
}

void
rocpd_sink::memory_copy(const results&                                         data,
                        const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    if(m_db.is_open()) m_db.memory_copy(data, r);
}

void
rocpd_sink::marker(const results& data, const marker_event& e)
{
    if(m_db.is_open()) m_db.marker(data, e);
}

// CUDA API calls are regions of the database, as marker calls are.
void
rocpd_sink::api_call(const results& data, const marker_event& e)
{
    if(m_db.is_open()) m_db.marker(data, e);
}

void
rocpd_sink::replay_outcome(const results&                           data,
                           const rocprofiler::tool::replay_outcome& outcome,
                           const std::vector<uint64_t>&             missing)
{
    if(m_db.is_open()) m_db.replay_outcome(data, outcome, missing);
}

void
rocpd_sink::code_object(const code_object_entry& entry)
{
    if(m_db.is_open()) m_db.code_object(entry);
}

void
rocpd_sink::kernel_symbol(const rocprofiler::tool::kernel_symbol& sym)
{
    if(m_db.is_open()) m_db.kernel(sym);
}

// The database's batch becomes durable here at the latest: an abrupt end loses at most what
// arrived since the last flush interval.
void
rocpd_sink::checkpoint()
{
    m_db.commit();
}

void
rocpd_sink::finish(const results&            data,
                   std::vector<std::string>& written,
                   std::vector<std::string>& errors)
{
    if(m_db.path().empty()) return;
    auto error = std::string{};
    if(m_db.finish(data, error))
        written.emplace_back(m_db.path());
    else
        errors.emplace_back(error);
}
} // namespace rocprofiler::tool
