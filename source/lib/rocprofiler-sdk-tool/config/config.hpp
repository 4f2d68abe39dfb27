// The tool library's configuration: what rocprofv3 asked for, read from the ROCPROF_* environment
// variables once, when the SDK calls rocprofiler_configure. docs/rocprofv3.md lists the variables.
#pragma once

#include "config/name_regex.hpp"
#include "config/nvtx_filter.hpp"
#include "config/parse.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
struct config
{
    bool kernel_trace       = false; // ROCPROF_KERNEL_TRACE
    bool memory_copy_trace  = false; // ROCPROF_MEMORY_COPY_TRACE
    bool marker_trace       = false; // ROCPROF_MARKER_API_TRACE (earlier ROCPROF_MARKER_TRACE)
    bool cuda_runtime_trace = false; // ROCPROF_CUDA_RUNTIME_TRACE: CUDA runtime API calls
    bool cuda_driver_trace  = false; // ROCPROF_CUDA_DRIVER_TRACE: CUDA driver API calls
    bool selected_regions   = false; // ROCPROF_SELECTED_REGIONS: collect only between resume/pause
    bool counter_collection = false; // ROCPROF_COUNTER_COLLECTION
    // ROCPROF_KERNEL_REPLAY=1: the kernel replay context exists and every counter group of a
    // dispatch's agent is collected in its own replay pass.
    bool kernel_replay = false;
    bool stats         = false; // ROCPROF_STATS: write <prefix>_kernel_stats.csv
    bool summary = false; // ROCPROF_STATS_SUMMARY (earlier ROCPROF_SUMMARY): stats table on stderr
    // ROCPROF_STATS_SUMMARY_PER_DOMAIN (-D): one summary table per domain (implies summary).
    bool summary_per_domain = false;
    // ROCPROF_STATS_SUMMARY_GROUPS (--summary-groups): one more table per regular expression,
    // of the domains whose names it matches (each compiles; implies summary).
    std::vector<std::string> summary_groups = {};
    // ROCPROF_STATS_SUMMARY_OUTPUT (--summary-output-file): "stderr" (also when unset), "stdout"
    // or a file path (its placeholders expanded).
    std::string summary_output = "stderr";
    // ROCPROF_STATS_SUMMARY_UNITS (-u): sec, msec, usec or nsec (the default).
    std::string summary_units = "nsec";
    // Kernel names: demangled unless ROCPROF_DEMANGLE_KERNELS=0 (-M); ROCPROF_TRUNCATE_KERNELS
    // (-T) keeps only the demangled name's base name (no return type, arguments or templates).
    bool demangle_kernels = true;
    bool truncate_kernels = false;
    bool output_config    = false; // ROCPROF_OUTPUT_CONFIG_FILE: write <prefix>_config.json
    // ROCPROF_AGENT_INDEX: absolute, relative (default) or type-relative, the form of the CSV
    // files' agent columns (output.hpp, agent_index).
    std::string agent_index = "relative";
    // ROCPROF_PROGRESS: progress lines on stderr even when it is not a terminal.
    bool progress = false;

    // ROCPROF_COUNTERS ("pmc: A B"): the counters of this run. Without kernel replay they form the
    // one group collected on every dispatch.
    std::vector<std::string> counters = {};
    // ROCPROF_COUNTER_GROUPS ("A B;C"): under kernel replay, pass i collects group i; without it,
    // several groups are AMD's multiplexing (below).
    std::vector<std::vector<std::string>> counter_groups = {};
    // ROCPROF_COUNTER_GROUPS_INTERVAL: AMD's multiplexing of several groups without kernel replay:
    // each dispatch is counted with one group, the n-th counted dispatch of an agent with group
    // (n / interval) % groups. 0: not multiplexing. Set to 1 when several groups come without
    // ROCPROF_COUNTERS or kernel replay and no interval is given (AMD's default).
    uint64_t counter_groups_interval = 0;
    bool     multiplexed() const { return counter_groups_interval != 0; }

    // ROCPROF_PC_SAMPLING_METHOD (host_trap, stochastic; empty: no PC sampling), _UNIT
    // (instructions, cycles, time) and _INTERVAL: the buffered PC sampling service on every agent
    // that offers this configuration (capture/pc_sampling.cpp).
    std::string pc_sampling_method   = {};
    std::string pc_sampling_unit     = {};
    uint64_t    pc_sampling_interval = 0;

