// The counter registry: which counters each agent has, and counter configurations (groups of
// counters that fit in one pass). Backends describe their counters (what they are, how many
// slots each needs, how many slots a pass has); the measurement itself happens in the backend
// when the dispatch pipeline asks an execution to collect a configuration.
#pragma once

#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::counters
{
// What a backend says about one of its counters.
struct counter_spec
{
    std::string name        = {};
    std::string description = {};
    std::string block       = {};
    std::string expression  = {}; // derived counters only
    bool        is_constant = false;
    bool        is_derived  = false;
    uint32_t    slots       = 1; // hardware slots it takes in one pass
};

// What a backend says about one agent. Agents whose passes are not a fixed number of equal slots
// (NVIDIA GPUs: CUPTI schedules each set of metrics itself) give `fits_in_one_pass`, which
// answers SUCCESS, EXCEEDS_HW_LIMIT or another error for a set of their counters (indices into
// `counters`); the slot count is then unused.
struct agent_counters
{
    using fit_check = std::function<rocprofiler_status_t(const std::vector<uint32_t>& indices)>;

    std::vector<counter_spec> counters         = {};
    uint32_t                  slots_per_pass   = 0;
    fit_check                 fits_in_one_pass = {};
};

struct counter_definition
{
    rocprofiler_counter_id_t id            = {};
    rocprofiler_agent_id_t   agent         = {};
    uint32_t                 backend_index = 0; // index in the backend's counter list
    counter_spec             spec          = {};
};

struct config
{
    rocprofiler_counter_config_id_t        id       = {};
    rocprofiler_agent_id_t                 agent    = {};
    std::vector<const counter_definition*> counters = {};
};

// The counters of an agent (stable pointers), or nullptr when the agent has no counter support.
const std::vector<const counter_definition*>* counters_of(rocprofiler_agent_id_t agent);

const counter_definition* find(rocprofiler_counter_id_t id);

uint32_t slots_per_pass(rocprofiler_agent_id_t agent);

rocprofiler_status_t create_config(rocprofiler_agent_id_t           agent,
                                   const rocprofiler_counter_id_t*  ids,
                                   size_t                           count,
                                   rocprofiler_counter_config_id_t* out);

rocprofiler_status_t destroy_config(rocprofiler_counter_config_id_t id);

std::shared_ptr<const config> get_config(rocprofiler_counter_config_id_t id);

// Every configuration of an agent that exists now, in creation order (backends that measure the
// configurations of several passes at once use their union).
std::vector<std::shared_ptr<const config>> configs_of(rocprofiler_agent_id_t agent);

// Counter instance ids in records: counters have no dimensions yet, so an instance id is the
// counter id.
inline rocprofiler_counter_instance_id_t
instance_id(rocprofiler_counter_id_t id)
{
    return id.handle;
}

// Backends: the counters of one of their agents, or nothing. Defined by each backend.
std::optional<agent_counters> host_agent_counters();
#if defined(ROCPROFILER_HAVE_CUDA)
std::optional<agent_counters> cuda_agent_counters(uint32_t device_ordinal);
#endif
} // namespace rocprofiler::counters
