#include "cuda/sampling/pm_sampling_offer.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "common/time.hpp"
#include "cuda/counters/metric_registry.hpp"
#include "cuda/counters/profiler_host.hpp"
#include "cuda/sampling/pm_sampling_session.hpp"

#include <map>
#include <mutex>
#include <set>
#include <string>
#include <utility>

namespace rocprofiler::cuda::pm_sampling
{
namespace
{
// The counter names each device offers, and the lock that guards them: a fact of the process.
struct offered_names
{
    std::mutex                                   mutex  = {};
    std::map<uint32_t, std::vector<std::string>> by_dev = {};
};

offered_names&
offered()
{
    return common::static_object<offered_names, common::reset_order::never>::get();
}

// The base metrics CUPTI's profiler host lists for PM sampling on `chip`.
std::set<std::string>
pm_base_metrics(const std::string& chip)
{
    auto out = std::set<std::string>{};
    if(!profiler_table().error.empty()) return out;
    auto lock  = std::lock_guard{metrics::host_api_mutex()};
    auto error = std::string{};
    auto host  = metrics::host_object{chip, nullptr, error, CUPTI_PROFILER_TYPE_PM_SAMPLING};
    if(!error.empty())
    {
        common::log::warn_once("cuda-pm-sampling-host", "cuda: no SPM: " + error);
        return out;
    }
    for(auto type :
        {CUPTI_METRIC_TYPE_COUNTER, CUPTI_METRIC_TYPE_RATIO, CUPTI_METRIC_TYPE_THROUGHPUT})
    {
        auto base = CUpti_Profiler_Host_GetBaseMetrics_Params{
            CUpti_Profiler_Host_GetBaseMetrics_Params_STRUCT_SIZE};
        base.pHostObject = host.get();
        base.metricType  = type;
        if(profiler_table().cuptiProfilerHostGetBaseMetrics(&base) != CUPTI_SUCCESS) continue;
        for(size_t i = 0; i < base.numMetrics; ++i)
            out.emplace(base.ppMetricNames[i]);
    }
    return out;
}

std::string
base_of(const std::string& name)
{
    return name.substr(0, name.find('.'));
}

std::optional<backend::spm_offer> compute_offer(uint32_t ordinal);
} // namespace

void
remember_counters(uint32_t ordinal, std::vector<std::string> names)
{
    auto lock                 = std::lock_guard{offered().mutex};
    offered().by_dev[ordinal] = std::move(names);
}

std::optional<backend::spm_offer>
offer_of(uint32_t ordinal)
{
    if(table() == nullptr)
    {
        common::log::warn_once("cuda-pm-sampling-table",
                               "cuda: no SPM: this libcupti has no PM sampling API");
        return std::nullopt;
    }
    // Asked on every query: the answer of a device is kept once known.
    struct known_offers
    {
        std::mutex                                            mutex  = {};
        std::map<uint32_t, std::optional<backend::spm_offer>> offers = {};
    };
    auto& known = common::static_object<known_offers, common::reset_order::never>::get();
    {
        auto lock = std::lock_guard{known.mutex};
        if(auto it = known.offers.find(ordinal); it != known.offers.end()) return it->second;
    }
    auto offer = compute_offer(ordinal);
    auto lock  = std::lock_guard{known.mutex};
    return known.offers.emplace(ordinal, std::move(offer)).first->second;
}

namespace
{
std::optional<backend::spm_offer>
compute_offer(uint32_t ordinal)
{
    auto names = std::vector<std::string>{};
    {
        auto lock = std::lock_guard{offered().mutex};
        if(auto it = offered().by_dev.find(ordinal); it != offered().by_dev.end())
            names = it->second;
    }
    const auto device = "cuda: device " + std::to_string(ordinal) + " offers no SPM: ";
    if(names.empty())
    {
        common::log::warn_once("cuda-pm-sampling-names", device + "its counters are not known");
        return std::nullopt;
    }
    auto       error = std::string{};
    const auto chip  = metrics::chip_name(ordinal, error);
    if(chip.empty())
    {
        common::log::warn_once("cuda-pm-sampling-chip", device + "no chip name: " + error);
        return std::nullopt;
    }
    const auto bases   = pm_base_metrics(chip);
    auto       offer   = backend::spm_offer{};
    offer.min_interval = min_interval_cycles;
    offer.max_interval = max_interval_cycles;
    for(const auto& name : names)
        if(bases.count(base_of(name)) != 0) offer.counters.push_back(name);
    if(offer.counters.empty())
    {
        common::log::warn_once("cuda-pm-sampling-none",
                               device + "none of its " + std::to_string(names.size()) +
                                   " counters is one that PM sampling takes on " + chip + " (" +
                                   std::to_string(bases.size()) + " base metrics listed)");
        return std::nullopt;
    }
    return offer;
}
} // namespace

int
sample_execution(uint32_t                     ordinal,
                 const dispatch::spm_request& request,
                 const std::function<int()>&  launch,
                 const std::function<void()>& wait)
{
    auto fail = [&](std::string why)
    {
        auto batch  = dispatch::spm_sample_batch{};
        batch.error = std::move(why);
        if(request.deliver) request.deliver(batch);
        return launch();
    };
    const auto* t = table();
    if(t == nullptr) return fail("this CUPTI has no PM sampling API");
    auto metrics = std::vector<std::string>{};
    {
        auto  lock  = std::lock_guard{offered().mutex};
        auto& names = offered().by_dev[ordinal];
        for(auto index : request.counters)
        {
            if(index >= names.size()) break;
            metrics.push_back(names[index]);
        }
    }
    if(metrics.size() != request.counters.size() || metrics.empty())
        return fail("SPM counters unknown on this device");

    // PM sampling is part of CUPTI's profiler: its target side is initialized first.
    if(const auto& why = metrics::target_initialized(); !why.empty()) return fail(why);
    auto       error = std::string{};
    const auto chip  = metrics::chip_name(ordinal, error);
    if(chip.empty()) return fail(error);
    // The host object evaluates the samples, so it lives until they are read; CUPTI's host
    // objects are used under host_api_mutex().
    auto lock  = std::unique_lock{metrics::host_api_mutex()};
    auto host  = metrics::host_object{chip, nullptr, error, CUPTI_PROFILER_TYPE_PM_SAMPLING};
    auto image = error.empty() ? host.config_image(metrics::c_names(metrics), error)
                               : std::vector<uint8_t>{};
    lock.unlock();
    if(!error.empty()) return fail(error);

    auto session =
        pm_sampling::session{*t, ordinal, std::move(image), metrics, host.get(), request.interval};
    session.start(common::timestamp_ns());
    const auto result = launch();
    if(result == 0) wait();
    lock.lock();
    auto batch = session.finish(common::timestamp_ns());
    lock.unlock();
    if(request.deliver) request.deliver(batch);
    lock.lock(); // the host object is destroyed under the lock
    return result;
}
} // namespace rocprofiler::cuda::pm_sampling
