// Records kept in memory, for a run whose outputs are all written whole at the end (no format
// streams them): write_outputs then finds them in results.
#pragma once

#include "sinks/sink.hpp"

namespace rocprofiler::tool
{
class kept_records final : public sink
{
public:
    explicit kept_records(results& data)
        : m_data{data}
    {
    }

    void dispatch(const results&,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r) override
    {
        m_data.dispatches.push_back(r);
    }
    void counters(const results&, const counter_dispatch& rec) override
    {
        m_data.counter_records.push_back(rec);
    }
    void memory_copy(const results&,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& r) override
    {
        m_data.memory_copies.push_back(r);
    }
    void marker(const results&, const marker_event& e) override { m_data.markers.push_back(e); }
    void api_call(const results&, const marker_event& e) override { m_data.api_calls.push_back(e); }

private:
    results& m_data;
};
} // namespace rocprofiler::tool
