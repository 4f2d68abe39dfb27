#include "command_line.hpp"

#include "config/parse.hpp"
#include "input_file.hpp"
#include "job_multiplexing.hpp"
#include "untrusted/input_file.hpp"

#include "untrusted/printable.hpp"

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
        {"summary_per_domain", "--summary-per-domain", job_key::flag},
        {"summary_groups", "--summary-groups", job_key::values},
        {"summary_output_file", "--summary-output-file", job_key::value},
        {"summary_units", "--summary-units", job_key::value},
        {"kernel_include_regex", "--kernel-include-regex", job_key::value},
        {"kernel_exclude_regex", "--kernel-exclude-regex", job_key::value},
        {"kernel_iteration_range", "--kernel-iteration-range", job_key::values},
        {"kernel_dispatch_skip", "--kernel-dispatch-skip", job_key::value},
        {"kernel_dispatch_count", "--kernel-dispatch-count", job_key::value},
        {"kernel_filter_trace", "--kernel-filter-trace", job_key::flag},
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

// Why a job cannot run: the message and rocprofv3's exit code (exit_usage for a malformed file,
// exit_configuration for what this device cannot do).
struct job_error
{
    std::string text = {};
    int         code = exit_usage;
};

// Keys of AMD's input schema spelled otherwise than its options: the key this file reads instead.
// The schema spells a few keys with '-' ("minimum-output-data"); they are read as with '_'.
std::string
canonical_key(std::string key)
{
    std::replace(key.begin(), key.end(), '-', '_');
    if(key == "list_metrics") return "list_avail"; // upstream's earlier name of --list-avail
    if(key == "hsa_finalize_trace") return "hsa_finalizer_trace"; // the schema's spelling
    return key;
}

// A job key that is not one of job_keys(): upstream's other options are "not supported", like on
// the command line (appended to @p unsupported; a false or empty value asks for nothing). Any
// other key is not an option of AMD's rocprofv3 either: as upstream, it is ignored, with a warning
// (once per key, in @p warned).
void
other_key(const std::string&        key,
          const nlohmann::json&     value,
          const std::string&        where,
          std::string&              unsupported,
          std::vector<std::string>& warnings,
          std::vector<std::string>& warned)
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
    if(!known)
    {
        if(std::find(warned.begin(), warned.end(), key) == warned.end())
        {
            warned.push_back(key);
            warnings.push_back(where + "unknown key '" + key +
                               "' ignored (not an option of rocprofv3)");
        }
        return;
    }
    if(value.is_null() || value == false || (value.is_array() && value.empty())) return;
    unsupported += (unsupported.empty() ? "" : ", ") + key;
}

// The short spelling of a long option, if it has one.
std::string
short_of(const std::string& option)
{
    for(const auto& u : {std::pair{"--output-directory", "-d"},
                         std::pair{"--output-file", "-o"},
                         std::pair{"--output-format", "-f"},
                         std::pair{"--summary", "-S"},
                         std::pair{"--list-avail", "-L"},
                         std::pair{"--truncate-kernels", "-T"},
                         std::pair{"--mangled-kernels", "-M"}})
        if(option == u.first) return u.second;
    return {};
}

bool
false_word(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), ::tolower);
    return text == "false" || text == "0" || text == "no" || text == "off";
}

bool
bool_word(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), ::tolower);
    return false_word(text) || text == "true" || text == "1" || text == "yes" || text == "on";
}

