#include "config.hpp"

#include <algorithm>

namespace rocprofiler::tool
{
std::vector<std::vector<std::string>>
config::collected_groups() const
{
    if(kernel_replay) return counter_groups;
    if(counters.empty()) return {};
    return {counters};
}

config_result
read_config(const std::function<const char*(const char*)>& getenv)
{
    auto  result = config_result{};
    auto& cfg    = result.cfg;
    auto  get    = [&getenv](const char* name) -> std::string
    {
        const auto* value = getenv(name);
        return value != nullptr ? std::string{value} : std::string{};
    };

    cfg.kernel_trace       = parse::parse_bool(getenv("ROCPROF_KERNEL_TRACE"));
    cfg.counter_collection = parse::parse_bool(getenv("ROCPROF_COUNTER_COLLECTION"));
    cfg.kernel_replay      = parse::parse_bool(getenv("ROCPROF_KERNEL_REPLAY"));
    cfg.stats              = parse::parse_bool(getenv("ROCPROF_STATS"));
    cfg.summary            = parse::parse_bool(getenv("ROCPROF_SUMMARY"));
    cfg.counters           = parse::parse_counter_list(get("ROCPROF_COUNTERS"));
    cfg.counter_groups     = parse::decode_counter_groups(get("ROCPROF_COUNTER_GROUPS"));

    if(cfg.kernel_replay && cfg.counter_groups.empty() && !cfg.counters.empty())
        cfg.counter_groups = {cfg.counters};
    if(cfg.counter_collection && cfg.collected_groups().empty())
        result.errors.emplace_back("ROCPROF_COUNTER_COLLECTION is set but ROCPROF_COUNTERS / "
                                   "ROCPROF_COUNTER_GROUPS name no counter");
    if(cfg.kernel_replay && !cfg.counter_collection)
        result.errors.emplace_back(
            "ROCPROF_KERNEL_REPLAY=1 needs counter collection (ROCPROF_COUNTER_COLLECTION=1 and "
            "ROCPROF_COUNTER_GROUPS); rocprofv3 replays kernels only to collect counter groups");

    if(auto path = get("ROCPROF_OUTPUT_PATH"); !path.empty()) cfg.output_path = path;
    cfg.output_file_name = get("ROCPROF_OUTPUT_FILE_NAME");
    if(cfg.output_file_name.find('/') != std::string::npos)
        result.errors.emplace_back("ROCPROF_OUTPUT_FILE_NAME '" + cfg.output_file_name +
                                   "' must be a file name prefix, not a path");

    if(auto formats = get("ROCPROF_OUTPUT_FORMAT"); !formats.empty())
    {
        cfg.csv  = false;
        cfg.json = false;
        for(auto format : parse::parse_counter_list(formats))
        {
            std::transform(format.begin(), format.end(), format.begin(), ::tolower);
            if(format == "csv")
                cfg.csv = true;
            else if(format == "json")
                cfg.json = true;
            else
                result.errors.emplace_back("ROCPROF_OUTPUT_FORMAT: format '" + format +
                                           "' is not supported (supported: csv, json)");
        }
    }

    auto compile =
        [&result](const char* variable, const std::string& text, std::optional<std::regex>& out)
    {
        if(text.empty()) return;
        auto why = std::string{};
        if(!parse::validate_regex(text, &why))
        {
            result.errors.emplace_back(std::string{variable} + ": '" + text +
                                       "' is not a valid regular expression: " + why);
            return;
        }
        out = std::regex{text, std::regex::ECMAScript | std::regex::optimize};
    };
    cfg.include_regex_text = get("ROCPROF_KERNEL_FILTER_INCLUDE_REGEX");
    cfg.exclude_regex_text = get("ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX");
    compile("ROCPROF_KERNEL_FILTER_INCLUDE_REGEX", cfg.include_regex_text, cfg.include_regex);
    compile("ROCPROF_KERNEL_FILTER_EXCLUDE_REGEX", cfg.exclude_regex_text, cfg.exclude_regex);

    if(auto range = get("ROCPROF_KERNEL_FILTER_RANGE"); !range.empty())
    {
        auto why    = std::string{};
        auto parsed = parse::parse_iteration_range(range, &why);
        if(parsed)
            cfg.iteration_range = std::move(*parsed);
        else
            result.errors.emplace_back("ROCPROF_KERNEL_FILTER_RANGE: " + why);
    }
    return result;
}
} // namespace rocprofiler::tool