    std::string output_path = "."; // ROCPROF_OUTPUT_PATH
    // ROCPROF_OUTPUT_FILE_NAME, expanded; unset: AMD's %hostname%/%pid%, so output_path gains the
    // host's directory and the prefix is the process id (output_file_name_default is then true).
    std::string output_file_name         = {};
    bool        output_file_name_default = false;
    bool        csv                      = true;  // ROCPROF_OUTPUT_FORMAT contains "csv" (default)
    bool        json                     = false; // ROCPROF_OUTPUT_FORMAT contains "json"
    bool        pftrace                  = false; // ROCPROF_OUTPUT_FORMAT contains "pftrace"
    bool        rocpd                    = false; // ROCPROF_OUTPUT_FORMAT contains "rocpd"
    bool        otf2                     = false; // ROCPROF_OUTPUT_FORMAT contains "otf2"

    std::string               include_regex_text = {}; // ROCPROF_KERNEL_FILTER_INCLUDE_REGEX
    std::string               exclude_regex_text = {}; // ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX
    std::optional<name_regex> include_regex      = {};
    std::optional<name_regex> exclude_regex      = {};
    parse::iteration_range    iteration_range    = {}; // ROCPROF_KERNEL_FILTER_RANGE
    // ROCPROF_KERNEL_FILTER_DISPATCH_SKIP / _COUNT: across all kernels, after the other filters.
    uint64_t                dispatch_skip  = 0;
    std::optional<uint64_t> dispatch_count = {};
    // The filters select the dispatches that counters, replay and PC sampling profile; the kernel
    // trace and the statistics keep every dispatch, as upstream, unless ROCPROF_KERNEL_FILTER_TRACE
    // (--kernel-filter-trace) asks that they keep only the selected ones too.
    bool filter_trace = false;

    // Nsight Compute's options (config/ncu_config.cpp). ROCPROF_TARGET_PROCESSES=application-only:
    // only the process that loaded the tool first profiles. ROCPROF_NVTX: marker ranges are
    // followed at each dispatch, and ROCPROF_NVTX_INCLUDE / _EXCLUDE choose which dispatches get
    // counters and replay. ROCPROF_PRINT_SUMMARY: per-kernel, per-gpu or per-nvtx table on stdout.
    bool               application_only = false;
    bool               nvtx             = false;
    nvtx::range_filter nvtx_filter      = {};
    std::string        print_summary    = {};

    // ROCPROFV3_RUN_DIR: a directory private to the rocprofv3 run, where its processes claim their
    // output prefixes (session/prefix_claim.hpp); empty without rocprofv3.
    std::string run_dir = {};
    // ROCPROFILER_METRICS_PATH (metric_sets::path_variable): the user's metric set files, when set.
    std::optional<std::string> metrics_path = {};
    // ROCPROFV3_TOOL_HELPER_MODE set: rocprofv3's pre-run agent query loaded the library, which
    // then profiles nothing.
    bool helper_mode = false;

    // Groups this run collects: counter_groups under kernel replay or multiplexing, else the one
    // group `counters`.
    std::vector<std::vector<std::string>> collected_groups() const;

    bool records_dispatches() const
    {
        return kernel_trace || stats || summary || !print_summary.empty();
    }
    // Marker ranges are followed at each dispatch (--nvtx, or --print-summary per-nvtx).
    bool follows_ranges() const { return nvtx || print_summary == "per-nvtx"; }
    bool pc_sampling() const { return !pc_sampling_method.empty(); }
    // Either CUDA API kind: rows of <prefix>_cuda_api_trace.csv.
    bool cuda_api_trace() const { return cuda_runtime_trace || cuda_driver_trace; }
    // The tool's buffer exists for dispatch, memory copy or CUDA API records.
    bool uses_buffer() const
    {
        return records_dispatches() || memory_copy_trace || cuda_api_trace();
    }
};

struct config_result
{
    config                   cfg    = {};
    std::vector<std::string> errors = {}; // non-empty: the tool must deactivate itself
    std::vector<std::string> notes  = {}; // one line each on stderr: deprecated names, ignored ones
};

// The Nsight Compute part of read_config (config/ncu_config.cpp).
void read_ncu(const std::function<const char*(const char*)>& getenv,
              config&                                        cfg,
              std::vector<std::string>&                      errors);

// Reads and validates the variables through @p getenv (tests pass their own).
config_result read_config(const std::function<const char*(const char*)>& getenv);

// This process's argv (/proc/self/cmdline), empty when it cannot be read.
std::vector<std::string> command_line();
} // namespace rocprofiler::tool
