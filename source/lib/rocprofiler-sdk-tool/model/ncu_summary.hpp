// --print-summary per-gpu and per-nvtx (Nsight Compute's summary modes): the dispatches' durations
// summed per agent and per marker range context, in memory bounded by the number of agents and
// range contexts. Like kernel_stats.csv, a replayed dispatch counts once (its first record, the
// call the application made). per-kernel is the -S table (kernel_stats.hpp). No I/O, no lock.
#pragma once

#include "model/kernel_stats.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace rocprofiler::tool
{
class ncu_summary
{
public:
    // @p ranges: the marker ranges the dispatch was submitted in (nvtx::describe).
    void add(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r,
             const std::string&                                         ranges);

    // The table of one mode, for stdout: rows named by @p agent_name (per-gpu) or by range
    // context (per-nvtx), largest total first.
    std::string per_gpu(const std::function<std::string(uint64_t)>& agent_name) const;
    std::string per_nvtx() const;

private:
    using totals = kernel_stats_accumulator::per_kernel;
    static void add_to(totals& t, uint64_t duration);

    std::map<uint64_t, totals>    m_agents = {};
    std::map<std::string, totals> m_ranges = {};
    recent_dispatches             m_recent = {};
};

// A summary table of @p rows titled "rocprofv3 <title> summary (<n> <what>)", columns as -S's.
std::string format_titled_summary(const std::string&              title,
                                  const std::string&              what,
                                  const std::vector<kernel_stat>& rows);
} // namespace rocprofiler::tool
