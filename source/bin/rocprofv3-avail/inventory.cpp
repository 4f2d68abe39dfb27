#include "inventory.hpp"

namespace rocprofv3_avail
{
bool
counter::is_amd_equivalent() const
{
    return is_derived && description.rfind("equivalent of AMD's " + name + ": ", 0) == 0;
}

const counter*
agent::find(const std::string& counter_name) const
{
    for(const auto& c : counters)
        if(c.name == counter_name) return &c;
    return nullptr;
}
} // namespace rocprofv3_avail
