#include "command_line.hpp"

#include "exec_limits.hpp"

#include "config/parse.hpp"
#include "config/placeholders.hpp"

#include "untrusted/printable.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <string_view>
#include <tuple>

#include <unistd.h>

namespace rocprofv3::cli
{
// --pmc (and the counters of every input form, which arrive here as groups): counters split by
// blanks or commas, each counter once per group, no empty group, no group twice.
outcome
check_counter_groups(options& opts, const std::string& job)
{
    // "--pmc A,B" is one group of two counters, as is "--pmc A B". A counter named twice in a group
    // is collected once: its first place is kept (200,000 repeats in an input file are one
    // counter, not a 2 MB variable that exec refuses).
    for(auto& group : opts.pmc_groups)
    {
        auto split = std::vector<std::string>{};
        auto seen  = std::set<std::string>{};
        for(const auto& item : group)
            for(auto& name : rocprofiler::tool::parse::parse_counter_list(item))
                if(seen.insert(name).second) split.emplace_back(std::move(name));
        group = std::move(split);
    }
    opts.pmc_groups.erase(std::remove_if(opts.pmc_groups.begin(),
                                         opts.pmc_groups.end(),
                                         [](const auto& g) { return g.empty(); }),
                          opts.pmc_groups.end());
    // Two groups of the same counters would collect the same values twice, in rows that nothing
    // tells apart (same counters, same dispatch): refused rather than labelled. One pass over the
    // groups, so that an input file of many lines is not quadratic.
    auto first_of = std::map<std::set<std::string>, size_t>{};
    for(size_t b = 0; b < opts.pmc_groups.size(); ++b)
    {
        auto counters = std::set<std::string>(opts.pmc_groups[b].begin(), opts.pmc_groups[b].end());
        auto [at, inserted] = first_of.emplace(counters, b);
        if(inserted) continue;
        auto names = std::string{};
        for(const auto& name : counters)
            names += (names.empty() ? "" : " ") + name;
        return usage_error(job + "--pmc groups " + std::to_string(at->second + 1) + " and " +
                           std::to_string(b + 1) + " name the same counters (" + names +
                           "); each group is collected once per dispatch, so give each "
                           "set of counters once");
    }
    return std::nullopt;
}

// --replay-mode and its acknowledgement.
outcome
check_replay(const options& opts, const std::string& job)
{
    if(!opts.replay_mode.empty() && opts.replay_mode != "kernel" &&
       opts.replay_mode != "application")
        return usage_error(job + "--replay-mode '" + opts.replay_mode +
                           "' is not a replay mode (accepted: application, kernel; without "
                           "--replay-mode, several --pmc groups use application replay)");
    // Application replay is what several --pmc groups get without --replay-mode: one run of the
    // application per group. Given explicitly it still needs counters to replay for.
    if(opts.replay_mode == "application" && opts.pmc_groups.empty())
        return usage_error(job + "--replay-mode application requires --pmc: application replay "
                                 "runs the application once per counter group");
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
    return std::nullopt;
}

bool
otf2_built()
{
#if defined(ROCPROFILER_TOOL_HAVE_OTF2)
    return true;
#else
    return false;
#endif
}

outcome
check_format_built(const std::string& format, bool with_otf2, const std::string& job)
{
    if(format != "otf2" || with_otf2) return std::nullopt;
    auto out      = parse_result{};
    out.exit_code = exit_configuration;
    out.error     = "rocprofv3: error: " + rocprofiler::untrusted::printable(job) +
                "--output-format otf2: this rocprofv3 was built without OTF2 support (the OTF2 "
                "library was not found when it was configured: install libotf2-trace-dev and "
                "reconfigure); the application was not run\n";
    return out;
}

// -f: known formats, lower case, sorted, each once. None given: rocpd, as AMD's rocprofv3 (csv in
// a build without SQLite3, said on stderr).
outcome
check_output_formats(options& opts, const std::string& job)
{
    if(opts.output_formats.empty())
    {
#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
        opts.output_formats = {"rocpd"};
#else
        std::cerr << "rocprofv3: no --output-format given: writing csv (the default, rocpd, was "
                     "not built: SQLite3 missing)\n";
        opts.output_formats = {"csv"};
#endif
    }
    {
        auto formats = std::vector<std::string>{};
        for(const auto& item : opts.output_formats)
            for(auto& f : rocprofiler::tool::parse::parse_counter_list(item))
                formats.emplace_back(std::move(f));
        for(auto& f : formats)
        {
            std::transform(f.begin(), f.end(), f.begin(), ::tolower);
            if(auto stop = check_format_built(f, otf2_built(), job)) return stop;
#if !defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
            if(f == "rocpd")
                return usage_error(job +
                                   "--output-format rocpd: rocpd output was not built: SQLite3 "
                                   "missing (install libsqlite3-dev and reconfigure)");
#endif
            if(f != "csv" && f != "json" && f != "pftrace" && f != "rocpd" && f != "otf2")
                return usage_error(job + "unknown --output-format '" + f +
                                   "' (supported: csv, json, pftrace, rocpd, otf2)");
        }
        std::sort(formats.begin(), formats.end());
        formats.erase(std::unique(formats.begin(), formats.end()), formats.end());
        opts.output_formats = formats;
    }
    return std::nullopt;
}

// The kernel filters: regular expressions, iteration ranges, dispatch skip and count.
outcome
check_filters(parsed_args& args, const std::string& job)
{
    auto& opts = args.opts;
    auto  why  = std::string{};
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
    return std::nullopt;
}

// --log-level and --preload.
outcome
check_logging_and_preload(options& opts, const std::string& job)
{
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
    // LD_PRELOAD separates its libraries by spaces and colons, so that ld.so would split such a
    // path and load neither part.
    for(const auto& lib : opts.preload)
    {
        if(lib.find_first_of(" :") != std::string::npos)
            return usage_error(job + "--preload '" + lib + "': the path holds a " +
                               (lib.find(' ') != std::string::npos ? "space" : "':'") +
                               ", and LD_PRELOAD splits its list at spaces and colons, so the "
                               "library would not be loaded; give a path without them (a "
                               "symbolic link to the library, for instance)");
        if(lib.find('/') != std::string::npos && !std::filesystem::exists(lib))
            return usage_error(job + "--preload '" + lib + "': no such file");
    }
    return std::nullopt;
}

// --sdk-soversion is a number (the N of lib<name>.so.N), --sdk-version one or more numbers
// joined by dots (X.Y.Z), as the libraries' file names carry them.
outcome
check_sdk_versions(const options& opts, const std::string& job)
{
    auto numbers = [](const std::string& text, bool dots)
    {
        if(text.empty() || text.front() == '.' || text.back() == '.') return false;
        for(size_t i = 0; i < text.size(); ++i)
            if(!(std::isdigit(static_cast<unsigned char>(text[i])) != 0 ||
                 (dots && text[i] == '.' && text[i - 1] != '.')))
                return false;
        return true;
    };
    if(!opts.sdk_soversion.empty() && !numbers(opts.sdk_soversion, false))
        return usage_error(job + "--sdk-soversion '" + opts.sdk_soversion +
                           "' is not a number (the N of librocprofiler-sdk.so.N)");
    if(!opts.sdk_version.empty() && !numbers(opts.sdk_version, true))
        return usage_error(job + "--sdk-version '" + opts.sdk_version +
                           "' is not a version X.Y.Z (of librocprofiler-sdk.so.X.Y.Z)");
    return std::nullopt;
}

// -d and -o: placeholders that expand, and -o a file name prefix.
outcome
check_output_names(const options& opts, const std::string& job)
{
    auto why = std::string{};
    for(auto [name, text] : {std::pair{"--output-directory", &opts.output_directory},
                             std::pair{"--output-file", &opts.output_file}})
    {
        auto probe = rocprofiler::tool::placeholders::expand(
            *text, [](std::string_view) { return std::string{"x"}; }, &why);
        if(!probe) return usage_error(job + name + " '" + *text + "': " + why);
    }
    // -o may name sub-directories of -d, as upstream's (-o runs/%pid%: <dir>/runs/<pid>_...),
    // but not leave it (an absolute path) and must end with a file name prefix. The same for a
    // placeholder whose value is known now: %env{NAME}% (the application starts with this
    // environment); the others' values hold no '/' at the start or the end.
    auto path_error = [](const std::string& prefix) -> std::string
    {
        if(!prefix.empty() && prefix.front() == '/')
            return "is an absolute path: -o names the files under --output-directory (and may "
                   "hold sub-directories: -o runs/%pid%); give the directory with -d";
        if(!prefix.empty() && prefix.back() == '/')
            return "ends with '/': -o ends with the files' name prefix (-o runs/app)";
        return {};
    };
    if(auto why_not = path_error(opts.output_file); !why_not.empty())
        return usage_error(job + "--output-file '" + opts.output_file + "' " + why_not);
    {
        auto expanded = rocprofiler::tool::placeholders::expand(
            opts.output_file,
            [](std::string_view key) -> std::optional<std::string>
            {
                if(key == "cwd") return std::string{"/"}; // an absolute path
                if(key.substr(0, 4) != "env:") return std::string{"x"};
                const auto* value = std::getenv(std::string{key.substr(4)}.c_str());
                return std::string{value != nullptr ? value : ""};
            },
            &why);
        if(expanded)
            if(auto why_not = path_error(*expanded); !why_not.empty())
                return usage_error(job + "--output-file '" + opts.output_file + "' expands to '" +
                                   *expanded + "', which " + why_not);
    }
    return std::nullopt;
}

// -u, --summary-groups and --summary-output-file: a known unit, regular expressions that compile,
// and a summary file whose directory exists and is writable (made absolute: the tool writes it
// from the application's working directory).
outcome
check_summary(options& opts, const std::string& job)
{
    if(!opts.summary_units.empty() && opts.summary_units != "sec" && opts.summary_units != "msec" &&
       opts.summary_units != "usec" && opts.summary_units != "nsec")
        return usage_error(job + "--summary-units '" + opts.summary_units +
                           "': the summary units are sec, msec, usec or nsec");
    for(const auto& g : opts.summary_groups)
    {
        if(g.find('\n') != std::string::npos)
            return usage_error(job + "--summary-groups: a regular expression cannot hold a line "
                                     "break");
        try
        {
            (void)std::regex{g};
        }
        catch(const std::regex_error& e)
        {
            return usage_error(job + "--summary-groups '" + g +
                               "' is not a regular expression: " + e.what());
        }
    }
    auto& file = opts.summary_output;
    if(file.empty() || file == "stdout" || file == "stderr") return std::nullopt;
    auto why = std::string{};
    if(!rocprofiler::tool::placeholders::expand(
           file, [](std::string_view) { return std::string{"x"}; }, &why))
        return usage_error(job + "--summary-output-file '" + file + "': " + why);
    auto path = std::filesystem::absolute(file).lexically_normal();
    file      = path.string();
    // The directory is checked when no placeholder is in it (its value is known only in the
    // profiled process).
    auto dir = path.parent_path().string();
    if(!rocprofiler::tool::placeholders::has_placeholder(dir) &&
       ::access(dir.c_str(), W_OK | X_OK) != 0)
    {
        auto out      = parse_result{};
        out.exit_code = exit_output;
        out.error =
            "rocprofv3: error: " +
            rocprofiler::untrusted::printable(
                job + "--summary-output-file '" + file + "': its directory '" + dir + "' " +
                (std::filesystem::is_directory(dir) ? "is not writable" : "does not exist")) +
            "; the application was not run\n";
        return out;
    }
    return std::nullopt;
}

// An application, and something to collect from it (-r and -s stand for their traces).
outcome
check_collection(options& opts, const std::string& job)
{
    // --echo prints the command line, an empty one too (as upstream).
    if(!opts.list_avail && !opts.echo && opts.command.empty())
        return usage_error(
            "no application given: rocprofv3 [options] -- <application> [arguments]");
    // -r and -s stand for the traces they gather, but for those given as false
    // (-s --memory-copy-trace=false), as upstream.
    auto on = [&opts](bool& trace, const char* name)
    {
        if(std::find(opts.turned_off.begin(), opts.turned_off.end(), name) == opts.turned_off.end())
            trace = true;
    };
    if(opts.runtime_trace || opts.sys_trace)
    {
        on(opts.kernel_trace, "--kernel-trace");
        on(opts.memory_copy_trace, "--memory-copy-trace");
        on(opts.marker_trace, "--marker-trace");
        on(opts.cuda_runtime_trace, "--cuda-runtime-trace");
    }
    if(opts.sys_trace) on(opts.cuda_driver_trace, "--cuda-driver-trace");
    if(!opts.list_avail && !opts.kernel_trace && !opts.memory_copy_trace && !opts.marker_trace &&
       !opts.cuda_runtime_trace && !opts.cuda_driver_trace && !opts.stats && !opts.summary &&
       !opts.summary_per_domain && opts.summary_groups.empty() && opts.pmc_groups.empty() &&
       opts.pc_sampling_method.empty() && opts.print_summary.empty())
        return usage_error(job + "nothing to collect: give --kernel-trace, --memory-copy-trace, "
                                 "--marker-trace, --runtime-trace, --sys-trace, "
                                 "--cuda-runtime-trace, --cuda-driver-trace, --stats, "
                                 "-S/--summary, --pmc, --pc-sampling-method or --print-summary");
    return std::nullopt;
}

// The application's environment as the options make it, against exec's limits: a value too long
// is a usage error naming its option now, not "Argument list too long" at exec.
outcome
check_exec_limits(const options& opts, const std::string& job)
{
    if(opts.command.empty()) return std::nullopt;
    // Application replay gives each run one group: the run with the longest group is the one to
    // check (the others' environments are shorter).
    auto pass = size_t{0};
    if(run_count(opts) > 1)
    {
        auto longest = size_t{0};
        for(size_t g = 0; g < opts.pmc_groups.size(); ++g)
        {
            auto bytes = size_t{0};
            for(const auto& name : opts.pmc_groups[g])
                bytes += name.size() + 1;
            if(bytes > longest) std::tie(longest, pass) = std::pair{bytes, g + 1};
        }
        pass = pass_of_run(opts, pass, run_count(opts));
    }
    auto env     = tool_environment(opts, pass);
    auto preload = std::string{};
    for(const auto& lib : opts.preload)
        preload += lib + ":";
    if(const auto* inherited = std::getenv("LD_PRELOAD")) preload += inherited;
    env["LD_PRELOAD"]  = preload;
    const auto arg_max = sysconf(_SC_ARG_MAX);
    auto       why     = exec_size_error(opts.command,
                               env,
                               environ,
                               arg_max > 0 ? static_cast<size_t>(arg_max) : size_t{2} << 20,
                               exec_reserve_bytes);
    if(why.empty()) return std::nullopt;
    return usage_error(job + why + "; the application was not run");
}

// --mpi-ranks: a list of ranks; and no form whose unlisted ranks would run the application a
// different number of times than the listed ones (an MPI job whose ranks disagree hangs).
outcome
check_mpi_ranks(const parsed_args& args, const std::string& job)
{
    const auto& opts = args.opts;
    if(!was_given(args, {"--mpi-ranks"})) return std::nullopt;
    auto error = std::string{};
    if(!rocprofiler::tool::parse::parse_rank_list(opts.mpi_ranks, &error))
        return usage_error(job + "--mpi-ranks '" +
                           rocprofiler::tool::parse::abbreviate(opts.mpi_ranks) + "': " + error);
    if(!opts.input_file.empty() || !opts.jobs.empty())
        return usage_error(job + "--mpi-ranks cannot be combined with -i/--input (an unlisted "
                                 "rank would not know which of the file's runs to make)");
    if(run_count(opts) > 1)
        return usage_error(job + "--mpi-ranks with application replay (" +
                           std::to_string(run_count(opts)) +
                           " --pmc groups) would run the listed ranks once per group and the "
                           "others once; use --replay-mode kernel or one --pmc group");
    return std::nullopt;
}
} // namespace rocprofv3::cli
