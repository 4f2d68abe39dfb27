#include "pftrace/perfetto_trace.hpp"
#include "model/names.hpp"
#include "pftrace/protowire.hpp"

#include <algorithm>
#include <cstring>
#include <ctime>
#include <map>
#include <tuple>

namespace rocprofiler::tool
{
namespace
{
// Field numbers of Perfetto's public schema (protos/perfetto/trace/...), and the subset of
// enums used. tests/rocprofv3/perfetto_subset.proto states the same numbers.
namespace field
{
constexpr uint32_t trace_packet = 1; // Trace.packet

// TracePacket (trace_packet.proto)
constexpr uint32_t packet_clock_snapshot             = 6;
constexpr uint32_t packet_timestamp                  = 8;
constexpr uint32_t packet_trusted_packet_sequence_id = 10;
constexpr uint32_t packet_track_event                = 11;
constexpr uint32_t packet_sequence_flags             = 13;
constexpr uint32_t packet_timestamp_clock_id         = 58;
constexpr uint32_t packet_track_descriptor           = 60;
constexpr uint64_t seq_incremental_state_cleared     = 1;

// ClockSnapshot and ClockSnapshot.Clock (clock_snapshot.proto)
constexpr uint32_t snapshot_clocks              = 1;
constexpr uint32_t snapshot_primary_trace_clock = 2;
constexpr uint32_t clock_clock_id               = 1;
constexpr uint32_t clock_timestamp              = 2;

// BuiltinClock (common/builtin_clock.proto)
constexpr uint64_t builtin_clock_monotonic = 3;
constexpr uint64_t builtin_clock_boottime  = 6;

// TrackDescriptor (track_event/track_descriptor.proto)
constexpr uint32_t track_uuid        = 1;
constexpr uint32_t track_name        = 2;
constexpr uint32_t track_process     = 3;
constexpr uint32_t track_parent_uuid = 5;
constexpr uint32_t track_counter     = 8;

// ProcessDescriptor (track_event/process_descriptor.proto)
constexpr uint32_t process_pid  = 1;
constexpr uint32_t process_name = 6;

// TrackEvent (track_event/track_event.proto)
constexpr uint32_t event_debug_annotations    = 4;
constexpr uint32_t event_type                 = 9;
constexpr uint32_t event_track_uuid           = 11;
constexpr uint32_t event_name                 = 23;
constexpr uint32_t event_double_counter_value = 44;
constexpr uint64_t type_slice_begin           = 1;
constexpr uint64_t type_slice_end             = 2;
constexpr uint64_t type_counter               = 4;

// DebugAnnotation (track_event/debug_annotation.proto)
constexpr uint32_t annotation_uint_value   = 3;
constexpr uint32_t annotation_int_value    = 4;
constexpr uint32_t annotation_double_value = 5;
constexpr uint32_t annotation_string_value = 6;
constexpr uint32_t annotation_name         = 10;
} // namespace field

uint64_t
clock_now(clockid_t id)
{
    auto ts = timespec{};
    clock_gettime(id, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}
} // namespace

perfetto_trace::perfetto_trace()
{
    // The records' clock is CLOCK_MONOTONIC; the snapshot relates it to BOOTTIME (the default
    // trace clock of Perfetto) and makes it the trace's clock, so the UI shows the records' own
    // timestamps.
    auto snapshot = std::string{};
    for(auto [id, clock] : {std::pair{field::builtin_clock_monotonic, CLOCK_MONOTONIC},
                            std::pair{field::builtin_clock_boottime, CLOCK_BOOTTIME}})
    {
        auto entry = std::string{};
        protowire::field_varint(entry, field::clock_clock_id, id);
        protowire::field_varint(entry, field::clock_timestamp, clock_now(clock));
        protowire::field_bytes(snapshot, field::snapshot_clocks, entry);
    }
    protowire::field_varint(
        snapshot, field::snapshot_primary_trace_clock, field::builtin_clock_monotonic);
    auto body = std::string{};
    protowire::field_bytes(body, field::packet_clock_snapshot, snapshot);
    packet(body);
}

void
perfetto_trace::packet(const std::string& body)
{
    auto full = body;
    protowire::field_varint(full, field::packet_trusted_packet_sequence_id, 1);
    if(m_first)
        protowire::field_varint(
            full, field::packet_sequence_flags, field::seq_incremental_state_cleared);
    m_first = false;
    protowire::field_bytes(m_out, field::trace_packet, full);
}

uint64_t
perfetto_trace::track(uint64_t parent, std::string_view name, bool counter)
{
    const auto uuid       = m_next_uuid++;
    auto       descriptor = std::string{};
    protowire::field_varint(descriptor, field::track_uuid, uuid);
    protowire::field_varint(descriptor, field::track_parent_uuid, parent);
    protowire::field_bytes(descriptor, field::track_name, name);
    // An empty CounterDescriptor makes the track a counter track.
    if(counter) protowire::field_bytes(descriptor, field::track_counter, {});
    auto body = std::string{};
    protowire::field_bytes(body, field::packet_track_descriptor, descriptor);
    packet(body);
    return uuid;
}

uint64_t
perfetto_trace::process_track(uint64_t pid, std::string_view name)
{
    const auto uuid    = m_next_uuid++;
    auto       process = std::string{};
    protowire::field_varint(process, field::process_pid, pid);
    protowire::field_bytes(process, field::process_name, name);
    auto descriptor = std::string{};
    protowire::field_varint(descriptor, field::track_uuid, uuid);
    protowire::field_bytes(descriptor, field::track_process, process);
    auto body = std::string{};
    protowire::field_bytes(body, field::packet_track_descriptor, descriptor);
    packet(body);
    return uuid;
}

uint64_t
perfetto_trace::child_track(uint64_t parent, std::string_view name)
{
    return track(parent, name, false);
}

uint64_t
perfetto_trace::counter_track(uint64_t parent, std::string_view name)
{
    return track(parent, name, true);
}

void
perfetto_trace::slice(uint64_t                             track,
                      uint64_t                             begin,
                      uint64_t                             end,
                      std::string_view                     name,
                      const std::vector<trace_annotation>& annotations)
{
    auto event_packet = [this, track](uint64_t timestamp, const std::string& event_fields)
    {
        auto event = event_fields;
        protowire::field_varint(event, field::event_track_uuid, track);
        auto body = std::string{};
        protowire::field_varint(body, field::packet_timestamp, timestamp);
        protowire::field_varint(
            body, field::packet_timestamp_clock_id, field::builtin_clock_monotonic);
        protowire::field_bytes(body, field::packet_track_event, event);
        packet(body);
    };

    auto begin_fields = std::string{};
    protowire::field_varint(begin_fields, field::event_type, field::type_slice_begin);
    protowire::field_bytes(begin_fields, field::event_name, name);
    for(const auto& a : annotations)
    {
        auto annotation = std::string{};
        protowire::field_bytes(annotation, field::annotation_name, a.name);
        if(const auto* u = std::get_if<uint64_t>(&a.value))
            protowire::field_varint(annotation, field::annotation_uint_value, *u);
        else if(const auto* i = std::get_if<int64_t>(&a.value))
            protowire::field_int64(annotation, field::annotation_int_value, *i);
        else if(const auto* d = std::get_if<double>(&a.value))
            protowire::field_double(annotation, field::annotation_double_value, *d);
        else
            protowire::field_bytes(
                annotation, field::annotation_string_value, std::get<std::string>(a.value));
        protowire::field_bytes(begin_fields, field::event_debug_annotations, annotation);
    }
    event_packet(begin, begin_fields);

    auto end_fields = std::string{};
    protowire::field_varint(end_fields, field::event_type, field::type_slice_end);
    event_packet(end, end_fields);
}

void
perfetto_trace::counter(uint64_t track, uint64_t timestamp, double value)
{
    auto event = std::string{};
    protowire::field_varint(event, field::event_type, field::type_counter);
    protowire::field_varint(event, field::event_track_uuid, track);
    protowire::field_double(event, field::event_double_counter_value, value);
    auto body = std::string{};
    protowire::field_varint(body, field::packet_timestamp, timestamp);
    protowire::field_varint(body, field::packet_timestamp_clock_id, field::builtin_clock_monotonic);
    protowire::field_bytes(body, field::packet_track_event, event);
    packet(body);
}

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
            m_process_ranges.emplace();
            m_process_ranges->parent = m_process;
            m_process_ranges->name   = "Markers (process ranges)";
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
