#include "pftrace/pftrace_builder.hpp"
#include "model/graph_node.hpp"
#include "model/names.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace rocprofiler::tool
{
namespace
{
std::string
agent_track_name(const results& data, rocprofiler_agent_id_t id)
{
    const auto* agent = data.find_agent(id);
    auto        name  = "Agent " + std::to_string(agent_number(data, id));
    if(agent == nullptr) return name;
    const auto& label = !agent->product_name.empty() ? agent->product_name : agent->name;
    return label.empty() ? name : name + " (" + label + ")";
}
} // namespace

uint64_t
pftrace_builder::lanes::place(perfetto_trace& trace, uint64_t begin, uint64_t end)
{
    // The lane's latest end, not its last slice's: records may arrive out of start order.
    for(size_t i = 0; i < tracks.size(); ++i)
        if(max_ends[i] <= begin)
        {
            max_ends[i] = std::max(max_ends[i], end);
            return tracks[i];
        }
    const auto track =
        tracks.empty()
            ? trace.child_track(parent, name)
            : trace.child_track(tracks.front(),
                                name + " (overlap " + std::to_string(tracks.size()) + ")");
    tracks.emplace_back(track);
    max_ends.emplace_back(end);
    return track;
}

pftrace_builder::pftrace_builder(const results& data, bool kernel_replay)
    : m_kernel_replay{kernel_replay}
{
    // The process is named by its program's file name, as the UI's process list shows it.
    auto program = data.command.empty() ? std::string{"process"} : data.command.front();
    if(auto slash = program.find_last_of('/');
       slash != std::string::npos && slash + 1 < program.size())
        program = program.substr(slash + 1);
    m_process = m_trace.process_track(data.pid, program);
}

uint64_t
pftrace_builder::agent_track(const results& data, rocprofiler_agent_id_t id)
{
    auto it = m_agent_tracks.find(id.handle);
    if(it == m_agent_tracks.end())
        it = m_agent_tracks
                 .emplace(id.handle, m_trace.child_track(m_process, agent_track_name(data, id)))
                 .first;
    return it->second;
}

uint64_t
pftrace_builder::pass_of(uint64_t dispatch_id)
{
    // Passes complete one after another: a dispatch's n-th record is its pass n.
    return m_passes.number(dispatch_id);
}

void
pftrace_builder::dispatch(const results&                                             data,
                          const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    const auto& d   = r.dispatch_info;
    auto        key = std::pair{d.agent_id.handle, d.queue_id.handle};
    auto        it  = m_queues.find(key);
    if(it == m_queues.end())
    {
        auto lane   = lanes{};
        lane.parent = agent_track(data, d.agent_id);
        lane.name   = "Queue " + std::to_string(d.queue_id.handle);
        it          = m_queues.emplace(key, std::move(lane)).first;
    }
    const auto track = it->second.place(m_trace, r.start_timestamp, r.end_timestamp);
    auto       notes = std::vector<trace_annotation>{
              {"dispatch_id", d.dispatch_id},
              {"kernel_id", d.kernel_id},
              {"correlation_id", r.correlation_id.internal},
              {"agent", agent_number(data, d.agent_id)},
              {"queue", d.queue_id.handle},
              {"thread_id", r.thread_id},
              {"grid_size",
               std::to_string(d.grid_size.x) + "," + std::to_string(d.grid_size.y) + "," +
                   std::to_string(d.grid_size.z)},
              {"workgroup_size",
               std::to_string(d.workgroup_size.x) + "," + std::to_string(d.workgroup_size.y) + "," +
                   std::to_string(d.workgroup_size.z)},
              {"lds_block_size", uint64_t{d.group_segment_size}},
              {"scratch_size", uint64_t{d.private_segment_size}},
    };
    if(m_kernel_replay) notes.push_back({"replay_pass", pass_of(d.dispatch_id)});
    if(auto node = graph_node_of(d))
    {
        notes.push_back({"graph_id", node->graph_id});
        notes.push_back({"graph_node_id", node->node_id});
    }
    m_trace.slice(track, r.start_timestamp, r.end_timestamp, data.kernel_name(d.kernel_id), notes);
}

void
pftrace_builder::memory_copy(const results&                                         data,
                             const rocprofiler_buffer_tracing_memory_copy_record_t& c)
{
    const auto agent =
        c.operation == ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST ? c.src_agent_id : c.dst_agent_id;
    auto it = m_copy_lanes.find(agent.handle);
    if(it == m_copy_lanes.end())
    {
        auto lane   = lanes{};
        lane.parent = agent.handle != 0 ? agent_track(data, agent) : m_process;
        lane.name   = agent.handle != 0 ? "Memory copies" : "Memory copies (host)";
        it          = m_copy_lanes.emplace(agent.handle, std::move(lane)).first;
    }
    const auto track = it->second.place(m_trace, c.start_timestamp, c.end_timestamp);
    auto       notes = std::vector<trace_annotation>{
              {"bytes", c.bytes},
              {"correlation_id", c.correlation_id.internal},
              {"src_agent", memory_copy_agent(data, c.src_agent_id)},
              {"dst_agent", memory_copy_agent(data, c.dst_agent_id)},
              {"thread_id", c.thread_id},
    };
    m_trace.slice(
        track, c.start_timestamp, c.end_timestamp, memory_copy_direction_name(c.operation), notes);
}

void
pftrace_builder::marker(const marker_event& e)
{
    auto track = uint64_t{0};
    if(e.process_range)
    {
        if(!m_process_ranges)
        {
            // Built whole (clang's libstdc++ checks find the nested aggregate incomplete for a
            // bare emplace()).
            auto ranges      = lanes{};
            ranges.parent    = m_process;
            ranges.name      = "Markers (process ranges)";
            m_process_ranges = std::move(ranges);
        }
        track = m_process_ranges->place(m_trace, e.start, e.end);
    }
    else
    {
        // One thread's rows nest (its ranges are a stack; a call or a mark lies inside or outside
        // each range), so one track holds them all.
        track = thread_track(m_marker_tracks, "Markers", e.thread_id);
    }
    row_slice(track, e);
}

void
pftrace_builder::api_call(const marker_event& e)
{
    row_slice(thread_track(m_api_tracks, "CUDA API", e.thread_id), e);
}

uint64_t
pftrace_builder::thread_track(std::map<uint64_t, uint64_t>& tracks,
                              const char*                   what,
                              uint64_t                      thread)
{
    auto it = tracks.find(thread);
    if(it == tracks.end())
        it = tracks
                 .emplace(thread,
                          m_trace.child_track(m_process,
                                              std::string{what} + " (thread " +
                                                  std::to_string(thread) + ")"))
                 .first;
    return it->second;
}

void
pftrace_builder::row_slice(uint64_t track, const marker_event& e)
{
    const auto notes = std::vector<trace_annotation>{
        {"domain", e.domain},
        {"correlation_id", e.correlation_id},
        {"thread_id", e.thread_id},
    };
    m_trace.slice(track, e.start, e.end, e.function, notes);
}

void
pftrace_builder::counters(const results& data, const counter_dispatch& rec)
{
    const auto agent = rec.data.dispatch_info.agent_id;
    for(const auto& v : rec.values)
    {
        auto key = std::pair{agent.handle, v.name};
        auto it  = m_counters.find(key);
        if(it == m_counters.end())
        {
            it               = m_counters.emplace(key, counter_track{}).first;
            it->second.track = m_trace.counter_track(agent_track(data, agent), v.name);
        }
        auto& c = it->second;
        // The previous value's return to 0 gives way to a value that starts at that instant.
        if(c.pending_reset && *c.pending_reset != rec.data.start_timestamp)
            m_trace.counter(c.track, *c.pending_reset, 0.0);
        m_trace.counter(c.track, rec.data.start_timestamp, v.value);
        c.pending_reset = rec.data.end_timestamp;
    }
}

void
pftrace_builder::finish()
{
    for(auto& [key, c] : m_counters)
        if(c.pending_reset)
        {
            m_trace.counter(c.track, *c.pending_reset, 0.0);
            c.pending_reset.reset();
        }
}

std::string
pftrace_builder::take()
{
    return m_trace.take();
}

std::string
results_pftrace(const results& data, bool kernel_replay)
{
    auto builder = pftrace_builder{data, kernel_replay};
    // The indices of `list` in the order of start(element), ties in list order.
    auto by_start = [](const auto& list, auto start)
    {
        auto order = std::vector<size_t>(list.size());
        for(size_t i = 0; i < order.size(); ++i)
            order[i] = i;
        std::stable_sort(order.begin(),
                         order.end(),
                         [&](size_t a, size_t b) { return start(list[a]) < start(list[b]); });
        return order;
    };
    auto record_start = [](const auto& r) { return r.start_timestamp; };
    for(auto i : by_start(data.dispatches, record_start))
        builder.dispatch(data, data.dispatches[i]);
    for(auto i : by_start(data.memory_copies, record_start))
        builder.memory_copy(data, data.memory_copies[i]);
    for(auto i : by_start(data.counter_records,
                          [](const counter_dispatch& r) { return r.data.start_timestamp; }))
        builder.counters(data, data.counter_records[i]);
    // In the order the rows ended, as the tool streams them (a thread's rows nest either way).
    for(const auto& e : data.markers)
        builder.marker(e);
    for(const auto& e : data.api_calls)
        builder.api_call(e);
    builder.finish();
    return builder.take();
}
} // namespace rocprofiler::tool
