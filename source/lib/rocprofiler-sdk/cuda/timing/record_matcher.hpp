// Matches kernel activity records (correlation id, start, end) to launches waiting for them.
// Pure C++ (no CUDA or CUPTI header) so that unit tests feed it hand-built records.
//
// A launch is known by two correlation ids: the driver API call's and the enclosing runtime API
// call's (0 when none). CUPTI gives the kernel record one of them; several launches may share a
// runtime id (every replay pass of one cudaLaunchKernel), and are then matched in launch order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>

namespace rocprofiler::cuda
{
struct kernel_times
{
    uint64_t start_ns = 0;
    uint64_t end_ns   = 0;
};

class record_matcher
{
public:
    record_matcher() = default;
    explicit record_matcher(size_t max_unclaimed)
        : m_max_unclaimed{max_unclaimed}
    {
    }

    // A record arrived. Records nobody claims (kernels launched outside the adapter, such as graph
    // launches) are dropped oldest first beyond max_unclaimed.
    void add(uint32_t correlation_id, kernel_times times)
    {
        m_records[correlation_id].push_back(times);
        m_order.push_back(correlation_id);
        ++m_count;
        while(m_count > m_max_unclaimed && !m_order.empty())
        {
            auto id = m_order.front();
            m_order.pop_front();
            auto itr = m_records.find(id);
            if(itr == m_records.end()) continue; // already claimed
            itr->second.pop_front();
            --m_count;
            if(itr->second.empty()) m_records.erase(itr);
        }
    }

    // The record of a launch, by its driver id first, then its runtime id; removed when found.
    std::optional<kernel_times> take(uint32_t driver_id, uint32_t runtime_id)
    {
        for(auto id : {driver_id, runtime_id})
        {
            if(id == 0) continue;
            auto itr = m_records.find(id);
            if(itr == m_records.end()) continue;
            auto times = itr->second.front();
            itr->second.pop_front();
            --m_count;
            if(itr->second.empty()) m_records.erase(itr);
            return times;
        }
        return std::nullopt;
    }

    bool has(uint32_t driver_id, uint32_t runtime_id) const
    {
        return (driver_id != 0 && m_records.count(driver_id) != 0) ||
               (runtime_id != 0 && m_records.count(runtime_id) != 0);
    }

    size_t unclaimed() const { return m_count; }

private:
    size_t                                       m_max_unclaimed = 65536;
    size_t                                       m_count         = 0;
    std::map<uint32_t, std::deque<kernel_times>> m_records       = {};
    std::deque<uint32_t>                         m_order         = {}; // may hold claimed ids
};
} // namespace rocprofiler::cuda
