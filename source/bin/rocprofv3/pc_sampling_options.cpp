// --pc-sampling-beta-enabled, --pc-sampling-method, --pc-sampling-unit, --pc-sampling-interval:
// AMD's rocprofv3 spellings and rules. Whether an agent offers the configuration is checked
// before the application runs (main.cpp, through the tool library's helper mode).
#include "command_line.hpp"

#include "config/parse.hpp"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>

namespace rocprofv3::cli
{
namespace
{
std::string
lower(std::string text)
{
    std::transform(text.begin(), text.end(), text.begin(), ::tolower);
    return text;
}
} // namespace

void
add_pc_sampling_options(CLI::App& app, parsed_args& args)
{
    auto& opts = args.opts;
    app.add_flag("--pc-sampling-beta-enabled",
                 opts.pc_sampling_beta,
                 "Acknowledge that PC sampling is a beta feature (required by the other "
                 "--pc-sampling-* options, unless ROCPROFILER_PC_SAMPLING_BETA_ENABLED is set)");
    app.add_option("--pc-sampling-method",
                   opts.pc_sampling_method,
                   "PC sampling method: host_trap or stochastic (what each agent offers: "
                   "docs/pc_sampling.md; <prefix>_pc_sampling_<method>.csv)")
        ->type_name("METHOD");
    app.add_option("--pc-sampling-unit",
                   opts.pc_sampling_unit,
                   "Unit of --pc-sampling-interval: instructions, cycles or time (ns)")
        ->type_name("UNIT");
    app.add_option("--pc-sampling-interval",
                   opts.pc_sampling_interval,
                   "Interval between samples, a positive number in --pc-sampling-unit")
        ->type_name("N");
}

outcome
check_pc_sampling(options& opts, const std::string& job)
{
    opts.pc_sampling_method = lower(opts.pc_sampling_method);
    opts.pc_sampling_unit   = lower(opts.pc_sampling_unit);
    const auto& method      = opts.pc_sampling_method;
    const auto& unit        = opts.pc_sampling_unit;
    const auto& interval    = opts.pc_sampling_interval;
    if(method.empty() && unit.empty() && interval.empty()) return std::nullopt;
    if(!method.empty() && method != "host_trap" && method != "stochastic")
        return usage_error(job + "--pc-sampling-method '" + method +
                           "' is not a PC sampling method (accepted: host_trap, stochastic)");
    if(!unit.empty() && unit != "instructions" && unit != "cycles" && unit != "time")
        return usage_error(job + "--pc-sampling-unit '" + unit +
                           "' is not a PC sampling unit (accepted: instructions, cycles, time)");
    if(!opts.pc_sampling_beta && std::getenv("ROCPROFILER_PC_SAMPLING_BETA_ENABLED") == nullptr)
        return usage_error(job + "PC sampling is a beta feature: give --pc-sampling-beta-enabled "
                                 "(or set ROCPROFILER_PC_SAMPLING_BETA_ENABLED) with the "
                                 "--pc-sampling-* options");
    if(method.empty() || unit.empty() || interval.empty())
        return usage_error(job + "PC sampling needs all three of --pc-sampling-method, "
                                 "--pc-sampling-unit and --pc-sampling-interval");
    auto value = rocprofiler::tool::parse::parse_count(interval);
    if(!value || *value == 0)
        return usage_error(job + "--pc-sampling-interval '" + interval +
                           "' is not a positive number");
    return std::nullopt;
}
} // namespace rocprofv3::cli

namespace rocprofv3
{
namespace
{
bool
offers(const nlohmann::json& c, const options& opts, uint64_t interval)
{
    if(c.value("method", "") != opts.pc_sampling_method ||
       c.value("unit", "") != opts.pc_sampling_unit)
        return false;
    if(interval < c.value("min_interval", uint64_t{0}) ||
       interval > c.value("max_interval", uint64_t{0}))
        return false;
    return !c.value("powers_of_two", false) || (interval & (interval - 1)) == 0;
}
} // namespace

std::string
describe_pc_sampling_offer(const nlohmann::json& c)
{
    return c.value("method", "") + " in " + c.value("unit", "") + " from " +
           std::to_string(c.value("min_interval", uint64_t{0})) + " to " +
           std::to_string(c.value("max_interval", uint64_t{0})) +
           (c.value("powers_of_two", false) ? " (powers of 2)" : "");
}

std::vector<std::string>
pc_sampling_offer_errors(const options& opts, const nlohmann::json& query)
{
    if(opts.pc_sampling_method.empty()) return {};
    const auto interval = std::stoull(opts.pc_sampling_interval);
    auto       offered  = std::string{};
    for(const auto& a : query.at("agents"))
    {
        if(a.value("type", "") != "GPU") continue;
        auto what = std::string{};
        if(a.contains("pc_sampling_error"))
            what = "cannot be asked (" + a.at("pc_sampling_error").get<std::string>() + ")";
        for(const auto& c : a.value("pc_sampling", nlohmann::json::array()))
        {
            if(offers(c, opts, interval)) return {};
            what += (what.empty() ? "offers " : ", ") + describe_pc_sampling_offer(c);
        }
        offered += "; agent " + std::to_string(a.value("logical_node_id", 0)) + " (" +
                   a.value("name", "") + ") " + (what.empty() ? "offers no PC sampling" : what);
    }
    if(offered.empty()) offered = "; no agent was found";
    return {"PC sampling " + opts.pc_sampling_method + " in " + opts.pc_sampling_unit +
            " with interval " + opts.pc_sampling_interval + " is not supported on any agent" +
            offered};
}
} // namespace rocprofv3
