#include "options.hpp"

#include "input_file.hpp"
#include "parse.hpp"
#include "placeholders.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>
#include <string_view>
#include <tuple>

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
    "  2     configuration error: unknown or unavailable counters, tool libraries not found,\n"
    "        an option of AMD's rocprofv3 not supported on this device; the application was\n"
    "        not run\n"
    "  3     output error: the output directory cannot be created or written; the application\n"
    "        was not run\n"
    "  4     output error at the end: the application ran, but an output could not be written\n"
    "        or profiling was disabled in one of its processes\n"
    "  126   the application could not be executed\n"
    "  127   the application was not found\n";

const char* const footer_help =
    "\nOutput files are <dir>/<prefix>_kernel_trace.csv, _memory_copy_trace.csv,\n"
    "_agent_info.csv, _kernel_stats.csv, _counter_collection.csv and _results.json. The default\n"
    "prefix is the application's process id, so that processes never overwrite each other's\n"
    "files. With several --pmc groups and no kernel replay, the application runs once per group\n"
    "and run N writes to <dir>/pass_<N>/ (the lines of a text input file: <dir>/pmc_<N>/; the\n"
    "jobs of a JSON/YAML input file: <dir>/pass_<N>/). Other options of AMD's rocprofv3\n"
    "(--hip-trace, --sys-trace, ...) are accepted and answered with 'not supported on this\n"
    "device' (exit 2).\n"
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
// Without "--", an option that takes several values (--pmc, -f, --kernel-iteration-range,
// --preload) also takes the application and
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
            option = (arg == "--pmc" || arg == "-f" || arg == "--output-format" ||
                      arg == "--kernel-iteration-range" || arg == "--preload")
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

namespace
{
const char* const unsupported_message =
    "not supported on this device: this rocprofv3 traces kernel dispatches (--kernel-trace, "
    "--stats, -S), memory copies (--memory-copy-trace), markers (--marker-trace, "
    "--selected-regions) and CUDA runtime and driver calls (--runtime-trace, --sys-trace, "
    "--cuda-runtime-trace, --cuda-driver-trace) and collects counters (--pmc); the HIP, HSA, "
    "memory allocation, PC sampling and thread traces of AMD's rocprofv3 have no source here";

// What the options of the command line read (rocprofv3's own, before the first "--").
struct parsed_args
{
    options                  opts        = {};
    std::vector<std::string> unsupported = {}; // upstream options given, by their name
    std::vector<std::string> given       = {}; // every option name given ("--kernel-trace")
    std::vector<std::string> ranges      = {}; // --kernel-iteration-range values
    std::string              skip        = {};
    std::string              count       = {};
    bool                     version     = false;
};

// "--opt=value" and "-o" spellings of an option name given on the command line.
bool
was_given(const parsed_args& args, std::initializer_list<const char*> names)
{
    for(const auto* name : names)
        if(std::find(args.given.begin(), args.given.end(), name) != args.given.end()) return true;
    return false;
}

// Parses and validates rocprofv3's own arguments @p own (argv[0] first) with the application
// @p command (after "--"). @p job names the job of an input file whose options these are (for
// messages), empty for the command line.
parse_result parse_arguments(const std::vector<std::string>& own,
                             const std::vector<std::string>& command,
                             bool                            has_separator,
                             const std::string&              job);

// The job objects of a JSON/YAML input file, each turned into rocprofv3 arguments.
std::optional<std::vector<std::vector<std::string>>>
job_arguments(const nlohmann::json&           doc,
              const std::string&              file,
              const std::vector<std::string>& own,
              std::string&                    error);
} // namespace

parse_result
parse_command_line(int argc, const char* const* argv)
{
    // Everything after the first "--" is the application's command line, verbatim: CLI11 never
    // sees it, so options of rocprofv3 that take several values cannot swallow it.
    auto own             = std::vector<std::string>{};
    auto after_separator = std::vector<std::string>{};
    auto has_separator   = false;
    for(int i = 0; i < argc; ++i)
    {
        if(i > 0 && std::string_view{argv[i]} == "--")
        {
            has_separator = true;
            for(int j = i + 1; j < argc; ++j)
                after_separator.emplace_back(argv[j]);
            break;
        }
        own.emplace_back(argv[i]);
    }
    return parse_arguments(own, after_separator, has_separator, {});
}

