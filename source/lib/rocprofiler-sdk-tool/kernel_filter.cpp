#include "kernel_filter.hpp"

#include <regex>

namespace rocprofiler::tool
{
kernel_filter::kernel_filter(const config& cfg)
    : m_cfg{cfg}
    , m_accepts_all{!cfg.include_regex && !cfg.exclude_regex && cfg.iteration_range.empty()}
{
}

bool
kernel_filter::name_matches(const std::string& kernel_name) const
{
    // std::regex_search: a pattern matches anywhere in the name, as rocprofv3's filters do.
    if(m_cfg.include_regex && !std::regex_search(kernel_name, *m_cfg.include_regex)) return false;
    if(m_cfg.exclude_regex && std::regex_search(kernel_name, *m_cfg.exclude_regex)) return false;
    return true;
}

bool
kernel_filter::accept(uint64_t dispatch_id, const std::string& kernel_name)
{
    if(m_accepts_all) return true;
    auto lock = std::lock_guard{m_mutex};
    if(auto it = m_decisions.find(dispatch_id); it != m_decisions.end()) return it->second;
    auto decision = name_matches(kernel_name);
    if(decision) decision = m_cfg.iteration_range.contains(++m_iterations[kernel_name]);
    m_decisions.emplace(dispatch_id, decision);
    return decision;
}
} // namespace rocprofiler::tool
