// What rocprofv3 asks before the application runs: where the tool and SDK libraries are, and the
// agents and their counters (the tool library's helper mode, run in a child process so that the
// SDK never loads into rocprofv3 itself).
#pragma once

#include "options.hpp"

#include "config/amd_names.hpp"

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

// How a library's path is settled, as AMD's rocprofv3 options say: when lib<name>.so does not
// exist, lib<name>.so.<soversion>, then lib<name>.so.<version> (those given); then a symbolic link
// replaced by its target (readlink), or every link resolved (realpath).
struct library_resolution
{
    std::string version   = {}; // --sdk-version
    std::string soversion = {}; // --sdk-soversion
    bool        readlink  = false;
    bool        realpath  = false;
};

// Next to the executable (<prefix>/bin/rocprofv3 -> <prefix>/lib/), unless ROCPROF_TOOL_LIBRARY /
// ROCPROF_SDK_LIBRARY override them; nothing, with @p error, when one is missing.
std::optional<libraries> find_libraries(std::string& error, const library_resolution& how = {});

// The helper's JSON (query.cpp) for @p groups, or nothing with @p error.
std::optional<nlohmann::json> query_agents(const libraries&                             libs,
                                           const std::vector<std::vector<std::string>>& groups,
                                           std::string&                                 error);

// The GPU agents of the helper's JSON, as the counter planner takes them, with the AMD counter
// names of @p names that have no equivalent on each (agent_description::amd_absent).
std::vector<rocprofiler::tool::planner::agent_description>
gpu_agents(const nlohmann::json& query, const rocprofiler::tool::amd_names::table& names = {});

// The shipped table of AMD's counter names next to rocprofv3 (an empty table when it cannot be
// read: the SDK warns about it in the helper and in the application).
rocprofiler::tool::amd_names::table amd_names_table();

// One warning per requested AMD name and agent of the helper's JSON @p query that measures it
// through the SDK's equivalent: what it is measured as there and what differs from AMD's counter
// (no equivalent is claimed exact). A user's metric of that name gets none.
std::vector<std::string> amd_name_warnings(const std::vector<std::vector<std::string>>& groups,
                                           const nlohmann::json&                        query,
                                           const rocprofiler::tool::amd_names::table&   names);

// -L/--list-avail: the agents, their counters (with the AMD names each is the equivalent of),
// metric sets and the AMD names without an equivalent, on stdout.
int list_available(const nlohmann::json&                          query,
                   const rocprofiler::tool::metric_sets::catalog& sets,
                   const rocprofiler::tool::amd_names::table&     names = {});
} // namespace rocprofv3