namespace
{
parse_result
parse_arguments(const std::vector<std::string>& own_args,
                const std::vector<std::string>& after_separator,
                bool                            has_separator,
                const std::string&              job)
{
    auto  args = parsed_args{};
    auto& opts = args.opts;
    auto  app  = CLI::App{"rocprofv3: profile kernels of an application through rocprofiler-sdk.\n"
                          "Usage: rocprofv3 [options] -- <application> [arguments]",
                        "rocprofv3"};
    app.footer(std::string{footer_help} + exit_codes_help);
    // -v, --version: upstream rocprofv3's spelling (-v is not "verbose" there).
    app.add_flag("-v,--version", args.version, "Print the version and exit");

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
    app.add_flag("--memory-copy-trace",
                 opts.memory_copy_trace,
                 "Trace memory copies (<prefix>_memory_copy_trace.csv)");
    app.add_flag("--marker-trace",
                 opts.marker_trace,
                 "Trace ROCTx markers and ranges, and NVTX ones on CUDA "
                 "(<prefix>_marker_api_trace.csv)");
    app.add_flag("--cuda-runtime-trace",
                 opts.cuda_runtime_trace,
                 "Trace the CUDA runtime API calls (cudaMalloc, cudaLaunchKernel, ...) "
                 "(<prefix>_cuda_api_trace.csv)");
    app.add_flag("--cuda-driver-trace",
                 opts.cuda_driver_trace,
                 "Trace the CUDA driver API calls (cuMemAlloc_v2, cuLaunchKernel, ...) "
                 "(<prefix>_cuda_api_trace.csv)");
    app.add_flag("-r,--runtime-trace",
                 opts.runtime_trace,
                 "As AMD's rocprofv3 -r: kernel dispatches, memory copies, markers and the "
                 "runtime API calls (here CUDA's: --kernel-trace --memory-copy-trace "
                 "--marker-trace --cuda-runtime-trace)");
    app.add_flag("-s,--sys-trace",
                 opts.sys_trace,
                 "As AMD's rocprofv3 -s: --runtime-trace and the lower API (here CUDA's driver "
                 "API: --cuda-driver-trace)");
    app.add_option("-A,--agent-index",
                   opts.agent_index,
                   "How the CSV files name an agent, as AMD's rocprofv3: absolute ('Agent <node "
                   "id>'), relative ('Agent <logical node id>', the default) or type-relative "
                   "('GPU <index among GPUs>')")
        ->check(CLI::IsMember({"absolute", "relative", "type-relative"}));
    app.add_flag("--selected-regions",
                 opts.selected_regions,
                 "Collect only between the program's roctxProfilerResume(0) and "
                 "roctxProfilerPause(0) calls (collection starts paused)");
    app.add_flag("--stats", opts.stats, "Write per-kernel statistics (<prefix>_kernel_stats.csv)");
    app.add_flag(
        "-S,--summary", opts.summary, "Print the per-kernel statistics table to stderr at the end");
    app.add_option("-d,--output-directory",
                   opts.output_directory,
                   "Directory of the output files (default: the current directory; created if "
                   "missing). Placeholders such as %pid%, %hostname%, %rank%, %env{NAME}% take "
                   "each profiled process's values");
    app.add_option("-o,--output-file",
                   opts.output_file,
                   "Prefix of the output file names (default: the application's process id); "
                   "placeholders as for -d");
    app.add_option("-f,--output-format",
                   opts.output_formats,
                   "Output formats: csv (default), json, pftrace (Perfetto trace), rocpd "
                   "(SQLite database); several allowed. otf2 is not supported")
        ->expected(1, -1)
        ->type_name("FORMAT...");
    app.add_flag("--output-config",
                 opts.output_config,
                 "Also write <prefix>_config.json, the configuration of each profiled process");
    app.add_option("--log-level",
                   opts.log_level,
                   "Log level of the SDK and the tool: fatal, error, warning, info, trace; env "
                   "and config print rocprofv3's environment / configuration (info and trace "
                   "print both)")
        ->type_name("LEVEL");
    app.add_option("--kernel-include-regex",
                   opts.include_regex,
                   "Record only kernels whose name matches this regular expression");
    app.add_option("--kernel-exclude-regex",
                   opts.exclude_regex,
                   "Do not record kernels whose name matches this regular expression");
    app.add_option("--kernel-iteration-range",
                   args.ranges,
                   "Record only these iterations (from 1) of each kernel name: '[1-3,5]', "
                   "'[1-2],[3-4]', '[5-]' (5 and later); several values allowed")
        ->expected(1, -1)
        ->type_name("RANGE...");
    app.add_option("--kernel-dispatch-skip",
                   args.skip,
                   "Skip the first N dispatches that the kernel filters select, across all "
                   "kernels (ncu's --launch-skip)")
        ->type_name("N");
    app.add_option("--kernel-dispatch-count",
                   args.count,
                   "Record at most N dispatches that the kernel filters select (after "
                   "--kernel-dispatch-skip), across all kernels (ncu's --launch-count)")
        ->type_name("N");
    app.add_flag("-T,--truncate-kernels",
                 opts.truncate_kernels,
                 "Kernel names without return type, arguments and template arguments");
    app.add_flag("-M,--mangled-kernels", opts.mangled_kernels, "Do not demangle kernel names");
    app.add_flag("--progress",
                 opts.progress,
                 "Progress lines on stderr even when it is not a terminal: one per profiled "
                 "dispatch that took more than one pass, and a count at the end");
    app.add_option("--preload",
                   opts.preload,
                   "Libraries to prepend to LD_PRELOAD of the application (sanitizers, ...)")
        ->expected(0, -1)
        ->type_name("LIBRARY...");
    app.add_flag(
        "-L,--list-avail", opts.list_avail, "List the agents and their counters, then exit");
    app.add_option("-i,--input",
                   opts.input_file,
                   "Input file: a JSON or YAML job file ({\"jobs\": [...]}, one run per job, in "
                   "pass_<N>/), or a text file of 'pmc: <counters...>' lines (one run per line, "
                   "in pmc_<N>/)");
    // Upstream's other options: accepted, then answered with one message (below).
    auto* unsupported = app.add_option_group("Not supported on this device");
    for(const auto& u : unsupported_options())
    {
        auto  names = std::string{u.names};
        auto* opt   = unsupported->add_option_function<std::vector<std::string>>(
            names,
            [&args, names](const std::vector<std::string>&)
            { args.unsupported.emplace_back(names); },
            "Not supported on this device");
        if(u.values == 0)
            opt->expected(0, 1)->type_name("[BOOL]");
        else if(u.values == 1)
            opt->expected(1);
        else
            opt->expected(1, -1);
    }
    app.add_option("command", opts.command, "The application and its arguments (after --)")
        ->expected(-1);

    // CLI11 reads a value "[a,b]" of a several-valued option as the list a, b; an iteration range
    // "[1-2],[3-4]" must reach us whole. Its values are marked here and unmarked after parsing.
    constexpr char range_mark = '\x01';
    auto           marked     = own_args;
    for(size_t i = 1; i < marked.size(); ++i)
    {
        auto& arg = marked[i];
        if(arg.rfind("--kernel-iteration-range=", 0) == 0)
            arg.insert(arg.find('=') + 1, 1, range_mark);
        else if(arg == "--kernel-iteration-range")
            for(size_t j = i + 1; j < marked.size() && marked[j].rfind('-', 0) != 0; ++j)
                marked[j].insert(0, 1, range_mark);
    }
    auto own = std::vector<const char*>{};
    for(const auto& arg : marked)
        own.push_back(arg.c_str());
    for(size_t i = 1; i < own.size(); ++i)
    {
        auto arg = std::string{own[i]};
        if(arg.size() > 1 && arg[0] == '-') args.given.emplace_back(arg.substr(0, arg.find('=')));
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
            return usage_error(job + "--pmc '" + std::string{*value} +
                               "' names no counter: a counter group is one or more counter "
                               "names, e.g. --pmc SQ_WAVES GRBM_COUNT");
    }

    try
    {
        app.parse(static_cast<int>(own.size()), own.data());
        if(has_separator)
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
    catch(const CLI::ParseError& e)
    {
        // "--pmc A ./app -n 1": the application's own options are not rocprofv3's.
        if(!has_separator)
            if(auto hint = missing_separator(own)) return usage_error(*hint);
        return usage_error(job + e.what());
    }
    for(auto& range : args.ranges)
        if(!range.empty() && range.front() == range_mark) range.erase(0, 1);
    if(args.version)
    {
        auto out      = parse_result{};
        out.exit_code = exit_ok;
        out.output    = std::string{"rocprofv3 "} + ROCPROFV3_VERSION + "\n";
        return out;
    }
    if(!args.unsupported.empty())
    {
        // Named in the order given, by their long names.
        auto position = [&args](const std::string& names)
        {
            auto first = args.given.size();
            for(size_t i = 0; i < args.given.size(); ++i)
                if(("," + names + ",").find("," + args.given[i] + ",") != std::string::npos)
                    first = std::min(first, i);
            return first;
        };
        std::stable_sort(args.unsupported.begin(),
                         args.unsupported.end(),
                         [&](const auto& a, const auto& b) { return position(a) < position(b); });
        auto names = std::string{};
        for(const auto& n : args.unsupported)
            names += (names.empty() ? "" : ", ") + n.substr(n.rfind(',') + 1);
        auto out      = parse_result{};
        out.exit_code = exit_configuration;
        out.error     = "rocprofv3: error: " + job + names + ": " + unsupported_message +
                    "; the application was not run\n";
        return out;
    }

    // -i: a text file of "pmc:" lines (each one run, in pmc_<N>/), or a JSON/YAML job file.
    if(!opts.input_file.empty())
    {
        if(!job.empty()) return usage_error(job + "an input file cannot name another input file");
        auto ext = std::filesystem::path{opts.input_file}.extension().string();
        std::transform(ext.begin(), ext.end(), ext.begin(), ::tolower);
        auto in = std::ifstream{opts.input_file};
        if(!in) return usage_error("cannot read the input file '" + opts.input_file + "'");
        auto text = std::stringstream{};
        text << in.rdbuf();
        if(ext == ".json" || ext == ".yaml" || ext == ".yml")
        {
            auto why = std::string{};
            auto doc = ext == ".json" ? read_json_document(text.str(), why)
                                      : read_yaml_document(text.str(), why);
            if(!doc) return usage_error("input file '" + opts.input_file + "': " + why);
            auto jobs = job_arguments(*doc, opts.input_file, own_args, why);
            if(!jobs) return usage_error("input file '" + opts.input_file + "': " + why);
            auto out = parse_result{};
            out.opts = options{};
            for(size_t j = 0; j < jobs->size(); ++j)
            {
                auto name =
                    "input file '" + opts.input_file + "', job " + std::to_string(j + 1) + ": ";
                auto parsed = parse_arguments((*jobs)[j], after_separator, has_separator, name);
                if(!parsed.opts) return parsed;
                // As upstream: job N writes to pass_<N>/ when there are several jobs or it
                // collects counters.
                if(jobs->size() > 1 || !parsed.opts->pmc_groups.empty())
                    parsed.opts->job_directory = "pass_" + std::to_string(j + 1);
                out.opts->jobs.emplace_back(std::move(*parsed.opts));
            }
            out.opts->list_avail = std::any_of(out.opts->jobs.begin(),
                                               out.opts->jobs.end(),
                                               [](const auto& o) { return o.list_avail; });
            return out;
        }
        if(ext != ".txt")
            return usage_error("input file '" + opts.input_file +
                               "' does not have a recognized extension (.txt, .json, .yaml, "
                               ".yml)");
        // As upstream, the counters come from the command line or the file, not both.
        if(!opts.pmc_groups.empty())
            return usage_error("-i '" + opts.input_file +
                               "' and --pmc both name counters; give them in one place");
        auto why    = std::string{};
        auto groups = rocprofiler::tool::parse::parse_input_text(text.str(), &why);
        if(!groups) return usage_error("input file '" + opts.input_file + "': " + why);
        if(groups->empty())
            return usage_error("input file '" + opts.input_file +
                               "' has no 'pmc:' lines: each counter group is a line "
                               "'pmc: <counters...>' (blank lines and # comments are skipped)");
        opts.pmc_groups            = *groups;
        opts.pass_prefix           = "pmc_";
        opts.pass_directory_always = true;
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
    // Two groups of the same counters would collect the same values twice, in rows that nothing
    // tells apart (same counters, same dispatch): refused rather than labelled.
    for(size_t a = 0; a < opts.pmc_groups.size(); ++a)
        for(size_t b = a + 1; b < opts.pmc_groups.size(); ++b)
        {
            auto first =
                std::set<std::string>(opts.pmc_groups[a].begin(), opts.pmc_groups[a].end());
            auto second =
                std::set<std::string>(opts.pmc_groups[b].begin(), opts.pmc_groups[b].end());
            if(first != second) continue;
            auto names = std::string{};
            for(const auto& name : first)
                names += (names.empty() ? "" : " ") + name;
            return usage_error(job + "--pmc groups " + std::to_string(a + 1) + " and " +
                               std::to_string(b + 1) + " name the same counters (" + names +
                               "); each group is collected once per dispatch, so give each "
                               "set of counters once");
        }

    if(!opts.list_avail && opts.command.empty() && !has_separator)
        if(auto hint = missing_separator(own)) return usage_error(*hint);

    if(!opts.replay_mode.empty() && opts.replay_mode != "kernel")
        return usage_error(job + "--replay-mode '" + opts.replay_mode +
                           "' is not supported; the only replay mode is 'kernel' (without "
                           "--replay-mode, several --pmc groups use application replay)");
    if(opts.kernel_replay())
    {
        if(opts.pmc_groups.empty())
            return usage_error(job + "--replay-mode kernel requires --pmc: kernel replay only "
                                     "collects counter groups");
        if(!opts.kernel_replay_beta)
            return usage_error(job + "--replay-mode kernel requires --kernel-replay-beta-enabled "
                                     "(kernel replay is a beta feature)");
    }
    else if(opts.kernel_replay_beta)
        return usage_error(
            job + "--kernel-replay-beta-enabled is only meaningful with --replay-mode kernel");

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
                return usage_error(job + "--output-format " + f +
                                   " is not supported by this rocprofv3 "
                                   "(supported: csv, json, pftrace, rocpd)");
#if !defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
            if(f == "rocpd")
                return usage_error(job +
                                   "--output-format rocpd: rocpd output was not built: SQLite3 "
                                   "missing (install libsqlite3-dev and reconfigure)");
#endif
            if(f != "csv" && f != "json" && f != "pftrace" && f != "rocpd")
                return usage_error(job + "unknown --output-format '" + f +
                                   "' (supported: csv, json, pftrace, rocpd)");
        }
        std::sort(formats.begin(), formats.end());
        formats.erase(std::unique(formats.begin(), formats.end()), formats.end());
        opts.output_formats = formats;
    }

    auto why = std::string{};
    if(!opts.include_regex.empty() &&
       !rocprofiler::tool::parse::validate_regex(opts.include_regex, &why))
        return usage_error(job + "--kernel-include-regex '" +
                           rocprofiler::tool::parse::abbreviate(opts.include_regex) +
                           "' is not a valid regular expression: " + why);
    if(!opts.exclude_regex.empty() &&
       !rocprofiler::tool::parse::validate_regex(opts.exclude_regex, &why))
        return usage_error(job + "--kernel-exclude-regex '" +
                           rocprofiler::tool::parse::abbreviate(opts.exclude_regex) +
                           "' is not a valid regular expression: " + why);
    // Several values are one set, as upstream joins them ("[1-2]" "[5]" = "[1-2], [5]").
    for(const auto& range : args.ranges)
    {
        if(!rocprofiler::tool::parse::parse_iteration_range(range, &why))
            return usage_error(job + "--kernel-iteration-range '" + range + "': " + why);
        opts.iteration_range += (opts.iteration_range.empty() ? "" : ", ") + range;
    }
    for(auto [name, text, out] :
        {std::tuple{"--kernel-dispatch-skip", &args.skip, &opts.dispatch_skip},
         std::tuple{"--kernel-dispatch-count", &args.count, &opts.dispatch_count}})
    {
        if(text->empty() && !was_given(args, {name})) continue;
        *out = rocprofiler::tool::parse::parse_count(*text);
        if(!*out)
            return usage_error(job + name + " '" + *text +
                               "' is not a number of dispatches (0, 1, 2, ...)");
    }
    if(!opts.log_level.empty())
    {
        std::transform(
            opts.log_level.begin(), opts.log_level.end(), opts.log_level.begin(), ::tolower);
        const auto levels = {"fatal", "error", "warning", "info", "trace", "env", "config"};
        if(std::find(levels.begin(), levels.end(), opts.log_level) == levels.end())
            return usage_error(job + "--log-level '" + opts.log_level +
                               "' is not a log level (accepted: fatal, error, warning, info, "
                               "trace, env, config)");
    }
    // A library given by path must exist (ld.so would only warn and run the application without
    // it); a bare name is searched by ld.so.
    for(const auto& lib : opts.preload)
        if(lib.find('/') != std::string::npos && !std::filesystem::exists(lib))
            return usage_error(job + "--preload '" + lib + "': no such file");
    for(auto [name, text] : {std::pair{"--output-directory", &opts.output_directory},
                             std::pair{"--output-file", &opts.output_file}})
    {
        auto probe = rocprofiler::tool::placeholders::expand(
            *text, [](std::string_view) { return std::string{"x"}; }, &why);
        if(!probe) return usage_error(job + name + " '" + *text + "': " + why);
    }
    if(opts.output_file.find('/') != std::string::npos)
        return usage_error(job + "--output-file '" + opts.output_file +
                           "' is a file name prefix; put directories in --output-directory");
    // The same for a placeholder whose value is a path: %env{NAME}% is known now (the application
    // starts with this environment); the others never hold a '/'.
    {
        auto expanded = rocprofiler::tool::placeholders::expand(
            opts.output_file,
            [](std::string_view key) -> std::optional<std::string>
            {
                if(key.substr(0, 4) != "env:") return std::string{"x"};
                const auto* value = std::getenv(std::string{key.substr(4)}.c_str());
                return std::string{value != nullptr ? value : ""};
            },
            &why);
        if(expanded && expanded->find('/') != std::string::npos)
            return usage_error(job + "--output-file '" + opts.output_file + "' expands to '" +
                               *expanded +
                               "', a path: -o is a file name prefix; put directories in "
                               "--output-directory (placeholders are allowed there)");
    }

    if(!opts.list_avail && opts.command.empty())
        return usage_error(
            "no application given: rocprofv3 [options] -- <application> [arguments]");
    // -r and -s stand for the traces they gather.
    if(opts.runtime_trace || opts.sys_trace)
    {
        opts.kernel_trace       = true;
        opts.memory_copy_trace  = true;
        opts.marker_trace       = true;
        opts.cuda_runtime_trace = true;
    }
    if(opts.sys_trace) opts.cuda_driver_trace = true;
    if(!opts.list_avail && !opts.kernel_trace && !opts.memory_copy_trace && !opts.marker_trace &&
       !opts.cuda_runtime_trace && !opts.cuda_driver_trace && !opts.stats && !opts.summary &&
       opts.pmc_groups.empty())
        return usage_error(job + "nothing to collect: give --kernel-trace, --memory-copy-trace, "
                                 "--marker-trace, --runtime-trace, --sys-trace, "
                                 "--cuda-runtime-trace, --cuda-driver-trace, --stats, "
                                 "-S/--summary or --pmc");

    auto out = parse_result{};
    out.opts = std::move(opts);
    return out;
}

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

std::optional<std::vector<std::vector<std::string>>>
job_arguments(const nlohmann::json&           doc,
              const std::string&              file,
              const std::vector<std::string>& own,
              std::string&                    error)
{
    if(!doc.is_object() || !doc.contains("jobs") || !doc.at("jobs").is_array() ||
       doc.at("jobs").empty())
    {
        error = "expected a 'jobs' list with at least one job ({\"jobs\": [{\"pmc\": [...]}]})";
        return std::nullopt;
    }
    (void)file;
    const auto base = without_input(own);
    // The options of the command line, by name, to find a key given in both places.
    auto given = std::vector<std::string>{};
    for(size_t i = 1; i < base.size(); ++i)
        if(base[i].size() > 1 && base[i][0] == '-')
            given.push_back(base[i].substr(0, base[i].find('=')));

    auto out = std::vector<std::vector<std::string>>{};
    for(size_t j = 0; j < doc.at("jobs").size(); ++j)
    {
        const auto& entry = doc.at("jobs").at(j);
        const auto  where = "job " + std::to_string(j + 1) + ": ";
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
                // Upstream's other options: "not supported", like on the command line; a false
                // or empty value asks for nothing.
                auto option = "--" + key;
                std::replace(option.begin(), option.end(), '_', '-');
                auto known =
                    std::any_of(unsupported_options().begin(),
                                unsupported_options().end(),
                                [&](const auto& u)
                                {
                                    auto names = std::string{","} + u.names + ",";
                                    return names.find("," + option + ",") != std::string::npos;
                                });
                if(!known && key != "pmc_groups" && key != "pmc_group_interval")
                {
                    error = where + "unknown key '" + key + "'";
                    return std::nullopt;
                }
                if(value.is_null() || value == false || (value.is_array() && value.empty()))
                    continue;
                unsupported += (unsupported.empty() ? "" : ", ") + key;
                continue;
            }
            // As upstream: a value given both on the command line and in a job conflicts.
            const auto option = std::string{it->option};
            auto       shorts = std::string{};
            for(const auto& u : {std::pair{"--output-directory", "-d"},
                                 std::pair{"--output-file", "-o"},
                                 std::pair{"--output-format", "-f"},
                                 std::pair{"--summary", "-S"},
                                 std::pair{"--list-avail", "-L"},
                                 std::pair{"--truncate-kernels", "-T"},
                                 std::pair{"--mangled-kernels", "-M"}})
                if(option == u.first) shorts = u.second;
            if(std::find(given.begin(), given.end(), option) != given.end() ||
               (!shorts.empty() && std::find(given.begin(), given.end(), shorts) != given.end()))
            {
                error = where + "'" + key + "' is also given on the command line (" + option +
                        "); give it in one place";
                return std::nullopt;
            }
            switch(it->kind)
            {
            case job_key::flag:
                if(!value.is_boolean())
                {
                    error = where + "'" + key + "' is " + value.dump() + ", expected true or false";
                    return std::nullopt;
                }
                if(value.get<bool>()) argv.push_back(option);
                break;
            case job_key::value:
                if(!value.is_string() && !value.is_number())
                {
                    error = where + "'" + key + "' is " + value.dump() + ", expected a string";
                    return std::nullopt;
                }
                argv.push_back(option + "=" + scalar_text(value));
                break;
            case job_key::values:
            {
                auto items = value.is_array() ? value : nlohmann::json::array({value});
                if(items.empty()) break;
                argv.push_back(option);
                for(const auto& item : items)
                {
                    if(!item.is_string() && !item.is_number())
                    {
                        error = where + "'" + key + "' has " + item.dump() + ", expected strings";
                        return std::nullopt;
                    }
                    argv.push_back(scalar_text(item));
                }
                break;
            }
            }
        }
        if(!unsupported.empty())
        {
            error = where + unsupported + ": " + unsupported_message;
            return std::nullopt;
        }
        out.push_back(std::move(argv));
    }
    return out;
}
} // namespace

