#include "perfetto.hpp"

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

namespace protowire
{
void
varint(std::string& out, uint64_t value)
{
    while(value >= 0x80)
    {
        out.push_back(static_cast<char>((value & 0x7FU) | 0x80U));
        value >>= 7U;
    }
    out.push_back(static_cast<char>(value));
}

namespace
{
// Wire types: 0 varint, 1 fixed64, 2 length-delimited.
void
tag(std::string& out, uint32_t field, uint32_t wire_type)
{
    varint(out, (static_cast<uint64_t>(field) << 3U) | wire_type);
}
} // namespace

void
field_varint(std::string& out, uint32_t field, uint64_t value)
{
    tag(out, field, 0);
    varint(out, value);
}

void
field_int64(std::string& out, uint32_t field, int64_t value)
{
    field_varint(out, field, static_cast<uint64_t>(value));
}

void
field_double(std::string& out, uint32_t field, double value)
{
    tag(out, field, 1);
    auto bits = uint64_t{0};
    std::memcpy(&bits, &value, sizeof(bits));
    for(int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((bits >> (8U * static_cast<unsigned>(i))) & 0xFFU));
}

void
field_bytes(std::string& out, uint32_t field, std::string_view bytes)
{
    tag(out, field, 2);
    varint(out, bytes.size());
    out.append(bytes);
}
} // namespace protowire

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
// Slices of one track must nest. Dispatches of one queue that overlap (a queue that runs several
// at once) go to further lanes: lane 0 is the queue's own track, lane n a child "... (overlap n)".
struct lanes
{
    uint64_t              parent    = 0;
    std::string           name      = {};
    std::vector<uint64_t> tracks    = {};
    std::vector<uint64_t> last_ends = {};

    uint64_t place(perfetto_trace& trace, uint64_t begin, uint64_t end)
    {
        for(size_t i = 0; i < tracks.size(); ++i)
            if(last_ends[i] <= begin)
            {
                last_ends[i] = end;
                return tracks[i];
            }
        const auto track =
            tracks.empty()
                ? trace.child_track(parent, name)
                : trace.child_track(tracks.front(),
                                    name + " (overlap " + std::to_string(tracks.size()) + ")");
        tracks.emplace_back(track);
        last_ends.emplace_back(end);
        return track;
    }
};

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

