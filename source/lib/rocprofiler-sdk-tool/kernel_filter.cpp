#include "kernel_filter.hpp"

namespace rocprofiler::tool
{
kernel_filter::kernel_filter(const config& cfg)
    : m_cfg{cfg}
    , m_accepts_all{!cfg.include_regex && !cfg.exclude_regex && cfg.iteration_range.empty() &&
                    cfg.dispatch_skip == 0 && !cfg.dispatch_count}
{
}

bool
kernel_filter::name_matches(const std::string& kernel_name) const
{
    if(m_cfg.include_regex && !m_cfg.include_regex->search(kernel_name)) return false;
    if(m_cfg.exclude_regex && m_cfg.exclude_regex->search(kernel_name)) return false;
    return true;
}

bool
kernel_filter::accept(uint64_t dispatch_id, const std::string& kernel_name)
{
    if(m_accepts_all) return true;
    auto lock = std::lock_guard{m_mutex};
    if(auto it = m_decisions.find(dispatch_id); it != m_decisions.end()) return it->second;
    auto [match, added] = m_name_matches.try_emplace(kernel_name, false);
    if(added) match->second = name_matches(kernel_name);
    auto decision = match->second;
    if(decision) decision = m_cfg.iteration_range.contains(++m_iterations[kernel_name]);
    // Skip and count apply last, across all kernels, to what the other filters selected (as ncu's
    // --launch-skip / --launch-count count matching launches only).
    if(decision)
    {
        const auto index = ++m_selected; // 1-based among the selected dispatches
        decision         = index > m_cfg.dispatch_skip &&
                   (!m_cfg.dispatch_count || index - m_cfg.dispatch_skip <= *m_cfg.dispatch_count);
    }
    m_decisions.emplace(dispatch_id, decision);
    return decision;
}
} // namespace rocprofiler::tool
