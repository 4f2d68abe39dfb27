#include "exec_limits.hpp"

#include "contract/environment.hpp"

#include <string_view>
#include <utility>

namespace contract = rocprofiler::tool::contract;

namespace rocprofv3
{
std::string
option_of_variable(const std::string& name)
{
    static const std::pair<const char*, const char*> options[] = {
        {contract::output_path, "-d/--output-directory"},
        {contract::output_file_name, "-o/--output-file"},
        {contract::output_format, "-f/--output-format"},
        {contract::agent_index, "-A/--agent-index"},
        {contract::include_regex, "--kernel-include-regex"},
        {contract::exclude_regex, "--kernel-exclude-regex"},
        {contract::iteration_range, "--kernel-iteration-range"},
        {contract::counters, "--pmc (or the counters of -i)"},
        {contract::counter_groups, "--pmc (or the counters of -i)"},
        {"LD_PRELOAD", "--preload (with the inherited LD_PRELOAD)"},
    };
    for(const auto& [variable, option] : options)
        if(name == variable) return option;
    return "the environment variable " + name;
}

std::string
exec_size_error(const std::vector<std::string>&           command,
                const std::map<std::string, std::string>& added,
                const char* const*                        inherited,
                size_t                                    arg_max,
                size_t                                    reserve)
{
    // Each string counts its NUL and its pointer; so do the two terminating NULL pointers.
    auto total = 2 * sizeof(char*) + reserve;
    for(size_t i = 0; i < command.size(); ++i)
    {
        if(command[i].size() + 1 > max_exec_string_bytes)
            return "argument " + std::to_string(i) + " of the application is " +
                   std::to_string(command[i].size()) + " bytes, over the " +
                   std::to_string(max_exec_string_bytes) +
                   " bytes exec takes in one string (MAX_ARG_STRLEN)";
        total += command[i].size() + 1 + sizeof(char*);
    }
    auto largest = std::pair<size_t, std::string>{0, {}};
    for(const auto& [name, value] : added)
    {
        const auto bytes = name.size() + 1 + value.size() + 1;
        if(bytes > max_exec_string_bytes)
            return option_of_variable(name) + ": the value is " + std::to_string(value.size()) +
                   " bytes, and the application's variable " + name + " would be " +
                   std::to_string(bytes) + " bytes, over the " +
                   std::to_string(max_exec_string_bytes) +
                   " bytes exec takes in one string (MAX_ARG_STRLEN)";
        total += bytes + sizeof(char*);
        if(bytes > largest.first) largest = {bytes, name};
    }
    for(auto* const* entry = inherited; entry != nullptr && *entry != nullptr; ++entry)
    {
        const auto text = std::string_view{*entry};
        if(added.count(std::string{text.substr(0, text.find('='))}) != 0) continue; // replaced
        total += text.size() + 1 + sizeof(char*);
    }
    if(total <= arg_max) return {};
    auto why = "the application's command line and environment would take " +
               std::to_string(total) + " bytes (with " + std::to_string(reserve) +
               " kept for rocprofv3's libraries), over the system's " + std::to_string(arg_max) +
               " bytes for exec (ARG_MAX)";
    if(!largest.second.empty())
        why += "; the longest value rocprofv3 sets comes from " +
               option_of_variable(largest.second) + " (" + largest.second + ", " +
               std::to_string(largest.first) + " bytes)";
    return why;
}
} // namespace rocprofv3
