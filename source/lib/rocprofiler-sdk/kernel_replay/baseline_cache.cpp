#include "kernel_replay/baseline_cache.hpp"

#include <tuple>

namespace rocprofiler::kernel_replay
{
namespace
{
// Whether `r` meets one of `sorted` (normalized), walking `cursor` forward: the ranges asked
// about come in address order.
bool
meets(const memory_range& r, const std::vector<memory_range>& sorted, size_t& cursor)
{
    while(cursor < sorted.size() && sorted[cursor].end() <= r.start)
        ++cursor;
    return cursor < sorted.size() && sorted[cursor].start < r.end();
}
} // namespace

bool
baseline_cache::valid_for(const std::vector<memory_range>& tracked,
                          const baseline_epochs&           epochs) const
{
    return m_valid && m_epochs == epochs && m_tracked == tracked;
}

std::vector<size_t>
baseline_cache::lookup(const std::vector<memory_range>& tracked,
                       const baseline_epochs&           epochs,
                       const std::vector<memory_range>& pieces,
                       std::vector<uint64_t>&           baseline) const
{
    baseline.assign(pieces.size(), 0);
    auto       missing = std::vector<size_t>{};
    const bool valid   = valid_for(tracked, epochs);
    auto       e       = size_t{0};
    for(size_t i = 0; i < pieces.size(); ++i)
    {
        const auto& p = pieces[i];
        if(valid)
        {
            while(e < m_entries.size() &&
                  std::tie(m_entries[e].start, m_entries[e].bytes) < std::tie(p.start, p.bytes))
                ++e;
            if(e < m_entries.size() && m_entries[e].start == p.start &&
               m_entries[e].bytes == p.bytes)
            {
                baseline[i] = m_entries[e].hash;
                continue;
            }
        }
        missing.push_back(i);
    }
    return missing;
}

void
baseline_cache::keep(const std::vector<memory_range>& tracked,
                     const baseline_epochs&           epochs,
                     bool                             was_valid,
                     const std::vector<memory_range>& snapshot,
                     const std::vector<memory_range>& exclude,
                     const std::vector<memory_range>& pieces,
                     const std::vector<uint64_t>&     hashes)
{
    auto fresh  = std::vector<entry>{};
    auto cursor = size_t{0};
    for(size_t i = 0; i < pieces.size() && i < hashes.size(); ++i)
        if(!meets(pieces[i], exclude, cursor))
            fresh.push_back({pieces[i].start, pieces[i].bytes, hashes[i]});

    auto merged = std::vector<entry>{};
    if(was_valid && m_valid)
    {
        // Earlier hashes of bytes this window neither rewrote (its snapshot) nor hashed again.
        auto old = std::vector<entry>{};
        auto s   = size_t{0};
        auto x   = size_t{0};
        for(const auto& e : m_entries)
            if(!meets({e.start, e.bytes}, snapshot, s) && !meets({e.start, e.bytes}, exclude, x))
                old.push_back(e);
        merged.reserve(old.size() + fresh.size());
        auto key = [](const entry& x) { return std::tie(x.start, x.bytes); };
        auto a   = size_t{0};
        auto b   = size_t{0};
        while(a < old.size() || b < fresh.size())
        {
            if(b == fresh.size() || (a < old.size() && key(old[a]) < key(fresh[b])))
                merged.push_back(old[a++]);
            else
            {
                if(a < old.size() && key(old[a]) == key(fresh[b])) ++a;
                merged.push_back(fresh[b++]);
            }
        }
        // Partial pieces of many different snapshots would pile up: bounded by a few hashes per
        // piece of the tracked memory.
        const auto bound = 2 * fresh.size() + 4096;
        if(merged.size() > bound) merged = std::move(fresh);
    }
    else
        merged = std::move(fresh);

    m_entries = std::move(merged);
    m_tracked = tracked;
    m_epochs  = epochs;
    m_valid   = true;
}

void
baseline_cache::clear()
{
    m_valid = false;
    m_entries.clear();
    m_tracked.clear();
}
} // namespace rocprofiler::kernel_replay