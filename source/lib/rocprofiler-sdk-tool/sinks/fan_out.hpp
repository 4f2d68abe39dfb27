// The outputs of a run: every record the capture side makes goes to each open sink, in the order
// the sinks were opened. This is the only place that knows there are several outputs.
#pragma once

#include "sinks/sink.hpp"

#include <memory>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
class fan_out
{
public:
    void add(std::unique_ptr<sink> s)
    {
        if(s) m_sinks.emplace_back(std::move(s));
    }
    bool empty() const { return m_sinks.empty(); }

    void dispatch(const results& data, const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
    {
        for(auto& s : m_sinks)
            s->dispatch(data, r);
    }
    void counters(const results& data, const counter_dispatch& rec)
    {
        for(auto& s : m_sinks)
            s->counters(data, rec);
    }
    void memory_copy(const results& data, const rocprofiler_buffer_tracing_memory_copy_record_t& r)
    {
        for(auto& s : m_sinks)
            s->memory_copy(data, r);
    }
    void marker(const results& data, const marker_event& e)
    {
        for(auto& s : m_sinks)
            s->marker(data, e);
    }
    template <typename RecordT> void pc_sample(const results& data, const RecordT& r)
    {
        for(auto& s : m_sinks)
            s->pc_sample(data, r);
    }
    void api_call(const results& data, const marker_event& e)
    {
        for(auto& s : m_sinks)
            s->api_call(data, e);
    }
    void replay_outcome(const results&                           data,
                        const rocprofiler::tool::replay_outcome& outcome,
                        const std::vector<uint64_t>&             missing)
    {
        for(auto& s : m_sinks)
            s->replay_outcome(data, outcome, missing);
    }
    void code_object(const code_object_entry& entry)
    {
        for(auto& s : m_sinks)
            s->code_object(entry);
    }
    void kernel_symbol(const rocprofiler::tool::kernel_symbol& sym)
    {
        for(auto& s : m_sinks)
            s->kernel_symbol(sym);
    }
    void batch_end()
    {
        for(auto& s : m_sinks)
            s->batch_end();
    }
    void checkpoint()
    {
        for(auto& s : m_sinks)
            s->checkpoint();
    }
    void
    finish(const results& data, std::vector<std::string>& written, std::vector<std::string>& errors)
    {
        for(auto& s : m_sinks)
            s->finish(data, written, errors);
    }
    void write_whole(const results&            data,
                     const replay_report&      report,
                     std::vector<std::string>& written,
                     std::vector<std::string>& errors)
    {
        for(auto& s : m_sinks)
            s->write_whole(data, report, written, errors);
    }
    void discard_parts(std::vector<std::string>& errors)
    {
        for(auto& s : m_sinks)
            s->discard_parts(errors);
    }

private:
    std::vector<std::unique_ptr<sink>> m_sinks = {};
};
} // namespace rocprofiler::tool
