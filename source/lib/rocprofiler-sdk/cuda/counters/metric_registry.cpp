#include "cuda/counters/metric_registry.hpp"

#include "common/logging.hpp"
#include "cuda/counters/profiler_host.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "untrusted/regex_pattern.hpp"

#include <map>
#include <memory>
#include <regex>

namespace rocprofiler::cuda::metrics
{
namespace
{
// The roll-ups listed per metric type (CUPTI knows more sub-metrics; these are the ones whose
// value is a property of the dispatch: totals, averages and extremes over the hardware units,
// ratios, and throughputs as a share of the peak). A counter's average as a share of its peak is
// listed too: Nsight Compute's achieved occupancy is
// sm__warps_active.avg.pct_of_peak_sustained_active.
const std::vector<std::pair<std::string_view, std::string_view>>&
rollups(CUpti_MetricType type)
{
    static const auto counter = std::vector<std::pair<std::string_view, std::string_view>>{
        {".sum", "sum over all units"},
        {".avg", "average over the units"},
        {".min", "minimum over the units"},
        {".max", "maximum over the units"},
        {".avg.pct_of_peak_sustained_elapsed", "average over the units, % of peak over elapsed"},
        {".avg.pct_of_peak_sustained_active", "average over the units, % of peak while active"}};
    static const auto ratio = std::vector<std::pair<std::string_view, std::string_view>>{
        {".ratio", "ratio"}, {".pct", "percent"}, {".max_rate", "maximum rate"}};
    static const auto throughput = std::vector<std::pair<std::string_view, std::string_view>>{
        {".avg.pct_of_peak_sustained_elapsed", "average over the units, % of peak over elapsed"},
        {".max.pct_of_peak_sustained_elapsed", "maximum over the units, % of peak over elapsed"},
        {".avg.pct_of_peak_sustained_active", "average over the units, % of peak while active"},
        {".max.pct_of_peak_sustained_active", "maximum over the units, % of peak while active"}};
    switch(type)
    {
    case CUPTI_METRIC_TYPE_COUNTER:
        return counter;
    case CUPTI_METRIC_TYPE_RATIO:
        return ratio;
    default:
        return throughput;
    }
}

std::optional<std::regex>
metric_filter(uint32_t ordinal)
{
    const auto variable = settings::metric_filter_variable(ordinal);
    const auto text     = settings::read_metric_filter(ordinal);
    if(!text) return std::nullopt;
    if(auto refusal = untrusted::std_regex_refusal(*text); !refusal.empty())
    {
        ROCP_LOG(warning) << "cuda: " << variable << "='" << *text << "' is not accepted ("
                          << refusal << "); every metric of device " << ordinal << " is listed";
        return std::nullopt;
    }
    try
    {
        return std::regex{*text, std::regex::ECMAScript};
    }
    catch(const std::regex_error& e)
    {
        ROCP_LOG(warning) << "cuda: " << variable << "='" << *text
                          << "' is not a valid regular expression (" << e.what()
                          << "); every metric of device " << ordinal << " is listed";
        return std::nullopt;
    }
}
} // namespace

std::vector<counters::counter_spec>
chip_metrics(std::string_view chip)
{
    auto out = std::vector<counters::counter_spec>{};
    if(!profiler_table().error.empty()) return out;
    auto lock  = std::lock_guard{host_api_mutex()};
    auto error = std::string{};
    auto host  = host_object{chip, nullptr, error};
    if(!error.empty())
    {
        ROCP_LOG(warning) << "cuda: " << error;
        return out;
    }
    const auto& t = profiler_table();
    // Whether the counters of a hardware unit have a peak CUPTI can program (GH100's chip-to-chip
    // counters, ctc__*, have none: their pct_of_peak roll-ups are refused): asked once per unit,
    // with the unit's first counter, on a host object of its own.
    auto       peak_by_unit = std::map<std::string, bool>{};
    const auto has_peak     = [&](const std::string& unit, const std::string& metric)
    {
        auto [it, fresh] = peak_by_unit.emplace(unit.empty() ? metric : unit, false);
        if(fresh)
        {
            auto why   = std::string{};
            auto probe = host_object{chip, nullptr, why};
            auto name  = metric + ".avg.pct_of_peak_sustained_elapsed";
            if(why.empty()) probe.config_image({name.c_str()}, why);
            it->second = why.empty();
        }
        return it->second;
    };
    for(auto type :
        {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT})
    {
        auto base = CUpti_Profiler_Host_GetBaseMetrics_Params{
            CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        base.pHostObject = host.get();
        base.metricType  = type;
        if(t.cuptiProfilerHostGetBaseMetrics(&base) != CUPTI_SUCCESS) continue;
        for(size_t i = 0; i < base.numMetrics; ++i)
        {
            const auto name = std::string{base.ppMetricNames[i]};
            // Names with a dot are CUPTI's internal triage metrics, not collectable by name.
            if(name.find('.') != std::string::npos) continue;
            auto props = CUpti_Profiler_Host_GetMetricProperties_Params{
                CUpti_Profiler_Host_GetMetricProperties_Params_STRUCT_SIZE};
            props.pHostObject    = host.get();
            props.pMetricName    = name.c_str();
            auto       described = t.cuptiProfilerHostGetMetricProperties(&props) == CUPTI_SUCCESS;
            const auto unit      = std::string{described && props.pHwUnit ? props.pHwUnit : ""};
            for(const auto& [suffix, meaning] : rollups(type))
            {
                if(type == CUPTI_METRIC_TYPE_COUNTER &&
                   suffix.find("pct_of_peak") != std::string_view::npos && !has_peak(unit, name))
                    continue;
                auto spec = counters::counter_spec{};
                spec.name = name + std::string{suffix};
                spec.description =
                    std::string{described && props.pDescription ? props.pDescription : name} +
                    " (" + std::string{meaning} + ")";
                spec.block      = unit;
                spec.is_derived = type != CUPTI_METRIC_TYPE_COUNTER;
                // A counter's total and its average over the units are linear in the events, so
                // they add up over executions (device counting sums them); extremes, shares of a
                // peak, ratios and throughputs do not.
                spec.additive =
                    type == CUPTI_METRIC_TYPE_COUNTER &&
                    (suffix == std::string_view{".sum"} || suffix == std::string_view{".avg"});
                out.emplace_back(std::move(spec));
            }
        }
    }
    return out;
}

uint32_t
pass_count(std::string_view chip, const std::vector<std::string>& names, std::string* error)
{
    auto why = std::string{};
    if(const auto& t = profiler_table(); !t.error.empty()) why = t.error;
    auto passes = uint32_t{0};
    if(why.empty())
    {
        auto lock  = std::lock_guard{host_api_mutex()};
        auto host  = host_object{chip, nullptr, why};
        auto image = why.empty() ? host.config_image(c_names(names), why) : std::vector<uint8_t>{};
        if(why.empty()) passes = passes_of(image, why);
    }
    if(error != nullptr) *error = why;
    return why.empty() ? passes : 0;
}

std::vector<counters::counter_spec>
filter_for_device(std::vector<counters::counter_spec> metrics, uint32_t ordinal)
{
    const auto filter = metric_filter(ordinal);
    if(!filter) return metrics;
    auto kept = std::vector<counters::counter_spec>{};
    for(auto& spec : metrics)
        if(std::regex_search(spec.name, *filter)) kept.emplace_back(std::move(spec));
    return kept;
}

std::optional<counters::agent_counters>
agent_counters(uint32_t ordinal)
{
    if(const auto& t = profiler_table(); !t.error.empty())
    {
        common::log::warn_once("cuda-metrics-table", "cuda: no hardware counters: " + t.error);
        return std::nullopt;
    }
    auto error = std::string{};
    auto chip  = chip_name(ordinal, error);
    if(chip.empty())
    {
        common::log::warn_once("cuda-metrics-chip", "cuda: no hardware counters: " + error);
        return std::nullopt;
    }
    auto result     = counters::agent_counters{};
    result.counters = filter_for_device(chip_metrics(chip), ordinal);
    if(result.counters.empty())
    {
        ROCP_LOG(warning) << "cuda: device " << ordinal << " (" << chip
                          << ") lists no metrics; it has no counters";
        return std::nullopt;
    }
    // Every execution asked for counters is measured with its completion: one-pass
    // configurations in a batch whose completion waits for the decode (counter_batch.hpp), or by
    // itself. Only replayed executions of several-pass configurations defer their values, and
    // device counting refuses those configurations.
    result.counts_every_execution = true;
    auto names                    = std::make_shared<std::vector<std::string>>();
    for(const auto& spec : result.counters)
        names->emplace_back(spec.name);
    result.passes_of = [chip, names](const std::vector<uint32_t>& indices, uint32_t& passes)
    {
        auto selected = std::vector<std::string>{};
        for(auto index : indices)
            selected.emplace_back(names->at(index));
        auto why = std::string{};
        passes   = pass_count(chip, selected, &why);
        if(passes >= 1) return ROCPROFILER_STATUS_SUCCESS;
        ROCP_LOG(warning) << "cuda: counter configuration rejected: " << why;
        return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    };
    ROCP_LOG(info) << "cuda: device " << ordinal << " (" << chip << "): " << result.counters.size()
                   << " metrics";
    return result;
}
} // namespace rocprofiler::cuda::metrics
