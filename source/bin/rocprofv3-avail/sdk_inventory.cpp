// The SDK's answers, through its public API only: agents, counters, PC sampling configurations,
// counter configurations. No tool is registered: nothing here starts a runtime.
#include "inventory.hpp"

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/counter_config.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/experimental/counter_passes.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <string>

namespace rocprofv3_avail
{
namespace
{
std::string
copy(const char* text)
{
    return text != nullptr ? std::string{text} : std::string{};
}

std::string
dim3(const rocprofiler_dim3_t& d)
{
    return "{x: " + std::to_string(d.x) + ", y: " + std::to_string(d.y) +
           ", z: " + std::to_string(d.z) + "}";
}

// AMD's `list --agent` keys, in its order, from the fields of rocprofiler_agent_v0_t.
std::vector<std::pair<std::string, std::string>>
properties_of(const rocprofiler_agent_v0_t& a)
{
    auto n   = [](auto value) { return std::to_string(value); };
    auto vis = a.runtime_visibility;
    return {{"cpu_cores_count", n(a.cpu_cores_count)},
            {"simd_count", n(a.simd_count)},
            {"max_waves_per_simd", n(a.max_waves_per_simd)},
            {"runtime_visibility",
             "{hsa: " + n(vis.hsa) + ", hip: " + n(vis.hip) + ", rccl: " + n(vis.rccl) +
                 ", rocdecode: " + n(vis.rocdecode) + "}"},
            {"wave_front_size", n(a.wave_front_size)},
            {"num_xcc", n(a.num_xcc)},
            {"cu_count", n(a.cu_count)},
            {"array_count", n(a.array_count)},
            {"num_shader_banks", n(a.num_shader_banks)},
            {"simd_arrays_per_engine", n(a.simd_arrays_per_engine)},
            {"cu_per_simd_array", n(a.cu_per_simd_array)},
            {"simd_per_cu", n(a.simd_per_cu)},
            {"gfx_target_version", n(a.gfx_target_version)},
            {"max_waves_per_cu", n(a.max_waves_per_cu)},
            {"gpu_id", n(a.gpu_id)},
            {"workgroup_max_dim", dim3(a.workgroup_max_dim)},
            {"grid_max_dim", dim3(a.grid_max_dim)},
            {"name", copy(a.name)},
            {"vendor_name", copy(a.vendor_name)},
            {"product_name", copy(a.product_name)},
            {"model_name", copy(a.model_name)},
            {"node_id", n(a.node_id)},
            {"logical_node_id", n(a.logical_node_id)},
            {"logical_node_type_id", n(a.logical_node_type_id)}};
}

void
read_counters(agent& out, inventory& inv)
{
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    auto rc  = rocprofiler_iterate_agent_supported_counters(
        rocprofiler_agent_id_t{out.handle},
        [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t n, void* data)
        {
            static_cast<std::vector<rocprofiler_counter_id_t>*>(data)->insert(
                static_cast<std::vector<rocprofiler_counter_id_t>*>(data)->end(), list, list + n);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        &ids);
    if(rc != ROCPROFILER_STATUS_SUCCESS)
    {
        out.counters_error = rocprofiler_get_status_name(rc);
        return;
    }
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v1_t{};
        info.size = sizeof(info);
        auto qs   = rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_1, &info);
        if(qs != ROCPROFILER_STATUS_SUCCESS)
        {
            inv.errors.emplace_back("rocprofiler_query_counter_info(" + std::to_string(id.handle) +
                                    ") failed: " + rocprofiler_get_status_name(qs));
            continue;
        }
        auto c        = counter{};
        c.id          = id.handle;
        c.name        = copy(info.name);
        c.description = copy(info.description);
        c.block       = copy(info.block);
        c.expression  = copy(info.expression);
        c.is_derived  = info.is_derived != 0;
        c.is_constant = info.is_constant != 0;
        for(uint64_t d = 0; d < info.dimensions_count && info.dimensions != nullptr; ++d)
            if(const auto* dim = info.dimensions[d]; dim != nullptr)
                c.dimensions.push_back(dimension{copy(dim->name), dim->instance_size});
        out.counters.push_back(std::move(c));
    }
}

void
read_pc_sampling(agent& out)
{
    auto configs = std::vector<rocprofiler_pc_sampling_configuration_t>{};
    auto rc      = rocprofiler_query_pc_sampling_agent_configurations(
        rocprofiler_agent_id_t{out.handle},
        [](const rocprofiler_pc_sampling_configuration_t* list, size_t n, void* data)
        {
            auto* v = static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data);
            v->insert(v->end(), list, list + n);
            return ROCPROFILER_STATUS_SUCCESS;
        },
        &configs);
    if(rc != ROCPROFILER_STATUS_SUCCESS)
    {
        out.pc_sampling_error = rocprofiler_get_status_name(rc);
        return;
    }
    for(const auto& c : configs)
    {
        auto entry         = pc_sampling_config{};
        entry.method       = c.method == ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP    ? "host_trap"
                             : c.method == ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC ? "stochastic"
                                                                                     : "none";
        entry.unit         = c.unit == ROCPROFILER_PC_SAMPLING_UNIT_TIME           ? "time"
                             : c.unit == ROCPROFILER_PC_SAMPLING_UNIT_CYCLES       ? "cycles"
                             : c.unit == ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS ? "instructions"
                                                                                   : "none";
        entry.min_interval = c.min_interval;
        entry.max_interval = c.max_interval;
        entry.interval_pow2 =
            (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0;
        out.pc_sampling.push_back(entry);
    }
}
} // namespace

