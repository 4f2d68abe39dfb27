#include "json/json_sink.hpp"
#include "files/atomic_file.hpp"
#include "model/replay_report.hpp"
#include "json/record_json.hpp"
#include "json/record_spill.hpp"

#include <utility>

namespace rocprofiler::tool
{
json_sink::json_sink(const config& cfg, const results& data, std::vector<std::string>& errors)
    : m_cfg{cfg}
{
    auto open = [&](bool wanted, const char* what)
    {
        if(!wanted) return std::unique_ptr<record_spill>{};
        auto spill = std::make_unique<record_spill>();
        if(spill->open(output_file(cfg, data.pid, std::string{"results.json."} + what + ".part")))
            return spill;
        errors.emplace_back(spill->error());
        return std::unique_ptr<record_spill>{};
    };
    m_dispatches      = open(cfg.kernel_trace, "kernel_dispatch");
    m_counters        = open(cfg.counter_collection, "counter_collection");
    m_memory_copies   = open(cfg.memory_copy_trace, "memory_copy");
    m_markers         = open(cfg.marker_trace, "marker_api");
    m_api_calls       = open(cfg.cuda_api_trace(), "cuda_api");
    m_replay_outcomes = open(cfg.kernel_replay, "kernel_replay_outcome");
    m_pc_host_trap    = open(cfg.pc_sampling(), "pc_sample_host_trap");
    m_pc_stochastic   = open(cfg.pc_sampling(), "pc_sample_stochastic");
}

results_spills
json_sink::spills() const
{
    return results_spills{m_dispatches.get(),
                          m_counters.get(),
                          m_memory_copies.get(),
                          m_markers.get(),
                          m_api_calls.get(),
                          m_replay_outcomes.get(),
                          m_pc_host_trap.get(),
                          m_pc_stochastic.get()};
}

void
json_sink::pc_sample(const results&, const rocprofiler_pc_sampling_record_host_trap_v0_t& r)
{
    if(m_pc_host_trap) m_pc_host_trap->append(pc_sample_json(r));
}

void
json_sink::pc_sample(const results& data, const rocprofiler_pc_sampling_record_stochastic_v0_t& r)
{
    if(m_pc_stochastic) m_pc_stochastic->append(pc_sample_json(data, r));
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
json_sink::write_whole(const results&            data,
                       const replay_report&      report,
                       std::vector<std::string>& written,
                       std::vector<std::string>& errors)
{
    auto path = output_file(m_cfg, data.pid, "results.json");
    if(write_results_json(path, m_cfg, data, report, spills(), errors))
        written.emplace_back(std::move(path));
}

void
json_sink::discard_parts(std::vector<std::string>& errors)
{
    for(auto* spill : {m_dispatches.get(),
                       m_counters.get(),
                       m_memory_copies.get(),
                       m_markers.get(),
                       m_api_calls.get(),
                       m_replay_outcomes.get(),
                       m_pc_host_trap.get(),
                       m_pc_stochastic.get()})
    {
        if(spill == nullptr) continue;
        if(!spill->error().empty()) errors.emplace_back(spill->error());
        spill->remove();
    }
}
} // namespace rocprofiler::tool
