#include "model/results.hpp"

#include <utility>

namespace rocprofiler::tool
{
uint64_t
agent_number(const results& data, rocprofiler_agent_id_t id)
{
    if(const auto* agent = data.find_agent(id))
        return static_cast<uint64_t>(agent->info.logical_node_id);
    return id.handle;
}

std::string
memory_copy_agent(const results& data, rocprofiler_agent_id_t id)
{
    return id.handle == 0 ? std::string{"host"} : std::to_string(agent_number(data, id));
}

const std::string&
results::kernel_name(uint64_t kernel_id) const
{
    static const auto unknown = std::string{};
    const auto*       sym     = find_symbol(kernel_id);
    return sym != nullptr ? sym->name : unknown;
}

const kernel_symbol*
results::find_symbol(uint64_t kernel_id) const
{
    auto it = kernel_symbols.find(kernel_id);
    return it != kernel_symbols.end() ? &it->second : nullptr;
}

const agent_entry*
results::find_agent(rocprofiler_agent_id_t id) const
{
    for(const auto& a : agents)
        if(a.info.id.handle == id.handle) return &a;
    return nullptr;
}

const kernel_symbol&
ensure_kernel_symbol(results& data, uint64_t kernel_id, std::string* warning)
{
    if(auto it = data.kernel_symbols.find(kernel_id); it != data.kernel_symbols.end())
        return it->second;
    auto sym      = kernel_symbol{};
    sym.kernel_id = kernel_id;
    sym.name      = "kernel_" + std::to_string(kernel_id);
    sym.reported  = false;
    if(warning != nullptr)
        *warning = "kernel id " + std::to_string(kernel_id) +
                   " was never reported through code object tracing; it is named " + sym.name;
    return data.kernel_symbols.emplace(kernel_id, std::move(sym)).first->second;
}

std::vector<kernel_stat>
compute_kernel_stats(const results& data)
{
    return merge_kernel_stats(data.kernel_stats,
                              [&data](uint64_t id) -> const std::string&
                              { return data.kernel_name(id); });
}

std::vector<domain_totals>
compute_domain_totals(const results& data)
{
    auto out     = std::vector<domain_totals>{};
    auto kernels = kernel_totals_by_name(data.kernel_stats,
                                         [&data](uint64_t id) -> const std::string&
                                         { return data.kernel_name(id); });
    if(!kernels.empty())
        out.push_back(domain_totals{std::string{kernel_domain}, std::move(kernels)});
    for(const auto& [domain, by_name] : data.domain_stats.domains())
        out.push_back(domain_totals{domain, by_name});
    return out;
}
} // namespace rocprofiler::tool
