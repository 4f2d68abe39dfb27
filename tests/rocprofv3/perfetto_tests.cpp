// The protobuf wire encoder of the Perfetto writer, against byte strings worked out by hand from
// the encoding rules, and the trace it writes, read back with a decoder written here (not the
// writer's): tracks, slices, lanes of overlapping dispatches, counter values and their resets.
#include "pftrace/pftrace_builder.hpp"
#include "pftrace/protowire.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace
{
using namespace rocprofiler::tool;

std::string
bytes(std::initializer_list<int> values)
{
    auto out = std::string{};
    for(auto v : values)
        out.push_back(static_cast<char>(v));
    return out;
}

std::string
varint_of(uint64_t value)
{
    auto out = std::string{};
    protowire::varint(out, value);
    return out;
}

TEST(protowire, varints)
{
    EXPECT_EQ(varint_of(0), bytes({0x00}));
    EXPECT_EQ(varint_of(1), bytes({0x01}));
    EXPECT_EQ(varint_of(127), bytes({0x7F}));
    EXPECT_EQ(varint_of(128), bytes({0x80, 0x01}));
    EXPECT_EQ(varint_of(300), bytes({0xAC, 0x02}));
    EXPECT_EQ(varint_of(UINT64_MAX),
              bytes({0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

TEST(protowire, fields)
{
    auto out = std::string{};
    protowire::field_varint(out, 1, 150); // the protobuf documentation's example
    EXPECT_EQ(out, bytes({0x08, 0x96, 0x01}));

    out.clear();
    protowire::field_bytes(out, 2, "testing");
    EXPECT_EQ(out, bytes({0x12, 0x07, 't', 'e', 's', 't', 'i', 'n', 'g'}));

    out.clear();
    protowire::field_bytes(out, 8, {}); // an empty sub-message still has its tag and length
    EXPECT_EQ(out, bytes({0x42, 0x00}));

    out.clear();
    protowire::field_varint(out, 60, 1); // a tag of two bytes: (60 << 3) | 0 = 480
    EXPECT_EQ(out, bytes({0xE0, 0x03, 0x01}));

    out.clear();
    protowire::field_double(out, 44, 1.0); // fixed64, little-endian IEEE 754
    EXPECT_EQ(out, bytes({0xE1, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F}));

    out.clear();
    protowire::field_int64(out, 4, -1); // int64: ten bytes of two's complement
    EXPECT_EQ(out, bytes({0x20, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01}));
}

// A protobuf message read back: per field number, its varint / fixed64 values and its
// length-delimited payloads, in order.
struct message
{
    std::map<uint32_t, std::vector<uint64_t>>    numbers = {};
    std::map<uint32_t, std::vector<std::string>> blobs   = {};

    uint64_t    number(uint32_t f) const { return numbers.at(f).at(0); }
    std::string blob(uint32_t f) const { return blobs.at(f).at(0); }
    bool        has(uint32_t f) const { return numbers.count(f) + blobs.count(f) > 0; }
};

message
decode(const std::string& data)
{
    auto   m        = message{};
    size_t i        = 0;
    auto   read_var = [&]()
    {
        uint64_t value = 0;
        for(unsigned shift = 0;; shift += 7)
        {
            if(i >= data.size()) throw std::runtime_error{"truncated varint"};
            auto b = static_cast<uint8_t>(data[i++]);
            value |= static_cast<uint64_t>(b & 0x7FU) << shift;
            if((b & 0x80U) == 0) break;
        }
        return value;
    };
    while(i < data.size())
    {
        auto key   = read_var();
        auto field = static_cast<uint32_t>(key >> 3U);
        switch(key & 7U)
        {
        case 0:
            m.numbers[field].push_back(read_var());
            break;
        case 1:
        {
            if(i + 8 > data.size()) throw std::runtime_error{"truncated fixed64"};
            uint64_t v = 0;
            std::memcpy(&v, data.data() + i, 8);
            i += 8;
            m.numbers[field].push_back(v);
            break;
        }
        case 2:
        {
            auto n = read_var();
            if(i + n > data.size()) throw std::runtime_error{"truncated bytes"};
            m.blobs[field].push_back(data.substr(i, n));
            i += n;
            break;
        }
        default:
            throw std::runtime_error{"unexpected wire type"};
        }
    }
    return m;
}

double
as_double(uint64_t bits)
{
    auto d = 0.0;
    std::memcpy(&d, &bits, sizeof(d));
    return d;
}

rocprofiler_buffer_tracing_kernel_dispatch_record_t
dispatch(uint64_t id, uint64_t queue, uint64_t start, uint64_t end)
{
    auto r                         = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    r.start_timestamp              = start;
    r.end_timestamp                = end;
    r.dispatch_info.dispatch_id    = id;
    r.dispatch_info.kernel_id      = 7;
    r.dispatch_info.agent_id       = {1};
    r.dispatch_info.queue_id       = {queue};
    r.dispatch_info.grid_size      = {64, 1, 1};
    r.dispatch_info.workgroup_size = {16, 1, 1};
    return r;
}

TEST(perfetto_trace, tracks_slices_and_counters_read_back)
{
    auto data                   = results{};
    data.pid                    = 42;
    data.command                = {"app"};
    auto agent                  = agent_entry{};
    agent.info.id               = {1};
    agent.product_name          = "Host device";
    data.agents                 = {agent};
    data.kernel_symbols[7]      = kernel_symbol{};
    data.kernel_symbols[7].name = "k";
    // Dispatches 1 and 2 overlap on queue 5 (two lanes); 3 follows 2 on the first lane.
    data.dispatches = {
        dispatch(1, 5, 100, 200), dispatch(2, 5, 150, 250), dispatch(3, 5, 200, 300)};
    for(auto [id, start, end, value] :
        {std::tuple{1, 100, 200, 10.0}, std::tuple{3, 200, 300, 30.0}})
    {
        auto rec                 = counter_dispatch{};
        rec.data.dispatch_info   = dispatch(id, 5, start, end).dispatch_info;
        rec.data.start_timestamp = start;
        rec.data.end_timestamp   = end;
        rec.values               = {counter_value{1, "WORK_ITEMS", value}};
        data.counter_records.push_back(rec);
    }

    const auto trace = decode(results_pftrace(data, false));
    ASSERT_TRUE(trace.blobs.count(1));
    auto tracks   = std::map<uint64_t, message>{}; // by uuid
    auto begins   = std::vector<message>{};
    auto counters = std::vector<std::pair<uint64_t, double>>{};
    auto begin_ts = std::vector<uint64_t>{};
    for(const auto& raw : trace.blobs.at(1))
    {
        auto p = decode(raw);
        EXPECT_EQ(p.number(10), 1u); // trusted_packet_sequence_id
        if(p.has(60))
        {
            auto t              = decode(p.blob(60));
            tracks[t.number(1)] = t;
        }
        if(p.has(11))
        {
            EXPECT_EQ(p.number(58), 3u); // BUILTIN_CLOCK_MONOTONIC
            auto e = decode(p.blob(11));
            if(e.number(9) == 1)
            {
                begins.push_back(e);
                begin_ts.push_back(p.number(8));
            }
            if(e.number(9) == 4) counters.emplace_back(p.number(8), as_double(e.number(44)));
        }
    }
    // Process, agent, two queue lanes, one counter track.
    ASSERT_EQ(tracks.size(), 5u);
    EXPECT_EQ(decode(tracks.begin()->second.blob(3)).number(1), 42u); // process pid
    auto by_name = std::map<std::string, message>{};
    for(const auto& [uuid, t] : tracks)
        if(t.has(2)) by_name[t.blob(2)] = t;
    ASSERT_TRUE(by_name.count("Agent 0 (Host device)"));
    ASSERT_TRUE(by_name.count("Queue 5"));
    ASSERT_TRUE(by_name.count("Queue 5 (overlap 1)"));
    ASSERT_TRUE(by_name.count("WORK_ITEMS"));
    EXPECT_TRUE(by_name["WORK_ITEMS"].has(8)); // a CounterDescriptor: a counter track
    const auto lane0 = by_name["Queue 5"].number(1);
    const auto lane1 = by_name["Queue 5 (overlap 1)"].number(1);

    ASSERT_EQ(begins.size(), 3u);
    EXPECT_EQ(begin_ts, (std::vector<uint64_t>{100, 150, 200}));
    EXPECT_EQ(begins[0].number(11), lane0);
    EXPECT_EQ(begins[1].number(11), lane1);
    EXPECT_EQ(begins[2].number(11), lane0);
    EXPECT_EQ(begins[0].blob(23), "k");
    auto first_annotation = decode(begins[1].blobs.at(4).at(0));
    EXPECT_EQ(first_annotation.blob(10), "dispatch_id");
    EXPECT_EQ(first_annotation.number(3), 2u);
    for(const auto& b : begins)
        for(const auto& a : b.blobs.at(4))
            EXPECT_NE(decode(a).blob(10), "replay_pass"); // not under kernel replay

    // 10 from 100; the reset at 200 gives way to 30, which starts there; 0 from 300.
    EXPECT_EQ(counters,
              (std::vector<std::pair<uint64_t, double>>{{100, 10.0}, {200, 30.0}, {300, 0.0}}));
}

// The tool streams: records in arrival order, the bytes taken piece by piece. The pieces form one
// trace; slices that arrive out of start order never overlap on a lane; under kernel replay a
// dispatch's n-th record is its pass n.
TEST(perfetto_trace, streamed_pieces_form_one_trace_with_nesting_lanes)
{
    auto data                   = results{};
    data.pid                    = 7;
    data.kernel_symbols[7].name = "k";
    auto builder                = pftrace_builder{data, true};
    auto bytes                  = builder.take();
    // Dispatch 1 (two passes), then 2 which started earlier, then 3 inside 1's time.
    for(const auto& r : {dispatch(1, 5, 100, 200),
                         dispatch(1, 5, 210, 300),
                         dispatch(2, 5, 50, 90),
                         dispatch(3, 5, 150, 160)})
    {
        builder.dispatch(data, r);
        bytes += builder.take();
    }
    builder.finish();
    bytes += builder.take();

    const auto trace  = decode(bytes);
    auto       slices = std::map<uint64_t, std::vector<std::pair<uint64_t, uint64_t>>>{};
    auto       open   = std::map<uint64_t, uint64_t>{};
    auto       passes = std::map<uint64_t, std::vector<uint64_t>>{}; // by dispatch id
    for(const auto& raw : trace.blobs.at(1))
    {
        auto p = decode(raw);
        if(!p.has(11)) continue;
        auto e     = decode(p.blob(11));
        auto track = e.number(11);
        if(e.number(9) == 1)
        {
            open[track] = p.number(8);
            auto notes  = std::map<std::string, uint64_t>{};
            for(const auto& a : e.blobs.at(4))
            {
                auto n = decode(a);
                if(n.has(3)) notes[n.blob(10)] = n.number(3);
            }
            passes[notes.at("dispatch_id")].push_back(notes.at("replay_pass"));
        }
        if(e.number(9) == 2) slices[track].emplace_back(open.at(track), p.number(8));
    }
    EXPECT_EQ(passes[1], (std::vector<uint64_t>{0, 1}));
    EXPECT_EQ(passes[2], (std::vector<uint64_t>{0}));
    EXPECT_EQ(passes[3], (std::vector<uint64_t>{0}));
    EXPECT_EQ(slices.size(), 2u); // dispatch 2 started before the first lane's end: a second lane
    for(auto& [track, list] : slices)
    {
        std::sort(list.begin(), list.end());
        for(size_t i = 1; i < list.size(); ++i)
            EXPECT_LE(list[i - 1].second, list[i].first) << "slices overlap on track " << track;
    }
}
marker_event
marker_row(std::string function, uint64_t thread, uint64_t start, uint64_t end, bool process)
{
    auto e          = marker_event{};
    e.domain        = "MARKER_CORE_API";
    e.function      = std::move(function);
    e.thread_id     = thread;
    e.start         = start;
    e.end           = end;
    e.process_range = process;
    return e;
}

// Marker rows, in the order they end: a thread's rows on its own track (nested ranges on one
// track, the inner one first), process ranges on their track, overlapping ones on a lane.
TEST(perfetto_trace, markers_are_slices_on_thread_tracks_and_process_range_lanes)
{
    auto data         = results{};
    data.pid          = 9;
    data.markers      = {marker_row("inner", 10, 20, 30, false),
                         marker_row("outer", 10, 10, 40, false),
                         marker_row("mark", 11, 15, 15, false),
                         marker_row("range a", 10, 5, 50, true),
                         marker_row("range b", 11, 45, 60, true)};
    const auto trace  = decode(results_pftrace(data, false));
    auto       names  = std::map<uint64_t, std::string>{}; // track uuid -> name
    auto       parent = std::map<uint64_t, uint64_t>{};
    auto slices = std::vector<std::tuple<std::string, uint64_t, uint64_t>>{}; // name, track, ts
    for(const auto& raw : trace.blobs.at(1))
    {
        auto p = decode(raw);
        if(p.has(60))
        {
            auto t = decode(p.blob(60));
            if(t.has(2)) names[t.number(1)] = t.blob(2);
            if(t.has(5)) parent[t.number(1)] = t.number(5);
        }
        if(p.has(11))
        {
            auto e = decode(p.blob(11));
            if(e.number(9) != 1) continue;
            slices.emplace_back(e.blob(23), e.number(11), p.number(8));
            auto notes = std::map<std::string, message>{};
            for(const auto& a : e.blobs.at(4))
            {
                auto n            = decode(a);
                notes[n.blob(10)] = n;
            }
            EXPECT_EQ(notes.at("domain").blob(6), "MARKER_CORE_API");
            EXPECT_TRUE(notes.count("correlation_id"));
            EXPECT_TRUE(notes.count("thread_id"));
        }
    }
    auto track_of = [&](const std::string& slice)
    {
        for(const auto& [name, track, ts] : slices)
            if(name == slice) return names.at(track);
        return std::string{"(none)"};
    };
    EXPECT_EQ(track_of("inner"), "Markers (thread 10)");
    EXPECT_EQ(track_of("outer"), "Markers (thread 10)");
    EXPECT_EQ(track_of("mark"), "Markers (thread 11)");
    EXPECT_EQ(track_of("range a"), "Markers (process ranges)");
    EXPECT_EQ(track_of("range b"), "Markers (process ranges) (overlap 1)");
    ASSERT_EQ(slices.size(), 5u);
    EXPECT_EQ(std::get<2>(slices[1]), 10u); // outer begins at its start
    // The thread tracks and the first process-range track are children of the process track.
    const auto process = parent.at(std::get<1>(slices[0]));
    EXPECT_EQ(parent.at(std::get<1>(slices[2])), process);
    EXPECT_EQ(parent.at(std::get<1>(slices[3])), process);
    EXPECT_EQ(parent.at(std::get<1>(slices[4])), std::get<1>(slices[3]));
}
} // namespace
