#include "config/config.hpp"
#include "config/metric_sets.hpp"

#include "config/placeholders.hpp"
#include "contract/environment.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>

namespace rocprofiler::tool
{
namespace
{
// SQLite3 was found when this build was configured (rocprofv3-parse carries the definition).
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
constexpr bool rocpd_built = true;
#else
constexpr bool rocpd_built = false;
#endif
// The OTF2 library was found when this build was configured (rocprofv3-parse carries it too).
#if defined(ROCPROFILER_TOOL_HAVE_OTF2)
constexpr bool otf2_built = true;
#else
constexpr bool otf2_built  = false;
#endif
} // namespace

std::vector<std::vector<std::string>>
config::collected_groups() const
{
    if(kernel_replay || multiplexed()) return counter_groups;
    if(counters.empty()) return {};
    return {counters};
}

namespace
{
// ROCPROF_COUNTER_GROUPS must name only counters of ROCPROF_COUNTERS (when that is set) and have
// no empty group: a group that matches nothing would silently collect nothing.
void
check_counter_groups(const std::string& text, const config& cfg, std::vector<std::string>& errors)
{
    if(text.empty()) return;
    // Groups are separated by ';' or, in AMD's form, by lines ("pmc: A B\npmc: C"); a blank line
    // separates nothing.
    auto groups = std::vector<std::string>{""};
    for(char c : text)
    {
        if(c == ';' || (c == '\n' && !parse::parse_counter_list(groups.back()).empty()))
            groups.emplace_back();
        else if(c != '\n')
            groups.back().push_back(c);
    }
    if(groups.size() > 1 && text.back() == '\n' && groups.back().empty()) groups.pop_back();
    for(size_t g = 0; g < groups.size(); ++g)
    {
        const auto names = parse::parse_counter_list(groups[g]);
        if(names.empty())
            errors.emplace_back("ROCPROF_COUNTER_GROUPS='" + text + "': group " +
                                std::to_string(g + 1) +
                                " is empty (accepted: counter names separated by blanks, groups "
                                "by ';')");
        if(cfg.counters.empty()) continue;
        for(const auto& name : names)
            if(std::find(cfg.counters.begin(), cfg.counters.end(), name) == cfg.counters.end())
                errors.emplace_back("ROCPROF_COUNTER_GROUPS: group " + std::to_string(g + 1) +
                                    " names '" + name +
                                    "', which is not one of ROCPROF_COUNTERS ('pmc: ...')");
    }
}
} // namespace

// This process's argv: the %tag% / %argv% placeholders and the outputs' process records.
std::vector<std::string>
command_line()
{
    auto args = std::vector<std::string>{};
    auto in   = std::ifstream{"/proc/self/cmdline", std::ios::binary};
    auto arg  = std::string{};
    while(std::getline(in, arg, '\0'))
        args.emplace_back(arg);
    return args;
}

namespace
{
using getenv_fn = std::function<const char*(const char*)>;

void read_summary_options(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors);

// The value of @p name; empty when unset.
std::string
get(const getenv_fn& getenv, const char* name)
{
    const auto* value = getenv(name);
    return value != nullptr ? std::string{value} : std::string{};
}

// A switch under AMD's name @p name, else under its earlier name @p old (with a deprecation note).
bool
renamed_switch(const getenv_fn&          getenv,
               const char*               name,
               const char*               old,
               std::vector<std::string>& errors,
               std::vector<std::string>& notes)
{
    if(getenv(name) != nullptr) return contract::decode_switch(name, getenv(name), errors);
    if(getenv(old) == nullptr) return false;
    notes.emplace_back(std::string{old} + " is deprecated: use " + name + " (AMD's name)");
    return contract::decode_switch(old, getenv(old), errors);
}

// Variables AMD's rocprofv3 sets for its tool library that ask for what this one has no source
// for: said once each when they ask for something, never silently ignored.
void
read_unsupported(const getenv_fn& getenv, std::vector<std::string>& notes)
{
    for(const auto* name : contract::amd_unsupported_switches)
    {
        auto ignored = std::vector<std::string>{};
        if(contract::decode_switch(name, getenv(name), ignored) || !ignored.empty())
            notes.emplace_back(std::string{name} + "='" + getenv(name) +
                               "': not supported on this device (no source for it here); "
                               "ignored");
    }
}

// What to trace and how: the switches of the contract.
void
read_switches(const getenv_fn&          getenv,
              config&                   cfg,
              std::vector<std::string>& errors,
              std::vector<std::string>& notes)
{
    auto flag = [&](const char* name)
    { return contract::decode_switch(name, getenv(name), errors); };
    cfg.kernel_trace      = flag(contract::kernel_trace);
    cfg.memory_copy_trace = flag(contract::memory_copy_trace);
    cfg.marker_trace =
        renamed_switch(getenv, contract::marker_trace, contract::marker_trace_old, errors, notes);
    cfg.cuda_runtime_trace = flag(contract::cuda_runtime_trace);
    cfg.cuda_driver_trace  = flag(contract::cuda_driver_trace);
    cfg.selected_regions   = flag(contract::selected_regions);
    cfg.counter_collection = flag(contract::counter_collection);
    cfg.kernel_replay      = flag(contract::kernel_replay);
    cfg.stats              = flag(contract::stats);
    cfg.summary = renamed_switch(getenv, contract::summary, contract::summary_old, errors, notes);
    cfg.summary_per_domain = flag(contract::summary_per_domain);
    read_summary_options(getenv, cfg, errors);
    cfg.truncate_kernels = flag(contract::truncate_kernels);
    cfg.output_config    = flag(contract::output_config_file);
    cfg.progress         = flag(contract::progress);
    cfg.filter_trace     = flag(contract::filter_trace);
    // Demangling is on unless switched off (rocprofv3 -M sets ROCPROF_DEMANGLE_KERNELS=0).
    if(getenv(contract::demangle_kernels) != nullptr && *getenv(contract::demangle_kernels) != '\0')
        cfg.demangle_kernels = flag(contract::demangle_kernels);
}

// The counters, their groups, and what collecting them needs.
void
read_counters(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors)
{
    cfg.counters             = parse::parse_counter_list(get(getenv, contract::counters));
    cfg.counter_groups       = parse::decode_counter_groups(get(getenv, contract::counter_groups));
    const auto errors_before = errors.size();
    check_counter_groups(get(getenv, contract::counter_groups), cfg, errors);

    if(cfg.kernel_replay && cfg.counter_groups.empty() && !cfg.counters.empty())
        cfg.counter_groups = {cfg.counters};
    // ROCPROF_COUNTER_GROUPS_INTERVAL: a positive number of dispatches.
    // (A plain number, 0 when not given: GCC's -Wmaybe-uninitialized misreads an optional here.)
    const auto interval_text = get(getenv, contract::counter_groups_interval);
    auto       interval      = uint64_t{0};
    if(!interval_text.empty())
    {
        const auto parsed = parse::parse_count(interval_text);
        if(parsed && *parsed > 0)
            interval = *parsed;
        else
            errors.emplace_back(std::string{contract::counter_groups_interval} + "='" +
                                interval_text +
                                "' is not a positive number of dispatches (1, 2, ...)");
    }
    // AMD's rocprofv3 may give the counters as ROCPROF_COUNTER_GROUPS only. One group is the
    // counters of every dispatch; several, without kernel replay, are AMD's multiplexing: one
    // group per dispatch, switching every ROCPROF_COUNTER_GROUPS_INTERVAL dispatches (1 when not
    // given). rocprofv3 asks for it with the interval (its ROCPROF_COUNTERS holds every group).
    const bool groups_only = cfg.counters.empty() || interval != 0;
    if(!cfg.kernel_replay && groups_only && cfg.counter_groups.size() > 1 &&
       errors.size() == errors_before)
        cfg.counter_groups_interval = interval != 0 ? interval : 1;
    else if(!cfg.kernel_replay && cfg.counters.empty() && cfg.counter_groups.size() == 1)
        cfg.counters = cfg.counter_groups.front();
    if(cfg.counter_collection && cfg.collected_groups().empty())
        errors.emplace_back("ROCPROF_COUNTER_COLLECTION is set but ROCPROF_COUNTERS / "
                            "ROCPROF_COUNTER_GROUPS name no counter");
    if(cfg.kernel_replay && !cfg.counter_collection)
        errors.emplace_back(
            "ROCPROF_KERNEL_REPLAY=1 needs counter collection (ROCPROF_COUNTER_COLLECTION=1 and "
            "ROCPROF_COUNTER_GROUPS); rocprofv3 replays kernels only to collect counter groups");
}

// PC sampling: the method, unit and interval, each a value rocprofv3 accepts.
void
read_pc_sampling(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors)
{
    const auto method   = get(getenv, contract::pc_sampling_method);
    const auto unit     = get(getenv, contract::pc_sampling_unit);
    const auto interval = get(getenv, contract::pc_sampling_interval);
    if(method.empty() && unit.empty() && interval.empty()) return;
    if(method != "host_trap" && method != "stochastic")
        errors.emplace_back(std::string{contract::pc_sampling_method} + "='" + method +
                            "' is not host_trap or stochastic");
    if(unit != "instructions" && unit != "cycles" && unit != "time")
        errors.emplace_back(std::string{contract::pc_sampling_unit} + "='" + unit +
                            "' is not instructions, cycles or time");
    auto value = parse::parse_count(interval);
    if(!value || *value == 0)
        errors.emplace_back(std::string{contract::pc_sampling_interval} + "='" + interval +
                            "' is not a positive number");
    cfg.pc_sampling_method   = method;
    cfg.pc_sampling_unit     = unit;
    cfg.pc_sampling_interval = value.value_or(0);
}

// -D, --summary-groups, --summary-output-file, -u: checked here too (rocprofv3 checks them
// first), so that a bad value set by hand is an error, not a summary lost.
void
read_summary_options(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors)
{
    if(auto lines = get(getenv, contract::summary_groups); !lines.empty())
    {
        auto start = size_t{0};
        while(start <= lines.size())
        {
            auto end  = std::min(lines.find('\n', start), lines.size());
            auto text = lines.substr(start, end - start);
            try
            {
                (void)std::regex{text};
                cfg.summary_groups.emplace_back(std::move(text));
            }
            catch(const std::regex_error& e)
            {
                errors.emplace_back(std::string{contract::summary_groups} + ": '" + text +
                                    "' is not a regular expression: " + e.what());
            }
            start = end + 1;
        }
    }
    if(auto units = get(getenv, contract::summary_units); !units.empty())
    {
        if(units == "sec" || units == "msec" || units == "usec" || units == "nsec")
            cfg.summary_units = units;
        else
            errors.emplace_back(std::string{contract::summary_units} + "='" + units +
                                "': the summary units are sec, msec, usec or nsec");
    }
    if(auto output = get(getenv, contract::summary_output); !output.empty())
    {
        auto why      = std::string{};
        auto expanded = placeholders::expand(
            output, placeholders::process_values(getenv, command_line()), &why);
        if(expanded)
            cfg.summary_output = std::move(*expanded);
        else
            errors.emplace_back(std::string{contract::summary_output} + "='" + output +
                                "': " + why);
    }
    if(cfg.summary_per_domain || !cfg.summary_groups.empty()) cfg.summary = true;
}

// Where the outputs go: the directory and the prefix, their placeholders expanded.
void
read_output_names(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors)
{
    if(auto path = get(getenv, contract::output_path); !path.empty()) cfg.output_path = path;
    cfg.output_file_name = get(getenv, contract::output_file_name);
    // AMD's default: one directory per host, one prefix per process.
    cfg.output_file_name_default = cfg.output_file_name.empty();
    if(cfg.output_file_name_default) cfg.output_file_name = "%hostname%/%pid%";
    // Placeholders (%pid%, %hostname%, %rank%, %env{NAME}%, ...) take this process's values.
    const auto values = placeholders::process_values(getenv, command_line());
    for(auto [variable, text] : {std::pair{contract::output_path, &cfg.output_path},
                                 std::pair{contract::output_file_name, &cfg.output_file_name}})
    {
        auto why      = std::string{};
        auto expanded = placeholders::expand(*text, values, &why);
        if(expanded)
            *text = std::move(*expanded);
        else
            errors.emplace_back(std::string{variable} + "='" + *text + "': " + why);
    }
    // A prefix with directories (upstream's -o runs/%pid%) writes in those sub-directories of the
    // output directory: they become part of the directory, the last component the prefix.
    const auto& prefix = cfg.output_file_name;
    if(!prefix.empty() && (prefix.front() == '/' || prefix.back() == '/'))
        errors.emplace_back("ROCPROF_OUTPUT_FILE_NAME '" + prefix +
                            "' must be a file name prefix, optionally under sub-directories of "
                            "the output directory (runs/app), not " +
                            (prefix.front() == '/' ? "an absolute path" : "a directory"));
    else if(auto slash = prefix.rfind('/'); slash != std::string::npos)
    {
        cfg.output_path = (std::filesystem::path{cfg.output_path} / prefix.substr(0, slash))
                              .lexically_normal()
                              .string();
        cfg.output_file_name = prefix.substr(slash + 1);
    }
}

// The output formats (csv unless ROCPROF_OUTPUT_FORMAT names others) and the agents' column form.
void
read_formats(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors)
{
    if(const auto* set = getenv(contract::output_format);
       set != nullptr && parse::parse_counter_list(set).empty())
        errors.emplace_back(
            std::string{"ROCPROF_OUTPUT_FORMAT='"} + set +
            "' names no format (accepted: csv, json, pftrace, rocpd, otf2, or several: csv,json)");
    if(auto formats = get(getenv, contract::output_format); !formats.empty())
    {
        cfg.csv     = false;
        cfg.json    = false;
        cfg.pftrace = false;
        cfg.rocpd   = false;
        cfg.otf2    = false;
        for(auto format : parse::parse_counter_list(formats))
        {
            std::transform(format.begin(), format.end(), format.begin(), ::tolower);
            if(format == "csv")
                cfg.csv = true;
            else if(format == "json")
                cfg.json = true;
            else if(format == "pftrace")
                cfg.pftrace = true;
            else if(format == "rocpd" && !rocpd_built)
                errors.emplace_back(
                    "ROCPROF_OUTPUT_FORMAT: rocpd output was not built: SQLite3 missing");
            else if(format == "rocpd")
                cfg.rocpd = true;
            else if(format == "otf2" && !otf2_built)
                errors.emplace_back("ROCPROF_OUTPUT_FORMAT: otf2: built without OTF2 support");
            else if(format == "otf2")
                cfg.otf2 = true;
            else
                errors.emplace_back(
                    "ROCPROF_OUTPUT_FORMAT: format '" + format +
                    "' is not supported (accepted: csv, json, pftrace, rocpd, otf2)");
        }
    }

    if(auto index = get(getenv, contract::agent_index); !index.empty())
    {
        if(index == "absolute" || index == "relative" || index == "type-relative")
            cfg.agent_index = index;
        else
            errors.emplace_back("ROCPROF_AGENT_INDEX='" + index +
                                "': accepted: absolute, relative, type-relative");
    }
}

// Which dispatches are profiled: the kernel name filters, the iteration range, skip and count.
void
read_filters(const getenv_fn& getenv, config& cfg, std::vector<std::string>& errors)
{
    auto compile =
        [&errors](const char* variable, const std::string& text, std::optional<name_regex>& out)
    {
        if(text.empty()) return;
        auto why = std::string{};
        out      = name_regex::compile(text, &why);
        if(!out)
            errors.emplace_back(std::string{variable} + ": '" + parse::abbreviate(text) +
                                "' is not a valid regular expression: " + why);
    };
    cfg.include_regex_text = get(getenv, contract::include_regex);
    cfg.exclude_regex_text = get(getenv, contract::exclude_regex);
    compile(contract::include_regex, cfg.include_regex_text, cfg.include_regex);
    compile(contract::exclude_regex, cfg.exclude_regex_text, cfg.exclude_regex);

    if(auto range = get(getenv, contract::iteration_range); !range.empty())
    {
        auto why    = std::string{};
        auto parsed = parse::parse_iteration_range(range, &why);
        if(parsed)
            cfg.iteration_range = std::move(*parsed);
        else
            errors.emplace_back("ROCPROF_KERNEL_FILTER_RANGE: " + why);
    }
    auto count = [&](const char* variable)
    { return contract::decode_count(variable, getenv(variable), errors); };
    cfg.dispatch_skip  = count(contract::dispatch_skip).value_or(0);
    cfg.dispatch_count = count(contract::dispatch_count);
}
} // namespace

config_result
read_config(const std::function<const char*(const char*)>& getenv)
{
    auto  result = config_result{};
    auto& cfg    = result.cfg;
    read_switches(getenv, cfg, result.errors, result.notes);
    read_unsupported(getenv, result.notes);
    read_counters(getenv, cfg, result.errors);
    read_pc_sampling(getenv, cfg, result.errors);
    // Read through the contract, as rocprofv3 writes them (contract/environment.hpp).
    cfg.run_dir     = get(getenv, contract::run_dir);
    cfg.helper_mode = getenv(contract::helper_mode) != nullptr;
    if(const auto* path = getenv(metric_sets::path_variable); path != nullptr)
        cfg.metrics_path = std::string{path};
    read_output_names(getenv, cfg, result.errors);
    read_formats(getenv, cfg, result.errors);
    read_filters(getenv, cfg, result.errors);
    read_ncu(getenv, cfg, result.errors);
    return result;
}
} // namespace rocprofiler::tool
