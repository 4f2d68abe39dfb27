#include "agent/agent.hpp"

#include "common/static_object.hpp"

#include <memory>
#include <mutex>

namespace rocprofiler::agent
{
namespace
{
// Agents are facts of the process: read at exit, kept by a test reset.
struct registry
{
    registry();

    std::vector<std::unique_ptr<description>>  storage  = {};
    std::vector<const rocprofiler_agent_v0_t*> pointers = {};
};

registry::registry()
{
    auto found = std::vector<description>{};
#if defined(ROCPROFILER_HAVE_CUDA)
    append_cuda_agents(found);
#endif
    append_host_agents(found);
    int32_t gpu_index = 0;
    for(size_t i = 0; i < found.size(); ++i)
    {
        auto  entry                = std::make_unique<description>(std::move(found[i]));
        auto& props                = entry->properties;
        props.size                 = sizeof(rocprofiler_agent_v0_t);
        props.id.handle            = i + 1;
        props.node_id              = static_cast<uint32_t>(i);
        props.logical_node_id      = static_cast<int32_t>(i);
        props.logical_node_type_id = props.type == ROCPROFILER_AGENT_TYPE_GPU ? gpu_index++ : 0;
        props.name                 = entry->name.c_str();
        props.vendor_name          = entry->vendor_name.c_str();
        props.product_name         = entry->product_name.c_str();
        props.model_name           = entry->model_name.c_str();
        pointers.emplace_back(&entry->properties);
        storage.emplace_back(std::move(entry));
    }
}

const registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::never>::get();
}
} // namespace

const std::vector<const rocprofiler_agent_v0_t*>&
get_agents()
{
    return get_registry().pointers;
}

const rocprofiler_agent_v0_t*
find(rocprofiler_agent_id_t id)
{
    const auto& agents = get_agents();
    if(id.handle == 0 || id.handle > agents.size()) return nullptr;
    return agents[id.handle - 1];
}

std::optional<rocprofiler_agent_id_t>
id_of(backend backend_kind, uint32_t backend_index)
{
    for(const auto& entry : get_registry().storage)
        if(entry->backend_kind == backend_kind && entry->backend_index == backend_index)
            return entry->properties.id;
    return std::nullopt;
}

std::optional<std::pair<backend, uint32_t>>
backend_of(rocprofiler_agent_id_t id)
{
    const auto& storage = get_registry().storage;
    if(id.handle == 0 || id.handle > storage.size()) return std::nullopt;
    const auto& entry = storage[id.handle - 1];
    return std::make_pair(entry->backend_kind, entry->backend_index);
}
} // namespace rocprofiler::agent
