// What the SDK says about this machine's GPU agents, as plain data: the one part of
// rocprofv3-avail that calls the SDK is sdk_inventory.cpp (read_inventory, configure); the rest
// (pmc_check.cpp, printing.cpp) works on these structures, so its tests feed hand-built agents.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rocprofv3_avail
{
struct dimension
{
    std::string name      = {};
    uint64_t    instances = 0;
};

// One counter of an agent (rocprofiler_query_counter_info, version 1).
struct counter
{
    uint64_t               id          = 0;
    std::string            name        = {};
    std::string            description = {};
    std::string            block       = {};
    std::string            expression  = {}; // derived counters only
    bool                   is_derived  = false;
    bool                   is_constant = false;
    std::vector<dimension> dimensions  = {};

    // Whether the SDK offers it as the equivalent of AMD's counter of this name (the SDK marks
    // those with the description "equivalent of AMD's <name>: ...").
    bool is_amd_equivalent() const;
};

// One PC sampling configuration (rocprofiler_query_pc_sampling_agent_configurations).
struct pc_sampling_config
{
    std::string method        = {}; // host_trap, stochastic
    std::string unit          = {}; // instructions, cycles, time
    uint64_t    min_interval  = 0;
    uint64_t    max_interval  = 0;
    bool        interval_pow2 = false;
};

struct agent
{
    uint64_t    handle  = 0;
    int         index   = 0;  // logical_node_type_id: what -d/--device names
    std::string name    = {}; // architecture ("host", "sm_90")
    std::string product = {};
    // The agent's properties as AMD's `list --agent` names them, in its order.
    std::vector<std::pair<std::string, std::string>> properties = {};

    std::vector<counter>       counters       = {};
    std::optional<std::string> counters_error = {}; // why the agent lists no counters

    std::vector<pc_sampling_config> pc_sampling       = {};
    std::optional<std::string>      pc_sampling_error = {};

    const counter* find(const std::string& counter_name) const;
};

struct inventory
{
    std::vector<agent>       gpus   = {}; // GPU agents, by index
    std::vector<std::string> errors = {}; // queries that failed
};

// What creating a counter configuration of some counters of an agent answered.
struct configuration
{
    bool        created = false;
    uint64_t    passes  = 0;     // when created
    bool        exceeds = false; // ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT
    std::string status  = {};    // the status name when not created
};

// Creates (and destroys) a configuration of @p ids on @p agent.
using configure_fn =
    std::function<configuration(const agent& agent, const std::vector<uint64_t>& ids)>;

// Every GPU agent with its counters and PC sampling configurations.
inventory read_inventory();

// configure_fn through rocprofiler_create_counter_config and
// rocprofiler_query_counter_config_pass_count.
configuration configure(const agent& agent, const std::vector<uint64_t>& ids);
} // namespace rocprofv3_avail