const std::vector<unsupported_option>&
unsupported_options()
{
    // Upstream rocprofv3's options (source/bin/rocprofv3.py) that this rocprofv3 does not
    // implement, with their arity there.
    static const auto list = std::vector<unsupported_option>{
        {"--hip-trace", 0},

        {"--memory-allocation-trace", 0},
        {"--scratch-memory-trace", 0},
        {"--hsa-trace", 0},
        {"--rccl-trace", 0},
        {"--kokkos-trace", 0},
        {"--rocdecode-trace", 0},
        {"--rocjpeg-trace", 0},
        {"--hip-runtime-trace", 0},
        {"--hip-compiler-trace", 0},
        {"--hsa-core-trace", 0},
        {"--hsa-amd-trace", 0},
        {"--hsa-image-trace", 0},
        {"--hsa-finalizer-trace", 0},
        {"-E,--extra-counters", 1},
        {"--pc-sampling-beta-enabled", 0},
        {"--pc-sampling-unit", 1},
        {"--pc-sampling-method", 1},
        {"--pc-sampling-interval", 1},
        {"-D,--summary-per-domain", 0},
        {"--summary-groups", -1},
        {"--summary-output-file", 1},
        {"-u,--summary-units", 1},
        {"--kernel-rename", 0},
        {"-P,--collection-period", -1},
        {"--collection-period-unit", 1},

        {"--perfetto-backend", 1},
        {"--perfetto-buffer-size", 1},
        {"--perfetto-buffer-fill-policy", 1},
        {"--perfetto-shmem-size-hint", 1},
        {"--group-by-queue", 0},
        {"--rocm-root", 1},
        {"--benchmark-mode", 1},
        {"--disable-signal-handlers", 0},
        {"--minimum-output-data", 1},
        {"-p,--pid", -1},
        {"--advanced-thread-trace,--att", 0},
        {"--att-library-path", -1},
        {"--att-target-cu", 1},
        {"--att-simd-select", 1},
        {"--att-buffer-size", 1},
        {"--att-shader-engine-mask", 1},
        {"--att-perfcounters", 1},
        {"--att-perfcounter-ctrl", 1},
        {"--att-activity", 1},
        {"--att-serialize-all", 0},
    };
    return list;
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
        if(i < groups.size() && !groups[i].empty())
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

size_t
run_count(const options& opts)
{
    if(!opts.kernel_replay() && opts.pmc_groups.size() > 1) return opts.pmc_groups.size();
    return 1;
}

size_t
pass_of_run(const options& opts, size_t run, size_t runs)
{
    if(runs > 1 || (opts.pass_directory_always && !opts.kernel_replay())) return run;
    return 0;
}

std::string
run_directory(const options& opts, size_t pass)
{
    namespace fs = std::filesystem;
    auto dir     = fs::absolute(fs::path{opts.output_directory}).lexically_normal();
    if(!opts.job_directory.empty()) dir /= opts.job_directory;
    if(pass > 0) dir /= opts.pass_prefix + std::to_string(pass);
    return dir.string();
}

std::string
fixed_directory_part(const std::string& directory)
{
    namespace fs = std::filesystem;
    if(directory.empty()) return directory; // an error that prepare_output_directory names
    auto out = fs::path{};
    for(const auto& part : fs::path{directory})
    {
        if(rocprofiler::tool::placeholders::has_placeholder(part.string())) break;
        out /= part;
    }
    return out.empty() ? std::string{"."} : out.string();
}

rocprofiler::tool::contract::tool_request
tool_request(const options& opts, size_t pass)
{
    auto r             = rocprofiler::tool::contract::tool_request{};
    r.output_path      = run_directory(opts, pass);
    r.output_file_name = opts.output_file;
    r.output_formats =
        opts.output_formats.empty() ? std::vector<std::string>{"csv"} : opts.output_formats;
    r.kernel_trace       = opts.kernel_trace;
    r.memory_copy_trace  = opts.memory_copy_trace;
    r.marker_trace       = opts.marker_trace;
    r.cuda_runtime_trace = opts.cuda_runtime_trace;
    r.cuda_driver_trace  = opts.cuda_driver_trace;
    r.agent_index        = opts.agent_index;
    r.selected_regions   = opts.selected_regions;
    r.stats              = opts.stats;
    r.summary            = opts.summary;
    r.include_regex      = opts.include_regex;
    r.exclude_regex      = opts.exclude_regex;
    r.iteration_range    = opts.iteration_range;
    r.dispatch_skip      = opts.dispatch_skip;
    r.dispatch_count     = opts.dispatch_count;
    r.demangle_kernels   = !opts.mangled_kernels;
    r.truncate_kernels   = opts.truncate_kernels;
    r.output_config      = opts.output_config;
    r.progress           = opts.progress;
    // As upstream, for the SDK, the tool and ROCTx. The SDK's least severe level is "error", so
    // "fatal" asks for that; env and config only print rocprofv3's own (main.cpp).
    if(!opts.log_level.empty() && opts.log_level != "env" && opts.log_level != "config")
        r.log_level = opts.log_level == "fatal" ? std::string{"error"} : opts.log_level;
    if(!opts.pmc_groups.empty())
    {
        r.counter_collection = true;
        r.counter_groups     = opts.pmc_groups;
        if(!opts.kernel_replay() && pass > 0) r.counter_groups = {opts.pmc_groups.at(pass - 1)};
        r.kernel_replay = opts.kernel_replay();
    }
    return r;
}

std::map<std::string, std::string>
tool_environment(const options& opts, size_t pass)
{
    return rocprofiler::tool::contract::encode(tool_request(opts, pass));
}
} // namespace rocprofv3
