#include "command_line.hpp"

#include <CLI/CLI.hpp>

#include <string>

namespace rocprofv3::cli
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
    "\nOutput files are <dir>/<prefix>_results.db (rocpd, the default format; read it with\n"
    "rocpd summary/convert/query), and with -f: _kernel_trace.csv, _memory_copy_trace.csv,\n"
    "_agent_info.csv, _kernel_stats.csv, _counter_collection.csv, _results.json. The default\n"
    "prefix is AMD's %hostname%/%pid% (<dir>/<host>/<pid>_...), so that processes never\n"
    "overwrite each other's files. With several --pmc groups and no kernel replay, the application "
    "runs once per group\n"
    "and run N writes to <dir>/pass_<N>/ (the lines of a text input file: <dir>/pmc_<N>/; the\n"
    "jobs of a JSON/YAML input file: <dir>/pass_<N>/). Other options of AMD's rocprofv3\n"
    "(--hip-trace, --hsa-trace, ...) are accepted and answered with 'not supported on this\n"
    "device' (exit 2). Boolean options take AMD's forms too: --kernel-trace=false,\n"
    "--stats 1, -s --memory-copy-trace=no (yes/no, true/false, on/off, 1/0, y/n, t/f).\n"
    "Environment: ROCPROF_TOOL_LIBRARY and ROCPROF_SDK_LIBRARY override the libraries found\n"
    "next to rocprofv3 (../lib/).\n\n";

// --pmc and kernel replay.
void
add_counter_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
    app.add_option("--pmc",
                   opts.pmc_groups,
                   "Counters to collect. Each occurrence of --pmc is one counter group, collected "
                   "in one pass (application replay: one run of the application per group; "
                   "kernel replay: one replay pass of each dispatch per group)")
        ->expected(1, -1)
        ->type_name("COUNTER...");
    app.add_option("--replay-mode",
                   opts.replay_mode,
                   "'application' (what several --pmc groups get without it): run the "
                   "application once per counter group; 'kernel': replay each dispatch once per "
                   "counter group instead (needs --kernel-replay-beta-enabled). Both need --pmc")
        ->type_name("application|kernel");
    app.add_flag(
        "--kernel-replay-beta-enabled",
        opts.kernel_replay_beta,
        "Acknowledge that kernel replay is a beta feature (required by --replay-mode kernel)");
}

// What to trace, and how the CSV files name agents.
void
add_trace_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
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
    app.add_flag(
        "--stats",
        opts.stats,
        "With -f csv: write the statistics of each traced domain (<prefix>_kernel_stats.csv, "
        "_memory_copy_stats.csv, _marker_api_stats.csv, _cuda_api_stats.csv) and of the "
        "domains (_domain_stats.csv)");
    app.add_flag("-S,--summary",
                 opts.summary,
                 "Print at the end one statistics table of every traced domain's names and one of "
                 "the domains (to stderr, or --summary-output-file)");
    app.add_flag("-D,--summary-per-domain",
                 opts.summary_per_domain,
                 "Print at the end one statistics table per traced domain (implies -S)");
    app.add_option("--summary-groups",
                   opts.summary_groups,
                   "Print one more table per regular expression, of every name of the domains "
                   "whose names it matches wholly (KERNEL_DISPATCH, MEMORY_COPY, MARKER_API, "
                   "CUDA_RUNTIME_API, CUDA_DRIVER_API), e.g. 'KERNEL_DISPATCH|MEMORY_COPY' "
                   "(implies -S)")
        ->type_name("REGEX")
        ->expected(1, -1);
    app.add_option("--summary-output-file",
                   opts.summary_output,
                   "Where the summary goes: stderr (the default), stdout or a file (placeholders "
                   "such as %pid% allowed)")
        ->type_name("FILE");
    app.add_option(
           "-u,--summary-units", opts.summary_units, "The summary's time unit (default nsec)")
        ->type_name("sec|msec|usec|nsec");
}

// Where and in which formats the outputs go, and what is logged.
void
add_output_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
    app.add_option("-d,--output-directory",
                   opts.output_directory,
                   "Directory of the output files (default: the current directory; created if "
                   "missing). Placeholders such as %pid%, %hostname%, %rank%, %env{NAME}% take "
                   "each profiled process's values");
    app.add_option("-o,--output-file",
                   opts.output_file,
                   "Prefix of the output file names (default: %hostname%/%pid%, AMD's: "
                   "<dir>/<host>/<pid>_...); placeholders as for -d");
    app.add_option("-f,--output-format",
                   opts.output_formats,
                   "Output formats: rocpd (SQLite database in AMD's rocpd layout, "
                   "<prefix>_results.db; the default), csv, json, pftrace (Perfetto trace), "
                   "otf2 (OTF2 archive); several allowed")
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
}

