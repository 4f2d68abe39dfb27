#include "job_pftrace.hpp"
#include "errors.hpp"

#include "pftrace/protowire.hpp"

#include <cstdio>
#include <iostream>

namespace rocpd
{
namespace
{
namespace protowire = rocprofiler::tool::protowire;

// Field numbers of Perfetto's public schema that carry a track uuid or the sequence
// (tests/rocprofv3/perfetto_subset.proto states them).
constexpr uint32_t trace_packet            = 1;  // Trace.packet
constexpr uint32_t packet_sequence_id      = 10; // TracePacket.trusted_packet_sequence_id
constexpr uint32_t packet_track_event      = 11; // TracePacket.track_event
constexpr uint32_t packet_track_descriptor = 60; // TracePacket.track_descriptor
constexpr uint32_t descriptor_uuid         = 1;  // TrackDescriptor.uuid
constexpr uint32_t descriptor_parent_uuid  = 5;  // TrackDescriptor.parent_uuid
constexpr uint32_t event_track_uuid        = 11; // TrackEvent.track_uuid
constexpr int      wire_varint             = 0;
constexpr int      wire_fixed64            = 1;
constexpr int      wire_length             = 2;
constexpr int      wire_fixed32            = 5;

[[noreturn]] void
malformed()
{
    throw failure{exit_code::internal, "pftrace: the trace builder wrote a malformed packet"};
}

uint64_t
read_varint(std::string_view bytes, size_t& at)
{
    auto value = uint64_t{0};
    for(int shift = 0; shift < 64; shift += 7)
    {
        if(at >= bytes.size()) malformed();
        const auto byte = static_cast<uint8_t>(bytes[at++]);
        value |= static_cast<uint64_t>(byte & 0x7f) << shift;
        if((byte & 0x80) == 0) return value;
    }
    malformed();
}

// Calls @p on(field, wire type, varint value, field bytes) for each field of @p message: the
// value for a varint, the payload for a length-delimited field, the whole field otherwise.
template <typename F>
void
each_field(std::string_view message, F&& on)
{
    size_t at = 0;
    while(at < message.size())
    {
        const auto start = at;
        const auto key   = read_varint(message, at);
        const auto field = static_cast<uint32_t>(key >> 3);
        const auto wire  = static_cast<int>(key & 7);
        switch(wire)
        {
        case wire_varint:
        {
            const auto value = read_varint(message, at);
            on(field, wire, value, message.substr(start, at - start));
            break;
        }
        case wire_length:
        {
            const auto size = read_varint(message, at);
            if(size > message.size() - at) malformed();
            on(field, wire, 0, message.substr(at, size));
            at += size;
            break;
        }
        case wire_fixed64:
        case wire_fixed32:
        {
            const size_t size = wire == wire_fixed64 ? 8 : 4;
            if(size > message.size() - at) malformed();
            at += size;
            on(field, wire, 0, message.substr(start, at - start));
            break;
        }
        default:
            malformed();
        }
    }
}

// @p message with its varint fields in @p uuid_fields moved by @p base (0 kept).
std::string
renumber_fields(std::string_view                message,
                std::initializer_list<uint32_t> uuid_fields,
                uint64_t                        base)
{
    auto out = std::string{};
    each_field(message,
               [&](uint32_t field, int wire, uint64_t value, std::string_view bytes)
               {
                   auto is_uuid = false;
                   for(auto f : uuid_fields)
                       is_uuid = is_uuid || f == field;
                   if(wire == wire_varint && is_uuid)
                       protowire::field_varint(out, field, value == 0 ? 0 : value + base);
                   else if(wire == wire_length)
                       protowire::field_bytes(out, field, bytes);
                   else
                       out.append(bytes);
               });
    return out;
}
} // namespace

std::string
renumber_trace(std::string_view trace, uint32_t sequence, uint64_t uuid_base)
{
    auto out = std::string{};
    each_field(trace,
               [&](uint32_t field, int wire, uint64_t, std::string_view packet)
               {
                   if(field != trace_packet || wire != wire_length) malformed();
                   auto body = std::string{};
                   each_field(
                       packet,
                       [&](uint32_t f, int w, uint64_t, std::string_view bytes)
                       {
                           if(f == packet_sequence_id && w == wire_varint)
                               protowire::field_varint(body, f, sequence);
                           else if(f == packet_track_descriptor && w == wire_length)
                               protowire::field_bytes(
                                   body,
                                   f,
                                   renumber_fields(bytes,
                                                   {descriptor_uuid, descriptor_parent_uuid},
                                                   uuid_base));
                           else if(f == packet_track_event && w == wire_length)
                               protowire::field_bytes(
                                   body, f, renumber_fields(bytes, {event_track_uuid}, uuid_base));
                           else if(w == wire_length)
                               protowire::field_bytes(body, f, bytes);
                           else
                               body.append(bytes);
                       });
                   protowire::field_bytes(out, trace_packet, body);
               });
    return out;
}

job_pftrace::job_pftrace(std::string path)
    : m_path{std::move(path)}
{
    m_out.open(m_path, std::ios::binary | std::ios::trunc);
    if(!m_out) throw failure{exit_code::output, m_path + ": cannot write"};
}

job_pftrace::~job_pftrace()
{
    if(m_closed) return;
    m_out.close();
    std::remove(m_path.c_str());
}

rocprofiler::tool::pftrace_builder&
job_pftrace::begin_process(const rocprofiler::tool::results& data)
{
    if(m_builder) end_process();
    m_builder.emplace(data, false);
    ++m_processes;
    flush();
    return *m_builder;
}

void
job_pftrace::flush()
{
    if(!m_builder) return;
    const auto bytes = m_builder->take();
    if(bytes.empty()) return;
    m_out << renumber_trace(
        bytes, static_cast<uint32_t>(m_processes), static_cast<uint64_t>(m_processes) << 32);
    if(!m_out) throw failure{exit_code::output, m_path + ": cannot write"};
}

void
job_pftrace::end_process()
{
    if(!m_builder) return;
    m_builder->finish();
    flush();
    m_builder.reset();
}

void
job_pftrace::close()
{
    end_process();
    m_out.close();
    if(!m_out) throw failure{exit_code::output, m_path + ": cannot write"};
    m_closed = true;
}
} // namespace rocpd
