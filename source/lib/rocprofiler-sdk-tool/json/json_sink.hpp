// -f json: results.json's records wait on disk, not in memory: each record is appended as one
// line to a part file of its array (record_spill), and write_whole writes results.json at each
// checkpoint and at the end (json/results_document.hpp), copying the parts into their arrays. The
// part files are removed once results.json is complete.
#pragma once

#include "config/config.hpp"
#include "sinks/sink.hpp"
#include "json/record_spill.hpp"
#include "json/results_document.hpp"

#include <memory>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
class json_sink final : public sink
{
public:
    // Opens the part files @p cfg asks for; a part that cannot be opened is reported in @p errors
    // and its array stays empty.
    json_sink(const config& cfg, const results& data, std::vector<std::string>& errors);

    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r) override;
    void counters(const results& data, const counter_dispatch& rec) override;
    void memory_copy(const results&                                         data,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& r) override;
    void marker(const results& data, const marker_event& e) override;
    void api_call(const results& data, const marker_event& e) override;
    void pc_sample(const results&                                       data,
                   const rocprofiler_pc_sampling_record_host_trap_v0_t& r) override;
    void pc_sample(const results&                                        data,
                   const rocprofiler_pc_sampling_record_stochastic_v0_t& r) override;
    void replay_outcome(const results&                           data,
                        const rocprofiler::tool::replay_outcome& outcome,
                        const std::vector<uint64_t>&             missing) override;
    void write_whole(const results&            data,
                     const replay_report&      report,
                     std::vector<std::string>& written,
                     std::vector<std::string>& errors) override;
    void discard_parts(std::vector<std::string>& errors) override;

    // The part files that are open (null for an array not traced or not opened).
    results_spills spills() const;

private:
    config                        m_cfg             = {};
    std::unique_ptr<record_spill> m_dispatches      = {};
    std::unique_ptr<record_spill> m_counters        = {};
    std::unique_ptr<record_spill> m_memory_copies   = {};
    std::unique_ptr<record_spill> m_markers         = {};
    std::unique_ptr<record_spill> m_api_calls       = {};
    std::unique_ptr<record_spill> m_replay_outcomes = {};
    std::unique_ptr<record_spill> m_pc_host_trap    = {};
    std::unique_ptr<record_spill> m_pc_stochastic   = {};
};
} // namespace rocprofiler::tool
