#include "pftrace/trace_writer.hpp"
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
    protowire::field_string(descriptor, field::track_name, name);
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
    protowire::field_string(process, field::process_name, name);
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
    protowire::field_string(begin_fields, field::event_name, name);
    for(const auto& a : annotations)
    {
        auto annotation = std::string{};
        protowire::field_string(annotation, field::annotation_name, a.name);
        if(const auto* u = std::get_if<uint64_t>(&a.value))
            protowire::field_varint(annotation, field::annotation_uint_value, *u);
        else if(const auto* i = std::get_if<int64_t>(&a.value))
            protowire::field_int64(annotation, field::annotation_int_value, *i);
        else if(const auto* d = std::get_if<double>(&a.value))
            protowire::field_double(annotation, field::annotation_double_value, *d);
        else
            protowire::field_string(
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
} // namespace rocprofiler::tool
