#include "contract/environment.hpp"

#include "config/parse.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <iterator>

namespace rocprofiler::tool::contract
{
namespace
{
constexpr auto request     = message::tool_request;
constexpr auto channel     = message::report_channel;
constexpr auto helper_m    = message::helper_request;
constexpr auto compat      = message::compatibility;
constexpr auto unsupported = "switch; said to be not supported when on";

constexpr auto table = std::array{
    variable{output_path, request, reader::tool_config, "directory (absolute), placeholders kept"},
    variable{output_file_name, request, reader::tool_config, "file name prefix, placeholders kept"},
    variable{output_format, request, reader::tool_config, "formats, comma-separated: csv,json"},
    variable{kernel_trace, request, reader::tool_config, "switch"},
    variable{memory_copy_trace, request, reader::tool_config, "switch"},
    variable{marker_trace, request, reader::tool_config, "switch"},
    variable{cuda_runtime_trace, request, reader::tool_config, "switch"},
    variable{cuda_driver_trace, request, reader::tool_config, "switch"},
    variable{agent_index, request, reader::tool_config, "absolute, relative or type-relative"},
    variable{selected_regions, request, reader::tool_config, "switch"},
    variable{stats, request, reader::tool_config, "switch"},
    variable{summary, request, reader::tool_config, "switch"},
    variable{summary_per_domain, request, reader::tool_config, "switch"},
    variable{summary_groups, request, reader::tool_config, "regular expressions, one a line"},
    variable{summary_output, request, reader::tool_config, "stdout, stderr or a file path"},
    variable{summary_units, request, reader::tool_config, "sec, msec, usec or nsec"},
    variable{include_regex, request, reader::tool_config, "regular expression"},
    variable{exclude_regex, request, reader::tool_config, "regular expression"},
    variable{iteration_range, request, reader::tool_config, "iteration ranges: [1-3,5], [5-]"},
    variable{dispatch_skip, request, reader::tool_config, "number of dispatches"},
    variable{dispatch_count, request, reader::tool_config, "number of dispatches"},
    variable{filter_trace, request, reader::tool_config, "switch"},
    variable{demangle_kernels, request, reader::tool_config, "switch, on when unset"},
    variable{truncate_kernels, request, reader::tool_config, "switch"},
    variable{output_config_file, request, reader::tool_config, "switch"},
    variable{progress, request, reader::tool_config, "switch"},
    variable{counter_collection, request, reader::tool_config, "switch"},
    variable{counters, request, reader::tool_config, "pmc: A B C (every counter of the run)"},
    variable{counter_groups, request, reader::tool_config, "groups: A B;C (or pmc: lines)"},
    variable{
        counter_groups_interval, request, reader::tool_config, "a positive number of dispatches"},
    variable{kernel_replay, request, reader::tool_config, "switch"},
    variable{pc_sampling_method, request, reader::tool_config, "host_trap or stochastic"},
    variable{pc_sampling_unit, request, reader::tool_config, "instructions, cycles or time"},
    variable{pc_sampling_interval, request, reader::tool_config, "a positive number"},
    variable{pc_sampling_beta, request, reader::sdk, "switch (set only when given)"},
    variable{log_level, request, reader::sdk, "error, warning, info or trace"},
    variable{sdk_log_level, request, reader::sdk, "as ROCPROF_LOG_LEVEL"},
    variable{roctx_log_level, request, reader::sdk, "as ROCPROF_LOG_LEVEL"},
    variable{target_processes, request, reader::tool_config, "application-only or all"},
    variable{nvtx_ranges, request, reader::tool_config, "switch"},
    variable{nvtx_include, request, reader::tool_config, "range filters, one a line"},
    variable{nvtx_exclude, request, reader::tool_config, "range filters, one a line"},
    variable{print_summary, request, reader::tool_config, "per-kernel, per-gpu or per-nvtx"},
    variable{cache_control, request, reader::sdk, "all or none (set only when given)"},
    variable{run_dir, channel, reader::run_report, "directory private to the run"},
    variable{report_fd, channel, reader::run_report, "descriptor number of a pipe"},
    variable{helper_mode, helper_m, reader::helper, "1"},
    variable{query_groups, helper_m, reader::helper, "groups: A B;C"},
    variable{cuda_agents, helper_m, reader::sdk, "1, unless the user set it"},
    variable{marker_trace_old, compat, reader::tool_config, "switch (deprecated name)"},
    variable{summary_old, compat, reader::tool_config, "switch (deprecated name)"},
    variable{amd_unsupported_switches[0], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[1], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[2], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[3], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[4], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[5], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[6], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[7], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[8], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[9], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[10], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[11], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[12], compat, reader::tool_config, unsupported},
    variable{amd_unsupported_switches[13], compat, reader::tool_config, unsupported},
};
static_assert(std::size(amd_unsupported_switches) == 14, "one table row per name");

std::string
text_of(const getenv_fn& getenv, const char* name)
{
    const auto* value = getenv(name);
    return value != nullptr ? std::string{value} : std::string{};
}

void
set_switch(environment& env, const char* name, bool on)
{
    if(on) env[name] = "1";
}

void
set_text(environment& env, const char* name, const std::string& text)
{
    if(!text.empty()) env[name] = text;
}

void
encode_counters(const tool_request& request, environment& env)
{
    set_switch(env, counter_collection, request.counter_collection);
    set_switch(env, kernel_replay, request.kernel_replay);
    if(request.counter_groups.empty()) return;
    auto all = std::string{"pmc:"};
    for(const auto& group : request.counter_groups)
        for(const auto& name : group)
            all += " " + name;
    env[counters]       = all;
    env[counter_groups] = parse::encode_counter_groups(request.counter_groups);
    if(request.counter_groups_interval)
        env[counter_groups_interval] = std::to_string(*request.counter_groups_interval);
}
} // namespace

std::span<const variable>
variables()
{
    return table;
}

bool
decode_switch(const char* name, const char* value, std::vector<std::string>& errors)
{
    if(value == nullptr) return false;
    auto text = std::string{value};
    std::transform(text.begin(), text.end(), text.begin(), ::tolower);
    for(const auto* on : {"1", "true", "yes", "on"})
        if(text == on) return true;
    for(const auto* off : {"", "0", "false", "no", "off"})
        if(text == off) return false;
    errors.emplace_back(std::string{name} + "='" + value +
                        "' is not a switch value (accepted: 1, 0, true, false, yes, no, on, off)");
    return false;
}

std::optional<uint64_t>
decode_count(const char* name, const char* value, std::vector<std::string>& errors)
{
    if(value == nullptr || *value == '\0') return std::nullopt;
    auto count = parse::parse_count(value);
    if(!count)
        errors.emplace_back(std::string{name} + "='" + value +
                            "' is not a number of dispatches (0, 1, 2, ...)");
    return count;
}

environment
encode(const tool_request& request)
{
    auto env         = environment{};
    env[output_path] = request.output_path;
    set_text(env, output_file_name, request.output_file_name);
    auto formats = std::string{};
    for(const auto& f : request.output_formats)
        formats += (formats.empty() ? "" : ",") + f;
    set_text(env, output_format, formats);
    set_switch(env, kernel_trace, request.kernel_trace);
    set_switch(env, memory_copy_trace, request.memory_copy_trace);
    set_switch(env, marker_trace, request.marker_trace);
    set_switch(env, cuda_runtime_trace, request.cuda_runtime_trace);
    set_switch(env, cuda_driver_trace, request.cuda_driver_trace);
    set_text(env, agent_index, request.agent_index);
    set_switch(env, selected_regions, request.selected_regions);
    set_switch(env, stats, request.stats);
    set_switch(env, summary, request.summary);
    set_switch(env, summary_per_domain, request.summary_per_domain);
    if(!request.summary_groups.empty())
    {
        auto lines = std::string{};
        for(const auto& g : request.summary_groups)
            lines += (lines.empty() ? "" : "\n") + g;
        env[summary_groups] = lines;
    }
    set_text(env, summary_output, request.summary_output);
    set_text(env, summary_units, request.summary_units);
    set_text(env, include_regex, request.include_regex);
    set_text(env, exclude_regex, request.exclude_regex);
    set_text(env, iteration_range, request.iteration_range);
    if(request.dispatch_skip) env[dispatch_skip] = std::to_string(*request.dispatch_skip);
    if(request.dispatch_count) env[dispatch_count] = std::to_string(*request.dispatch_count);
    set_switch(env, filter_trace, request.filter_trace);
    if(!request.demangle_kernels) env[demangle_kernels] = "0";
    set_switch(env, truncate_kernels, request.truncate_kernels);
    set_switch(env, output_config_file, request.output_config);
    set_switch(env, progress, request.progress);
    for(const auto* name : {log_level, sdk_log_level, roctx_log_level})
        set_text(env, name, request.log_level);
    encode_counters(request, env);
    set_text(env, pc_sampling_method, request.pc_sampling_method);
    set_text(env, pc_sampling_unit, request.pc_sampling_unit);
    if(!request.pc_sampling_method.empty())
        env[pc_sampling_interval] = std::to_string(request.pc_sampling_interval);
    set_switch(env, pc_sampling_beta, request.pc_sampling_beta);
    encode_ncu(request, env);
    return env;
}

decoded<tool_request>
decode_tool_request(const getenv_fn& getenv)
{
    auto  out     = decoded<tool_request>{};
    auto& r       = out.value;
    auto  on      = [&](const char* name) { return decode_switch(name, getenv(name), out.errors); };
    r.output_path = text_of(getenv, output_path);
    r.output_file_name  = text_of(getenv, output_file_name);
    r.output_formats    = parse::parse_counter_list(text_of(getenv, output_format));
    r.kernel_trace      = on(kernel_trace);
    r.memory_copy_trace = on(memory_copy_trace);
    r.marker_trace      = getenv(marker_trace) != nullptr ? on(marker_trace) : on(marker_trace_old);
    r.cuda_runtime_trace = on(cuda_runtime_trace);
    r.cuda_driver_trace  = on(cuda_driver_trace);
    r.agent_index        = text_of(getenv, agent_index);
    r.selected_regions   = on(selected_regions);
    r.stats              = on(stats);
    r.summary            = getenv(summary) != nullptr ? on(summary) : on(summary_old);
    r.summary_per_domain = on(summary_per_domain);
    if(auto lines = text_of(getenv, summary_groups); !lines.empty())
    {
        auto start = size_t{0};
        while(start <= lines.size())
        {
            auto end = std::min(lines.find('\n', start), lines.size());
            r.summary_groups.emplace_back(lines.substr(start, end - start));
            start = end + 1;
        }
    }
    r.summary_output  = text_of(getenv, summary_output);
    r.summary_units   = text_of(getenv, summary_units);
    r.include_regex   = text_of(getenv, include_regex);
    r.exclude_regex   = text_of(getenv, exclude_regex);
    r.iteration_range = text_of(getenv, iteration_range);
    r.dispatch_skip   = decode_count(dispatch_skip, getenv(dispatch_skip), out.errors);
    r.dispatch_count  = decode_count(dispatch_count, getenv(dispatch_count), out.errors);
    r.filter_trace    = on(filter_trace);
    if(const auto* demangle = getenv(demangle_kernels); demangle != nullptr && *demangle != '\0')
        r.demangle_kernels = on(demangle_kernels);
    r.truncate_kernels   = on(truncate_kernels);
    r.output_config      = on(output_config_file);
    r.progress           = on(progress);
    r.log_level          = text_of(getenv, log_level);
    r.counter_collection = on(counter_collection);
    r.kernel_replay      = on(kernel_replay);
    r.counter_groups     = parse::decode_counter_groups(text_of(getenv, counter_groups));
    if(r.counter_groups.empty())
        if(auto all = parse::parse_counter_list(text_of(getenv, counters)); !all.empty())
            r.counter_groups = {std::move(all)};
    if(const auto* text = getenv(counter_groups_interval); text != nullptr && *text != '\0')
        r.counter_groups_interval = decode_count(counter_groups_interval, text, out.errors);
    r.pc_sampling_method = text_of(getenv, pc_sampling_method);
    r.pc_sampling_unit   = text_of(getenv, pc_sampling_unit);
    if(const auto* text = getenv(pc_sampling_interval); text != nullptr && *text != '\0')
    {
        auto value = parse::parse_count(text);
        if(!value || *value == 0)
            out.errors.emplace_back(std::string{pc_sampling_interval} + "='" + text +
                                    "' is not a positive number");
        else
            r.pc_sampling_interval = *value;
    }
    if(!r.pc_sampling_method.empty() && r.pc_sampling_interval == 0)
        out.errors.emplace_back(std::string{pc_sampling_method} + " is set without " +
                                pc_sampling_interval);
    r.pc_sampling_beta = getenv(pc_sampling_beta) != nullptr;
    decode_ncu(getenv, r, out.errors);
    return out;
}

environment
encode(const report_channel& channel)
{
    auto env = environment{};
    set_text(env, run_dir, channel.run_dir);
    if(channel.report_fd) env[report_fd] = std::to_string(*channel.report_fd);
    return env;
}

report_channel
decode_report_channel(const getenv_fn& getenv)
{
    auto out         = report_channel{};
    out.run_dir      = text_of(getenv, run_dir);
    const auto* text = getenv(report_fd);
    if(text == nullptr || *text == '\0') return out;
    char* end = nullptr;
    auto  fd  = std::strtol(text, &end, 10);
    if(end == nullptr || *end != '\0' || fd < 0 || fd > INT_MAX) return out;
    out.report_fd = static_cast<int>(fd);
    return out;
}

environment
encode(const helper_request& request)
{
    auto env = environment{};
    set_switch(env, helper_mode, request.helper_mode);
    env[query_groups] = parse::encode_counter_groups(request.groups);
    return env;
}

helper_request
decode_helper_request(const getenv_fn& getenv)
{
    auto out        = helper_request{};
    out.helper_mode = getenv(helper_mode) != nullptr;
    out.groups      = parse::decode_counter_groups(text_of(getenv, query_groups));
    return out;
}
} // namespace rocprofiler::tool::contract
