#include "counters/counters.hpp"

#include "agent/agent.hpp"
#include "common/environment.hpp"
#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "counters/metrics_file.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace rocprofiler::counters
{
namespace
{
struct agent_entry
{
    bool                                             supported       = false;
    uint32_t                                         slots_per_pass  = 0;
    agent_counters::pass_check                       passes_of       = {};
    bool                                             every_execution = false;
    std::vector<std::unique_ptr<counter_definition>> storage         = {};
    std::vector<const counter_definition*>           pointers        = {};
};

// The counters of every agent: facts of the process, built on first use from the backends and
// kept by a test reset.
struct definitions
{
    definitions();
    void add_derived();

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
            entry.supported       = true;
            entry.slots_per_pass  = found->slots_per_pass;
            entry.passes_of       = std::move(found->passes_of);
            entry.every_execution = found->counts_every_execution;
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
    add_derived();
}

// After every agent's base counters, so that base counter ids do not depend on the metric files.
void
definitions::add_derived()
{
    auto any = std::any_of(agents.begin(), agents.end(), [](const auto& e) { return e.supported; });
    if(!any) return;
    auto files  = metrics_file::load(common::env::get(common::env::settings::metrics_path));
    auto logged = std::set<std::string>{}; // an error of a file is logged once, not per agent
    auto index  = size_t{0};
    for(const auto* props : agent::get_agents())
    {
        auto& entry = agents[index++];
        if(!entry.supported) continue;
        auto base_names = std::vector<std::string>{};
        for(const auto* def : entry.pointers)
            base_names.emplace_back(def->spec.name);
        auto resolved = derived::resolve(files, props->name, base_names);
        for(const auto& error : resolved.errors)
            if(logged.insert(error).second) ROCP_LOG(error) << "derived metrics: " << error;

        auto first = entry.pointers.size(); // offered[i] becomes entry.pointers[first + i]
        auto made  = std::vector<counter_definition*>{};
        for(const auto& offered : resolved.offered)
        {
            const auto& source = files[offered.definition];
            auto        def    = std::make_unique<counter_definition>();
            def->id.handle     = all.size() + 1;
            def->agent         = props->id;
            def->spec.name     = source.name;
            // Counter info has no unit: it ends the description. Without a description the
            // expression says what the metric is.
            def->spec.description = source.description.empty() ? source.text : source.description;
            if(!source.unit.empty()) def->spec.description += " (" + source.unit + ")";
            def->spec.block      = "derived";
            def->spec.expression = source.text;
            def->spec.is_derived = true;
            def->spec.slots      = 0;
            made.emplace_back(def.get());
            all.emplace_back(def.get());
            entry.pointers.emplace_back(def.get());
            entry.storage.emplace_back(std::move(def));
        }
        // Operands may refer to offered definitions later in the list: link them once all exist.
        auto infos = std::vector<std::shared_ptr<derived_counter>>{};
        for(size_t i = 0; i < resolved.offered.size(); ++i)
        {
            auto info        = infos.emplace_back(std::make_shared<derived_counter>());
            info->expression = files[resolved.offered[i].definition].parsed;
            for(const auto& op : resolved.offered[i].operands)
                info->operands.emplace_back(op.is_base ? entry.pointers[op.index]
                                                       : entry.pointers[first + op.index]);
            made[i]->derived = info;
        }
        // The base counters each one reaches, in the order a left-to-right walk of its operands
        // meets them. Computed once per metric from its operands' lists (the graph has no cycle:
        // derived::resolve), so that metrics sharing operands, or long chains of metrics, cost
        // the size of the graph and not the number of its paths.
        auto done       = std::vector<bool>(made.size(), false);
        auto made_index = std::unordered_map<const counter_definition*, size_t>{};
        for(size_t i = 0; i < made.size(); ++i)
            made_index.emplace(made[i], i);
        for(size_t root = 0; root < made.size(); ++root)
        {
            auto stack = std::vector<size_t>{root};
            while(!stack.empty())
            {
                auto i = stack.back();
                if(done[i])
                {
                    stack.pop_back();
                    continue;
                }
                auto pending = false;
                for(const auto* op : infos[i]->operands)
                    if(auto itr = made_index.find(op);
                       itr != made_index.end() && !done[itr->second])
                    {
                        stack.emplace_back(itr->second);
                        pending = true;
                    }
                if(pending) continue;
                auto bases = std::vector<const counter_definition*>{};
                auto seen  = std::unordered_set<const counter_definition*>{};
                auto add   = [&](const counter_definition* base)
                {
                    if(seen.insert(base).second) bases.emplace_back(base);
                };
                for(const auto* op : infos[i]->operands)
                {
                    if(auto itr = made_index.find(op); itr != made_index.end())
                        for(const auto* base : infos[itr->second]->bases)
                            add(base);
                    else
                        add(op);
                }
                infos[i]->bases = std::move(bases);
                done[i]         = true;
                stack.pop_back();
            }
        }
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

bool
counts_every_execution(rocprofiler_agent_id_t agent)
{
    auto&       reg   = get_definitions();
    const auto* entry = entry_of(reg, agent);
    return entry != nullptr && entry->supported && entry->every_execution;
}

const counter_definition*
first_non_additive(const config& cfg)
{
    for(const auto* def : cfg.counters)
        if(!def->spec.additive) return def;
    return nullptr;
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
        cfg->reported = base->reported;
    }
    auto add_once = [](std::vector<const counter_definition*>& list, const counter_definition* def)
    {
        if(std::find(list.begin(), list.end(), def) == list.end()) list.emplace_back(def);
    };
    for(size_t i = 0; i < count; ++i)
    {
        const auto* def = find(ids[i]);
        if(def == nullptr) return ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND;
        if(def->agent.handle != agent.handle)
            return ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT;
        add_once(cfg->reported, def);
        if(!def->derived)
            add_once(cfg->counters, def);
        else
            for(const auto* base : def->derived->bases)
                add_once(cfg->counters, base);
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

std::optional<double>
value_of(const counter_definition&                                              def,
         const std::function<std::optional<double>(const counter_definition&)>& measured)
{
    if(!def.derived) return measured(def);
    auto values = std::vector<double>{};
    values.reserve(def.derived->operands.size());
    for(const auto* operand : def.derived->operands)
    {
        auto value = value_of(*operand, measured); // terminates: derived::resolve refuses cycles
        if(!value) return std::nullopt;
        values.emplace_back(*value);
    }
    return def.derived->expression.evaluate(values);
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
