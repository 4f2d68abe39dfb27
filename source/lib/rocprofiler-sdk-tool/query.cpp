// Helper mode of the tool library, for rocprofv3 before it runs the application: -L/--list-avail
// and the validation of --pmc counters. rocprofv3 loads this library in a child process and calls
// rocprofv3_tool_query_agents(); the SDK is never configured there (no tool is registered).
#include "capture/agents.hpp"
#include "config/metric_sets.hpp"
#include "config/parse.hpp"
#include "contract/environment.hpp"
#include "planner/counter_planner.hpp"

#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

extern "C" __attribute__((visibility("default"))) int rocprofv3_tool_query_agents(int fd);

// Writes {"agents": [{"id", "type", "name", "product_name", "logical_node_id",
// "counters_error"?, "counters": [{"name", "description", "block", "is_derived"}],
// "counters_per_pass"?, "groups_exceeding": [...], "group_passes": [{"group", "passes"}],
// "group_splits": [{"group", "passes": [[names]]}], "counters_multi_pass": [{"name", "passes"}],
// "counters_exceeding_alone": [names], "pc_sampling": [{"method", "unit", "min_interval",
// "max_interval", "powers_of_two"}], "pc_sampling_error"?}], "errors": [...]} to @p fd. Returns 0
// when the agents could be queried. ROCPROFV3_TOOL_QUERY_GROUPS (contract::helper_request) names
// the --pmc groups: groups_exceeding lists (0-based) those whose counters all exist on the agent
// but that do not fit in one pass there (rocprofiler_create_counter_config: ERROR_EXCEEDS_HW_LIMIT,
// or a configuration of several passes, whose count group_passes gives); group_splits says how each
// of them splits into one-pass groups on that agent (split_into_passes), counters_multi_pass names
// counters that take several passes even by themselves (each a group of its own in the split,
// collectable under kernel replay only), and counters_exceeding_alone counters that cannot be
// configured at all. A metric set in a group stands for the agent's own definition
// (metric_sets::expand): the splits name its metrics.
namespace
{
namespace planner = rocprofiler::tool::planner;
using json        = nlohmann::ordered_json;

// The planner's probe on @p agent: creates a configuration of the named counters and asks its
// pass count.
planner::probe_fn
probe_of(rocprofiler_agent_id_t agent, const std::vector<rocprofiler::tool::counter_entry>& all)
{
    return [agent, &all](const std::vector<std::string>& names)
    {
        auto ids = std::vector<rocprofiler_counter_id_t>{};
        for(const auto& name : names)
            for(const auto& c : all)
                if(c.agent.handle == agent.handle && c.name == name)
                    ids.push_back(rocprofiler_counter_id_t{c.id});
        auto rc              = ROCPROFILER_STATUS_SUCCESS;
        auto result          = planner::probe_result{};
        result.passes        = rocprofiler::tool::passes_needed(agent, ids, &rc);
        result.exceeds_limit = rc == ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
        return result;
    };
}

// The PC sampling configurations @p agent offers (rocprofiler_query_pc_sampling_agent_
// configurations), as rocprofv3 names methods and units; "pc_sampling_error" when the query fails.
void
write_pc_sampling(rocprofiler_agent_id_t agent, json& entry)
{
    entry["pc_sampling"] = json::array();
    auto       offers    = std::vector<rocprofiler_pc_sampling_configuration_t>{};
    const auto rc        = rocprofiler::tool::pc_sampling_configurations(agent, offers);
    if(rc != ROCPROFILER_STATUS_SUCCESS)
    {
        entry["pc_sampling_error"] = rocprofiler_get_status_name(rc);
        return;
    }
    for(const auto& c : offers)
    {
        const char* method = c.method == ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP    ? "host_trap"
                             : c.method == ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC ? "stochastic"
                                                                                     : "none";
        const char* unit   = c.unit == ROCPROFILER_PC_SAMPLING_UNIT_TIME           ? "time"
                             : c.unit == ROCPROFILER_PC_SAMPLING_UNIT_CYCLES       ? "cycles"
                             : c.unit == ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS ? "instructions"
                                                                                   : "none";
        entry["pc_sampling"].push_back(
            json{{"method", method},
                 {"unit", unit},
                 {"min_interval", c.min_interval},
                 {"max_interval", c.max_interval},
                 {"powers_of_two",
                  (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0}});
    }
}

// What probing found, as the fields rocprofv3 reads (gpu_agents in main.cpp).
void
write_plan(const planner::agent_description& plan, json& entry)
{
    entry["groups_exceeding"] = plan.groups_exceeding;
    for(const auto& [g, passes] : plan.group_passes)
        entry["group_passes"].push_back(json{{"group", g}, {"passes", passes}});
    for(const auto& [g, parts] : plan.group_splits)
        entry["group_splits"].push_back(json{{"group", g}, {"passes", parts}});
    for(const auto& [name, n] : plan.multi_pass)
        entry["counters_multi_pass"].push_back(json{{"name", name}, {"passes", n}});
    entry["counters_exceeding_alone"] = plan.exceeding_alone;
}
} // namespace

int
rocprofv3_tool_query_agents(int fd)
{
    try
    {
        auto       counters = std::vector<rocprofiler::tool::counter_entry>{};
        auto       errors   = std::vector<std::string>{};
        auto       agents   = rocprofiler::tool::query_agents(counters, errors);
        const auto groups = rocprofiler::tool::contract::decode_helper_request(std::getenv).groups;
        // rocprofv3 read the same files and reported their errors before asking.
        namespace metric_sets = rocprofiler::tool::metric_sets;
        auto sets_error       = std::string{};
        auto sets = metric_sets::load(metric_sets::shipped_file(metric_sets::library_path()),
                                      std::getenv(metric_sets::path_variable),
                                      sets_error)
                        .value_or(metric_sets::catalog{});

        auto out = json{{"agents", json::array()}, {"errors", errors}};
        for(const auto& a : agents)
        {
            auto entry = json{{"id", a.info.id.handle},
                              {"type",
                               a.info.type == ROCPROFILER_AGENT_TYPE_GPU   ? "GPU"
                               : a.info.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU"
                                                                           : "NONE"},
                              {"name", a.name},
                              {"product_name", a.product_name},
                              {"logical_node_id", a.info.logical_node_id},
                              {"counters", json::array()}};
            if(a.counters_error) entry["counters_error"] = *a.counters_error;
            entry["groups_exceeding"]         = json::array();
            entry["group_splits"]             = json::array();
            entry["counters_exceeding_alone"] = json::array();
            entry["counters_multi_pass"]      = json::array();
            entry["group_passes"]             = json::array();
            if(a.info.type == ROCPROFILER_AGENT_TYPE_GPU && !a.counters_error)
            {
                if(auto limit = rocprofiler::tool::counters_per_pass(a.info.id, counters))
                    entry["counters_per_pass"] = *limit;
                auto plan = planner::agent_description{};
                plan.name = a.name;
                for(const auto& c : counters)
                    if(c.agent.handle == a.info.id.handle) plan.counters.push_back(c.name);
                planner::probe_groups(plan, groups, sets, probe_of(a.info.id, counters));
                write_plan(plan, entry);
            }
            write_pc_sampling(a.info.id, entry);
            for(const auto& c : counters)
                if(c.agent.handle == a.info.id.handle)
                    entry["counters"].push_back(json{{"name", c.name},
                                                     {"description", c.description},
                                                     {"block", c.block},
                                                     {"is_derived", c.is_derived}});
            out["agents"].push_back(std::move(entry));
        }
        auto text = out.dump(-1, ' ', false, json::error_handler_t::replace) + "\n";
        for(size_t done = 0; done < text.size();)
        {
            auto n = ::write(fd, text.data() + done, text.size() - done);
            if(n <= 0) return 1;
            done += static_cast<size_t>(n);
        }
        return errors.empty() ? 0 : 1;
    }
    catch(...)
    {
        return 1;
    }
}
