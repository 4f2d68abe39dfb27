// -f csv: the files whose rows are appended as records arrive (csv_stream): kernel_trace.csv,
// counter_collection.csv, memory_copy_trace.csv, marker_api_trace.csv, cuda_api_trace.csv and,
// under kernel replay, counter_collection_missing.csv; with --pc-sampling-method, the method's
// pc_sampling_host_trap.csv or pc_sampling_stochastic.csv. The CSV files written whole
// (agent_info.csv, kernel_stats.csv, the replay summaries) come from write_outputs (output.hpp).
#pragma once

#include "config/config.hpp"
#include "files/csv_stream.hpp"
#include "sinks/sink.hpp"

#include <array>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
class csv_sink final : public sink
{
public:
    // Opens the files @p cfg asks for, each with its header; a file that cannot be opened is
    // missing (its error appended to @p errors), the others are written.
    csv_sink(const config& cfg, const results& data, std::vector<std::string>& errors);

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
    void checkpoint() override;
    void finish(const results&            data,
                std::vector<std::string>& written,
                std::vector<std::string>& errors) override;

private:
    // Every stream of the sink, for what is done to all of them (checkpoint, finish).
    std::array<csv_stream*, 8> streams();

    csv_stream m_kernel_trace  = {};
    csv_stream m_counters      = {};
    csv_stream m_memory_copy   = {};
    csv_stream m_markers       = {};
    csv_stream m_api           = {}; // cuda_api_trace.csv
    csv_stream m_missing       = {}; // counter_collection_missing.csv (kernel replay)
    csv_stream m_pc_host_trap  = {}; // pc_sampling_host_trap.csv
    csv_stream m_pc_stochastic = {}; // pc_sampling_stochastic.csv
    // A sample of the other method's kind (an agent that delivers another record kind) opens that
    // file when it arrives, so that no sample is left out; its open error is reported at finish.
    std::string              m_pc_host_trap_path  = {};
    std::string              m_pc_stochastic_path = {};
    std::vector<std::string> m_late_errors        = {};
};
} // namespace rocprofiler::tool
