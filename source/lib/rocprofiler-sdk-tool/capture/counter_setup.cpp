// Counter planning at run time: which counter configuration each pass of each agent's dispatches
// collects (application replay: the one group of this run; kernel replay: every group, one after
// another or together; AMD's multiplexing: one group per dispatch, in turns). rocprofv3 validates
// the same groups before the program runs.
#include "capture/counter_setup.hpp"
#include "capture/agents.hpp"
#include "config/metric_sets.hpp"
#include "log.hpp"
#include "planner/counter_planner.hpp"

#include <algorithm>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
// The collectable groups of one agent under kernel replay, in group order.
struct planned_group
{
    rocprofiler_counter_config_id_t       config = {};
    uint64_t                              passes = 1;
    std::vector<rocprofiler_counter_id_t> ids    = {};
};

// Under kernel replay: which configuration each pass of the agent's dispatches collects, as the
// planner decides (planner::plan_replay, shared with rocprofv3's validation): group by group, or
// one configuration of all groups when the agent schedules counters itself and that takes fewer
// passes. This function only creates and destroys the SDK's configurations around that decision.
void
plan_replay_passes(results&                          data,
                   counter_plan&                     plan,
                   const agent_entry&                agent,
                   const std::vector<planned_group>& groups)
{
    auto& configs      = plan.agent_configs[agent.info.id.handle];
    auto& reports      = data.replay_pass_groups[agent.info.id.handle];
    auto  group_passes = std::vector<uint64_t>{};
    auto  all_ids      = std::vector<rocprofiler_counter_id_t>{};
    for(const auto& g : groups)
    {
        group_passes.push_back(g.passes);
        for(auto id : g.ids)
            if(std::none_of(all_ids.begin(),
                            all_ids.end(),
                            [id](rocprofiler_counter_id_t other)
                            { return other.handle == id.handle; }))
                all_ids.push_back(id);
    }
    const auto fixed_limit     = counters_per_pass(agent.info.id, data.counters).has_value();
    auto       together        = rocprofiler_counter_config_id_t{};
    auto       together_passes = std::optional<uint64_t>{};
    const auto created =
        groups.size() > 1 && !fixed_limit &&
        rocprofiler_create_counter_config(
            agent.info.id, all_ids.data(), all_ids.size(), &together) == ROCPROFILER_STATUS_SUCCESS;
    if(created)
    {
        auto passes = uint64_t{0};
        if(rocprofiler_query_counter_config_pass_count(together, &passes) ==
           ROCPROFILER_STATUS_SUCCESS)
            together_passes = passes;
    }
    const auto passes       = planner::plan_replay(group_passes, together_passes, fixed_limit);
    const auto all_together = !passes.empty() && !passes.front().group;
    for(const auto& pass : passes)
    {
        configs.push_back(pass.group ? groups[*pass.group].config : together);
        reports.emplace_back(pass.reports.begin(), pass.reports.end());
    }
    if(all_together)
    {
        for(const auto& g : groups)
            rocprofiler_destroy_counter_config(g.config);
        auto by_group = uint64_t{0};
        for(auto n : group_passes)
            by_group += n;
        log::info("agent " + std::to_string(agent.info.logical_node_id) + ": the " +
                  std::to_string(groups.size()) + " counter groups take " +
                  std::to_string(by_group) + " passes one by one and " +
                  std::to_string(passes.size()) + " together; each dispatch is replayed " +
                  std::to_string(passes.size()) + " passes");
    }
    else if(created)
        rocprofiler_destroy_counter_config(together);
}

// The counter configuration of group @p g (0-based) on @p agent, with its pass count; none, with
// the error appended, when the SDK refuses it or it needs replay that is off.
std::optional<std::pair<rocprofiler_counter_config_id_t, uint64_t>>
create_group_config(const config&                          cfg,
                    const results&                         data,
                    const agent_entry&                     agent,
                    size_t                                 g,
                    std::vector<rocprofiler_counter_id_t>& ids,
                    std::vector<std::string>&              errors)
{
    auto cfg_id = rocprofiler_counter_config_id_t{};
    auto rc     = rocprofiler_create_counter_config(agent.info.id, ids.data(), ids.size(), &cfg_id);
    auto passes = uint64_t{1};
    if(rc == ROCPROFILER_STATUS_SUCCESS)
        rc = rocprofiler_query_counter_config_pass_count(cfg_id, &passes);
    if(rc == ROCPROFILER_STATUS_SUCCESS && passes > 1 && !cfg.kernel_replay)
    {
        rocprofiler_destroy_counter_config(cfg_id);
        errors.emplace_back("counter group " + std::to_string(g + 1) + " takes " +
                            std::to_string(passes) + " passes on agent " +
                            std::to_string(agent.info.logical_node_id) +
                            " and is collected only under --replay-mode kernel");
        return std::nullopt;
    }
    if(rc == ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT)
    {
        auto limit = counters_per_pass(agent.info.id, data.counters);
        errors.emplace_back(
            "counter group " + std::to_string(g + 1) + " has " + std::to_string(ids.size()) +
            " counters and does not fit in one pass on agent " +
            std::to_string(agent.info.logical_node_id) +
            (limit ? ", which collects at most " + std::to_string(*limit) + " counters per pass"
                   : std::string{}) +
            "; split it into several --pmc groups");
        return std::nullopt;
    }
    if(rc != ROCPROFILER_STATUS_SUCCESS)
    {
        errors.emplace_back("rocprofiler_create_counter_config for group " + std::to_string(g + 1) +
                            " failed: " + rocprofiler_get_status_name(rc));
        return std::nullopt;
    }
    return std::pair{cfg_id, passes};
}
} // namespace

