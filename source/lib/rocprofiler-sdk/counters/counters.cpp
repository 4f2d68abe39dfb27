#include "counters/counters.hpp"

#include "agent/agent.hpp"
#include "common/static_object.hpp"

#include <map>
#include <mutex>
#include <unordered_map>

namespace rocprofiler::counters
{
namespace
{
struct agent_entry
{
    bool                                             supported      = false;
    uint32_t                                         slots_per_pass = 0;
    agent_counters::pass_check                       passes_of      = {};
    std::vector<std::unique_ptr<counter_definition>> storage        = {};
    std::vector<const counter_definition*>           pointers       = {};
};

// The counters of every agent: facts of the process, built on first use from the backends and
// kept by a test reset.
struct definitions
{
    definitions();

    std::vector<agent_entry>               agents = {}; // index: agent handle - 1
    std::vector<const counter_definition*> all    = {}; // index: counter handle - 1
};

definitions::definitions()
{
    for(const auto* props : agent::get_agents())
    {
        auto entry = agent_entry{};
        auto owner = agent::backend_of(props->id);
        auto found = std::optional<agent_counters>{};
        if(owner) found = owner->first->counters_of(owner->second);
        if(found)
        {
            entry.supported      = true;
            entry.slots_per_pass = found->slots_per_pass;
            entry.passes_of      = std::move(found->passes_of);
            for(size_t i = 0; i < found->counters.size(); ++i)
            {
                auto def           = std::make_unique<counter_definition>();
                def->id.handle     = all.size() + 1;
                def->agent         = props->id;
                def->backend_index = static_cast<uint32_t>(i);
                def->spec          = found->counters[i];
                all.emplace_back(def.get());
                entry.pointers.emplace_back(def.get());
                entry.storage.emplace_back(std::move(def));
            }
        }
        agents.emplace_back(std::move(entry));
    }
}

definitions&
get_definitions()
{
    return common::static_object<definitions, common::reset_order::never>::get();
}

// The tools' counter configurations (a test reset clears them and restarts ids at 1).
struct config_table
{
    std::mutex                                        mutex       = {};
    std::map<uint64_t, std::shared_ptr<const config>> configs     = {};
    uint64_t                                          next_config = 1;
};

config_table&
get_configs()
{
    return common::static_object<config_table, common::reset_order::counters>::get();
}

const agent_entry*
entry_of(definitions& reg, rocprofiler_agent_id_t agent)
{
    if(agent.handle == 0 || agent.handle > reg.agents.size()) return nullptr;
    return &reg.agents[agent.handle - 1];
}
} // namespace

const std::vector<const counter_definition*>*
counters_of(rocprofiler_agent_id_t agent)
{
    auto&       reg   = get_definitions();
    const auto* entry = entry_of(reg, agent);
    return (entry != nullptr && entry->supported) ? &entry->pointers : nullptr;
}

const counter_definition*
find(rocprofiler_counter_id_t id)
{
    auto& reg = get_definitions();
    if(id.handle == 0 || id.handle > reg.all.size()) return nullptr;
    return reg.all[id.handle - 1];
}

uint32_t
slots_per_pass(rocprofiler_agent_id_t agent)
{
    auto&       reg   = get_definitions();
    const auto* entry = entry_of(reg, agent);
    return entry != nullptr ? entry->slots_per_pass : 0;
}

rocprofiler_status_t
create_config(rocprofiler_agent_id_t           agent,
              const rocprofiler_counter_id_t*  ids,
              size_t                           count,
              rocprofiler_counter_config_id_t* out)
{
    auto& reg = get_definitions();
    if(agent::find(agent) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
    const auto* entry = entry_of(reg, agent);
    if(entry == nullptr || !entry->supported) return ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED;

    auto cfg   = std::make_shared<config>();
    cfg->agent = agent;
    if(out->handle != 0)
    {
        auto base = get_config(*out);
        if(!base) return ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
        if(base->agent.handle != agent.handle) return ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH;
        cfg->counters = base->counters;
    }
    for(size_t i = 0; i < count; ++i)
    {
        const auto* def = find(ids[i]);
        if(def == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        if(def->agent.handle != agent.handle)
            return ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT;
        auto duplicate = false;
        for(const auto* itr : cfg->counters)
            duplicate = duplicate || (itr == def);
        if(!duplicate) cfg->counters.emplace_back(def);
    }
    if(entry->passes_of)
    {
        auto indices = std::vector<uint32_t>{};
        for(const auto* def : cfg->counters)
            indices.emplace_back(def->backend_index);
        if(auto rc = entry->passes_of(indices, cfg->passes); rc != ROCPROFILER_STATUS_SUCCESS)
            return rc;
    }
    else
    {
        auto slots = uint32_t{0};
        for(const auto* def : cfg->counters)
            slots += def->spec.slots;
        if(slots > entry->slots_per_pass) return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
    }

    auto& table    = get_configs();
    auto  lock     = std::lock_guard{table.mutex};
    cfg->id.handle = table.next_config++;
    *out           = cfg->id;
    table.configs.emplace(cfg->id.handle, std::move(cfg));
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
destroy_config(rocprofiler_counter_config_id_t id)
{
    auto& reg  = get_configs();
    auto  lock = std::lock_guard{reg.mutex};
    return reg.configs.erase(id.handle) == 1 ? ROCPROFILER_STATUS_SUCCESS
                                             : ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
}

std::shared_ptr<const config>
get_config(rocprofiler_counter_config_id_t id)
{
    auto& reg  = get_configs();
    auto  lock = std::lock_guard{reg.mutex};
    auto  itr  = reg.configs.find(id.handle);
    return itr != reg.configs.end() ? itr->second : nullptr;
}

std::vector<std::shared_ptr<const config>>
configs_of(rocprofiler_agent_id_t agent)
{
    auto& reg  = get_configs();
    auto  lock = std::lock_guard{reg.mutex};
    auto  out  = std::vector<std::shared_ptr<const config>>{};
    for(const auto& [id, cfg] : reg.configs)
        if(cfg->agent.handle == agent.handle) out.emplace_back(cfg);
    return out;
}
} // namespace rocprofiler::counters
