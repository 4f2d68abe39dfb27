// Which dispatches rocprofv3 records, profiles and replays: kernel names matching the include
// regex (if any) and not the exclude regex (if any), and, among those, the iterations of each
// kernel name (counted from 1 in submission order) within the iteration range; then, across all
// kernels in submission order, the selected dispatches after the first dispatch_skip, at most
// dispatch_count of them.
//
// The decision is made once per logical dispatch, by whichever service sees the dispatch first
// (ENQUEUE callback, replay CONFIG, counter dispatch callback, or its trace record), and then
// remembered by dispatch id, so that every service and every replay pass of one dispatch agree.
// The decisions of the last decision_window dispatch ids are remembered, in memory that does not
// grow past that window (8 bytes an id, 8 MiB in all): a service that sees a dispatch later than
// that after its first sight (no service does; the trace records come within the flush interval)
// gets it decided again, with a warning. Thread-safe.
#pragma once

#include "config/config.hpp"

#include <cstdint>
#include <memory>
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

    static constexpr uint64_t decision_window = uint64_t{1} << 20U; // dispatch ids

    // Dispatches decided again because their decision had left the window (0 in every run so far).
    uint64_t decided_again() const { return m_decided_again; }

private:
    bool name_matches(const std::string& kernel_name) const;

    const config& m_cfg;
    bool          m_accepts_all = true;
    std::mutex    m_mutex       = {};
    // Slot id % decision_window: (id + 1) << 1 | decision, 0 when empty. Allocated zeroed on first
    // use and touched as ids advance, so short runs hold only what they used.
    std::unique_ptr<uint64_t[], void (*)(uint64_t*)> m_decisions     = {nullptr, nullptr};
    uint64_t                                         m_decided_again = 0;
    // Regex result per kernel name: each distinct name is matched once (matching time grows with
    // pattern length times name length).
    std::unordered_map<std::string, bool>     m_name_matches = {};
    std::unordered_map<std::string, uint64_t> m_iterations   = {};
    uint64_t                                  m_selected     = 0; // passed name and range filters
};
} // namespace rocprofiler::tool
