// Named metric sets ("speed_of_light", "full", ...): the "sets" section of metrics.json, read by
// rocprofv3 (to validate --pmc and list them with -L) and by the tool library (to expand a set into
// each agent's own metrics). One reader, no SDK dependency; the "derived" section is the SDK's and
// is not read here.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool::metric_sets
{
// One definition of a set. Several definitions may share a name for different agents.
struct definition
{
    std::string                             name        = {};
    std::string                             description = {};
    std::optional<std::vector<std::string>> agents      = {}; // agent names; absent: every agent
    std::vector<std::string>                metrics     = {}; // in the file's order, no repeats
    std::string                             file        = {}; // where it was read
};

// Later definitions take precedence over earlier ones for the agents they both cover.
using catalog = std::vector<definition>;

// The variable naming more set files: a file, or a directory whose *.json files are read in name
// order. Their sets come after the shipped file's.
inline constexpr const char* path_variable = "ROCPROFILER_METRICS_PATH";

// Reads the sets of one metrics.json document. On error returns false with @p error naming
// @p file and what is wrong; @p out is then unchanged.
bool parse(std::string_view text, const std::string& file, catalog& out, std::string& error);

// Reads one file (parse() of its content; an unreadable file is an error naming it).
bool read_file(const std::filesystem::path& file, catalog& out, std::string& error);

// The shipped file of a module (executable or shared library) at @p module_path:
// <prefix>/bin/rocprofv3 and <prefix>/lib/librocprofiler-sdk-tool.so both give
// <prefix>/share/rocprofiler-sdk/metrics.json.
std::filesystem::path shipped_file(const std::filesystem::path& module_path);

// The path of the shared library this code is linked into (dladdr), resolved; empty when unknown.
std::filesystem::path library_path();

// The path of the running executable (/proc/self/exe); empty when unknown.
std::filesystem::path executable_path();

// The shipped file of the module (when it exists: a missing shipped file gives no sets), then the
// files that @p metrics_path names (the value of ROCPROFILER_METRICS_PATH; null or empty: none).
std::optional<catalog>
load(const std::filesystem::path& shipped, const char* metrics_path, std::string& error);

// The definition of set @p name for agent @p agent: the last one whose agents list names it or is
// absent. nullptr when the set has no definition for that agent.
const definition* find(const catalog& sets, std::string_view name, std::string_view agent);

// Every set name, sorted, once each.
std::vector<std::string> names(const catalog& sets);

// The metrics of @p set that @p has_counter rejects.
std::vector<std::string> missing(const definition&                              set,
                                 const std::function<bool(const std::string&)>& has_counter);

// @p group as agent @p agent collects it: a name the agent has as a counter stays (a counter wins
// over a set of the same name); a set defined for the agent whose every metric the agent has is
// replaced by its metrics; other names stay (the caller reports them). A name already in the
// result is not added again.
std::vector<std::string> expand(const std::vector<std::string>&                group,
                                const catalog&                                 sets,
                                std::string_view                               agent,
                                const std::function<bool(const std::string&)>& has_counter);
} // namespace rocprofiler::tool::metric_sets
