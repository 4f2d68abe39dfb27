// What the tool collected: the plain records of model/records.hpp and the accumulators of
// model/kernel_stats.hpp, gathered in `results`, with the look-ups every output makes (kernel
// names, agents). Plain values and no I/O handle: each sink owns its files, and the writers are
// testable.
#pragma once

#include "config/config.hpp"
#include "model/domain_stats.hpp"
#include "model/kernel_stats.hpp"
#include "model/records.hpp"

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer_tracing.h>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
struct results
{
    // -A/--agent-index: the form of the CSV files' agent columns (agent_label).
    agent_index                           agent_index_mode = agent_index::relative;
    uint64_t                              pid              = 0;
    uint64_t                              init_time        = 0; // ns, SDK clock
    uint64_t                              fini_time        = 0;
    std::vector<std::string>              command          = {};
    std::vector<agent_entry>              agents           = {};
    std::vector<counter_entry>            counters         = {};
    std::map<uint64_t, kernel_symbol>     kernel_symbols   = {}; // by kernel_id
    std::map<uint64_t, code_object_entry> code_objects     = {}; // by id
    std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> dispatches      = {};
    std::vector<counter_dispatch>                                    counter_records = {};
    // --memory-copy-trace: the copies, in arrival order (kept only for outputs written whole).
    std::vector<rocprofiler_buffer_tracing_memory_copy_record_t> memory_copies = {};
    // --marker-trace: marks, closed ranges and other marker calls, in the order they ended
    // (kept only for outputs written whole).
    std::vector<marker_event> markers = {};
    // --cuda-runtime-trace / --cuda-driver-trace: the calls, in the order they ended (kept only
    // for outputs written whole).
    std::vector<marker_event> api_calls       = {};
    uint64_t                  dropped_records = 0;
    // --pc-sampling-*: the samples written, per record kind, and those lost: the drop counts the
    // PC sampling buffer's callback received (the SDK's sampler's and the buffer's own) and the
    // records no output can show.
    uint64_t pc_samples_host_trap  = 0;
    uint64_t pc_samples_stochastic = 0;
    uint64_t pc_samples_dropped    = 0;
    // The names of a stochastic sample's instruction type and not-issued reason: the SDK's name
    // functions, set by the capture side (this part of the tool calls no SDK function). Unset, or
    // answering NULL: "unknown (<value>)".
    using pc_sampling_name_fn                     = const char* (*)(uint32_t);
    pc_sampling_name_fn pc_instruction_type_name  = nullptr;
    pc_sampling_name_fn pc_not_issued_reason_name = nullptr;
    // Under kernel replay, per agent handle: the counters of each group the agent collects, and
    // per replay pass of its dispatches the groups whose values that pass's record carries (a
    // group of several passes is collected over consecutive passes and reported by the first; one
    // configuration of all groups reports every group from pass 0). A dispatch is replayed when
    // its agent plans at least two passes.
    std::map<uint64_t, std::vector<std::vector<std::string>>> replay_groups      = {};
    std::map<uint64_t, std::vector<std::vector<uint64_t>>>    replay_pass_groups = {};
    kernel_stats_accumulator                                  kernel_stats       = {};
    // --stats, -S: the other domains' sums (memory copies, markers, CUDA API calls), per name.
    domain_stats_accumulator domain_stats = {};

    run_end end = {};

    // The kernel's name; empty when the id is not in kernel_symbols.
    const std::string&   kernel_name(uint64_t kernel_id) const;
    const kernel_symbol* find_symbol(uint64_t kernel_id) const;
    const agent_entry*   find_agent(rocprofiler_agent_id_t id) const;
};

// What Agent_Id columns show: the agent's logical node id (its index among all agents), as
// rocprofv3 does; the handle only when the agent is unknown.
uint64_t agent_number(const results& data, rocprofiler_agent_id_t id);
// A side of a copy in the Perfetto trace's annotations: the agent's number (agent_number), or
// "host" for host memory (agent handle 0: the SDK lists no CPU agent). memory_copy_trace.csv names
// it as agent_label does ("Agent 1"), or "host".
std::string memory_copy_agent(const results& data, rocprofiler_agent_id_t id);
// The symbol of @p kernel_id, adding the placeholder kernel_<id> when it was never reported. When
// it adds one, @p warning (if given) receives the one-time warning to print.
const kernel_symbol& ensure_kernel_symbol(results& data, uint64_t kernel_id, std::string* warning);

// Per kernel name (data.kernel_stats, merged by name), sorted by total duration (largest first),
// ties by name.
std::vector<kernel_stat> compute_kernel_stats(const results& data);

// Every domain that has records, with its sums per name: KERNEL_DISPATCH (from kernel_stats,
// merged by kernel name), then the others (domain_stats) in name order.
std::vector<domain_totals> compute_domain_totals(const results& data);

} // namespace rocprofiler::tool