inventory
read_inventory()
{
    auto inv    = inventory{};
    auto status = rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0,
        [](rocprofiler_agent_version_t, const void** list, size_t n, void* data)
        {
            auto* out = static_cast<inventory*>(data);
            for(size_t i = 0; i < n; ++i)
            {
                const auto* a = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
                if(a->type != ROCPROFILER_AGENT_TYPE_GPU) continue;
                auto entry       = agent{};
                entry.handle     = a->id.handle;
                entry.index      = a->logical_node_type_id;
                entry.name       = copy(a->name);
                entry.product    = copy(a->product_name);
                entry.properties = properties_of(*a);
                out->gpus.push_back(std::move(entry));
            }
            return ROCPROFILER_STATUS_SUCCESS;
        },
        sizeof(rocprofiler_agent_v0_t),
        &inv);
    if(status != ROCPROFILER_STATUS_SUCCESS)
    {
        inv.errors.emplace_back(std::string{"rocprofiler_query_available_agents failed: "} +
                                rocprofiler_get_status_name(status));
        return inv;
    }
    std::stable_sort(inv.gpus.begin(),
                     inv.gpus.end(),
                     [](const agent& a, const agent& b) { return a.index < b.index; });
    for(auto& a : inv.gpus)
    {
        read_counters(a, inv);
        read_pc_sampling(a);
    }
    return inv;
}

configuration
configure(const agent& target, const std::vector<uint64_t>& ids)
{
    auto list = std::vector<rocprofiler_counter_id_t>{};
    for(auto id : ids)
        list.push_back(rocprofiler_counter_id_t{id});
    auto out = configuration{};
    auto cfg = rocprofiler_counter_config_id_t{};
    auto rc  = rocprofiler_create_counter_config(
        rocprofiler_agent_id_t{target.handle}, list.data(), list.size(), &cfg);
    if(rc != ROCPROFILER_STATUS_SUCCESS)
    {
        out.exceeds = rc == ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT;
        out.status  = rocprofiler_get_status_name(rc);
        return out;
    }
    auto passes = uint64_t{0};
    rc          = rocprofiler_query_counter_config_pass_count(cfg, &passes);
    rocprofiler_destroy_counter_config(cfg);
    if(rc != ROCPROFILER_STATUS_SUCCESS)
    {
        out.status = rocprofiler_get_status_name(rc);
        return out;
    }
    out.created = true;
    out.passes  = passes;
    return out;
}
} // namespace rocprofv3_avail
