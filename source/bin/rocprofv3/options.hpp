// rocprofv3's command line: parsing (CLI11), validation, and the environment it hands to the tool
// library. Separate from main.cpp so that tests can check every rule without running anything.
#pragma once

#include "contract/environment.hpp"
#include "metric_sets.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
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
    std::vector<std::vector<std::string>> pmc_groups         = {};
    std::string                           replay_mode        = {};
    bool                                  kernel_replay_beta = false;
    bool                                  kernel_trace       = false;
    bool                                  memory_copy_trace  = false;
    bool                                  marker_trace       = false;
    bool                                  cuda_runtime_trace = false;
    bool                                  cuda_driver_trace  = false;
    bool                                  runtime_trace      = false; // -r: see options.cpp
    bool                                  sys_trace          = false; // -s
    bool                                  selected_regions   = false;
    bool                                  stats              = false;
    bool                                  summary            = false;
    std::string                           output_directory   = ".";
    std::string                           output_file        = {}; // empty: the app's pid
    std::vector<std::string>              output_formats     = {};
    std::string                           include_regex      = {};
    std::string                           exclude_regex      = {};
    std::string                           iteration_range    = {}; // the values, ", "-joined
    std::optional<uint64_t>               dispatch_skip      = {};
    std::optional<uint64_t>               dispatch_count     = {};
    bool                                  list_avail         = false;
    std::string                           input_file         = {};
    std::string                           log_level          = {};
    std::vector<std::string>              preload            = {};
    bool                                  output_config      = false;
    bool                                  truncate_kernels   = false;
    bool                                  mangled_kernels    = false;
    bool                                  progress           = false;
    std::string                           agent_index        = {}; // -A; empty: relative
    std::vector<std::string>              command            = {};

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
};

struct parse_result
{
    std::optional<options> opts      = {}; // set: proceed
    int                    exit_code = 0;  // when opts is empty: exit with this code
    std::string            output    = {}; // text for stdout (help, version)
    std::string            error     = {}; // text for stderr
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

// The counters an agent reports (from the tool library's helper mode).
struct agent_counters
{
    std::string                logical_id   = {};
    std::string                product_name = {};
    std::optional<std::string> error        = {}; // why the agent reports no counters
    std::vector<std::string>   counters     = {};
    // Counters one pass of the agent collects (probed by the tool library), when it is limited.
    std::optional<size_t> counters_per_pass = {};
    // 0-based indices of --pmc groups whose counters all exist on the agent but that do not fit in
    // one pass there (rocprofiler_create_counter_config: ERROR_EXCEEDS_HW_LIMIT).
    std::vector<size_t> groups_exceeding = {};
    // How each of those groups splits into groups that fit in one pass of the agent (absent when
    // some counter fits in no pass by itself: those are in exceeding_alone).
    std::map<size_t, std::vector<std::vector<std::string>>> group_splits    = {};
    std::vector<std::string>                                exceeding_alone = {};
    // Counters that take several passes even by themselves on the agent (NVIDIA throughputs, hit
    // rates), with their pass counts: each is a group of its own in group_splits, collectable only
    // under kernel replay, which replays each dispatch as many passes as its counters take.
    std::vector<std::pair<std::string, uint64_t>> multi_pass = {};
    // rocprofiler_agent_t.name ("sm_90", "host"): which metric set definitions apply.
    std::string name = {};
};

// Checks that every requested counter exists on some GPU agent (unknown counters come with the
// close matches among all agents' counters and @p sets' names) and that every group either fits in
// one pass of the agents that have its counters or splits into groups that do (a counter that fits
// in no pass by itself is an error naming the agent). Returns the error lines (empty: fine).
// A name no agent has as a counter may name a metric set: it must apply to some agent (its
// definition for the agent lists only the agent's counters), else the error names what each agent
// lacks; agents where it does not apply are warnings. A set name that is also a counter of an
// agent is that counter there (a warning says so).
// When some GPU agent reports no counters at all (no permission, another profiler holding them),
// a counter no agent lists may be one of its own: that goes to @p warnings instead, and the
// application runs (the tool library collects what it can and says what it cannot).
// A counter that takes several passes by itself is an error unless @p kernel_replay.
std::vector<std::string> validate_counters(const std::vector<std::vector<std::string>>& groups,
                                           const std::vector<agent_counters>&           agents,
                                           std::vector<std::string>* warnings = nullptr,
                                           const rocprofiler::tool::metric_sets::catalog& sets = {},
                                           bool kernel_replay = false);

// The groups as rocprofv3 collects them: a group that does not fit in one pass of an agent that
// has its counters is replaced by its split into one-pass groups there (the first such agent's; on
// other agents each part must fit too, which the tool library checks when it starts). One line per
// split group goes to @p notes. A group naming a metric set stays as it is when it fits in one
// pass everywhere (the tool library gives each agent its own definition of the set); when it does
// not fit on some agent, each agent that can collect it gets its own groups: its split, or the
// group with the set replaced by the agent's metrics.
std::vector<std::vector<std::string>>
expand_groups(const std::vector<std::vector<std::string>>&   groups,
              const std::vector<agent_counters>&             agents,
              std::vector<std::string>&                      notes,
              const rocprofiler::tool::metric_sets::catalog& sets = {});

// What run @p pass asks of the tool library (contract/environment.hpp). @p pass is the
// application-replay pass (1-based; 0 when there is a single run) and selects the counter group;
// the output sub-directory is run_directory()'s.
rocprofiler::tool::contract::tool_request tool_request(const options& opts, size_t pass);

// tool_request() as the ROCPROF_* (and log level) variables of the run (not LD_PRELOAD /
// ROCP_TOOL_LIBRARIES).
std::map<std::string, std::string> tool_environment(const options& opts, size_t pass);

// Number of runs of the application: one per --pmc group under application replay, else 1.
size_t run_count(const options& opts);

// The pass number of run @p run (1-based) of @p runs: @p run, or 0 when the run writes to no
// pass sub-directory.
size_t pass_of_run(const options& opts, size_t run, size_t runs);

// Where run @p pass writes (absolute): the output directory, the job's sub-directory, and
// <pass_prefix><pass> when @p pass > 0. Placeholders stay for the tool library to expand.
std::string run_directory(const options& opts, size_t pass);

// The part of an output directory before its first component with a placeholder: what rocprofv3
// can create and check before the application runs.
std::string fixed_directory_part(const std::string& directory);

// Upstream rocprofv3 options this rocprofv3 accepts but cannot honour on this device, each with
// how many values it takes (0: a flag with an optional BOOL value; 1; -1: one or more).
struct unsupported_option
{
    const char* names  = nullptr; // CLI11 spelling: "-s,--sys-trace"
    int         values = 0;
};
const std::vector<unsupported_option>& unsupported_options();
} // namespace rocprofv3
