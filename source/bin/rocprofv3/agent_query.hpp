// What rocprofv3 asks before the application runs: where the tool and SDK libraries are, and the
// agents and their counters (the tool library's helper mode, run in a child process so that the
// SDK never loads into rocprofv3 itself).
#pragma once

#include "options.hpp"

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

namespace rocprofv3
{
struct libraries
{
    std::string tool = {};
    std::string sdk  = {};
};

// Next to the executable (<prefix>/bin/rocprofv3 -> <prefix>/lib/), unless ROCPROF_TOOL_LIBRARY /
// ROCPROF_SDK_LIBRARY override them; nothing, with @p error, when one is missing.
std::optional<libraries> find_libraries(std::string& error);

// The helper's JSON (query.cpp) for @p groups, or nothing with @p error.
std::optional<nlohmann::json> query_agents(const libraries&                             libs,
                                           const std::vector<std::vector<std::string>>& groups,
                                           std::string&                                 error);

// The GPU agents of the helper's JSON, as the counter planner takes them.
std::vector<rocprofiler::tool::planner::agent_description> gpu_agents(const nlohmann::json& query);

// -L/--list-avail: the agents, their counters and metric sets, on stdout.
int list_available(const nlohmann::json&                          query,
                   const rocprofiler::tool::metric_sets::catalog& sets);
} // namespace rocprofv3
