// AMD's counter names (docs/api.md, "AMD counter names"): the table
// share/rocprofiler-sdk/amd_equivalents.json as rocprofv3 reads it, for what the SDK's counter list
// cannot say: which AMD names have no equivalent on an agent and why, and what an equivalent
// measures and how it differs from AMD's counter. The SDK reads the same file and offers each
// equivalent as a counter named like AMD's; it reports every problem of the file (a warning in
// each process), so this reader stays silent: an entry it cannot read is left out, and a file it
// cannot read gives an empty table with the reason in @p error. No SDK dependency.
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::tool::amd_names
{
// AMD's name on one agent: its definition there.
struct mapping
{
    std::string expression = {}; // over the agent's own counters
    std::string unit       = {};
    std::string notes      = {}; // what differs from AMD's counter
};

struct entry
{
    std::string                        name   = {};
    std::map<std::string, mapping>     mapped = {}; // agent name -> definition
    std::map<std::string, std::string> absent = {}; // agent name -> why there is none
};

using table = std::vector<entry>;

// The entries of the table's text; an entry that is not well formed is left out. nullopt with
// @p error when the text is not such a table.
std::optional<table> parse(std::string_view text, const std::string& file, std::string& error);

// parse() of a file (the bounded reader: a regular file of at most 256 MiB).
std::optional<table> read_file(const std::filesystem::path& file, std::string& error);

// <prefix>/share/rocprofiler-sdk/amd_equivalents.json for <prefix>/bin/rocprofv3.
std::filesystem::path shipped_file(const std::filesystem::path& module_path);

// The entry of @p name, or nullptr.
const entry* find(const table& names, std::string_view name);

// The counter names an expression uses (letters, digits, '_' and '.', not starting with a digit;
// min and max are functions), in order of first appearance.
std::vector<std::string> names_in(std::string_view expression);

// What AMD's names are on agent @p agent (its name) with counters @p counters.
struct on_agent
{
    bool named = false; // the table names the agent at all
    // AMD name -> native counters it is the equivalent of (its definition is one counter name),
    // for the names the agent offers.
    std::map<std::string, std::vector<std::string>> equivalent_of = {};
    // AMD name -> why the agent has no equivalent: the table's reason, the counters its
    // definition needs that the agent does not offer here, or (all there) that the SDK did not
    // offer it (it refused the entry, with a warning).
    std::map<std::string, std::string> absent = {};
};
on_agent
describe(const table& names, const std::string& agent, const std::vector<std::string>& counters);
} // namespace rocprofiler::tool::amd_names