// What the command line @p base gives for @p k's option: nothing when it does not give it; else
// its values as text ("true"/"false" for a flag; every value of every occurrence for a list).
std::optional<std::vector<std::string>>
command_line_values(const job_key& k, const std::vector<std::string>& base)
{
    const auto option = std::string{k.option};
    const auto shorts = short_of(option);
    auto       out    = std::optional<std::vector<std::string>>{};
    for(size_t i = 1; i < base.size(); ++i)
    {
        const auto& arg  = base[i];
        const auto  name = arg.substr(0, arg.find('='));
        if(name != option && (shorts.empty() || name != shorts)) continue;
        if(!out) out = std::vector<std::string>{};
        const auto inline_value = arg.find('=') != std::string::npos
                                      ? std::optional{arg.substr(arg.find('=') + 1)}
                                      : std::nullopt;
        if(k.kind == job_key::flag)
        {
            auto word = inline_value ? *inline_value : std::string{"true"};
            if(!inline_value && i + 1 < base.size() && bool_word(base[i + 1])) word = base[i + 1];
            *out = {false_word(word) ? "false" : "true"};
            continue;
        }
        if(inline_value)
        {
            out->push_back(*inline_value);
            continue;
        }
        for(size_t j = i + 1; j < base.size() && (base[j].empty() || base[j][0] != '-'); ++j)
        {
            out->push_back(base[j]);
            if(k.kind == job_key::value) break;
        }
    }
    return out;
}

// A job key's value as the texts command_line_values() gives.
std::vector<std::string>
job_values(const job_key& k, const nlohmann::json& value)
{
    if(k.kind == job_key::flag) return {value.is_boolean() && value.get<bool>() ? "true" : "false"};
    auto out   = std::vector<std::string>{};
    auto items = value.is_array() ? value : nlohmann::json::array({value});
    for(const auto& item : items)
        out.push_back(scalar_text(item));
    return out;
}

std::string
joined(const std::vector<std::string>& values)
{
    auto out = std::string{};
    for(const auto& v : values)
        out += (out.empty() ? "" : " ") + v;
    return out;
}

