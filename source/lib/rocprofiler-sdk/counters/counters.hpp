// The counter registry: which counters each agent has, and counter configurations (groups of
// counters collected together: in one pass, or on agents that schedule passes themselves in the
// passes they say). The agent's backend describes its counters (what they are, how
// many slots each needs, how many slots a pass has: backend::device_backend::counters_of); the
// measurement itself happens in the backend when the dispatch pipeline asks an execution to
// collect a configuration.
#pragma once

#include "backend/device_backend.hpp"

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
// What a backend says about its counters (backend/device_backend.hpp).
using counter_spec   = backend::counter_spec;
using agent_counters = backend::device_counters;

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
    // Passes the agent needs to collect them: 1, or more on agents that schedule passes themselves
    // (backend::device_counters::passes_of), where such a configuration is collected over that
    // many passes of a replayed dispatch.
    uint32_t passes = 1;
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

} // namespace rocprofiler::counters
