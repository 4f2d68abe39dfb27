// The Perfetto trace (<prefix>_results.pftrace): Perfetto's protobuf trace format, encoded here
// with the protobuf wire format (no libprotobuf). Field numbers are those of Perfetto's public
// schema (protos/perfetto/trace/...); tests/rocprofv3/perfetto_subset.proto restates the subset
// used, and the tests decode the file with it.
//
// A trace is one packet sequence; a track's descriptor comes before its first event (the tool
// streams the trace as records arrive, so descriptors and events interleave). Timestamps are the
// records' CLOCK_MONOTONIC nanoseconds, declared with timestamp_clock_id BUILTIN_CLOCK_MONOTONIC.
// pftrace/pftrace_builder.hpp decides which tracks and events the records become.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

namespace rocprofiler::tool
{
// One debug annotation of a slice: a name and an unsigned, signed, floating or string value.
struct trace_annotation
{
    std::string                                          name  = {};
    std::variant<uint64_t, int64_t, double, std::string> value = uint64_t{0};
};

class perfetto_trace
{
public:
    perfetto_trace();

    // Track uuids are assigned here, from 1, in call order: the trace is deterministic.
    uint64_t process_track(uint64_t pid, std::string_view name);
    uint64_t child_track(uint64_t parent, std::string_view name);
    uint64_t counter_track(uint64_t parent, std::string_view name);

    // A slice [begin, end] (ns) on a slice track: a TYPE_SLICE_BEGIN with the name and the
    // annotations, and a TYPE_SLICE_END.
    void slice(uint64_t                             track,
               uint64_t                             begin,
               uint64_t                             end,
               std::string_view                     name,
               const std::vector<trace_annotation>& annotations);
    // A TYPE_COUNTER event: the counter track has @p value from @p timestamp (ns) on.
    void counter(uint64_t track, uint64_t timestamp, double value);

    // The encoded Trace message (its packets so far), and the same handed over: the packets
    // encoded since the last take(). A Trace is a sequence of packets, so the pieces appended one
    // after another are the whole trace.
    const std::string& bytes() const { return m_out; }
    std::string        take() { return std::exchange(m_out, std::string{}); }

private:
    void     packet(const std::string& body);
    uint64_t track(uint64_t parent, std::string_view name, bool counter);

    std::string m_out       = {};
    uint64_t    m_next_uuid = 1;
    bool        m_first     = true;
};
} // namespace rocprofiler::tool
