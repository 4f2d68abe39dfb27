// -f json: results.json's records wait on disk, not in memory: each record is appended as one
// line to a part file of its array (record_spill), and write_outputs (output.hpp) writes
// results.json whole at each checkpoint and at the end, copying the parts into their arrays.
// The part files are removed once results.json is complete.
#pragma once

#include "config.hpp"
#include "sinks/sink.hpp"

#include <memory>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
class json_sink final : public sink
{
public:
    // Opens the part files @p cfg asks for and hands them to @p data (write_outputs reads them
    // there); a part that cannot be opened is reported in @p errors and its array stays empty.
    json_sink(const config& cfg, results& data, std::vector<std::string>& errors);

    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r) override;
    void counters(const results& data, const counter_dispatch& rec) override;
    void memory_copy(const results&                                         data,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& r) override;
    void marker(const results& data, const marker_event& e) override;
    void api_call(const results& data, const marker_event& e) override;
    void replay_outcome(const results&                           data,
                        const rocprofiler::tool::replay_outcome& outcome,
                        const std::vector<uint64_t>&             missing) override;
    void discard_parts(std::vector<std::string>& errors) override;

private:
    std::shared_ptr<record_spill> m_dispatches      = {};
    std::shared_ptr<record_spill> m_counters        = {};
    std::shared_ptr<record_spill> m_memory_copies   = {};
    std::shared_ptr<record_spill> m_markers         = {};
    std::shared_ptr<record_spill> m_api_calls       = {};
    std::shared_ptr<record_spill> m_replay_outcomes = {};
};
} // namespace rocprofiler::tool
