#include "command_line.hpp"

#include "config/parse.hpp"
#include "input_file.hpp"
#include "untrusted/input_file.hpp"

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>

namespace rocprofv3::cli
{
namespace
{
// The options a job key stands for, and how its value becomes arguments.
struct job_key
{
    const char* key    = nullptr;
    const char* option = nullptr;
    enum kind_t
    {
        flag,   // a boolean: true gives the option, false nothing
        value,  // a string or number: the option and the value
        values, // a list (or one string): the option and each element
    } kind = flag;
};

const std::vector<job_key>&
job_keys()
{
    static const auto keys = std::vector<job_key>{
        {"pmc", "--pmc", job_key::values},
        {"kernel_trace", "--kernel-trace", job_key::flag},
        {"memory_copy_trace", "--memory-copy-trace", job_key::flag},
        {"marker_trace", "--marker-trace", job_key::flag},
        {"runtime_trace", "--runtime-trace", job_key::flag},
        {"sys_trace", "--sys-trace", job_key::flag},
        {"cuda_runtime_trace", "--cuda-runtime-trace", job_key::flag},
        {"cuda_driver_trace", "--cuda-driver-trace", job_key::flag},
        {"agent_index", "--agent-index", job_key::value},
        {"selected_regions", "--selected-regions", job_key::flag},
        {"stats", "--stats", job_key::flag},
        {"summary", "--summary", job_key::flag},
        {"kernel_include_regex", "--kernel-include-regex", job_key::value},
        {"kernel_exclude_regex", "--kernel-exclude-regex", job_key::value},
        {"kernel_iteration_range", "--kernel-iteration-range", job_key::values},
        {"kernel_dispatch_skip", "--kernel-dispatch-skip", job_key::value},
        {"kernel_dispatch_count", "--kernel-dispatch-count", job_key::value},
        {"mangled_kernels", "--mangled-kernels", job_key::flag},
        {"truncate_kernels", "--truncate-kernels", job_key::flag},
        {"output_file", "--output-file", job_key::value},
        {"output_directory", "--output-directory", job_key::value},
        {"output_format", "--output-format", job_key::values},
        {"output_config", "--output-config", job_key::flag},
        {"log_level", "--log-level", job_key::value},
        {"preload", "--preload", job_key::values},
        {"list_avail", "--list-avail", job_key::flag},
        {"replay_mode", "--replay-mode", job_key::value},
        {"kernel_replay_beta_enabled", "--kernel-replay-beta-enabled", job_key::flag},
        {"pc_sampling_beta_enabled", "--pc-sampling-beta-enabled", job_key::flag},
        {"pc_sampling_method", "--pc-sampling-method", job_key::value},
        {"pc_sampling_unit", "--pc-sampling-unit", job_key::value},
        {"pc_sampling_interval", "--pc-sampling-interval", job_key::value},
        {"progress", "--progress", job_key::flag},
    };
    return keys;
}

// The command line without its -i option: its other options apply to every job.
std::vector<std::string>
without_input(const std::vector<std::string>& own)
{
    auto out = std::vector<std::string>{};
    for(size_t i = 0; i < own.size(); ++i)
    {
        const auto& arg = own[i];
        if(i > 0 && (arg == "-i" || arg == "--input"))
        {
            ++i;
            continue;
        }
        if(i > 0 && (arg.rfind("--input=", 0) == 0 ||
                     (arg.rfind("-i", 0) == 0 && arg.size() > 2 && arg[1] == 'i')))
            continue;
        out.push_back(arg);
    }
    return out;
}

std::string
scalar_text(const nlohmann::json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

// A job key that is not one of job_keys(): upstream's other options are "not supported", like on
// the command line (appended to @p unsupported; a false or empty value asks for nothing); any
// other key is an error.
bool
other_key(const std::string&    key,
          const nlohmann::json& value,
          const std::string&    where,
          std::string&          unsupported,
          std::string&          error)
{
    auto option = "--" + key;
    std::replace(option.begin(), option.end(), '_', '-');
    auto known = std::any_of(unsupported_options().begin(),
                             unsupported_options().end(),
                             [&](const auto& u)
                             {
                                 auto names = std::string{","} + u.names + ",";
                                 return names.find("," + option + ",") != std::string::npos;
                             });
    if(!known && key != "pmc_groups" && key != "pmc_group_interval")
    {
        error = where + "unknown key '" + key + "'";
        return false;
    }
    if(value.is_null() || value == false || (value.is_array() && value.empty())) return true;
    unsupported += (unsupported.empty() ? "" : ", ") + key;
    return true;
}

// As upstream: a value given both on the command line (@p given) and in a job conflicts.
bool
given_twice(const std::string&              key,
            const std::string&              option,
            const std::vector<std::string>& given,
            const std::string&              where,
            std::string&                    error)
{
    auto shorts = std::string{};
    for(const auto& u : {std::pair{"--output-directory", "-d"},
                         std::pair{"--output-file", "-o"},
                         std::pair{"--output-format", "-f"},
                         std::pair{"--summary", "-S"},
                         std::pair{"--list-avail", "-L"},
                         std::pair{"--truncate-kernels", "-T"},
                         std::pair{"--mangled-kernels", "-M"}})
        if(option == u.first) shorts = u.second;
    if(std::find(given.begin(), given.end(), option) == given.end() &&
       (shorts.empty() || std::find(given.begin(), given.end(), shorts) == given.end()))
        return false;
    error = where + "'" + key + "' is also given on the command line (" + option +
            "); give it in one place";
    return true;
}

// The arguments of one job key's @p value, appended to @p argv; false with @p error when the
// value has the wrong type.
bool
append_arguments(const job_key&            k,
                 const std::string&        key,
                 const nlohmann::json&     value,
                 const std::string&        where,
                 std::vector<std::string>& argv,
                 std::string&              error)
{
    const auto option = std::string{k.option};
    switch(k.kind)
    {
    case job_key::flag:
        if(!value.is_boolean())
        {
            error = where + "'" + key + "' is " + value.dump() + ", expected true or false";
            return false;
        }
        if(value.get<bool>()) argv.push_back(option);
        return true;
    case job_key::value:
        if(!value.is_string() && !value.is_number())
        {
            error = where + "'" + key + "' is " + value.dump() + ", expected a string";
            return false;
        }
        argv.push_back(option + "=" + scalar_text(value));
        return true;
    case job_key::values:
    {
        auto items = value.is_array() ? value : nlohmann::json::array({value});
        if(items.empty()) return true;
        argv.push_back(option);
        for(const auto& item : items)
        {
            if(!item.is_string() && !item.is_number())
            {
                error = where + "'" + key + "' has " + item.dump() + ", expected strings";
                return false;
            }
            argv.push_back(scalar_text(item));
        }
        return true;
    }
    }
    return true;
}

// One job object as rocprofv3 arguments: @p base (the command line without -i) and its keys.
std::optional<std::vector<std::string>>
one_job(const nlohmann::json&           entry,
        const std::string&              where,
        const std::vector<std::string>& base,
        const std::vector<std::string>& given,
        std::string&                    error)
{
    if(!entry.is_object())
    {
        error = where + "a job is a mapping of option names to values";
        return std::nullopt;
    }
    auto argv        = base;
    auto unsupported = std::string{};
    for(const auto& [key, value] : entry.items())
    {
        auto it = std::find_if(job_keys().begin(),
                               job_keys().end(),
                               [&key = key](const auto& k) { return key == k.key; });
        if(it == job_keys().end())
        {
            if(!other_key(key, value, where, unsupported, error)) return std::nullopt;
            continue;
        }
        if(given_twice(key, it->option, given, where, error)) return std::nullopt;
        if(!append_arguments(*it, key, value, where, argv, error)) return std::nullopt;
    }
    if(!unsupported.empty())
    {
        error = where + unsupported + ": " + unsupported_message;
        return std::nullopt;
    }
    return argv;
}

// The job objects of a JSON/YAML input file, each turned into rocprofv3 arguments.
std::optional<std::vector<std::vector<std::string>>>
job_arguments(const nlohmann::json& doc, const std::vector<std::string>& own, std::string& error)
{
    if(!doc.is_object() || !doc.contains("jobs") || !doc.at("jobs").is_array() ||
       doc.at("jobs").empty())
    {
        error = "expected a 'jobs' list with at least one job ({\"jobs\": [{\"pmc\": [...]}]})";
        return std::nullopt;
    }
    const auto base = without_input(own);
    // The options of the command line, by name, to find a key given in both places.
    auto given = std::vector<std::string>{};
    for(size_t i = 1; i < base.size(); ++i)
        if(base[i].size() > 1 && base[i][0] == '-')
            given.push_back(base[i].substr(0, base[i].find('=')));

    auto out = std::vector<std::vector<std::string>>{};
    for(size_t j = 0; j < doc.at("jobs").size(); ++j)
    {
        auto argv = one_job(
            doc.at("jobs").at(j), "job " + std::to_string(j + 1) + ": ", base, given, error);
        if(!argv) return std::nullopt;
        out.push_back(std::move(*argv));
    }
    return out;
}

// A JSON/YAML job file: each job parsed as a full set of options (the command line's merged in).
parse_result
read_job_file(const std::string&              file,
              const std::string&              ext,
              const std::string&              text,
              const std::vector<std::string>& own_args,
              const std::vector<std::string>& after_separator,
              bool                            has_separator,
              parse_fn                        parse)
{
    auto why = std::string{};
    auto doc = ext == ".json" ? read_json_document(text, why) : read_yaml_document(text, why);
    if(!doc) return usage_error("input file '" + file + "': " + why);
    auto jobs = job_arguments(*doc, own_args, why);
    if(!jobs) return usage_error("input file '" + file + "': " + why);
    auto out = parse_result{};
    out.opts = options{};
    for(size_t j = 0; j < jobs->size(); ++j)
    {
        auto name   = "input file '" + file + "', job " + std::to_string(j + 1) + ": ";
        auto parsed = parse((*jobs)[j], after_separator, has_separator, name);
        if(!parsed.opts) return parsed;
        // As upstream: job N writes to pass_<N>/ when there are several jobs or it
        // collects counters.
        if(jobs->size() > 1 || !parsed.opts->pmc_groups.empty())
            parsed.opts->job_directory = "pass_" + std::to_string(j + 1);
        out.opts->jobs.emplace_back(std::move(*parsed.opts));
    }
    out.opts->list_avail = std::any_of(
        out.opts->jobs.begin(), out.opts->jobs.end(), [](const auto& o) { return o.list_avail; });
    return out;
}

// A text file of "pmc:" lines: the counter groups, each one run, in pmc_<N>/.
outcome
read_pmc_lines(options& opts, const std::string& text)
{
    // As upstream, the counters come from the command line or the file, not both.
    if(!opts.pmc_groups.empty())
        return usage_error("-i '" + opts.input_file +
                           "' and --pmc both name counters; give them in one place");
    auto why    = std::string{};
    auto groups = rocprofiler::tool::parse::parse_input_text(text, &why);
    if(!groups) return usage_error("input file '" + opts.input_file + "': " + why);
    if(groups->empty())
        return usage_error("input file '" + opts.input_file +
                           "' has no 'pmc:' lines: each counter group is a line "
                           "'pmc: <counters...>' (blank lines and # comments are skipped)");
    opts.pmc_groups            = *groups;
    opts.pass_prefix           = "pmc_";
    opts.pass_directory_always = true;
    return std::nullopt;
}
} // namespace

outcome
read_input_file(options&                        opts,
                const std::vector<std::string>& own_args,
                const std::vector<std::string>& after_separator,
                bool                            has_separator,
                const std::string&              job,
                parse_fn                        parse)
{
    if(opts.input_file.empty()) return std::nullopt;
    if(!job.empty()) return usage_error(job + "an input file cannot name another input file");
    auto ext = std::filesystem::path{opts.input_file}.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
    // The extension first: nothing is read from a file that would be refused anyway.
    if(ext != ".txt" && ext != ".json" && ext != ".yaml" && ext != ".yml")
        return usage_error("input file '" + opts.input_file +
                           "' does not have a recognized extension (.txt, .json, .yaml, "
                           ".yml)");
    // A regular file of bounded size only: -i /dev/zero or a FIFO is an error, not a hang.
    auto contents = rocprofiler::untrusted::read_bounded(opts.input_file, max_input_file_bytes);
    if(!contents.ok) return usage_error("cannot read the input file: " + contents.error);
    if(ext != ".txt")
        return read_job_file(
            opts.input_file, ext, contents.text, own_args, after_separator, has_separator, parse);
    return read_pmc_lines(opts, contents.text);
}
} // namespace rocprofv3::cli
