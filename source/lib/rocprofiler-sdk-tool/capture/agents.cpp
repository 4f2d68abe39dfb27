#include "capture/agents.hpp"
#include "log.hpp"

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <utility>

namespace rocprofiler::tool
{
namespace
{
std::string
copy(const char* text)
{
    return text != nullptr ? std::string{text} : std::string{};
}
} // namespace

bool
check_status(rocprofiler_status_t status, const char* call)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return true;
    log::info(std::string{call} + " failed: " + rocprofiler_get_status_name(status) + " (" +
              rocprofiler_get_status_string(status) + ")");
    return false;
}

std::optional<size_t>
counters_per_pass(rocprofiler_agent_id_t agent, const std::vector<counter_entry>& counters)
{
    // Base counters only: a derived metric measures the base counters it uses, so groups of
    // derived metrics that share them fit where as many base counters would not.
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    for(const auto& c : counters)
        if(c.agent.handle == agent.handle && !c.is_derived)
            ids.push_back(rocprofiler_counter_id_t{c.id});
    // Whether ids[first, first + k) fit in one pass: SUCCESS, EXCEEDS_HW_LIMIT (also for a
    // configuration the agent accepts in several passes) or the error.
    auto probe = [&ids, agent](size_t first, size_t k)
    {
        auto rc     = ROCPROFILER_STATUS_SUCCESS;
        auto passes = passes_needed(
            agent,
            std::vector<rocprofiler_counter_id_t>(ids.begin() + first, ids.begin() + first + k),
            &rc);
        if(passes && *passes > 1) return ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
        return rc;
    };
    const auto probed = std::min(ids.size(), max_probed_counters);
    for(size_t k = 1; k <= probed; ++k)
    {
        auto rc = probe(0, k);
        if(rc == ROCPROFILER_STATUS_SUCCESS) continue;
        if(rc != ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT || k == 1) return std::nullopt;
        // A fixed number holds for any counters: the last k must not fit either, the last k - 1
        // must. Agents that schedule each set themselves fail this and get no number.
        const auto last = ids.size() - k;
        if(probe(last, k) != ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT ||
           probe(last + 1, k - 1) != ROCPROFILER_STATUS_SUCCESS)
            return std::nullopt;
        return k - 1;
    }
    return std::nullopt;
}

