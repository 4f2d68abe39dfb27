// The environment contract between rocprofv3 (the CLI, which sets the variables) and its tool
// library (which reads them in each profiled process). Both sides include this header: every
// variable is named here once, with who reads it and how its value is spelled, and each message
// travels as one typed struct that encode() turns into variables and decode() reads back.
//
// Three messages:
//   tool_request    what one run of the application collects and where it writes (ROCPROF_*),
//                   read by the tool's configuration (config.cpp, read_config)
//   report_channel  where the tool reports back to rocprofv3 (ROCPROFV3_RUN_DIR, _REPORT_FD),
//                   read by run_report.cpp
//   helper_request  the tool library's helper mode, run by rocprofv3 before the application to
//                   list agents and check --pmc groups (ROCPROFV3_TOOL_*), read by query.cpp
//
// Encoding rules: a switch is "1" when on and absent when off (ROCPROF_DEMANGLE_KERNELS, on by
// default, is "0" when off); decoding accepts 1/0, true/false, yes/no, on/off in any case, and
// unset or empty as off. Text is verbatim; empty text is never set. Counter groups are
// "A B;C" (parse::encode_counter_groups); AMD's form, a line "pmc: A B" per group, is read too.
// Formats are comma-separated.
//
// No dependency on the SDK; pure functions, thread-safe (decode reads only through @p getenv).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace rocprofiler::tool::contract
{
// The variables of tool_request: set by rocprofv3 for each run, read by read_config.
inline constexpr const char* output_path        = "ROCPROF_OUTPUT_PATH";
inline constexpr const char* output_file_name   = "ROCPROF_OUTPUT_FILE_NAME";
inline constexpr const char* output_format      = "ROCPROF_OUTPUT_FORMAT";
inline constexpr const char* kernel_trace       = "ROCPROF_KERNEL_TRACE";
inline constexpr const char* memory_copy_trace  = "ROCPROF_MEMORY_COPY_TRACE";
inline constexpr const char* marker_trace       = "ROCPROF_MARKER_API_TRACE";
inline constexpr const char* cuda_runtime_trace = "ROCPROF_CUDA_RUNTIME_TRACE";
inline constexpr const char* cuda_driver_trace  = "ROCPROF_CUDA_DRIVER_TRACE";
inline constexpr const char* agent_index        = "ROCPROF_AGENT_INDEX";
inline constexpr const char* selected_regions   = "ROCPROF_SELECTED_REGIONS";
inline constexpr const char* stats              = "ROCPROF_STATS";
inline constexpr const char* summary            = "ROCPROF_STATS_SUMMARY";
// -D, --summary-groups (one regular expression a line), --summary-output-file, --summary-units.
inline constexpr const char* summary_per_domain = "ROCPROF_STATS_SUMMARY_PER_DOMAIN";
inline constexpr const char* summary_groups     = "ROCPROF_STATS_SUMMARY_GROUPS";
inline constexpr const char* summary_output     = "ROCPROF_STATS_SUMMARY_OUTPUT";
inline constexpr const char* summary_units      = "ROCPROF_STATS_SUMMARY_UNITS";
inline constexpr const char* include_regex      = "ROCPROF_KERNEL_FILTER_INCLUDE_REGEX";
inline constexpr const char* exclude_regex      = "ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX";
inline constexpr const char* iteration_range    = "ROCPROF_KERNEL_FILTER_RANGE";
inline constexpr const char* dispatch_skip      = "ROCPROF_KERNEL_FILTER_DISPATCH_SKIP";
inline constexpr const char* dispatch_count     = "ROCPROF_KERNEL_FILTER_DISPATCH_COUNT";
// --kernel-filter-trace: the kernel filters also drop dispatches from the kernel trace and the
// statistics (without it, as upstream, they select only what counters and replay profile).
inline constexpr const char* filter_trace       = "ROCPROF_KERNEL_FILTER_TRACE";
inline constexpr const char* demangle_kernels   = "ROCPROF_DEMANGLE_KERNELS";
inline constexpr const char* truncate_kernels   = "ROCPROF_TRUNCATE_KERNELS";
inline constexpr const char* output_config_file = "ROCPROF_OUTPUT_CONFIG_FILE";
inline constexpr const char* progress           = "ROCPROF_PROGRESS";
inline constexpr const char* counter_collection = "ROCPROF_COUNTER_COLLECTION";
inline constexpr const char* counters           = "ROCPROF_COUNTERS";
inline constexpr const char* counter_groups     = "ROCPROF_COUNTER_GROUPS";
// AMD's multiplexing: without kernel replay, one group per dispatch, switching to the next every
// this many dispatches of an agent (default 1 when the groups come without ROCPROF_COUNTERS).
inline constexpr const char* counter_groups_interval = "ROCPROF_COUNTER_GROUPS_INTERVAL";
inline constexpr const char* kernel_replay           = "ROCPROF_KERNEL_REPLAY";
// Earlier names of ROCPROF_MARKER_API_TRACE and ROCPROF_STATS_SUMMARY (AMD's names, which
// rocprofv3 sets): still read when the new name is unset, with a deprecation note on stderr.
inline constexpr const char* marker_trace_old = "ROCPROF_MARKER_TRACE";
inline constexpr const char* summary_old      = "ROCPROF_SUMMARY";
// Switches AMD's rocprofv3 sets for its tool library that ask for what this device has no source
// for (HIP, HSA, RCCL, rocDecode, rocJPEG, memory allocation, scratch memory and thread traces,
// and three output options): read only to say so when one asks for something.
inline constexpr const char* amd_unsupported_switches[] = {
    "ROCPROF_HIP_RUNTIME_API_TRACE",
    "ROCPROF_HIP_COMPILER_API_TRACE",
    "ROCPROF_HSA_CORE_API_TRACE",
    "ROCPROF_HSA_AMD_EXT_API_TRACE",
    "ROCPROF_HSA_IMAGE_EXT_API_TRACE",
    "ROCPROF_HSA_FINALIZER_EXT_API_TRACE",
    "ROCPROF_RCCL_API_TRACE",
    "ROCPROF_ROCDECODE_API_TRACE",
    "ROCPROF_ROCJPEG_API_TRACE",
    "ROCPROF_MEMORY_ALLOCATION_TRACE",
    "ROCPROF_SCRATCH_MEMORY_TRACE",
    "ROCPROF_ADVANCED_THREAD_TRACE",
    "ROCPROF_KERNEL_RENAME",
    "ROCPROF_GROUP_BY_QUEUE",
};
// --pc-sampling-*, as upstream names them: the method (host_trap, stochastic), the unit
// (instructions, cycles, time) and the interval (a positive number) of the buffered PC sampling
// service; the beta switch is the SDK's variable, set as upstream sets it.
inline constexpr const char* pc_sampling_method   = "ROCPROF_PC_SAMPLING_METHOD";
inline constexpr const char* pc_sampling_unit     = "ROCPROF_PC_SAMPLING_UNIT";
inline constexpr const char* pc_sampling_interval = "ROCPROF_PC_SAMPLING_INTERVAL";
inline constexpr const char* pc_sampling_beta     = "ROCPROFILER_PC_SAMPLING_BETA_ENABLED";
// --log-level, as upstream sets it: the tool's, the SDK's and ROCTx's level (one value).
inline constexpr const char* log_level       = "ROCPROF_LOG_LEVEL";
inline constexpr const char* sdk_log_level   = "ROCPROFILER_LOG_LEVEL";
inline constexpr const char* roctx_log_level = "ROCTX_LOG_LEVEL";
// Nsight Compute's options (contract/ncu_environment.cpp): --target-processes, --nvtx and its
// filters (one filter a line), --print-summary; --cache-control sets the SDK's variable.
inline constexpr const char* target_processes = "ROCPROF_TARGET_PROCESSES";
inline constexpr const char* nvtx_ranges      = "ROCPROF_NVTX";
inline constexpr const char* nvtx_include     = "ROCPROF_NVTX_INCLUDE";
inline constexpr const char* nvtx_exclude     = "ROCPROF_NVTX_EXCLUDE";
inline constexpr const char* print_summary    = "ROCPROF_PRINT_SUMMARY";
inline constexpr const char* cache_control    = "ROCPROFILER_CUDA_CACHE_CONTROL";

// The variables of report_channel.
inline constexpr const char* run_dir   = "ROCPROFV3_RUN_DIR";
inline constexpr const char* report_fd = "ROCPROFV3_REPORT_FD";

// The variables of helper_request. ROCPROFILER_CUDA_AGENTS is the SDK's: rocprofv3 sets it to 1
// unless the user set it, so that the helper lists CUDA devices.
inline constexpr const char* helper_mode  = "ROCPROFV3_TOOL_HELPER_MODE";
inline constexpr const char* query_groups = "ROCPROFV3_TOOL_QUERY_GROUPS";
inline constexpr const char* cuda_agents  = "ROCPROFILER_CUDA_AGENTS";

// Which message a variable belongs to, and who reads it on the other side.
enum class message
{
    tool_request,
    report_channel,
    helper_request,
    // Read by the tool, never set by rocprofv3: the earlier names of tool_request variables and
    // AMD's variables for what this device has no source for.
    compatibility,
};

enum class reader
{
    tool_config, // config.cpp, read_config
    run_report,  // run_report.cpp (ROCPROFV3_RUN_DIR also: the output prefix claim, tool.cpp)
    helper,      // query.cpp and the helper-mode check of rocprofiler_configure (tool.cpp)
    sdk,         // the SDK library or ROCTx, not the tool
};

struct variable
{
    const char* name     = nullptr;
    message     part     = message::tool_request;
    reader      read_by  = reader::tool_config;
    const char* encoding = nullptr; // one line: how the value is spelled
};

// Every variable of the contract, in the order of the lists above.
std::span<const variable> variables();

using environment = std::map<std::string, std::string>;
using getenv_fn   = std::function<const char*(const char*)>;

// What one run of the application collects and where it writes.
struct tool_request
{
    std::string              output_path        = {}; // absolute; placeholders stay
    std::string              output_file_name   = {}; // empty: unset (the process id)
    std::vector<std::string> output_formats     = {}; // empty: unset (csv)
    bool                     kernel_trace       = false;
    bool                     memory_copy_trace  = false;
    bool                     marker_trace       = false;
    bool                     cuda_runtime_trace = false;
    bool                     cuda_driver_trace  = false;
    std::string              agent_index        = {}; // empty: unset (relative)
    bool                     selected_regions   = false;
    bool                     stats              = false;
    bool                     summary            = false;
    bool                     summary_per_domain = false;
    std::vector<std::string> summary_groups     = {};
    std::string              summary_output     = {}; // empty: stderr
    std::string              summary_units      = {}; // empty: nsec
    std::string              include_regex      = {};
    std::string              exclude_regex      = {};
    std::string              iteration_range    = {};
    std::optional<uint64_t>  dispatch_skip      = {};
    std::optional<uint64_t>  dispatch_count     = {};
    bool                     filter_trace       = false;
    bool                     demangle_kernels   = true;
    bool                     truncate_kernels   = false;
    bool                     output_config      = false;
    bool                     progress           = false;
    std::string              log_level          = {}; // empty: unset
    // The groups this run collects: under application replay the pass's group, under kernel
    // replay every group (pass i = group i). ROCPROF_COUNTERS is their counters, in order.
    bool                                  counter_collection = false;
    std::vector<std::vector<std::string>> counter_groups     = {};
    bool                                  kernel_replay      = false;
    // Set: AMD's multiplexing of counter_groups without kernel replay (one group per dispatch,
    // switching every this many dispatches of an agent).
    std::optional<uint64_t> counter_groups_interval = {};
    // PC sampling: an empty method asks for none.
    std::string pc_sampling_method   = {};
    std::string pc_sampling_unit     = {};
    uint64_t    pc_sampling_interval = 0;
    bool        pc_sampling_beta     = false; // --pc-sampling-beta-enabled
    // Nsight Compute's options (empty / false: not given).
    std::string              target_processes = {}; // application-only or all
    bool                     nvtx             = false;
    std::vector<std::string> nvtx_include     = {};
    std::vector<std::string> nvtx_exclude     = {};
    std::string              print_summary    = {}; // per-kernel, per-gpu or per-nvtx
    std::string              cache_control    = {}; // all or none

    bool operator==(const tool_request&) const = default;
};

template <typename T> struct decoded
{
    T                        value  = {};
    std::vector<std::string> errors = {}; // values that do not decode, each naming its variable
};

environment           encode(const tool_request& request);
decoded<tool_request> decode_tool_request(const getenv_fn& getenv);

// The Nsight Compute part of encode / decode_tool_request (contract/ncu_environment.cpp).
void encode_ncu(const tool_request& request, environment& env);
void decode_ncu(const getenv_fn& getenv, tool_request& request, std::vector<std::string>& errors);

// Where the tool reports to rocprofv3 (run_report.hpp): files in run_dir, else the pipe report_fd.
struct report_channel
{
    std::string        run_dir   = {}; // empty: unset
    std::optional<int> report_fd = {};

    bool operator==(const report_channel&) const = default;
};

environment    encode(const report_channel& channel);
report_channel decode_report_channel(const getenv_fn& getenv); // a malformed fd is unset

// The tool library's helper mode: the --pmc groups to check against each agent.
struct helper_request
{
    bool                                  helper_mode = false;
    std::vector<std::vector<std::string>> groups      = {};

    bool operator==(const helper_request&) const = default;
};

environment    encode(const helper_request& request);
helper_request decode_helper_request(const getenv_fn& getenv);

// The value decoders behind decode_*, shared with read_config so that both read a value the same
// way. A switch: unset or empty is off; any other value outside the accepted spellings is an
// error (it would otherwise silently turn the feature off).
bool decode_switch(const char* name, const char* value, std::vector<std::string>& errors);
// A number of dispatches: unset or empty is nothing; anything but a non-negative number an error.
std::optional<uint64_t>
decode_count(const char* name, const char* value, std::vector<std::string>& errors);
} // namespace rocprofiler::tool::contract
