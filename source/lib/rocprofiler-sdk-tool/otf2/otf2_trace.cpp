#include "otf2/otf2_trace.hpp"
#include "model/names.hpp"

#include <algorithm>
#include <utility>

namespace rocprofiler::tool
{
namespace
{
// The order of the location kinds in a group: queues, copies, threads, process ranges, counters.
enum location_order : int
{
    queue_order   = 0,
    copy_order    = 1,
    thread_order  = 2,
    process_order = 3,
    metric_order  = 4,
};

std::string
otf2_agent_name(const results& data, rocprofiler_agent_id_t id)
{
    return "Agent " + std::to_string(agent_number(data, id));
}
} // namespace

size_t
otf2_trace::add_process(std::string name, std::string host)
{
    auto p = process{};
    p.name = std::move(name);
    p.host = std::move(host);
    m_processes.emplace_back(std::move(p));
    return m_processes.size() - 1;
}

uint32_t
otf2_trace::region_of(region_kind kind, const std::string& name, const std::string& domain)
{
    auto key = std::tuple{kind, name, domain};
    auto it  = m_region_ids.find(key);
    if(it != m_region_ids.end()) return it->second;
    const auto id = static_cast<uint32_t>(m_regions.size());
    m_regions.push_back(region{name, domain, kind});
    m_region_ids.emplace(std::move(key), id);
    return id;
}

otf2_trace::location&
otf2_trace::location_of(
    size_t p, int order, uint64_t a, uint64_t b, location_kind kind, const std::string& name)
{
    auto& locations = m_processes.at(p).locations;
    auto  key       = std::tuple{order, a, b};
    auto  it        = locations.find(key);
    if(it == locations.end()) it = locations.emplace(key, location{name, kind, {}}).first;
    return it->second;
}

void
otf2_trace::dispatch(size_t                                                     p,
                     const results&                                             data,
                     const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    const auto& d    = r.dispatch_info;
    auto        name = data.kernel_name(d.kernel_id);
    if(name.empty()) name = "kernel_" + std::to_string(d.kernel_id);
    auto& loc = location_of(p,
                            queue_order,
                            agent_number(data, d.agent_id),
                            d.queue_id.handle,
                            location_kind::stream,
                            otf2_agent_name(data, d.agent_id) + " Queue " +
                                std::to_string(d.queue_id.handle));
    loc.intervals.push_back(
        {r.start_timestamp, r.end_timestamp, region_of(region_kind::kernel, name, {})});
    ++m_records;
}

void
otf2_trace::memory_copy(size_t                                                 p,
                        const results&                                         data,
                        const rocprofiler_buffer_tracing_memory_copy_record_t& c)
{
    // The device side of the copy, as the Perfetto trace places it; host memory on both sides
    // goes to the process's host copy location.
    const auto agent =
        c.operation == ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST ? c.src_agent_id : c.dst_agent_id;
    const bool host = agent.handle == 0;
    auto&      loc  = location_of(p,
                            copy_order,
                            host ? 0 : agent_number(data, agent) + 1,
                            0,
                            location_kind::stream,
                            host ? std::string{"Host memory copies"}
                                       : otf2_agent_name(data, agent) + " memory copies");
    loc.intervals.push_back(
        {c.start_timestamp,
         c.end_timestamp,
         region_of(region_kind::memory_copy, memory_copy_direction_name(c.operation), {})});
    ++m_records;
}

void
otf2_trace::marker(size_t p, const marker_event& e)
{
    auto& loc = e.process_range
                    ? location_of(p, process_order, 0, 0, location_kind::thread, "Process ranges")
                    : location_of(p,
                                  thread_order,
                                  e.thread_id,
                                  0,
                                  location_kind::thread,
                                  "Thread " + std::to_string(e.thread_id));
    loc.intervals.push_back({e.start, e.end, region_of(region_kind::marker, e.function, e.domain)});
    ++m_records;
}

void
otf2_trace::api_call(size_t p, const marker_event& e)
{
    // A thread's API calls and its markers nest (a call lies inside or outside each range), so
    // they share the thread's location.
    auto& loc = location_of(p,
                            thread_order,
                            e.thread_id,
                            0,
                            location_kind::thread,
                            "Thread " + std::to_string(e.thread_id));
    loc.intervals.push_back(
        {e.start, e.end, region_of(region_kind::api_call, e.function, e.domain)});
    ++m_records;
}

void
otf2_trace::counters(size_t p, const results& data, const counter_dispatch& rec)
{
    // The values by counter name, summed over instances, in the order the names first come.
    auto members = std::vector<uint32_t>{};
    auto values  = std::vector<double>{};
    for(const auto& v : rec.values)
    {
        auto [it, added] = m_member_ids.emplace(v.name, static_cast<uint32_t>(m_members.size()));
        if(added) m_members.push_back(v.name);
        const auto at = std::find(members.begin(), members.end(), it->second);
        if(at == members.end())
        {
            members.push_back(it->second);
            values.push_back(v.value);
        }
        else
            values[static_cast<size_t>(at - members.begin())] += v.value;
    }
    if(members.empty()) return;
    const auto agent = rec.data.dispatch_info.agent_id;
    auto&      loc   = location_of(p,
                            metric_order,
                            agent_number(data, agent),
                            0,
                            location_kind::metric,
                            otf2_agent_name(data, agent) + " counters");
    for(size_t from = 0; from < members.size(); from += max_metric_members)
    {
        const auto to    = std::min(members.size(), from + max_metric_members);
        auto       list  = std::vector<uint32_t>(members.begin() + from, members.begin() + to);
        auto [it, added] = m_class_ids.emplace(list, static_cast<uint32_t>(m_classes.size()));
        if(added) m_classes.push_back(std::move(list));
        loc.metrics.push_back(
            metric_point{rec.data.end_timestamp,
                         it->second,
                         std::vector<double>(values.begin() + from, values.begin() + to)});
    }
    ++m_records;
}

std::vector<std::vector<otf2_trace::interval>>
otf2_lanes(std::vector<otf2_trace::interval> list)
{
    for(auto& iv : list)
        iv.end = std::max(iv.end, iv.start);
    // By start; of two that start together, the longer first (it encloses the other).
    std::stable_sort(list.begin(),
                     list.end(),
                     [](const auto& a, const auto& b)
                     { return a.start != b.start ? a.start < b.start : a.end > b.end; });
    auto lanes  = std::vector<std::vector<otf2_trace::interval>>{};
    auto stacks = std::vector<std::vector<uint64_t>>{}; // the ends of each lane's open intervals
    for(const auto& iv : list)
    {
        size_t lane = 0;
        for(; lane < lanes.size(); ++lane)
        {
            auto& open = stacks[lane];
            while(!open.empty() && open.back() <= iv.start)
                open.pop_back();
            if(open.empty() || open.back() >= iv.end) break;
        }
        if(lane == lanes.size())
        {
            lanes.emplace_back();
            stacks.emplace_back();
        }
        lanes[lane].push_back(iv);
        stacks[lane].push_back(iv.end);
    }
    return lanes;
}

#if !defined(ROCPROFILER_TOOL_HAVE_OTF2)
bool
otf2_available()
{
    return false;
}

bool
otf2_trace::write(const std::string& directory, const std::string& name, std::string& error) const
{
    error = "could not write the OTF2 archive '" + directory + "/" + name +
            ".otf2': built without OTF2 support (install libotf2-trace-dev and reconfigure)";
    return false;
}
#endif
} // namespace rocprofiler::tool
