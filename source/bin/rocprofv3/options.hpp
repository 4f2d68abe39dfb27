// rocprofv3's command line: parsing (CLI11), validation, and the environment it hands to the tool
// library. Separate from main.cpp so that tests can check every rule without running anything.
#pragma once

#include "config/metric_sets.hpp"
#include "contract/environment.hpp"
#include "planner/counter_planner.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rocprofv3
{
// Exit codes of rocprofv3 itself (docs/rocprofv3.md, --help). Otherwise rocprofv3 exits with the
// application's code (128 + N when the application was killed by signal N).
enum exit_code : int
{
    exit_ok            = 0,
    exit_usage         = 1,    // invalid command line or input file; nothing was run
    exit_configuration = 2,    // valid command line that this system cannot honour (unknown or
                               // unavailable counters, libraries not found); nothing was run
    exit_output         = 3,   // the output directory cannot be created or written; nothing was run
    exit_not_executable = 126, // the application exists but could not be executed
    exit_not_found      = 127, // the application was not found
};

struct options
{
    std::vector<std::vector<std::string>> pmc_groups = {};
    // An input file's pmc_groups without a replay mode: AMD's multiplexing of pmc_groups in one
    // run, each dispatch counted with one group, the next group every this many dispatches of an
    // agent (pmc_group_interval, default 1). Unset: several groups replay.
    std::optional<uint64_t>  pmc_group_interval = {};
    std::string              replay_mode        = {};
    bool                     kernel_replay_beta = false;
    bool                     kernel_trace       = false;
    bool                     memory_copy_trace  = false;
    bool                     marker_trace       = false;
    bool                     cuda_runtime_trace = false;
    bool                     cuda_driver_trace  = false;
    bool                     runtime_trace      = false; // -r: see options.cpp
    bool                     sys_trace          = false; // -s
    bool                     selected_regions   = false;
    bool                     stats              = false;
    bool                     summary            = false;
    bool                     summary_per_domain = false; // -D
    std::vector<std::string> summary_groups     = {};
    std::string              summary_output     = {}; // --summary-output-file
    std::string              summary_units      = {}; // -u
    std::string              output_directory   = ".";
    std::string              output_file        = {}; // empty: the app's pid
    std::vector<std::string> output_formats     = {};
    std::string              include_regex      = {};
    std::string              exclude_regex      = {};
    std::string              iteration_range    = {}; // the values, ", "-joined
    std::optional<uint64_t>  dispatch_skip      = {};
    std::optional<uint64_t>  dispatch_count     = {};
    bool                     filter_trace       = false; // --kernel-filter-trace
    bool                     list_avail         = false;
    std::string              input_file         = {};
    std::string              log_level          = {};
    std::vector<std::string> preload            = {};
    bool                     output_config      = false;
    bool                     truncate_kernels   = false;
    bool                     mangled_kernels    = false;
    bool                     progress           = false;
    std::string              agent_index        = {}; // -A; empty: relative
    // --pc-sampling-*: no method, no PC sampling (pc_sampling_options.cpp).
    bool        pc_sampling_beta     = false;
    std::string pc_sampling_method   = {};
    std::string pc_sampling_unit     = {};
    std::string pc_sampling_interval = {}; // a positive number once checked
    std::string mpi_ranks            = {}; // --mpi-ranks; empty: all
    // Boolean options given as false (--memory-copy-trace=false), by their long names: -r and -s
    // leave these traces off, as AMD's rocprofv3 does.
    std::vector<std::string> turned_off = {};
    // AMD's advanced options: how the libraries are found (--sdk-version, --sdk-soversion,
    // --readlink, --realpath), --suppress-marker-preload, and --echo (print the application's
    // command line instead of running it).
    std::string              sdk_version             = {};
    std::string              sdk_soversion           = {};
    bool                     readlink                = false;
    bool                     realpath                = false;
    bool                     suppress_marker_preload = false;
    bool                     echo                    = false;
    std::vector<std::string> command                 = {};

    // Nsight Compute's options (ncu_options.cpp); empty / false: not given.
    std::string              cache_control    = {}; // all, none
    std::string              target_processes = {}; // application-only, all
    bool                     nvtx             = false;
    std::vector<std::string> nvtx_include     = {};
    std::vector<std::string> nvtx_exclude     = {};
    std::string              print_summary    = {}; // per-kernel, per-gpu, per-nvtx

    // Sub-directories of the runs. Application replay run N writes to <dir>/<pass_prefix><N>/:
    // "pass_" for --pmc groups, "pmc_" for the 'pmc:' lines of a text input file (as upstream),
    // where even a single line gets pmc_1/ (pass_directory_always).
    std::string pass_prefix           = "pass_";
    bool        pass_directory_always = false;
    // A job of a JSON/YAML input file: its runs write to <dir>/<job_directory>/ (pass_<N>, as
    // upstream: job N, when there are several jobs or the job collects counters).
    std::string job_directory = {};
    // The jobs of a JSON/YAML input file, run one after the other (each one a full set of options,
    // the command line's merged in). Empty: this one set of options is the run.
    std::vector<options> jobs = {};

    bool kernel_replay() const { return replay_mode == "kernel"; }
    bool multiplexed() const
    {
        return pmc_group_interval.has_value() && pmc_groups.size() > 1 && replay_mode.empty();
    }
};

struct parse_result
{
    std::optional<options> opts      = {}; // set: proceed
    int                    exit_code = 0;  // when opts is empty: exit with this code
    std::string            output    = {}; // text for stdout (help, version)
    std::string            error     = {}; // text for stderr
    // Said on stderr, one line each ("rocprofv3: warning: ..."), whether or not parsing proceeds:
    // what an input file gave that is ignored.
    std::vector<std::string> warnings = {};
};

// Parses and validates argv. Never runs anything and never exits.
parse_result parse_command_line(int argc, const char* const* argv);

// After every run of the application (@p codes: rocprofv3's code for each run, in order; with
// application replay, run N collected @p groups[N-1]): rocprofv3's exit code, the first failing
// run's, or exit_ok. With several runs, @p lines gets one line per failing run, every one of them,
// and a last line that counts them.
int summarize_runs(const std::vector<int>&                      codes,
                   const std::vector<std::vector<std::string>>& groups,
                   std::vector<std::string>&                    lines);

// The counters an agent reports, and what the tool library's helper mode found about the --pmc
// groups there: the planner's input (planner/counter_planner.hpp).
using agent_counters = rocprofiler::tool::planner::agent_description;

// The planner's checks and expansion under their earlier names (planner::validate,
// planner::expand_groups), for callers that still use them.
inline std::vector<std::string>
validate_counters(const std::vector<std::vector<std::string>>&   groups,
                  const std::vector<agent_counters>&             agents,
                  std::vector<std::string>*                      warnings      = nullptr,
                  const rocprofiler::tool::metric_sets::catalog& sets          = {},
                  bool                                           kernel_replay = false)
{
    return rocprofiler::tool::planner::validate(groups, agents, warnings, sets, kernel_replay);
}

inline std::vector<std::vector<std::string>>
expand_groups(const std::vector<std::vector<std::string>>&   groups,
              const std::vector<agent_counters>&             agents,
              std::vector<std::string>&                      notes,
              const rocprofiler::tool::metric_sets::catalog& sets = {})
{
    return rocprofiler::tool::planner::expand_groups(groups, agents, notes, sets);
}

// What run @p pass asks of the tool library (contract/environment.hpp). @p pass is the
// application-replay pass (1-based; 0 when there is a single run) and selects the counter group;
// the output sub-directory is run_directory()'s.
rocprofiler::tool::contract::tool_request tool_request(const options& opts, size_t pass);

// tool_request() as the ROCPROF_* (and log level) variables of the run (not LD_PRELOAD /
// ROCP_TOOL_LIBRARIES).
std::map<std::string, std::string> tool_environment(const options& opts, size_t pass);

// --pc-sampling-*: nothing when some GPU agent of the helper's JSON (@p query, agent_query.hpp)
// offers the method, unit and interval; else one message naming what each agent offers
// (pc_sampling_options.cpp). describe_pc_sampling_offer: one offer of that JSON, in words.
std::vector<std::string> pc_sampling_offer_errors(const options& opts, const nlohmann::json& query);
std::string              describe_pc_sampling_offer(const nlohmann::json& offer);

// --cache-control all: one message per reason it cannot be honoured on the agents of the helper's
// JSON (@p query), none when every GPU agent flushes its caches (ncu_options.cpp).
std::vector<std::string> cache_control_errors(const options& opts, const nlohmann::json& query);

// Number of runs of the application: one per --pmc group under application replay, else 1.
size_t run_count(const options& opts);

// The pass number of run @p run (1-based) of @p runs: @p run, or 0 when the run writes to no
// pass sub-directory.
size_t pass_of_run(const options& opts, size_t run, size_t runs);

// Where run @p pass writes (absolute): the output directory, the job's sub-directory, and
// <pass_prefix><pass> when @p pass > 0. Placeholders stay for the tool library to expand.
std::string run_directory(const options& opts, size_t pass);

// @p directory with its %cwd% placeholders replaced by the current directory (rocprofv3's,
// which the application starts in).
std::string expand_cwd(const std::string& directory);

// The part of an output directory (%cwd% expanded) before its first component with a placeholder:
// what rocprofv3 can create and check before the application runs.
std::string fixed_directory_part(const std::string& directory);

// Upstream rocprofv3 options this rocprofv3 accepts but cannot honour on this device, each with
// how many values it takes (0: a flag with an optional BOOL value; 1; -1: one or more). A flag
// given as false (--scratch-memory-trace=false) asks for nothing and is no error.
struct unsupported_option
{
    const char* names  = nullptr; // CLI11 spelling: "-s,--sys-trace"
    int         values = 0;
};
const std::vector<unsupported_option>& unsupported_options();

// AMD's options that this rocprofv3 honours differently on purpose (every spelling):
// docs/rocprofv3.md's table says how and why, and a test checks that it lists exactly these.
const std::vector<const char*>& amd_differences();

// AMD's spellings of a boolean value (its strtobool, any case): true for y, yes, t, true, on, 1;
// false for n, no, f, false, off, 0; nothing for any other text.
std::optional<bool> parse_boolean(std::string_view text);

// Every option name of the command line (both spellings: "-s", "--sys-trace"), each with whether
// it is a boolean (a flag that also takes AMD's "=BOOL" and "BOOL" forms). The table that
// docs/rocprofv3.md and the tests check AMD's options against.
std::vector<std::pair<std::string, bool>> option_names();
} // namespace rocprofv3