std::string
results_pftrace(const results& data, bool kernel_replay)
{
    auto trace = perfetto_trace{};
    // The process is named by its program's file name, as the UI's process list shows it.
    auto program = data.command.empty() ? std::string{"process"} : data.command.front();
    if(auto slash = program.find_last_of('/');
       slash != std::string::npos && slash + 1 < program.size())
        program = program.substr(slash + 1);
    auto process = trace.process_track(data.pid, program);

    auto agent_tracks = std::map<uint64_t, uint64_t>{}; // by agent handle
    auto agent_track  = [&](rocprofiler_agent_id_t id)
    {
        auto it = agent_tracks.find(id.handle);
        if(it == agent_tracks.end())
            it = agent_tracks
                     .emplace(id.handle, trace.child_track(process, agent_track_name(data, id)))
                     .first;
        return it->second;
    };

    // Kernel slices, in start order (lanes need it). Under kernel replay a dispatch has one record
    // per pass: its pass is that of the counter record with the same timestamps, else (no counter
    // record for it) its rank among the dispatch's records, as passes run one after the other.
    auto pass_of = std::map<std::tuple<uint64_t, uint64_t, uint64_t>, uint64_t>{};
    for(const auto& rec : data.counter_records)
        if(rec.replay_pass)
            pass_of[{rec.data.dispatch_info.dispatch_id,
                     rec.data.start_timestamp,
                     rec.data.end_timestamp}] = *rec.replay_pass;
    auto order = std::vector<size_t>(data.dispatches.size());
    for(size_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::stable_sort(
        order.begin(),
        order.end(),
        [&](size_t a, size_t b)
        { return data.dispatches[a].start_timestamp < data.dispatches[b].start_timestamp; });
    auto passes = std::map<uint64_t, uint64_t>{}; // by dispatch id: records seen
    auto queues = std::map<std::pair<uint64_t, uint64_t>, lanes>{};
    for(auto index : order)
    {
        const auto& r   = data.dispatches[index];
        const auto& d   = r.dispatch_info;
        auto        key = std::pair{d.agent_id.handle, d.queue_id.handle};
        auto        it  = queues.find(key);
        if(it == queues.end())
        {
            auto lane   = lanes{};
            lane.parent = agent_track(d.agent_id);
            lane.name   = "Queue " + std::to_string(d.queue_id.handle);
            it          = queues.emplace(key, std::move(lane)).first;
        }
        const auto track = it->second.place(trace, r.start_timestamp, r.end_timestamp);
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
        if(kernel_replay)
        {
            auto rank  = passes[d.dispatch_id]++;
            auto found = pass_of.find({d.dispatch_id, r.start_timestamp, r.end_timestamp});
            notes.push_back({"replay_pass", found != pass_of.end() ? found->second : rank});
        }
        trace.slice(
            track, r.start_timestamp, r.end_timestamp, data.kernel_name(d.kernel_id), notes);
    }

    // Memory copies, on a "Memory copies" track of the device agent they involve (the
    // destination's, but the source's for a device-to-host copy), with lanes as for queues; a copy
    // between two places in host memory on a "Memory copies (host)" track of the process.
    auto copy_order = std::vector<size_t>(data.memory_copies.size());
    for(size_t i = 0; i < copy_order.size(); ++i)
        copy_order[i] = i;
    std::stable_sort(
        copy_order.begin(),
        copy_order.end(),
        [&](size_t a, size_t b)
        { return data.memory_copies[a].start_timestamp < data.memory_copies[b].start_timestamp; });
    auto copy_lanes = std::map<uint64_t, lanes>{}; // by agent handle
    for(auto index : copy_order)
    {
        const auto& c = data.memory_copies[index];
        const auto  agent =
            c.operation == ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST ? c.src_agent_id : c.dst_agent_id;
        auto it = copy_lanes.find(agent.handle);
        if(it == copy_lanes.end())
        {
            auto lane   = lanes{};
            lane.parent = agent.handle != 0 ? agent_track(agent) : process;
            lane.name   = agent.handle != 0 ? "Memory copies" : "Memory copies (host)";
            it          = copy_lanes.emplace(agent.handle, std::move(lane)).first;
        }
        const auto track = it->second.place(trace, c.start_timestamp, c.end_timestamp);
        auto       notes = std::vector<trace_annotation>{
                  {"bytes", c.bytes},
                  {"correlation_id", c.correlation_id.internal},
                  {"src_agent", memory_copy_agent(data, c.src_agent_id)},
                  {"dst_agent", memory_copy_agent(data, c.dst_agent_id)},
                  {"thread_id", c.thread_id},
        };
        trace.slice(track,
                    c.start_timestamp,
                    c.end_timestamp,
                    memory_copy_direction_name(c.operation),
                    notes);
    }

    // Counter tracks, one per agent and counter name. Each dispatch's value holds from its start
    // to its end, where the counter returns to 0, unless another value starts at that instant.
    struct point
    {
        uint64_t timestamp = 0;
        bool     is_reset  = false;
        double   value     = 0.0;
    };
    auto counter_points = std::map<std::pair<uint64_t, std::string>, std::vector<point>>{};
    for(const auto& rec : data.counter_records)
        for(const auto& v : rec.values)
        {
            auto& points = counter_points[{rec.data.dispatch_info.agent_id.handle, v.name}];
            points.push_back({rec.data.start_timestamp, false, v.value});
            points.push_back({rec.data.end_timestamp, true, 0.0});
        }
    for(auto& [key, points] : counter_points)
    {
        const auto track =
            trace.counter_track(agent_track(rocprofiler_agent_id_t{key.first}), key.second);
        std::stable_sort(
            points.begin(),
            points.end(),
            [](const point& a, const point& b)
            { return std::tie(a.timestamp, b.is_reset) < std::tie(b.timestamp, a.is_reset); });
        for(size_t i = 0; i < points.size(); ++i)
        {
            const auto& p = points[i];
            if(p.is_reset && i + 1 < points.size() && points[i + 1].timestamp == p.timestamp)
                continue;
            trace.counter(track, p.timestamp, p.value);
        }
    }
    return trace.bytes();
}
} // namespace rocprofiler::tool