// Resolves the configured counter groups on every GPU agent and creates the counter configs each
// pass collects. Errors name the counter and the agent.
bool
setup_counters(const config&             cfg,
               results&                  data,
               counter_plan&             plan,
               std::vector<std::string>& errors)
{
    auto groups = cfg.collected_groups();
    // Metric sets in a group stand for each agent's own definition (rocprofv3 checked the files).
    auto sets_error = std::string{};
    auto loaded     = metric_sets::load(metric_sets::shipped_file(metric_sets::library_path()),
                                    cfg.metrics_path ? cfg.metrics_path->c_str() : nullptr,
                                    sets_error);
    if(!loaded) errors.emplace_back(sets_error);
    const auto sets = loaded.value_or(metric_sets::catalog{});
    // Per group: the counters the last GPU agent lacked; empty once some agent has them all.
    auto unknown = std::vector<std::optional<std::string>>(groups.size());
    for(const auto& agent : data.agents)
    {
        if(agent.info.type != ROCPROFILER_AGENT_TYPE_GPU) continue;
        if(agent.counters_error)
        {
            errors.emplace_back("agent " + std::to_string(agent.info.logical_node_id) + " (" +
                                agent.product_name + ") has no counters (" + *agent.counters_error +
                                "); --pmc cannot be collected");
            continue;
        }
        auto by_name = std::unordered_map<std::string, uint64_t>{};
        for(const auto& c : data.counters)
            if(c.agent.handle == agent.info.id.handle) by_name.emplace(c.name, c.id);
        auto& configs     = plan.agent_configs[agent.info.id.handle];
        auto  groups_plan = std::vector<planned_group>{};
        for(size_t g = 0; g < groups.size(); ++g)
        {
            // The group as this agent collects it: each metric set as the agent's definition.
            const auto group = metric_sets::expand(groups[g],
                                                   sets,
                                                   agent.name,
                                                   [&by_name](const std::string& name)
                                                   { return by_name.count(name) != 0; });

            auto ids     = std::vector<rocprofiler_counter_id_t>{};
            auto missing = std::string{};
            for(const auto& name : group)
            {
                if(auto it = by_name.find(name); it != by_name.end())
                    ids.push_back(rocprofiler_counter_id_t{it->second});
                else
                    missing += (missing.empty() ? "" : ", ") + name;
            }
            if(!unknown[g] || !unknown[g]->empty()) unknown[g] = missing;
            if(!missing.empty()) continue; // not collectable on this agent
            auto created = create_group_config(cfg, data, agent, g, ids, errors);
            if(!created) continue;
            const auto [cfg_id, passes] = *created;
            if(!cfg.kernel_replay)
            {
                // Application replay: the run's one group. Multiplexing: every group, in turns.
                configs.push_back(cfg_id);
                continue;
            }
            groups_plan.push_back(planned_group{cfg_id, passes, ids});
            data.replay_groups[agent.info.id.handle].push_back(group);
        }
        if(cfg.kernel_replay && !groups_plan.empty())
            plan_replay_passes(data, plan, agent, groups_plan);
        if(cfg.multiplexed() && !configs.empty() && configs.size() < groups.size())
            log::warning("agent " + std::to_string(agent.info.logical_node_id) + ": " +
                         std::to_string(configs.size()) + " of the " +
                         std::to_string(groups.size()) +
                         " multiplexed counter groups can be collected there; its dispatches "
                         "take turns among those");
    }
    for(size_t g = 0; g < groups.size(); ++g)
        if(unknown[g] && !unknown[g]->empty())
            errors.emplace_back("counter group " + std::to_string(g + 1) +
                                " names counters no agent has: " + *unknown[g] +
                                " (rocprofv3 -L lists the counters)");
    for(const auto& c : data.counters)
        plan.counter_names[c.id] = c.name;
    plan.multiplex_interval = cfg.counter_groups_interval;
    if(cfg.multiplexed())
        log::info(
            "multiplexing " + std::to_string(groups.size()) +
            " counter groups: each dispatch is counted with one group, the next group every " +
            std::to_string(cfg.counter_groups_interval) +
            " counted dispatch(es) of an agent (no dispatch gets every group: use --replay-mode "
            "kernel for that)");
    auto any = false;
    for(const auto& [agent, configs] : plan.agent_configs)
        any = any || !configs.empty();
    if(!any) errors.emplace_back("no requested counter group can be collected on any agent");
    return errors.empty();
}

std::optional<rocprofiler_counter_config_id_t>
next_multiplexed(counter_plan& plan, uint64_t agent)
{
    auto it = plan.agent_configs.find(agent);
    if(it == plan.agent_configs.end() || it->second.empty()) return std::nullopt;
    const auto n        = plan.multiplexed_dispatches[agent]++;
    const auto interval = plan.multiplex_interval == 0 ? uint64_t{1} : plan.multiplex_interval;
    return it->second[(n / interval) % it->second.size()];
}
} // namespace rocprofiler::tool
