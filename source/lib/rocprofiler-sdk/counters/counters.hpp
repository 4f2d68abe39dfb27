// The counter registry: which counters each agent has, and counter configurations (groups of
// counters collected together: in one pass, or on agents that schedule passes themselves in the
// passes they say). The agent's backend describes its counters (what they are, how
// many slots each needs, how many slots a pass has: backend::device_backend::counters_of); the
// measurement itself happens in the backend when the dispatch pipeline asks an execution to
// collect a configuration.
//
// Derived counters (counters/derived.hpp, from the files of counters/metrics_file.hpp) follow an
// agent's base counters in its list. Backends never see them: a configuration's `counters` are
// the base counters to measure, and its `reported` list says what the tool receives, derived
// values computed from the measured ones (value_of).
#pragma once

#include "backend/device_backend.hpp"
#include "counters/derived.hpp"

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

struct counter_definition;

// What a derived counter is computed from.
struct derived_counter
{
    derived::expression expression = {};
    // One per name of the expression, in the order of expression.names(): base or derived
    // counters of the same agent.
    std::vector<const counter_definition*> operands = {};
    // Every base counter it reaches through its operands, each once.
    std::vector<const counter_definition*> bases = {};
};

struct counter_definition
{
    rocprofiler_counter_id_t id            = {};
    rocprofiler_agent_id_t   agent         = {};
    uint32_t                 backend_index = 0; // index in the backend's counter list (base only)
    counter_spec             spec          = {};
    std::shared_ptr<const derived_counter> derived = {}; // null for a base counter
};

struct config
{
    rocprofiler_counter_config_id_t id    = {};
    rocprofiler_agent_id_t          agent = {};
    // What the backend measures: base counters only, each once (the requested base counters and
    // every base counter a requested derived one reaches).
    std::vector<const counter_definition*> counters = {};
    // Passes the agent needs to collect them: 1, or more on agents that schedule passes themselves
    // (backend::device_counters::passes_of), where such a configuration is collected over that
    // many passes of a replayed dispatch.
    uint32_t passes = 1;
    // What the tool asked for, each once, in its order: one record per entry.
    std::vector<const counter_definition*> reported = {};
};

// The value of @p def given the measured base values (@p measured: the value of a base counter,
// nullopt when it was not measured), or nullopt when a base value it needs is missing.
std::optional<double>
value_of(const counter_definition&                                              def,
         const std::function<std::optional<double>(const counter_definition&)>& measured);

// The counters of an agent (stable pointers), or nullptr when the agent has no counter support.
const std::vector<const counter_definition*>* counters_of(rocprofiler_agent_id_t agent);

const counter_definition* find(rocprofiler_counter_id_t id);

uint32_t slots_per_pass(rocprofiler_agent_id_t agent);

// Whether the agent's backend measures every execution it is asked to and reports the values with
// the completion (backend::device_counters::counts_every_execution): device counting sums them.
bool counts_every_execution(rocprofiler_agent_id_t agent);

// The first base counter of @p cfg whose values do not add up over executions
// (counter_spec::additive), or nullptr. Derived counters are evaluated over the sums of their
// bases, so a configuration is summable when every base counter it measures is.
const counter_definition* first_non_additive(const config& cfg);

rocprofiler_status_t create_config(rocprofiler_agent_id_t           agent,
                                   const rocprofiler_counter_id_t*  ids,
                                   size_t                           count,
                                   rocprofiler_counter_config_id_t* out);

rocprofiler_status_t destroy_config(rocprofiler_counter_config_id_t id);

std::shared_ptr<const config> get_config(rocprofiler_counter_config_id_t id);

// Every configuration of an agent that exists now, in creation order (backends that measure the
// configurations of several passes at once use their union).
std::vector<std::shared_ptr<const config>> configs_of(rocprofiler_agent_id_t agent);

// Counter instance ids in records: every counter has one dimension of one instance, so an
// instance id is the counter id.
inline rocprofiler_counter_instance_id_t
instance_id(rocprofiler_counter_id_t id)
{
    return id.handle;
}

} // namespace rocprofiler::counters