std::vector<agent_entry>
query_agents(std::vector<counter_entry>& counters, std::vector<std::string>& errors)
{
    auto agents = std::vector<agent_entry>{};
    auto status = rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** list, size_t n, void* data)
        {
            auto* out = static_cast<std::vector<agent_entry>*>(data);
            for(size_t i = 0; i < n; ++i)
            {
                const auto* agent  = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
                auto        entry  = agent_entry{};
                entry.info         = *agent;
                entry.name         = copy(agent->name);
                entry.vendor_name  = copy(agent->vendor_name);
                entry.product_name = copy(agent->product_name);
                entry.model_name   = copy(agent->model_name);
                // The copied struct must not keep the SDK's pointers.
                entry.info.name = entry.info.vendor_name = entry.info.product_name =
                    entry.info.model_name                = nullptr;
                out->emplace_back(std::move(entry));
            }
            return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t),
        &agents);
    if(status != ROCPROFILER_STATUS_SUCCESS)
    {
        errors.emplace_back(std::string{"rocprofiler_query_available_agents failed: "} +
                            rocprofiler_get_status_name(status));
        return agents;
    }

    for(auto& agent : agents)
    {
        if(agent.info.type != ROCPROFILER_AGENT_TYPE_GPU) continue;
        auto ids = std::vector<rocprofiler_counter_id_t>{};
        auto rc  = rocprofiler_iterate_agent_supported_counters(
            agent.info.id,
            [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t n, void* data)
            {
                auto* out = static_cast<std::vector<rocprofiler_counter_id_t>*>(data);
                out->insert(out->end(), list, list + n);
                return ROCPROFILER_STATUS_SUCCESS;
            },
            &ids);
        if(rc != ROCPROFILER_STATUS_SUCCESS)
        {
            agent.counters_error = rocprofiler_get_status_name(rc);
            continue;
        }
        for(auto id : ids)
        {
            auto info = rocprofiler_counter_info_v0_t{};
            auto qs = rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info);
            if(qs != ROCPROFILER_STATUS_SUCCESS)
            {
                errors.emplace_back("rocprofiler_query_counter_info(" + std::to_string(id.handle) +
                                    ") failed: " + rocprofiler_get_status_name(qs));
                continue;
            }
            auto entry        = counter_entry{};
            entry.id          = id.handle;
            entry.agent       = agent.info.id;
            entry.name        = copy(info.name);
            entry.description = copy(info.description);
            entry.block       = copy(info.block);
            entry.expression  = copy(info.expression);
            entry.is_constant = info.is_constant != 0;
            entry.is_derived  = info.is_derived != 0;
            counters.emplace_back(std::move(entry));
        }
    }
    return agents;
}
std::optional<uint64_t>
passes_needed(rocprofiler_agent_id_t                       agent,
              const std::vector<rocprofiler_counter_id_t>& ids,
              rocprofiler_status_t*                        status)
{
    auto cfg = rocprofiler_counter_config_id_t{};
    auto rc  = rocprofiler_create_counter_config(
        agent, const_cast<rocprofiler_counter_id_t*>(ids.data()), ids.size(), &cfg);
    if(status != nullptr) *status = rc;
    if(rc != ROCPROFILER_STATUS_SUCCESS) return std::nullopt;
    auto passes = uint64_t{0};
    rc          = rocprofiler_query_counter_config_pass_count(cfg, &passes);
    rocprofiler_destroy_counter_config(cfg);
    if(status != nullptr) *status = rc;
    if(rc != ROCPROFILER_STATUS_SUCCESS) return std::nullopt;
    return passes;
}

std::optional<pass_split>
split_into_passes(rocprofiler_agent_id_t                       agent,
                  const std::vector<rocprofiler_counter_id_t>& ids,
                  std::vector<size_t>*                         impossible)
{
    auto fits = [agent](const std::vector<rocprofiler_counter_id_t>& set)
    {
        auto passes = passes_needed(agent, set);
        return passes && *passes == 1;
    };
    auto out       = pass_split{};
    auto group_ids = std::vector<std::vector<rocprofiler_counter_id_t>>{};
    auto failed    = std::vector<size_t>{};
    for(size_t i = 0; i < ids.size(); ++i)
    {
        auto placed = false;
        for(size_t g = 0; g < out.groups.size() && !placed; ++g)
        {
            auto candidate = group_ids[g];
            candidate.push_back(ids[i]);
            if(!fits(candidate)) continue;
            out.groups[g].push_back(i);
            group_ids[g] = std::move(candidate);
            placed       = true;
        }
        if(placed) continue;
        auto alone = passes_needed(agent, {ids[i]});
        if(!alone)
            failed.push_back(i);
        else if(*alone > 1)
            out.multi_pass.emplace_back(i, *alone);
        else
        {
            out.groups.push_back({i});
            group_ids.push_back({ids[i]});
        }
    }
    for(const auto& [index, passes] : out.multi_pass)
        out.groups.push_back({index});
    if(impossible != nullptr) *impossible = failed;
    if(!failed.empty()) return std::nullopt;
    return out;
}
rocprofiler_status_t
pc_sampling_configurations(rocprofiler_agent_id_t                                agent,
                           std::vector<rocprofiler_pc_sampling_configuration_t>& out)
{
    return rocprofiler_query_pc_sampling_agent_configurations(
        agent,
        [](const rocprofiler_pc_sampling_configuration_t* configs, size_t n, void* data)
        {
            auto* list = static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data);
            list->insert(list->end(), configs, configs + n);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        &out);
}
} // namespace rocprofiler::tool
