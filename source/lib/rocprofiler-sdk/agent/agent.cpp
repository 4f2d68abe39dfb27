#include "agent/agent.hpp"

#include "common/static_object.hpp"

#include <memory>

namespace rocprofiler::agent
{
namespace
{
struct entry
{
    backend::device_backend*    owner       = nullptr;
    backend::device_description description = {};
};

// Agents are facts of the process: read at exit, kept by a test reset.
struct registry
{
    registry();

    std::vector<std::unique_ptr<entry>>        storage  = {};
    std::vector<const rocprofiler_agent_v0_t*> pointers = {};

private:
    void add(backend::device_backend& owner, backend::device_description desc);

    int32_t m_gpu_index = 0;
};

registry::registry()
{
    for(auto* owner : backend::registered())
    {
        auto found = std::vector<backend::device_description>{};
        owner->append_devices(found);
        for(auto& desc : found)
            add(*owner, std::move(desc));
    }
}

void
registry::add(backend::device_backend& owner, backend::device_description desc)
{
    auto       item            = std::make_unique<entry>(entry{&owner, std::move(desc)});
    auto&      props           = item->description.properties;
    const auto index           = storage.size();
    props.size                 = sizeof(rocprofiler_agent_v0_t);
    props.id.handle            = index + 1;
    props.node_id              = static_cast<uint32_t>(index);
    props.logical_node_id      = static_cast<int32_t>(index);
    props.logical_node_type_id = props.type == ROCPROFILER_AGENT_TYPE_GPU ? m_gpu_index++ : 0;
    props.name                 = item->description.name.c_str();
    props.vendor_name          = item->description.vendor_name.c_str();
    props.product_name         = item->description.product_name.c_str();
    props.model_name           = item->description.model_name.c_str();
    pointers.emplace_back(&props);
    storage.emplace_back(std::move(item));
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
id_of(const backend::device_backend& owner, uint32_t device_index)
{
    for(const auto& item : get_registry().storage)
        if(item->owner == &owner && item->description.index == device_index)
            return item->description.properties.id;
    return std::nullopt;
}

std::optional<std::pair<backend::device_backend*, uint32_t>>
backend_of(rocprofiler_agent_id_t id)
{
    const auto& storage = get_registry().storage;
    if(id.handle == 0 || id.handle > storage.size()) return std::nullopt;
    const auto& item = storage[id.handle - 1];
    return std::make_pair(item->owner, item->description.index);
}
} // namespace rocprofiler::agent