// As upstream: a key given both on the command line (@p base) and in a job is the command line's
// when both give the same value (true: nothing to add); different values are an error.
std::optional<bool>
given_twice(const job_key&                  k,
            const std::string&              key,
            const nlohmann::json&           value,
            const std::vector<std::string>& base,
            const std::string&              where,
            std::string&                    error)
{
    auto given = command_line_values(k, base);
    if(!given) return false;
    auto wanted = job_values(k, value);
    if(given == wanted) return true;
    error = where + "'" + key + "' is " + joined(wanted) + " here and " + joined(*given) +
            " on the command line (" + k.option + "); give one value, or the same in both places";
    return std::nullopt;
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

// One job object as rocprofv3 arguments: @p base (the command line without -i) and its keys; its
// multiplexed groups, if any, in @p mux (their --pmc arguments are in the result).
std::optional<std::vector<std::string>>
one_job(const nlohmann::json&           entry,
        const std::string&              where,
        const std::vector<std::string>& base,
        std::vector<std::string>&       warnings,
        std::vector<std::string>&       warned,
        multiplexing&                   mux,
        job_error&                      error)
{
    if(!entry.is_object())
    {
        error.text = where + "a job is a mapping of option names to values";
        return std::nullopt;
    }
    if(!read_multiplexing(entry, where, mux, error.text)) return std::nullopt;
    if(mux.groups)
    {
        // As upstream: the counters come from pmc_groups or from pmc/--pmc, not both.
        const auto& pmc   = *std::find_if(job_keys().begin(),
                                        job_keys().end(),
                                        [](const auto& k) { return k.key == std::string{"pmc"}; });
        const auto  given = entry.contains("pmc")            ? std::string{"the job's pmc"}
                            : command_line_values(pmc, base) ? std::string{"--pmc"}
                                                             : std::string{};
        if(!given.empty())
        {
            error = {where + "pmc_groups and " + given +
                         " both name counters; give them in one place; the application was not run",
                     exit_configuration};
            return std::nullopt;
        }
    }
    else if(mux.interval)
        warnings.push_back(where + "pmc_group_interval without pmc_groups is ignored");
    auto argv = base;
    if(mux.groups)
        for(const auto& group : *mux.groups)
        {
            argv.emplace_back("--pmc");
            argv.insert(argv.end(), group.begin(), group.end());
        }
    auto unsupported = std::string{};
    for(const auto& [given_key, value] : entry.items())
    {
        const auto key = canonical_key(given_key);
        if(key == "sub_directory") continue; // upstream's own bookkeeping, set on every job
        auto it = std::find_if(job_keys().begin(),
                               job_keys().end(),
                               [&key = key](const auto& k) { return key == k.key; });
        if(it == job_keys().end())
        {
            if(key == "pmc_groups" || key == "pmc_group_interval") continue; // read above
            other_key(key, value, where, unsupported, warnings, warned);
            continue;
        }
        // A flag of the wrong type is append_arguments' error, not a conflict.
        if(it->kind != job_key::flag || value.is_boolean())
        {
            auto same = given_twice(*it, key, value, base, where, error.text);
            if(!same) return std::nullopt;
            if(*same) continue;
        }
        if(!append_arguments(*it, key, value, where, argv, error.text)) return std::nullopt;
    }
    if(!unsupported.empty())
    {
        error = {where + unsupported + ": " + unsupported_message + "; the application was not run",
                 exit_configuration};
        return std::nullopt;
    }
    return argv;
}

// One job of a JSON/YAML input file as rocprofv3 arguments, and its multiplexed groups.
struct job_arguments_of
{
    std::vector<std::string> argv = {};
    multiplexing             mux  = {};
};

// The job objects of a JSON/YAML input file, each turned into rocprofv3 arguments.
std::optional<std::vector<job_arguments_of>>
job_arguments(const nlohmann::json&           doc,
              const std::vector<std::string>& own,
              std::vector<std::string>&       warnings,
              job_error&                      error)
{
    if(!doc.is_object() || !doc.contains("jobs") || !doc.at("jobs").is_array() ||
       doc.at("jobs").empty())
    {
        error.text =
            "expected a 'jobs' list with at least one job ({\"jobs\": [{\"pmc\": [...]}]})";
        return std::nullopt;
    }
    const auto base   = without_input(own);
    auto       warned = std::vector<std::string>{};
    auto       out    = std::vector<job_arguments_of>{};
    for(size_t j = 0; j < doc.at("jobs").size(); ++j)
    {
        auto job  = job_arguments_of{};
        auto argv = one_job(doc.at("jobs").at(j),
                            "job " + std::to_string(j + 1) + ": ",
                            base,
                            warnings,
                            warned,
                            job.mux,
                            error);
        if(!argv) return std::nullopt;
        job.argv = std::move(*argv);
        out.push_back(std::move(job));
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
    auto warnings = std::vector<std::string>{};
    auto failed   = job_error{};
    auto jobs     = job_arguments(*doc, own_args, warnings, failed);
    if(!jobs && failed.code == exit_usage)
        return usage_error("input file '" + file + "': " + failed.text);
    if(!jobs)
    {
        auto out      = parse_result{};
        out.exit_code = failed.code;
        out.error     = "rocprofv3: error: " +
                    rocprofiler::untrusted::printable("input file '" + file + "', " + failed.text) +
                    "\n";
        return out;
    }
    auto out = parse_result{};
    for(auto& w : warnings)
        out.warnings.push_back("input file '" + file + "', " + std::move(w));
    out.opts = options{};
    for(size_t j = 0; j < jobs->size(); ++j)
    {
        auto name   = "input file '" + file + "', job " + std::to_string(j + 1) + ": ";
        auto parsed = parse((*jobs)[j].argv, after_separator, has_separator, name);
        if(!parsed.opts) return parsed;
        // pmc_groups: multiplexed in one run, unless the job asks for a replay mode (which counts
        // every group for every dispatch).
        if(const auto& mux = (*jobs)[j].mux; mux.groups)
        {
            if(parsed.opts->replay_mode.empty())
                parsed.opts->pmc_group_interval = mux.interval.value_or(1);
            else if(mux.interval)
                out.warnings.push_back(name +
                                       "pmc_group_interval is ignored: under --replay-mode " +
                                       parsed.opts->replay_mode +
                                       " every dispatch is counted with every group of "
                                       "pmc_groups");
        }
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
