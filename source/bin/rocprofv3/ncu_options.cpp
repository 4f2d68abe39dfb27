// Nsight Compute's options, as ncu spells them (docs/rocprofv3.md, "For Nsight Compute users"):
//   --cache-control all|none        flush the GPU caches before each counted pass (all) or not;
//                                   the SDK's ROCPROFILER_CUDA_CACHE_CONTROL
//   --target-processes application-only|all
//                                   profile the application's process only, or every process it
//                                   starts too (all, the default)
//   --nvtx, --nvtx-include F, --nvtx-exclude F
//                                   counters and kernel replay only for dispatches submitted inside
//                                   (or outside) marker ranges (config/nvtx_filter.hpp)
//   --print-summary per-kernel|per-gpu|per-nvtx
//                                   a summary table on stdout at the end of each profiled process
#include "command_line.hpp"

#include "config/nvtx_filter.hpp"

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace rocprofv3::cli
{
namespace
{
// A value of @p option outside @p accepted: a usage error that names the accepted values.
outcome
check_choice(const std::string&              option,
             const std::string&              value,
             const std::vector<std::string>& accepted,
             const std::string&              job)
{
    if(value.empty()) return std::nullopt;
    auto list = std::string{};
    for(const auto& a : accepted)
    {
        if(a == value) return std::nullopt;
        list += (list.empty() ? "" : ", ") + a;
    }
    return usage_error(job + option + " '" + value + "' is not accepted (accepted: " + list + ")");
}
} // namespace

void
add_ncu_options(CLI::App& app, parsed_args& args)
{
    auto& opts  = args.opts;
    auto* group = app.add_option_group("Nsight Compute's options");
    group
        ->add_option("--cache-control",
                     opts.cache_control,
                     "As ncu: 'all' flushes the GPU caches before each counted pass (the SDK's "
                     "default on CUDA), 'none' measures them as they are. The host device never "
                     "flushes CPU caches: 'all' with only the host device is exit 2")
        ->type_name("all|none");
    group
        ->add_option("--target-processes",
                     opts.target_processes,
                     "As ncu: 'application-only' profiles only the application's own process (the "
                     "processes it starts run unprofiled), 'all' (default) every process")
        ->type_name("application-only|all");
    group->add_flag("--nvtx",
                    opts.nvtx,
                    "As ncu: follow the ROCTx/NVTX ranges at each dispatch (for --nvtx-include, "
                    "--nvtx-exclude and --print-summary per-nvtx)");
    group
        ->add_option(
            "--nvtx-include",
            opts.nvtx_include,
            "Counters and kernel replay only for dispatches inside this range: 'A/' push/pop "
            "range A, 'A/B/' B inside A, 'A/*/B/' with ranges between, 'A' start/end range "
            "A, 'regex:' prefix for regular expressions (needs --nvtx; repeatable, any "
            "include matches). Other dispatches stay in the kernel trace")
        ->type_name("FILTER")
        ->expected(1)
        ->take_all();
    group
        ->add_option("--nvtx-exclude",
                     opts.nvtx_exclude,
                     "No counters and no kernel replay for dispatches inside this range (forms as "
                     "--nvtx-include; needs --nvtx; repeatable)")
        ->type_name("FILTER")
        ->expected(1)
        ->take_all();
    group
        ->add_option("--print-summary",
                     opts.print_summary,
                     "As ncu: a summary table of the dispatches on stdout at the end, per-kernel, "
                     "per-gpu (per agent) or per-nvtx (per marker range context)")
        ->type_name("per-kernel|per-gpu|per-nvtx");
}

outcome
check_ncu(options& opts, const std::string& job)
{
    if(auto stop = check_choice("--cache-control", opts.cache_control, {"all", "none"}, job))
        return stop;
    if(auto stop = check_choice(
           "--target-processes", opts.target_processes, {"application-only", "all"}, job))
        return stop;
    if(auto stop = check_choice(
           "--print-summary", opts.print_summary, {"per-kernel", "per-gpu", "per-nvtx"}, job))
        return stop;
    if(!opts.nvtx && (!opts.nvtx_include.empty() || !opts.nvtx_exclude.empty()))
        return usage_error(job + "--nvtx-include and --nvtx-exclude need --nvtx (as in ncu)");
    for(const auto* list : {&opts.nvtx_include, &opts.nvtx_exclude})
        for(const auto& text : *list)
        {
            if(text.find('\n') != std::string::npos)
                return usage_error(job + "a marker range filter cannot hold a line break");
            auto spec        = rocprofiler::tool::nvtx::filter_spec{};
            auto unsupported = false;
            if(auto why = rocprofiler::tool::nvtx::parse(text, spec, &unsupported); !why.empty())
            {
                const auto option =
                    list == &opts.nvtx_include ? "--nvtx-include " : "--nvtx-exclude ";
                if(!unsupported)
                    return usage_error(job + option + why +
                                       " (forms: 'A/', 'A/B/', 'A/*/B/', 'A', '@A/', 'regex:A/')");
                auto out      = parse_result{};
                out.exit_code = exit_configuration;
                out.error     = "rocprofv3: error: " + job + option +
                            "not supported on this device: " + why + "\n";
                return out;
            }
        }
    auto why = std::string{};
    if(!rocprofiler::tool::nvtx::range_filter::compile(opts.nvtx_include, opts.nvtx_exclude, why))
        return usage_error(job + "marker range filter " + why);
    return std::nullopt;
}
} // namespace rocprofv3::cli

namespace rocprofv3
{
std::vector<std::string>
cache_control_errors(const options& opts, const nlohmann::json& query)
{
    if(opts.cache_control != "all") return {};
    auto host = std::string{};
    for(const auto& a : query.at("agents"))
    {
        if(a.value("type", "") != "GPU") continue;
        if(a.value("name", "") != "host") return {}; // a CUDA device: the SDK flushes its L2
        host += (host.empty() ? "" : ", ") + std::to_string(a.value("logical_node_id", 0));
    }
    if(host.empty()) return {"--cache-control all: no GPU agent was found"};
    return {"--cache-control all is not supported on the host device (agent " + host +
            "): its kernels run on CPU threads, and a user process cannot flush the CPU caches "
            "between passes, so every pass measures the caches as they are; give "
            "--cache-control none, which is what the host device does"};
}
} // namespace rocprofv3
