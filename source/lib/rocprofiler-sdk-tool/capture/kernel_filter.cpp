#include "capture/kernel_filter.hpp"
#include "log.hpp"

#include <cstdio>
#include <cstdlib>
#include <new>

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
    if(!m_decisions)
    {
        // calloc: zero pages are mapped on first touch, not at allocation.
        auto* table = static_cast<uint64_t*>(std::calloc(decision_window, sizeof(uint64_t)));
        if(table == nullptr) throw std::bad_alloc{};
        m_decisions = {table, [](uint64_t* p) { std::free(p); }};
    }
    auto&      slot = m_decisions[dispatch_id % decision_window];
    const auto tag  = (dispatch_id + 1) << 1U;
    if((slot & ~uint64_t{1}) == tag) return (slot & 1U) != 0;
    if(slot != 0 && (slot >> 1U) > dispatch_id + 1)
    {
        // A later dispatch took the slot: this one's decision left the window.
        if(m_decided_again++ == 0)
            log::warning("dispatch " + std::to_string(dispatch_id) + " was seen again more than " +
                         std::to_string(decision_window) +
                         " dispatches after its first sight; its kernel filter decision was made "
                         "again (it may differ from the first)");
    }
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
    // A dispatch seen again after leaving the window does not evict the later one.
    if(slot == 0 || (slot >> 1U) < dispatch_id + 1) slot = tag | (decision ? 1U : 0U);
    return decision;
}
} // namespace rocprofiler::tool
