// What each run asks of the tool library, through the environment contract
// (contract/environment.hpp).
#include "options.hpp"

namespace rocprofv3
{
rocprofiler::tool::contract::tool_request
tool_request(const options& opts, size_t pass)
{
    auto r             = rocprofiler::tool::contract::tool_request{};
    r.output_path      = run_directory(opts, pass);
    r.output_file_name = opts.output_file;
    // check_output_formats() has put the default (rocpd) in when none was given.
    r.output_formats =
        opts.output_formats.empty() ? std::vector<std::string>{"rocpd"} : opts.output_formats;
    r.kernel_trace       = opts.kernel_trace;
    r.memory_copy_trace  = opts.memory_copy_trace;
    r.marker_trace       = opts.marker_trace;
    r.cuda_runtime_trace = opts.cuda_runtime_trace;
    r.cuda_driver_trace  = opts.cuda_driver_trace;
    r.agent_index        = opts.agent_index;
    r.selected_regions   = opts.selected_regions;
    r.stats              = opts.stats;
    // -D and --summary-groups print a summary without -S, as AMD's.
    r.summary            = opts.summary || opts.summary_per_domain || !opts.summary_groups.empty();
    r.summary_per_domain = opts.summary_per_domain;
    r.summary_groups     = opts.summary_groups;
    r.summary_output     = opts.summary_output;
    r.summary_units      = opts.summary_units;
    r.include_regex      = opts.include_regex;
    r.exclude_regex      = opts.exclude_regex;
    r.iteration_range    = opts.iteration_range;
    r.dispatch_skip      = opts.dispatch_skip;
    r.dispatch_count     = opts.dispatch_count;
    r.filter_trace       = opts.filter_trace;
    r.demangle_kernels   = !opts.mangled_kernels;
    r.truncate_kernels   = opts.truncate_kernels;
    r.output_config      = opts.output_config;
    r.progress           = opts.progress;
    r.cache_control      = opts.cache_control;
    r.target_processes   = opts.target_processes;
    r.nvtx               = opts.nvtx;
    r.nvtx_include       = opts.nvtx_include;
    r.nvtx_exclude       = opts.nvtx_exclude;
    r.print_summary      = opts.print_summary;
    if(!opts.pc_sampling_method.empty())
    {
        r.pc_sampling_method   = opts.pc_sampling_method;
        r.pc_sampling_unit     = opts.pc_sampling_unit;
        r.pc_sampling_interval = std::stoull(opts.pc_sampling_interval);
        r.pc_sampling_beta     = opts.pc_sampling_beta;
    }
    // As upstream, for the SDK, the tool and ROCTx. The SDK's least severe level is "error", so
    // "fatal" asks for that; env and config only print rocprofv3's own (main.cpp).
    if(!opts.log_level.empty() && opts.log_level != "env" && opts.log_level != "config")
        r.log_level = opts.log_level == "fatal" ? std::string{"error"} : opts.log_level;
    if(!opts.pmc_groups.empty())
    {
        r.counter_collection = true;
        r.counter_groups     = opts.pmc_groups;
        // Multiplexing: every group in the one run, and the interval that asks for it.
        r.counter_groups_interval = opts.pmc_group_interval;
        if(!opts.kernel_replay() && !opts.multiplexed() && pass > 0)
            r.counter_groups = {opts.pmc_groups.at(pass - 1)};
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
