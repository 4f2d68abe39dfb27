// How marker calls pair into rows (docs/rocprofv3.md, marker_api_trace.csv): a push and its pop
// on one thread are one row named by the push's message, from the push to the pop, innermost
// first; a start and its stop (any thread, by range id) are one row as well, a process range.
// A pop with nothing pushed and a stop of an unknown id are ignored; a range still open at exit is
// never written (it has no end). Pure: no SDK, no lock (thread_ranges is per thread, the caller
// locks process_ranges).
#pragma once

#include "model/results.hpp"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
// One thread's push/pop stack: open ranges, innermost last.
class thread_ranges
{
public:
    void push(marker_event opened) { m_stack.push_back(std::move(opened)); }

    // The innermost open range, ending at @p end; none when nothing is open.
    std::optional<marker_event> pop(uint64_t end)
    {
        if(m_stack.empty()) return std::nullopt;
        auto e = std::move(m_stack.back());
        m_stack.pop_back();
        e.end = end;
        return e;
    }

    size_t open() const { return m_stack.size(); }

private:
    std::vector<marker_event> m_stack = {};
};

// Process ranges (roctxRangeStartA / roctxRangeStop), open by range id: closed by any thread.
class process_ranges
{
public:
    void start(uint64_t id, marker_event opened)
    {
        opened.process_range = true;
        m_open.emplace(id, std::move(opened));
    }

    // The range @p id, ending at @p end; none when no such range is open.
    std::optional<marker_event> stop(uint64_t id, uint64_t end)
    {
        auto it = m_open.find(id);
        if(it == m_open.end()) return std::nullopt;
        auto e = std::move(it->second);
        m_open.erase(it);
        e.end = end;
        return e;
    }

    size_t open() const { return m_open.size(); }

private:
    std::unordered_map<uint64_t, marker_event> m_open = {};
};
} // namespace rocprofiler::tool
