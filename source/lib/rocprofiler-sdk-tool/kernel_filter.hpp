// Which dispatches rocprofv3 records, profiles and replays: kernel names matching the include
// regex (if any) and not the exclude regex (if any), and, among those, the iterations of each
// kernel name (counted from 1 in submission order) within the iteration range; then, across all
// kernels in submission order, the selected dispatches after the first dispatch_skip, at most
// dispatch_count of them.
//
// The decision is made once per logical dispatch, by whichever service sees the dispatch first
// (ENQUEUE callback, replay CONFIG, counter dispatch callback, or its trace record), and then
// remembered by dispatch id, so that every service and every replay pass of one dispatch agree.
// Thread-safe.
#pragma once

#include "config.hpp"

#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>

namespace rocprofiler::tool
{
class kernel_filter
{
public:
    explicit kernel_filter(const config& cfg);

    // True when the dispatch is to be recorded. @p kernel_name is only read the first time a
    // dispatch id is seen.
    bool accept(uint64_t dispatch_id, const std::string& kernel_name);

    // True when no filter is configured (every dispatch is accepted).
    bool accepts_all() const { return m_accepts_all; }

private:
    bool name_matches(const std::string& kernel_name) const;

    const config&                      m_cfg;
    bool                               m_accepts_all = true;
    std::mutex                         m_mutex       = {};
    std::unordered_map<uint64_t, bool> m_decisions   = {};
    // Regex result per kernel name: each distinct name is matched once (matching time grows with
    // pattern length times name length).
    std::unordered_map<std::string, bool>     m_name_matches = {};
    std::unordered_map<std::string, uint64_t> m_iterations   = {};
    uint64_t                                  m_selected     = 0; // passed name and range filters
};
} // namespace rocprofiler::tool
