#include "spm/spm.hpp"

#include "agent/agent.hpp"
#include "common/static_object.hpp"

#include <algorithm>
#include <map>
#include <mutex>

namespace rocprofiler::spm
{
namespace
{
struct registry
{
    std::mutex                                        mutex   = {};
    uint64_t                                          next    = 0;
    std::map<uint64_t, std::shared_ptr<const config>> configs = {};
};

registry&
get_registry()
{
    struct value_tag;
    static auto* value = &common::static_object<registry, common::reset_order::never, value_tag>::
                             get(); // leaked: configurations outlive static destructors
    return *value;
}
} // namespace

std::optional<backend::spm_offer>
offer_of(rocprofiler_agent_id_t agent)
{
    auto owner = agent::backend_of(agent);
    if(!owner) return std::nullopt;
    // An offer names the agent's counters, which a backend learns when the counter registry asks
    // it for them: the registry is built first, so that the answer does not depend on whether the
    // tool queried counters before SPM (on a CUDA agent it did: no offer when SPM came first).
    counters::counters_of(agent);
    auto offer = owner->first->spm_offer_of(owner->second);
    if(offer && (offer->counters.empty() || offer->min_interval == 0 ||
                 offer->min_interval > offer->max_interval))
        return std::nullopt;
    return offer;
}

std::vector<const counters::counter_definition*>
sampled_counters(rocprofiler_agent_id_t agent)
{
    auto        out   = std::vector<const counters::counter_definition*>{};
    auto        offer = offer_of(agent);
    const auto* all   = counters::counters_of(agent);
    if(!offer || all == nullptr) return out;
    for(const auto* def : *all)
        if(!def->derived &&
           std::find(offer->counters.begin(), offer->counters.end(), def->spec.name) !=
               offer->counters.end())
            out.push_back(def);
    return out;
}

rocprofiler_status_t
create_config(rocprofiler_agent_id_t                     agent,
              const rocprofiler_counter_id_t*            ids,
              size_t                                     count,
              const rocprofiler_spm_parameters_t* const* parameters,
              size_t                                     parameter_count,
              rocprofiler_counter_config_id_t*           out)
{
    auto offer = offer_of(agent);
    if(!offer) return ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED;
    if(count == 0) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    const auto sampled = sampled_counters(agent);
    auto       cfg     = std::make_shared<config>();
    cfg->agent         = agent;
    cfg->interval      = offer->min_interval;
    for(size_t i = 0; i < count; ++i)
    {
        auto it = std::find_if(sampled.begin(),
                               sampled.end(),
                               [&](const auto* def) { return def->id.handle == ids[i].handle; });
        if(it == sampled.end()) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(std::find(cfg->counters.begin(), cfg->counters.end(), *it) == cfg->counters.end())
            cfg->counters.push_back(*it);
    }
    for(size_t i = 0; i < parameter_count; ++i)
    {
        const auto& p = *parameters[i];
        if(p.type != ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES ||
           p.value < offer->min_interval || p.value > offer->max_interval)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        cfg->interval = p.value;
    }
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    cfg->id    = rocprofiler_counter_config_id_t{config_tag | ++reg.next};
    *out       = cfg->id;
    reg.configs.emplace(cfg->id.handle, std::move(cfg));
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
destroy_config(rocprofiler_counter_config_id_t id)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    return reg.configs.erase(id.handle) == 1 ? ROCPROFILER_STATUS_SUCCESS
                                             : ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND;
}

std::shared_ptr<const config>
get_config(rocprofiler_counter_config_id_t id)
{
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.mutex};
    auto  it   = reg.configs.find(id.handle);
    return it != reg.configs.end() ? it->second : nullptr;
}
} // namespace rocprofiler::spm
