#include "agent/agent.hpp"

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

struct registry
{
    std::vector<std::unique_ptr<entry>>        storage  = {};
    std::vector<const rocprofiler_agent_v0_t*> pointers = {};
};

void
add_agent(registry& reg, backend::device_backend& owner, backend::device_description desc)
{
    static int32_t gpu_index   = 0; // only ever called while the registry is built, once
    auto           item        = std::make_unique<entry>(entry{&owner, std::move(desc)});
    auto&          props       = item->description.properties;
    const auto     index       = reg.storage.size();
    props.size                 = sizeof(rocprofiler_agent_v0_t);
    props.id.handle            = index + 1;
    props.node_id              = static_cast<uint32_t>(index);
    props.logical_node_id      = static_cast<int32_t>(index);
    props.logical_node_type_id = props.type == ROCPROFILER_AGENT_TYPE_GPU ? gpu_index++ : 0;
    props.name                 = item->description.name.c_str();
    props.vendor_name          = item->description.vendor_name.c_str();
    props.product_name         = item->description.product_name.c_str();
    props.model_name           = item->description.model_name.c_str();
    reg.pointers.emplace_back(&props);
    reg.storage.emplace_back(std::move(item));
}

const registry&
get_registry()
{
    static const auto* value = []
    {
        auto* reg = new registry{}; // never destroyed: agents are read at exit
        for(auto* owner : backend::registered())
        {
            auto found = std::vector<backend::device_description>{};
            owner->append_devices(found);
            for(auto& desc : found)
                add_agent(*reg, *owner, std::move(desc));
        }
        return reg;
    }();
    return *value;
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
