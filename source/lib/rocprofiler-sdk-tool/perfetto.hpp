// The Perfetto trace (<prefix>_results.pftrace): Perfetto's protobuf trace format, encoded here
// with the protobuf wire format (no libprotobuf). Field numbers are those of Perfetto's public
// schema (protos/perfetto/trace/...); tests/rocprofv3/perfetto_subset.proto restates the subset
// used, and the tests decode the file with it.
//
// A trace is one packet sequence: track descriptors first, then the events. Tracks are a process
// track for the profiled process, one child track per agent, one child track per queue of that
// agent (more than one when dispatches of a queue overlap, as a slice track must nest), and one
// counter track per agent and counter. Timestamps are the records' CLOCK_MONOTONIC nanoseconds,
// declared with timestamp_clock_id BUILTIN_CLOCK_MONOTONIC.
//
// Memory copies are slices on a "Memory copies" child track of the device agent a copy involves
// ("Memory copies (host)" under the process for a copy within host memory).
// Domains not traced yet (markers) become a track from child_track() and slices from slice() when
// they are added. Nothing here calls the SDK; not thread-safe (one
// writer per call of results_pftrace).
#pragma once

#include "output.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace rocprofiler::tool
{
namespace protowire
{
// Appends the protobuf encodings (https://protobuf.dev/programming-guides/encoding/) to @p out.
void varint(std::string& out, uint64_t value);
void field_varint(std::string& out, uint32_t field, uint64_t value);
void field_int64(std::string& out, uint32_t field, int64_t value); // two's complement varint
void field_double(std::string& out, uint32_t field, double value); // fixed64, little-endian
void field_bytes(std::string& out, uint32_t field, std::string_view bytes); // also strings and
                                                                            // sub-messages
} // namespace protowire

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

    // The encoded Trace message.
    const std::string& bytes() const { return m_out; }

private:
    void     packet(const std::string& body);
    uint64_t track(uint64_t parent, std::string_view name, bool counter);

    std::string m_out       = {};
    uint64_t    m_next_uuid = 1;
    bool        m_first     = true;
};

// The whole trace of @p data: agents, queues, kernel slices (one per kernel_trace.csv row; under
// kernel replay one per pass, annotated with its replay_pass), counter tracks with each
// dispatch's counter values (counter_collection.csv's values, from the dispatch's start; back to
// 0 at its end), and memory copy slices.
std::string results_pftrace(const results& data, bool kernel_replay);
} // namespace rocprofiler::tool
