#include "options.hpp"

#include "parse.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string_view>

#ifndef ROCPROFV3_VERSION
#    define ROCPROFV3_VERSION "unknown"
#endif

namespace rocprofv3
{
namespace
{
const char* const exit_codes_help =
    "Exit codes:\n"
    "  0     success (every run of the application exited with 0)\n"
    "  N     the application's exit code (application replay: the first failing run's code)\n"
    "  128+N the application was killed by signal N\n"
    "  1     usage error: invalid option, value or input file; the application was not run\n"
    "  2     configuration error: unknown or unavailable counters, tool libraries not found;\n"
    "        the application was not run\n"
    "  3     output error: the output directory cannot be created or written; the application\n"
    "        was not run\n"
    "  4     output error at the end: the application ran, but an output could not be written\n"
    "  126   the application could not be executed\n"
    "  127   the application was not found\n";

const char* const footer_help =
    "\nOutput files are <dir>/<prefix>_kernel_trace.csv, _agent_info.csv, _kernel_stats.csv,\n"
    "_counter_collection.csv and _results.json. The default prefix is the application's process\n"
    "id, so that processes never overwrite each other's files. With several --pmc groups and no\n"
    "kernel replay, the application runs once per group and run N writes to <dir>/pass_<N>/.\n"
    "Environment: ROCPROF_TOOL_LIBRARY and ROCPROF_SDK_LIBRARY override the libraries found\n"
    "next to rocprofv3 (../lib/).\n\n";

parse_result
usage_error(std::string message)
{
    auto out      = parse_result{};
    out.exit_code = exit_usage;
    out.error =
        "rocprofv3: error: " + std::move(message) + "\nRun 'rocprofv3 --help' for the options.\n";
    return out;
}
// Without "--", an option that takes several values (--pmc, -f) also takes the application and
// its arguments. Names such a value: one with a '/' (no counter or format has one), or the last
// argument when it is a value of such an option. Nothing when no value looks like that.
std::optional<std::string>
missing_separator(const std::vector<const char*>& own)
{
    auto option = std::string_view{};
    auto taken  = std::optional<std::string>{};
    for(size_t i = 1; i < own.size(); ++i)
    {
        const auto arg = std::string_view{own[i]};
        if(arg.substr(0, 1) == "-")
        {
            option = (arg == "--pmc" || arg == "-f" || arg == "--output-format")
                         ? arg
                         : std::string_view{};
            continue;
        }
        if(option.empty()) continue;
        if(arg.find('/') != std::string_view::npos || i + 1 == own.size())
        {
            taken = "no application given: '" + std::string{arg} + "' was taken as a value of " +
                    std::string{option} +
                    "; put '--' before the application: rocprofv3 [options] -- <application> "
                    "[arguments]";
            break;
        }
    }
    return taken;
}
} // namespace

parse_result
parse_command_line(int argc, const char* const* argv)
{
    auto opts = options{};
    auto app  = CLI::App{"rocprofv3: profile kernels of an application through rocprofiler-sdk.\n"
                         "Usage: rocprofv3 [options] -- <application> [arguments]",
                        "rocprofv3"};
    app.footer(std::string{footer_help} + exit_codes_help);
    app.set_version_flag("--version", std::string{"rocprofv3 "} + ROCPROFV3_VERSION);

    app.add_option("--pmc",
                   opts.pmc_groups,
                   "Counters to collect. Each occurrence of --pmc is one counter group, collected "
                   "in one pass (application replay: one run of the application per group; "
                   "kernel replay: one replay pass of each dispatch per group)")
        ->expected(1, -1)
        ->type_name("COUNTER...");
    app.add_option("--replay-mode",
                   opts.replay_mode,
                   "'kernel': replay each dispatch once per counter group instead of re-running "
                   "the application (needs --pmc and --kernel-replay-beta-enabled)")
        ->type_name("kernel");
    app.add_flag(
        "--kernel-replay-beta-enabled",
        opts.kernel_replay_beta,
        "Acknowledge that kernel replay is a beta feature (required by --replay-mode kernel)");
    app.add_flag(
        "--kernel-trace", opts.kernel_trace, "Trace kernel dispatches (<prefix>_kernel_trace.csv)");
    app.add_flag("--stats", opts.stats, "Write per-kernel statistics (<prefix>_kernel_stats.csv)");
    app.add_flag(
        "-S,--summary", opts.summary, "Print the per-kernel statistics table to stderr at the end");
    app.add_option("-d,--output-directory",
                   opts.output_directory,
                   "Directory of the output files (default: the current directory; created if "
                   "missing)");
    app.add_option("-o,--output-file",
                   opts.output_file,
                   "Prefix of the output file names (default: the application's process id)");
    app.add_option("-f,--output-format",
                   opts.output_formats,
                   "Output formats: csv (default), json, pftrace (Perfetto trace), rocpd "
                   "(SQLite database); several allowed. otf2 is not supported")
        ->expected(1, -1)
        ->type_name("FORMAT...");
    app.add_option("--kernel-include-regex",
                   opts.include_regex,
                   "Record only kernels whose name matches this ECMAScript regular expression");
    app.add_option("--kernel-exclude-regex",
                   opts.exclude_regex,
                   "Do not record kernels whose name matches this regular expression");
    app.add_option("--kernel-iteration-range",
                   opts.iteration_range,
                   "Record only these iterations (from 1) of each kernel name, e.g. '[1-3,5]'");
    app.add_flag(
        "-L,--list-avail", opts.list_avail, "List the agents and their counters, then exit");
    app.add_option("-i,--input",
                   opts.input_file,
                   "Text file of 'pmc: <counters...>' lines, one counter group per line");
    app.add_option("command", opts.command, "The application and its arguments (after --)")
        ->expected(-1);

    // Everything after the first "--" is the application's command line, verbatim: CLI11 never
    // sees it, so options of rocprofv3 that take several values cannot swallow it.
    auto own             = std::vector<const char*>{};
    auto after_separator = std::vector<std::string>{};
    for(int i = 0; i < argc; ++i)
    {
        if(i > 0 && std::string_view{argv[i]} == "--")
        {
            for(int j = i + 1; j < argc; ++j)
                after_separator.emplace_back(argv[j]);
            break;
        }
        own.push_back(argv[i]);
    }

    // A --pmc value of blanks only would reach CLI11 as a value it cannot convert; say what is
    // wrong with it instead.
    for(size_t i = 1; i < own.size(); ++i)
    {
        auto arg   = std::string_view{own[i]};
        auto value = std::optional<std::string_view>{};
        if(arg == "--pmc" && i + 1 < own.size())
            value = own[i + 1];
        else if(arg.substr(0, 6) == "--pmc=")
            value = arg.substr(6);
        if(value && rocprofiler::tool::parse::parse_counter_list(*value).empty())
            return usage_error("--pmc '" + std::string{*value} +
                               "' names no counter: a counter group is one or more counter "
                               "names, e.g. --pmc SQ_WAVES GRBM_COUNT");
    }

    try
    {
        app.parse(static_cast<int>(own.size()), own.data());
        if(!after_separator.empty())
        {
            if(!opts.command.empty())
                return usage_error("unexpected argument '" + opts.command.front() +
                                   "' before '--'");
            opts.command = after_separator;
        }
    }
    catch(const CLI::CallForHelp&)
    {
        auto out      = parse_result{};
        out.exit_code = exit_ok;
        out.output    = app.help();
        return out;
    }
    catch(const CLI::CallForVersion&)
    {
        auto out      = parse_result{};
        out.exit_code = exit_ok;
        out.output    = std::string{"rocprofv3 "} + ROCPROFV3_VERSION + "\n";
        return out;
    }
    catch(const CLI::ParseError& e)
    {
        // "--pmc A ./app -n 1": the application's own options are not rocprofv3's.
        if(after_separator.empty())
            if(auto hint = missing_separator(own)) return usage_error(*hint);
        return usage_error(e.what());
    }

    // -i: every "pmc:" line is one more group, after the --pmc groups.
    if(!opts.input_file.empty())
    {
        auto ext = std::filesystem::path{opts.input_file}.extension().string();
        if(ext == ".json" || ext == ".yaml" || ext == ".yml")
            return usage_error("input file '" + opts.input_file +
                               "': json/yaml job files are not supported; use a text file of "
                               "'pmc:' lines");
        auto in = std::ifstream{opts.input_file};
        if(!in) return usage_error("cannot read the input file '" + opts.input_file + "'");
        auto text = std::stringstream{};
        text << in.rdbuf();
        auto why    = std::string{};
        auto groups = rocprofiler::tool::parse::parse_input_text(text.str(), &why);
        if(!groups) return usage_error("input file '" + opts.input_file + "': " + why);
        if(groups->empty())
            return usage_error("input file '" + opts.input_file +
                               "' has no 'pmc:' lines: each counter group is a line "
                               "'pmc: <counters...>' (blank lines and # comments are skipped)");
        opts.pmc_groups.insert(opts.pmc_groups.end(), groups->begin(), groups->end());
    }
    // "--pmc A,B" is one group of two counters, as is "--pmc A B".
    for(auto& group : opts.pmc_groups)
    {
        auto split = std::vector<std::string>{};
        for(const auto& item : group)
            for(auto& name : rocprofiler::tool::parse::parse_counter_list(item))
                split.emplace_back(std::move(name));
        group = std::move(split);
    }
    opts.pmc_groups.erase(std::remove_if(opts.pmc_groups.begin(),
                                         opts.pmc_groups.end(),
                                         [](const auto& g) { return g.empty(); }),
                          opts.pmc_groups.end());

    if(!opts.list_avail && opts.command.empty() && after_separator.empty())
        if(auto hint = missing_separator(own)) return usage_error(*hint);

    if(!opts.replay_mode.empty() && opts.replay_mode != "kernel")
        return usage_error("--replay-mode '" + opts.replay_mode +
                           "' is not supported; the only replay mode is 'kernel' (without "
                           "--replay-mode, several --pmc groups use application replay)");
    if(opts.kernel_replay())
    {
        if(opts.pmc_groups.empty())
            return usage_error("--replay-mode kernel requires --pmc: kernel replay only collects "
                               "counter groups");
        if(!opts.kernel_replay_beta)
            return usage_error("--replay-mode kernel requires --kernel-replay-beta-enabled "
                               "(kernel replay is a beta feature)");
    }
    else if(opts.kernel_replay_beta)
        return usage_error(
            "--kernel-replay-beta-enabled is only meaningful with --replay-mode kernel");

    if(opts.output_formats.empty()) opts.output_formats = {"csv"};
    {
        auto formats = std::vector<std::string>{};
        for(const auto& item : opts.output_formats)
            for(auto& f : rocprofiler::tool::parse::parse_counter_list(item))
                formats.emplace_back(std::move(f));
        for(auto& f : formats)
        {
            std::transform(f.begin(), f.end(), f.begin(), ::tolower);
            if(f == "otf2")
                return usage_error("--output-format " + f +
                                   " is not supported by this rocprofv3 "
                                   "(supported: csv, json, pftrace, rocpd)");
#if !defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
            if(f == "rocpd")
                return usage_error("--output-format rocpd: rocpd output was not built: SQLite3 "
                                   "missing (install libsqlite3-dev and reconfigure)");
#endif
            if(f != "csv" && f != "json" && f != "pftrace" && f != "rocpd")
                return usage_error("unknown --output-format '" + f +
                                   "' (supported: csv, json, pftrace, rocpd)");
        }
        std::sort(formats.begin(), formats.end());
        formats.erase(std::unique(formats.begin(), formats.end()), formats.end());
        opts.output_formats = formats;
    }

    auto why = std::string{};
    if(!opts.include_regex.empty() &&
       !rocprofiler::tool::parse::validate_regex(opts.include_regex, &why))
        return usage_error("--kernel-include-regex '" +
                           rocprofiler::tool::parse::abbreviate(opts.include_regex) +
                           "' is not a valid regular expression: " + why);
    if(!opts.exclude_regex.empty() &&
       !rocprofiler::tool::parse::validate_regex(opts.exclude_regex, &why))
        return usage_error("--kernel-exclude-regex '" +
                           rocprofiler::tool::parse::abbreviate(opts.exclude_regex) +
                           "' is not a valid regular expression: " + why);
    if(!opts.iteration_range.empty() &&
       !rocprofiler::tool::parse::parse_iteration_range(opts.iteration_range, &why))
        return usage_error("--kernel-iteration-range '" + opts.iteration_range + "': " + why);
    if(opts.output_file.find('/') != std::string::npos)
        return usage_error("--output-file '" + opts.output_file +
                           "' is a file name prefix; put directories in --output-directory");

    if(!opts.list_avail && opts.command.empty())
        return usage_error(
            "no application given: rocprofv3 [options] -- <application> [arguments]");
    if(!opts.list_avail && !opts.kernel_trace && !opts.stats && !opts.summary &&
       opts.pmc_groups.empty())
        return usage_error(
            "nothing to collect: give --kernel-trace, --stats, -S/--summary or --pmc");

    auto out = parse_result{};
    out.opts = std::move(opts);
    return out;
}

int
summarize_runs(const std::vector<int>&                      codes,
               const std::vector<std::vector<std::string>>& groups,
               std::vector<std::string>&                    lines)
{
    auto result = int{exit_ok};
    auto failed = std::vector<size_t>{};
    for(size_t i = 0; i < codes.size(); ++i)
    {
        if(codes[i] == exit_ok) continue;
        if(result == exit_ok) result = codes[i];
        failed.push_back(i);
    }
    if(codes.size() < 2 || failed.empty()) return result;

    const auto runs = std::to_string(codes.size());
    for(auto i : failed)
    {
        auto line = "application replay pass " + std::to_string(i + 1) + " of " + runs;
        if(i < groups.size())
        {
            line += " (--pmc";
            for(const auto& name : groups[i])
                line += " " + name;
            line += ")";
        }
        const auto code = codes[i];
        line += " failed with code " + std::to_string(code);
        if(code > 128 && code < 128 + 65)
            line += " (killed by signal " + std::to_string(code - 128) + ")";
        else if(code == exit_not_found)
            line += " (the application was not found)";
        else if(code == exit_not_executable)
            line += " (the application could not be executed)";
        lines.emplace_back(std::move(line));
    }
    auto last = std::to_string(failed.size()) + " of " + runs + " application replay passes " +
                "failed; rocprofv3 exits with pass " + std::to_string(failed.front() + 1) +
                "'s code " + std::to_string(result);
    lines.emplace_back(std::move(last));
    return result;
}

std::vector<std::string>
validate_counters(const std::vector<std::vector<std::string>>& groups,
                  const std::vector<agent_counters>&           agents,
                  std::vector<std::string>*                    warnings)
{
    auto errors    = std::vector<std::string>{};
    auto available = std::set<std::string>{};
    auto any_agent = false;
    for(const auto& a : agents)
    {
        if(a.error)
        {
            errors.emplace_back("agent " + a.logical_id + " (" + a.product_name +
                                ") reports no counters (" + *a.error +
                                "); --pmc cannot be collected on it");
            continue;
        }
        any_agent = true;
        available.insert(a.counters.begin(), a.counters.end());
    }
    // Agents that report no counters (their reasons, for the warnings below).
    auto without = errors;
    if(agents.empty())
    {
        errors.emplace_back("no GPU agent was found; --pmc needs one");
        return errors;
    }
    if(!any_agent && warnings == nullptr) return errors;
    // An agent without counters is only fatal when no agent can collect anything, and not even
    // then when the caller takes warnings: the application runs without those counters.
    errors.clear();

    auto all  = std::vector<std::string>{available.begin(), available.end()};
    auto seen = std::set<std::string>{};
    for(const auto& group : groups)
        for(const auto& name : group)
        {
            if(available.count(name) != 0 || !seen.insert(name).second) continue;
            if(!without.empty() && warnings != nullptr)
            {
                warnings->emplace_back("counter '" + name + "' is listed by no agent, and " +
                                       without.front() +
                                       ": the application runs, and the counter is collected "
                                       "only where an agent has it");
                continue;
            }
            auto line    = "unknown counter '" + name + "'";
            auto matches = rocprofiler::tool::parse::close_matches(name, all);
            if(!matches.empty())
            {
                line += "; did you mean ";
                for(size_t i = 0; i < matches.size(); ++i)
                    line += (i == 0 ? "" : i + 1 == matches.size() ? " or " : ", ") + matches[i];
                line += "?";
            }
            else
                line += " (rocprofv3 -L lists the available counters)";
            errors.emplace_back(std::move(line));
        }
    for(const auto& a : agents)
        for(const auto& name : a.exceeding_alone)
            errors.emplace_back("counter '" + name + "' does not fit in one pass on agent " +
                                a.logical_id + " (" + a.product_name +
                                ") even by itself (the hardware schedules it over several "
                                "passes); per-pass collection cannot measure it");
    for(const auto& a : agents)
        for(auto g : a.groups_exceeding)
        {
            if(g >= groups.size() || a.group_splits.count(g) != 0) continue;
            if(!a.exceeding_alone.empty()) continue; // reported above, by counter
            auto names = std::string{};
            for(const auto& name : groups[g])
                names += (names.empty() ? "" : " ") + name;
            auto line = "counter group " + std::to_string(g + 1) + " (" + names + ") has " +
                        std::to_string(groups[g].size()) +
                        " counters and does not fit in one pass on agent " + a.logical_id + " (" +
                        a.product_name + ")";
            if(a.counters_per_pass)
                line += ", which collects at most " + std::to_string(*a.counters_per_pass) +
                        " counters per pass";
            line += "; split it into several --pmc groups";
            errors.emplace_back(std::move(line));
        }
    return errors;
}

std::vector<std::vector<std::string>>
expand_groups(const std::vector<std::vector<std::string>>& groups,
              const std::vector<agent_counters>&           agents,
              std::vector<std::string>&                    notes)
{
    auto out = std::vector<std::vector<std::string>>{};
    for(size_t g = 0; g < groups.size(); ++g)
    {
        const agent_counters*                        where = nullptr;
        const std::vector<std::vector<std::string>>* split = nullptr;
        for(const auto& a : agents)
        {
            auto itr = a.group_splits.find(g);
            if(itr == a.group_splits.end() || itr->second.empty()) continue;
            where = &a;
            split = &itr->second;
            break;
        }
        if(split == nullptr)
        {
            out.push_back(groups[g]);
            continue;
        }
        auto line =
            "counter group " + std::to_string(g + 1) + " (" + std::to_string(groups[g].size()) +
            " counters) does not fit in one pass on agent " + where->logical_id + " (" +
            where->product_name + "); collected as " + std::to_string(split->size()) + " groups:";
        for(const auto& part : *split)
        {
            auto names = std::string{};
            for(const auto& name : part)
                names += (names.empty() ? "" : " ") + name;
            line += " [" + names + "]";
            out.push_back(part);
        }
        notes.emplace_back(std::move(line));
    }
    return out;
}

size_t
run_count(const options& opts)
{
    if(!opts.kernel_replay() && opts.pmc_groups.size() > 1) return opts.pmc_groups.size();
    return 1;
}

std::map<std::string, std::string>
tool_environment(const options& opts, size_t pass)
{
    namespace fs = std::filesystem;
    auto env     = std::map<std::string, std::string>{};
    auto dir     = fs::absolute(fs::path{opts.output_directory}).lexically_normal();
    if(pass > 0) dir /= "pass_" + std::to_string(pass);
    env["ROCPROF_OUTPUT_PATH"] = dir.string();
    if(!opts.output_file.empty()) env["ROCPROF_OUTPUT_FILE_NAME"] = opts.output_file;
    auto formats = std::string{};
    for(const auto& f : opts.output_formats)
        formats += (formats.empty() ? "" : ",") + f;
    env["ROCPROF_OUTPUT_FORMAT"] = formats.empty() ? "csv" : formats;
    if(opts.kernel_trace) env["ROCPROF_KERNEL_TRACE"] = "1";
    if(opts.stats) env["ROCPROF_STATS"] = "1";
    if(opts.summary) env["ROCPROF_SUMMARY"] = "1";
    if(!opts.include_regex.empty()) env["ROCPROF_KERNEL_FILTER_INCLUDE_REGEX"] = opts.include_regex;
    if(!opts.exclude_regex.empty()) env["ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX"] = opts.exclude_regex;
    if(!opts.iteration_range.empty()) env["ROCPROF_KERNEL_FILTER_RANGE"] = opts.iteration_range;

    if(!opts.pmc_groups.empty())
    {
        env["ROCPROF_COUNTER_COLLECTION"] = "1";
        auto groups                       = opts.pmc_groups;
        if(!opts.kernel_replay() && pass > 0) groups = {opts.pmc_groups.at(pass - 1)};
        auto all = std::string{"pmc:"};
        for(const auto& g : groups)
            for(const auto& c : g)
                all += " " + c;
        env["ROCPROF_COUNTERS"]       = all;
        env["ROCPROF_COUNTER_GROUPS"] = rocprofiler::tool::parse::encode_counter_groups(groups);
        if(opts.kernel_replay()) env["ROCPROF_KERNEL_REPLAY"] = "1";
    }
    return env;
}
} // namespace rocprofv3
