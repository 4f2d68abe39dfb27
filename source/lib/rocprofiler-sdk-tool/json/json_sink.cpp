#include "json/json_sink.hpp"
#include "replay_report.hpp"

namespace rocprofiler::tool
{
json_sink::json_sink(const config& cfg, results& data, std::vector<std::string>& errors)
{
    auto open = [&](bool wanted, const char* what)
    {
        if(!wanted) return std::shared_ptr<record_spill>{};
        auto spill = std::make_shared<record_spill>();
        if(spill->open(output_file(cfg, data.pid, std::string{"results.json."} + what + ".part")))
            return spill;
        errors.emplace_back(spill->error());
        return std::shared_ptr<record_spill>{};
    };
    data.dispatch_spill = m_dispatches = open(cfg.kernel_trace, "kernel_dispatch");
    data.counter_spill = m_counters = open(cfg.counter_collection, "counter_collection");
    data.memory_copy_spill = m_memory_copies = open(cfg.memory_copy_trace, "memory_copy");
    data.marker_spill = m_markers = open(cfg.marker_trace, "marker_api");
    data.api_spill = m_api_calls = open(cfg.cuda_api_trace(), "cuda_api");
    data.replay_outcome_spill    = m_replay_outcomes =
        open(cfg.kernel_replay, "kernel_replay_outcome");
}

void
json_sink::dispatch(const results&, const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    if(m_dispatches) m_dispatches->append(dispatch_record_json(r));
}

void
json_sink::counters(const results&, const counter_dispatch& rec)
{
    if(m_counters) m_counters->append(counter_record_json(rec));
}

void
json_sink::memory_copy(const results&, const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    if(m_memory_copies) m_memory_copies->append(memory_copy_record_json(r));
}

void
json_sink::marker(const results&, const marker_event& e)
{
    if(m_markers) m_markers->append(marker_event_json(e));
}

void
json_sink::api_call(const results&, const marker_event& e)
{
    if(m_api_calls) m_api_calls->append(marker_event_json(e));
}

void
json_sink::replay_outcome(const results&,
                          const rocprofiler::tool::replay_outcome& outcome,
                          const std::vector<uint64_t>&             missing)
{
    if(m_replay_outcomes) m_replay_outcomes->append(replay_outcome_json(outcome, missing));
}

void
json_sink::discard_parts(std::vector<std::string>& errors)
{
    for(const auto& spill :
        {m_dispatches, m_counters, m_memory_copies, m_markers, m_api_calls, m_replay_outcomes})
    {
        if(!spill) continue;
        if(!spill->error().empty()) errors.emplace_back(spill->error());
        spill->remove();
    }
}
} // namespace rocprofiler::tool