// Which dispatches are recorded, and how kernels are named.
void
add_filter_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
    app.add_option("--kernel-include-regex",
                   opts.include_regex,
                   "Profile (counters, replay) only kernels whose name matches this regular "
                   "expression; the kernel trace keeps every dispatch (see --kernel-filter-trace)");
    app.add_option("--kernel-exclude-regex",
                   opts.exclude_regex,
                   "Do not profile kernels whose name matches this regular expression");
    app.add_option("--kernel-iteration-range",
                   args.ranges,
                   "Profile only these iterations (from 1) of each kernel name: '[1-3,5]', "
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
                   "Profile at most N dispatches that the kernel filters select (after "
                   "--kernel-dispatch-skip), across all kernels (ncu's --launch-count)")
        ->type_name("N");
    app.add_flag("--kernel-filter-trace",
                 opts.filter_trace,
                 "The kernel filters also drop dispatches from the kernel trace and statistics");
    app.add_flag("-T,--truncate-kernels",
                 opts.truncate_kernels,
                 "Kernel names without return type, arguments and template arguments");
    app.add_flag("-M,--mangled-kernels", opts.mangled_kernels, "Do not demangle kernel names");
}

// Progress, preloads, listing, input files.
void
add_other_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
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
    app.add_option("--mpi-ranks",
                   opts.mpi_ranks,
                   "Profile only these MPI ranks ('0,2', '0-1,3'); the other ranks run the "
                   "application unprofiled (nothing preloaded, no outputs, same exit code). "
                   "rocprofv3 runs under the launcher: mpirun -np 4 rocprofv3 --mpi-ranks 0,2 "
                   "... -- <application>")
        ->type_name("LIST");
    app.add_option("-i,--input",
                   opts.input_file,
                   "Input file: a JSON or YAML job file ({\"jobs\": [...]}, one run per job, in "
                   "pass_<N>/), or a text file of 'pmc: <counters...>' lines (one run per line, "
                   "in pmc_<N>/)");
}

// AMD's advanced options: how the libraries are found, the marker library, --echo.
void
add_advanced_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
    app.add_option("--sdk-version",
                   opts.sdk_version,
                   "As AMD's rocprofv3: when a library is not found under its unversioned name "
                   "(lib<name>.so), try lib<name>.so.<X.Y.Z>")
        ->type_name("X.Y.Z");
    app.add_option("--sdk-soversion",
                   opts.sdk_soversion,
                   "As AMD's rocprofv3: when a library is not found under its unversioned name, "
                   "try lib<name>.so.<N> (before --sdk-version's name)")
        ->type_name("N");
    app.add_flag("--readlink",
                 opts.readlink,
                 "Preload a library given by a symbolic link through the link's target");
    app.add_flag("--realpath",
                 opts.realpath,
                 "Preload the libraries by their canonical paths (every link resolved)");
    app.add_flag("--suppress-marker-preload",
                 opts.suppress_marker_preload,
                 "Accepted for AMD's command lines; changes nothing: this rocprofv3 preloads no "
                 "ROCTx library (programs link librocprofiler-sdk-roctx themselves)");
    app.add_flag("--echo",
                 opts.echo,
                 "Print the application's command line (\"command: [...]\") instead of running it");
}

// Upstream's other options: accepted, then answered with one message (unsupported_options.cpp).
// A flag given as false asks for nothing (-s --scratch-memory-trace=false is AMD's way to leave
// one trace of -s off), so it is no error.
void
add_unsupported_options(CLI::App& app, parsed_args& args)
{
    auto* unsupported = app.add_option_group("Not supported on this device");
    for(const auto& u : unsupported_options())
    {
        auto  names = std::string{u.names};
        auto  flag  = u.values == 0;
        auto* opt   = unsupported->add_option_function<std::vector<std::string>>(
            names,
            [&args, names, flag](const std::vector<std::string>& values)
            {
                if(flag && !values.empty() && values.back() == "false") return;
                args.unsupported.emplace_back(names);
            },
            "Not supported on this device");
        if(u.values == 0)
            opt->expected(0, 1)->type_name("[BOOL]");
        else if(u.values == 1)
            opt->expected(1);
        else
            opt->expected(1, -1);
    }
}

} // namespace

void
add_options(CLI::App& app, parsed_args& args)
{
    app.footer(std::string{footer_help} + exit_codes_help);
    // -v, --version: upstream rocprofv3's spelling (-v is not "verbose" there).
    app.add_flag("-v,--version", args.version, "Print the version and exit");

    add_counter_options(app, args);
    add_pc_sampling_options(app, args);
    add_trace_options(app, args);
    add_output_options(app, args);
    add_filter_options(app, args);
    add_other_options(app, args);
    add_advanced_options(app, args);
    add_ncu_options(app, args);
    add_unsupported_options(app, args);
    app.add_option("command", args.opts.command, "The application and its arguments (after --)")
        ->expected(-1);
}
} // namespace rocprofv3::cli
