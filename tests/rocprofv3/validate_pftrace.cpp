// Validates <P>_results.pftrace against the CSV files of the same run (the run's ground truth),
// decoding the trace with protoc and tests/rocprofv3/perfetto_subset.proto, so that the file is
// read by protobuf's own decoder, not by the code that wrote it.
//
//   validate_pftrace --protoc PROTOC --proto FILE --dir D --prefix P [--passes G] [--counters]
//                    [--slices N] [--copies] [--markers]
//
// Checks, and exits non-zero with a message on the first violation:
// - protoc is there (a missing protoc is a failure that says so, never a skip) and decodes the
//   file as perfetto_subset.Trace;
// - every packet is on trusted_packet_sequence_id 1; the first holds a clock snapshot whose primary
//   clock is BUILTIN_CLOCK_MONOTONIC; every event has timestamp_clock_id 3 (MONOTONIC);
// - one process track; every agent track is its child, named "Agent <Agent_Id> ..."; every kernel
//   slice (a slice on neither a "Memory copies" nor a "Markers" track) is on a track named
//   "Queue <Queue_Id>" (or one of its overlap lanes) under its agent's track;
// - kernel slices (begin/end pairs on their track) are exactly <P>_kernel_trace.csv's rows: the
//   same multiset of (Dispatch_Id, Kernel_Name, Start_Timestamp, End_Timestamp, Agent_Id,
//   Queue_Id), the CSV files' agent "Agent N" (which must have that form: the default -A) being
//   the trace's agent N;
// - with --slices N (a run with -f pftrace only, no CSV file to compare with): exactly N slices,
//   each named, with the annotations above;
// - with --passes G (kernel replay with G groups), every slice has a replay_pass annotation and
//   each dispatch's slices carry exactly the passes 0..G-1; without it no slice has one;
// - with --copies, the slices on tracks named "Memory copies" (or their overlap lanes) are exactly
//   <P>_memory_copy_trace.csv's rows: the same multiset of (Direction, Start_Timestamp,
//   End_Timestamp, Bytes, Source_Agent_Id, Destination_Agent_Id: "Agent N" as N, "host" as it is),
//   each under the track of its destination agent (its source agent for a device-to-host copy; a
//   copy within host memory on "Memory copies (host)" under the process track); without --copies
//   there is no such slice;
// - with --markers, the slices on tracks named "Markers ..." are exactly <P>_marker_api_trace.csv's
//   rows: the same multiset of (Domain, Function, Thread_Id, Correlation_Id, Start_Timestamp,
//   End_Timestamp), as the slice's "domain" (string_value), name, "thread_id" and "correlation_id"
//   (uint_value) annotations, begin and end; each slice's end is the packet right after its begin.
//   A slice is on "Markers (thread <thread_id>)", one track per thread, a child of the process
//   track, or (a process-wide start/stop range) on "Markers (process ranges)", a child of the
//   process track, or one of its overlap lanes "Markers (process ranges) (overlap N)", children of
//   that track. The slices of any one of these tracks nest (any two are disjoint or one contains
//   the other, equal timestamps allowed), and a thread track's slices are written in the order they
//   end. Without --markers there is no such slice;
// - with --copies or --markers, a run without kernel_trace.csv must have no kernel slice;
// - with --counters, every row of <P>_counter_collection.csv is one TYPE_COUNTER event with its
//   Counter_Value at its Start_Timestamp, on the counter track of that name under its agent's
//   track (Agent_Id "Agent N": agent N); the Counter_Value is the form of its value, and the text
//   the event's value has in that form (6 decimals when >= 1, 8 mantissa decimals below 1); every
//   other counter event is a return to 0 at a row's End_Timestamp.
#include "csv_rows.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <tuple>
#include <unistd.h>
#include <vector>

namespace
{
[[noreturn]] void
fail(const std::string& message)
{
    std::fprintf(stderr, "validate_pftrace: FAIL: %s\n", message.c_str());
    std::exit(1);
}

using rocprofv3_validate::column;
using rocprofv3_validate::read_csv_or_fail;

// A message of protobuf's text format: scalar fields as their text, sub-messages as nodes.
struct node
{
    std::map<std::string, std::vector<std::string>> values   = {};
    std::map<std::string, std::vector<node>>        children = {};

    bool has(const std::string& key) const { return values.count(key) + children.count(key) > 0; }
    const std::string& value(const std::string& key) const
    {
        auto it = values.find(key);
        if(it == values.end() || it->second.empty()) fail("a message has no field '" + key + "'");
        return it->second.front();
    }
    uint64_t    number(const std::string& key) const { return std::stoull(value(key)); }
    const node& child(const std::string& key) const
    {
        auto it = children.find(key);
        if(it == children.end() || it->second.empty()) fail("a message has no '" + key + "'");
        return it->second.front();
    }
};

std::string
unquote(const std::string& text)
{
    if(text.size() < 2 || text.front() != '"' || text.back() != '"') return text;
    auto out = std::string{};
    for(size_t i = 1; i + 1 < text.size(); ++i)
    {
        if(text[i] != '\\')
        {
            out.push_back(text[i]);
            continue;
        }
        auto c = text[++i];
        if(c >= '0' && c <= '7')
        {
            int v = 0;
            for(int n = 0; n < 3 && i + 1 < text.size() && text[i] >= '0' && text[i] <= '7'; ++n)
                v = v * 8 + (text[i++] - '0');
            --i;
            out.push_back(static_cast<char>(v));
        }
        else if(c == 'n')
            out.push_back('\n');
        else if(c == 't')
            out.push_back('\t');
        else if(c == 'r')
            out.push_back('\r');
        else
            out.push_back(c);
    }
    return out;
}

node
parse_text_format(const std::string& text)
{
    auto root  = node{};
    auto stack = std::vector<node*>{&root};
    auto lines = std::istringstream{text};
    auto line  = std::string{};
    while(std::getline(lines, line))
    {
        auto b = line.find_first_not_of(' ');
        if(b == std::string::npos) continue;
        line = line.substr(b);
        if(line == "}")
        {
            if(stack.size() < 2) fail("unbalanced '}' in protoc's output");
            stack.pop_back();
        }
        else if(line.size() > 2 && line.substr(line.size() - 2) == " {")
        {
            auto& list = stack.back()->children[line.substr(0, line.size() - 2)];
            list.emplace_back();
            stack.push_back(&list.back());
        }
        else if(auto colon = line.find(": "); colon != std::string::npos)
            stack.back()->values[line.substr(0, colon)].push_back(unquote(line.substr(colon + 2)));
        else
            fail("unexpected line in protoc's output: " + line);
    }
    if(stack.size() != 1) fail("unbalanced '{' in protoc's output");
    return root;
}

std::string
decode_with_protoc(const std::string& protoc, const std::string& proto, const std::string& trace)
{
    if(protoc.empty() || protoc.find("NOTFOUND") != std::string::npos ||
       access(protoc.c_str(), X_OK) != 0)
        fail("protoc missing ('" + protoc +
             "'): install protobuf-compiler (scripts/install-deps.sh) and configure again");
    auto slash   = proto.find_last_of('/');
    auto dir     = slash == std::string::npos ? std::string{"."} : proto.substr(0, slash);
    auto file    = slash == std::string::npos ? proto : proto.substr(slash + 1);
    auto command = "'" + protoc + "' --decode=perfetto_subset.Trace -I '" + dir + "' '" + file +
                   "' < '" + trace + "'";
    auto* pipe = popen(command.c_str(), "r");
    if(pipe == nullptr) fail("could not run " + command);
    auto out = std::string{};
    char buf[1 << 16];
    for(size_t n; (n = fread(buf, 1, sizeof(buf), pipe)) > 0;)
        out.append(buf, n);
    auto status = pclose(pipe);
    if(status != 0) fail("protoc could not decode " + trace + " (" + command + ")");
    return out;
}

bool
starts_with(const std::string& text, const std::string& prefix)
{
    return text.compare(0, prefix.size(), prefix) == 0;
}

// One slice on a marker track, as the trace has it.
struct marker_slice
{
    uint64_t    track       = 0;
    std::string name        = {};
    uint64_t    start       = 0;
    uint64_t    end         = 0;
    std::string domain      = {};
    uint64_t    correlation = 0;
    uint64_t    thread      = 0;
};

std::string
describe(const marker_slice& m)
{
    return "'" + m.name + "' (" + std::to_string(m.start) + ".." + std::to_string(m.end) + ")";
}

// Any two slices of one track are disjoint or one contains the other (equal timestamps allowed).
void
check_nesting(std::vector<const marker_slice*> list, const std::string& track_name)
{
    std::sort(list.begin(),
              list.end(),
              [](const auto* a, const auto* b)
              { return a->start != b->start ? a->start < b->start : a->end > b->end; });
    auto open = std::vector<const marker_slice*>{}; // each inside the one before it
    for(const auto* m : list)
    {
        while(!open.empty() && open.back()->end <= m->start)
            open.pop_back();
        if(!open.empty() && m->end > open.back()->end)
            fail("on track '" + track_name + "', the marker slices " + describe(*open.back()) +
                 " and " + describe(*m) + " overlap, and neither contains the other");
        open.push_back(m);
    }
}
} // namespace

int
main(int argc, char** argv)
{
    auto protoc = std::string{}, proto = std::string{}, dir = std::string{}, prefix = std::string{};
    auto passes          = uint64_t{0};
    bool counters        = false;
    bool copies          = false;
    bool markers         = false;
    auto expected_slices = std::optional<size_t>{};
    for(auto args = rocprofv3_validate::arguments{argc, argv, fail}; args.next();)
    {
        if(args.is("--protoc"))
            protoc = args.value();
        else if(args.is("--proto"))
            proto = args.value();
        else if(args.is("--dir"))
            dir = args.value();
        else if(args.is("--prefix"))
            prefix = args.value();
        else if(args.is("--passes"))
            passes = std::stoull(args.value());
        else if(args.is("--counters"))
            counters = true;
        else if(args.is("--copies"))
            copies = true;
        else if(args.is("--markers"))
            markers = true;
        else if(args.is("--slices"))
            expected_slices = std::stoull(args.value());
        else
            args.unknown();
    }
    const auto base = dir + "/" + prefix + "_";
    const auto trace =
        parse_text_format(decode_with_protoc(protoc, proto, base + "results.pftrace"));
    if(!trace.children.count("packet")) fail("the trace has no packet");
    const auto& packets = trace.children.at("packet");

    // Packets, tracks and events.
    struct track
    {
        uint64_t    parent  = 0;
        std::string name    = {};
        bool        process = false;
        bool        counter = false;
    };
    auto tracks = std::map<uint64_t, track>{};
    struct event
    {
        uint64_t    timestamp = 0;
        const node* e         = nullptr;
        size_t      packet    = 0; // its index in the file
    };
    auto events = std::vector<event>{};
    for(size_t i = 0; i < packets.size(); ++i)
    {
        const auto& p = packets[i];
        if(p.value("trusted_packet_sequence_id") != "1")
            fail("packet " + std::to_string(i) + " is not on trusted_packet_sequence_id 1");
        if(i == 0 &&
           (!p.has("clock_snapshot") ||
            p.child("clock_snapshot").value("primary_trace_clock") != "BUILTIN_CLOCK_MONOTONIC"))
            fail("the first packet is not a clock snapshot with primary clock MONOTONIC");
        if(p.has("track_descriptor"))
        {
            const auto& d = p.child("track_descriptor");
            auto        t = track{};
            t.parent      = d.has("parent_uuid") ? d.number("parent_uuid") : 0;
            t.name        = d.has("name") ? d.value("name") : "";
            t.process     = d.has("process");
            t.counter     = d.has("counter");
            if(!tracks.emplace(d.number("uuid"), t).second)
                fail("track uuid " + d.value("uuid") + " is described twice");
        }
        if(p.has("track_event"))
        {
            if(p.value("timestamp_clock_id") != "3")
                fail("an event's timestamp_clock_id is not 3 (BUILTIN_CLOCK_MONOTONIC)");
            events.push_back({p.number("timestamp"), &p.child("track_event"), i});
        }
    }
    auto process_tracks =
        std::count_if(tracks.begin(), tracks.end(), [](const auto& t) { return t.second.process; });
    if(process_tracks != 1)
        fail("expected one process track, found " + std::to_string(process_tracks));

    // The agent number of the track holding a slice or counter: its nearest ancestor named
    // "Agent N", which must be a child of the process track.
    auto agent_of = [&tracks](uint64_t uuid) -> std::string
    {
        for(auto at = uuid; tracks.count(at) > 0; at = tracks.at(at).parent)
        {
            const auto& t = tracks.at(at);
            if(!starts_with(t.name, "Agent ")) continue;
            if(tracks.count(t.parent) == 0 || !tracks.at(t.parent).process)
                fail("agent track '" + t.name + "' is not a child of the process track");
            auto rest = t.name.substr(6);
            return rest.substr(0, rest.find(' '));
        }
        fail("track " + std::to_string(uuid) + " has no agent track above it");
    };

    // Slices: a TYPE_SLICE_END closes the last open slice of its track.
    using slice_key =
        std::tuple<std::string, std::string, uint64_t, uint64_t, std::string, std::string>;
    auto slices = std::multiset<slice_key>{};
    using copy_key =
        std::tuple<std::string, uint64_t, uint64_t, std::string, std::string, std::string>;
    auto copy_slices   = std::multiset<copy_key>{};
    auto marker_slices = std::vector<marker_slice>{};
    auto slice_pass    = std::map<std::string, std::vector<uint64_t>>{}; // by dispatch id
    auto open          = std::map<uint64_t, std::vector<event>>{};
    auto counter_events =
        std::map<std::tuple<std::string, std::string>, std::vector<std::pair<uint64_t, double>>>{};
    for(const auto& ev : events)
    {
        const auto& e     = *ev.e;
        const auto  track = e.number("track_uuid");
        if(tracks.count(track) == 0)
            fail("an event is on undescribed track " + e.value("track_uuid"));
        const auto& type = e.value("type");
        if(type == "TYPE_SLICE_BEGIN")
        {
            if(tracks.at(track).counter)
                fail("a slice is on counter track " + e.value("track_uuid"));
            open[track].push_back(ev);
        }
        else if(type == "TYPE_SLICE_END")
        {
            if(open[track].empty())
                fail("a slice end without a begin on track " + e.value("track_uuid"));
            auto begin = open[track].back();
            open[track].pop_back();
            const auto& b     = *begin.e;
            auto        notes = std::map<std::string, std::string>{};
            if(b.children.count("debug_annotations"))
                for(const auto& a : b.children.at("debug_annotations"))
                    notes[a.value("name")] = a.has("uint_value")     ? a.value("uint_value")
                                             : a.has("string_value") ? a.value("string_value")
                                                                     : "";
            if(starts_with(tracks.at(track).name, "Markers"))
            {
                // Its begin and its end are adjacent packets; what each annotation holds.
                if(ev.packet != begin.packet + 1)
                    fail("the marker slice '" + b.value("name") + "' at " +
                         std::to_string(begin.timestamp) +
                         " does not end in the packet right after its begin");
                auto typed = [&](const char* key, const char* field) -> std::string
                {
                    if(b.children.count("debug_annotations"))
                        for(const auto& a : b.children.at("debug_annotations"))
                            if(a.value("name") == key && a.has(field)) return a.value(field);
                    fail("the marker slice '" + b.value("name") + "' at " +
                         std::to_string(begin.timestamp) + " has no " + key + " annotation (" +
                         field + ")");
                };
                marker_slices.push_back({track,
                                         b.value("name"),
                                         begin.timestamp,
                                         ev.timestamp,
                                         typed("domain", "string_value"),
                                         std::stoull(typed("correlation_id", "uint_value")),
                                         std::stoull(typed("thread_id", "uint_value"))});
                continue;
            }
            if(starts_with(tracks.at(track).name, "Memory copies"))
            {
                for(const auto* key : {"bytes", "src_agent", "dst_agent", "correlation_id"})
                    if(notes.count(key) == 0)
                        fail(std::string{"a memory copy slice has no "} + key + " annotation");
                const auto& name = b.value("name");
                const auto  device =
                    name == "MEMORY_COPY_DEVICE_TO_HOST" ? notes["src_agent"] : notes["dst_agent"];
                // Within host memory: on "Memory copies (host)", a child of the process track.
                const auto& lane = tracks.at(track);
                if(device == "host"
                       ? lane.name != "Memory copies (host)" || tracks.count(lane.parent) == 0 ||
                             !tracks.at(lane.parent).process
                       : agent_of(track) != device)
                    fail("the " + name + " slice at " + std::to_string(begin.timestamp) +
                         " is on track '" + lane.name + "', not on the copies track of " +
                         (device == "host" ? std::string{"the host"} : "agent " + device));
                copy_slices.insert({name,
                                    begin.timestamp,
                                    ev.timestamp,
                                    notes["bytes"],
                                    notes["src_agent"],
                                    notes["dst_agent"]});
                continue;
            }
            for(const auto* key : {"dispatch_id", "agent", "queue"})
                if(notes.count(key) == 0)
                    fail(std::string{"a kernel slice has no "} + key + " annotation");
            // The queue track (or an overlap lane under it) names the slice's queue.
            auto lane = tracks.at(track);
            if(!starts_with(lane.name, "Queue " + notes["queue"]))
                fail("the slice of dispatch " + notes["dispatch_id"] + " is on track '" +
                     lane.name + "', not on queue " + notes["queue"]);
            const auto agent = agent_of(track);
            if(agent != notes["agent"])
                fail("the slice of dispatch " + notes["dispatch_id"] + " is under agent " + agent +
                     ", its annotation says " + notes["agent"]);
            slices.insert({notes["dispatch_id"],
                           b.value("name"),
                           begin.timestamp,
                           ev.timestamp,
                           agent,
                           notes["queue"]});
            if(notes.count("replay_pass"))
            {
                if(passes == 0) fail("a slice has a replay_pass annotation without kernel replay");
                slice_pass[notes["dispatch_id"]].push_back(std::stoull(notes["replay_pass"]));
            }
            else if(passes > 0)
                fail("the slice of dispatch " + notes["dispatch_id"] +
                     " has no replay_pass annotation");
        }
        else if(type == "TYPE_COUNTER")
        {
            if(!tracks.at(track).counter) fail("a counter event is on a slice track");
            counter_events[{agent_of(track), tracks.at(track).name}].emplace_back(
                ev.timestamp, std::strtod(e.value("double_counter_value").c_str(), nullptr));
        }
        else
            fail("unexpected event type " + type);
    }
    for(const auto& [track, list] : open)
        if(!list.empty()) fail("a slice on track " + std::to_string(track) + " is never ended");

    // The markers.
    if(!marker_slices.empty() && !markers)
        fail("the trace has marker slices, but --markers was not given");
    if(markers)
    {
        // Their tracks: one per thread under the process track, and the process ranges' lanes.
        const auto process_ranges = std::string{"Markers (process ranges)"};
        auto       is_process     = [&](uint64_t uuid)
        { return tracks.count(uuid) > 0 && tracks.at(uuid).process; };
        auto thread_tracks = std::map<uint64_t, uint64_t>{}; // thread -> track
        auto by_track      = std::map<uint64_t, std::vector<const marker_slice*>>{};
        auto first_lane    = std::optional<uint64_t>{};
        for(const auto& m : marker_slices)
        {
            const auto& t = tracks.at(m.track);
            if(t.name == process_ranges)
            {
                if(!is_process(t.parent))
                    fail("the track '" + t.name + "' is not a child of the process track");
                if(first_lane && *first_lane != m.track)
                    fail("the trace has two tracks named '" + process_ranges + "'");
                first_lane = m.track;
            }
            else if(starts_with(t.name, process_ranges + " (overlap "))
            {
                const auto n = t.name.substr(process_ranges.size() + 10);
                if(n.size() < 2 || n.back() != ')' ||
                   n.find_first_not_of("0123456789") != n.size() - 1)
                    fail("the marker slice " + describe(m) + " is on track '" + t.name +
                         "', not an overlap lane 'Markers (process ranges) (overlap N)'");
                if(tracks.count(t.parent) == 0 || tracks.at(t.parent).name != process_ranges ||
                   !is_process(tracks.at(t.parent).parent))
                    fail("the overlap lane '" + t.name + "' is not a child of the track '" +
                         process_ranges + "' under the process track");
            }
            else
            {
                const auto name = "Markers (thread " + std::to_string(m.thread) + ")";
                if(t.name != name)
                    fail("the marker slice " + describe(m) + " of thread " +
                         std::to_string(m.thread) + " is on track '" + t.name + "', not on '" +
                         name + "' (nor on the process ranges' track)");
                if(!is_process(t.parent))
                    fail("the track '" + t.name + "' is not a child of the process track");
                if(!thread_tracks.emplace(m.thread, m.track).second &&
                   thread_tracks.at(m.thread) != m.track)
                    fail("the trace has two tracks named '" + name + "'");
            }
            by_track[m.track].push_back(&m);
        }
        // Each track's slices nest. A thread's slices are written in the order they end.
        for(const auto& [uuid, list] : by_track)
        {
            const auto& name = tracks.at(uuid).name;
            check_nesting(list, name);
            if(!starts_with(name, "Markers (thread ")) continue;
            for(size_t i = 1; i < list.size(); ++i)
                if(list[i]->end < list[i - 1]->end)
                    fail("on track '" + name + "', the marker slice " + describe(*list[i]) +
                         " is written after " + describe(*list[i - 1]) +
                         ", which ends later: marker slices are written in the order they end");
        }

        // They are exactly marker_api_trace.csv's rows.
        using marker_key =
            std::tuple<std::string, std::string, uint64_t, uint64_t, uint64_t, uint64_t>;
        auto key_text = [](const marker_key& k)
        {
            return std::get<0>(k) + ", '" + std::get<1>(k) + "', thread " +
                   std::to_string(std::get<2>(k)) + ", correlation id " +
                   std::to_string(std::get<3>(k)) + ", " + std::to_string(std::get<4>(k)) + ".." +
                   std::to_string(std::get<5>(k));
        };
        const auto ma_file  = base + "marker_api_trace.csv";
        const auto ma       = read_csv_or_fail(ma_file, fail);
        auto       ma_col   = [&](const char* name) { return column(ma[0], name, ma_file, fail); };
        const auto c_domain = ma_col("Domain"), c_function = ma_col("Function"),
                   c_thread = ma_col("Thread_Id"), c_corr = ma_col("Correlation_Id"),
                   c_start = ma_col("Start_Timestamp"), c_end = ma_col("End_Timestamp");
        auto rows = std::multiset<marker_key>{};
        for(size_t r = 1; r < ma.size(); ++r)
        {
            if(ma[r].size() != ma[0].size())
                fail(ma_file + " row " + std::to_string(r) + " has " +
                     std::to_string(ma[r].size()) + " fields, its header " +
                     std::to_string(ma[0].size()));
            rows.insert({ma[r][c_domain],
                         ma[r][c_function],
                         std::stoull(ma[r][c_thread]),
                         std::stoull(ma[r][c_corr]),
                         std::stoull(ma[r][c_start]),
                         std::stoull(ma[r][c_end])});
        }
        if(rows.empty()) fail(ma_file + " has no marker row: nothing to compare");
        auto found = std::multiset<marker_key>{};
        for(const auto& m : marker_slices)
            found.insert({m.domain, m.name, m.thread, m.correlation, m.start, m.end});
        if(found != rows)
        {
            for(const auto& k : rows)
                if(found.count(k) < rows.count(k))
                    fail("the row (" + key_text(k) + ") of " + ma_file +
                         " is not a marker slice (or not as often); the trace has " +
                         std::to_string(found.size()) + " marker slices, the file " +
                         std::to_string(rows.size()) + " rows");
            for(const auto& k : found)
                if(rows.count(k) < found.count(k))
                    fail("the marker slice (" + key_text(k) + ") is not a row of " + ma_file +
                         " (or not as often); the trace has " + std::to_string(found.size()) +
                         " marker slices, the file " + std::to_string(rows.size()) + " rows");
        }
    }

    // The memory copies.
    if(copies)
    {
        const auto mc_file = base + "memory_copy_trace.csv";
        const auto mc      = read_csv_or_fail(mc_file, fail);
        auto       mc_col  = [&](const char* name) { return column(mc[0], name, mc_file, fail); };
        const auto c_dir = mc_col("Direction"), c_start = mc_col("Start_Timestamp"),
                   c_end = mc_col("End_Timestamp"), c_bytes = mc_col("Bytes"),
                   c_src = mc_col("Source_Agent_Id"), c_dst = mc_col("Destination_Agent_Id");
        auto rows = std::multiset<copy_key>{};
        for(size_t r = 1; r < mc.size(); ++r)
        {
            const auto what = mc_file + " row " + std::to_string(r);
            rows.insert({mc[r][c_dir],
                         std::stoull(mc[r][c_start]),
                         std::stoull(mc[r][c_end]),
                         mc[r][c_bytes],
                         rocprofv3_validate::copy_side_number_of(
                             mc[r][c_src], what + " Source_Agent_Id", fail),
                         rocprofv3_validate::copy_side_number_of(
                             mc[r][c_dst], what + " Destination_Agent_Id", fail)});
        }
        if(rows.empty()) fail(mc_file + " has no copy: nothing to compare");
        if(rows != copy_slices)
            fail("the trace has " + std::to_string(copy_slices.size()) + " memory copy slices, " +
                 mc_file + " has " + std::to_string(rows.size()) +
                 " rows, and they are not the same copies");
    }
    else if(!copy_slices.empty())
        fail("the trace has memory copy slices, but --copies was not given");

    // A run of copies or markers without a kernel trace has no kernel slice.
    if((copies || markers) && !rocprofv3_validate::read_file(base + "kernel_trace.csv"))
    {
        if(!slices.empty())
            fail("the trace has " + std::to_string(slices.size()) +
                 " kernel slices, but the run traced no kernel");
        std::printf("validate_pftrace: ok: %zu memory copy slices, %zu marker slices, %zu tracks\n",
                    copy_slices.size(),
                    marker_slices.size(),
                    tracks.size());
        return 0;
    }

    if(expected_slices)
    {
        if(slices.size() != *expected_slices)
            fail("the trace has " + std::to_string(slices.size()) + " kernel slices, expected " +
                 std::to_string(*expected_slices));
        for(const auto& sl : slices)
            if(std::get<1>(sl).empty())
                fail("the slice of dispatch " + std::get<0>(sl) + " has no name");
        if(!counter_events.empty() && !counters) fail("the trace has counter events");
        std::printf(
            "validate_pftrace: ok: %zu kernel slices, %zu tracks\n", slices.size(), tracks.size());
        return 0;
    }

    // The kernel trace's rows.
    const auto kt_file = base + "kernel_trace.csv";
    const auto kt      = read_csv_or_fail(kt_file, fail);
    auto       rows    = std::multiset<slice_key>{};
    auto       col     = [&](const char* name) { return column(kt[0], name, kt_file, fail); };
    const auto c_id = col("Dispatch_Id"), c_name = col("Kernel_Name"),
               c_start = col("Start_Timestamp"), c_end = col("End_Timestamp"),
               c_agent = col("Agent_Id"), c_queue = col("Queue_Id");
    for(size_t r = 1; r < kt.size(); ++r)
        rows.insert({kt[r][c_id],
                     kt[r][c_name],
                     std::stoull(kt[r][c_start]),
                     std::stoull(kt[r][c_end]),
                     rocprofv3_validate::agent_number_of(
                         kt[r][c_agent], kt_file + " row " + std::to_string(r) + " Agent_Id", fail),
                     kt[r][c_queue]});
    if(rows.empty()) fail(kt_file + " has no dispatch: nothing to compare");
    if(slices.size() != rows.size())
        fail("the trace has " + std::to_string(slices.size()) + " kernel slices, " + kt_file +
             " has " + std::to_string(rows.size()) + " rows");
    if(slices != rows)
    {
        for(const auto& s : slices)
            if(rows.count(s) != slices.count(s))
                fail("the slice of dispatch " + std::get<0>(s) + " (" + std::get<1>(s) + ", " +
                     std::to_string(std::get<2>(s)) + ".." + std::to_string(std::get<3>(s)) +
                     ") is not a row of " + kt_file + " (or not as often)");
    }
    if(passes > 0)
        for(auto& [id, list] : slice_pass)
        {
            std::sort(list.begin(), list.end());
            auto expected = std::vector<uint64_t>(passes);
            for(uint64_t p = 0; p < passes; ++p)
                expected[p] = p;
            if(list != expected)
                fail("dispatch " + id + " has " + std::to_string(list.size()) +
                     " slices whose passes are not exactly 0.." + std::to_string(passes - 1));
        }

    // The counter values.
    if(counters)
    {
        const auto cc_file = base + "counter_collection.csv";
        const auto cc      = read_csv_or_fail(cc_file, fail);
        auto       cc_col  = [&](const char* name) { return column(cc[0], name, cc_file, fail); };
        const auto a = cc_col("Agent_Id"), n = cc_col("Counter_Name"), v = cc_col("Counter_Value"),
                   s = cc_col("Start_Timestamp"), e = cc_col("End_Timestamp");
        if(cc.size() < 2) fail(cc_file + " has no row: nothing to compare");
        auto ends = std::map<std::tuple<std::string, std::string>, std::set<uint64_t>>{};
        for(size_t r = 1; r < cc.size(); ++r)
        {
            const auto what = cc_file + " row " + std::to_string(r);
            const auto agent =
                rocprofv3_validate::agent_number_of(cc[r][a], what + " Agent_Id", fail);
            const auto key = std::tuple{agent, cc[r][n]};
            const auto ts  = std::stoull(cc[r][s]);
            (void)rocprofv3_validate::counter_value_of(cc[r][v], what, fail);
            ends[key].insert(std::stoull(cc[r][e]));
            // The file holds the value in its form (6 decimals when >= 1): the event's value,
            // written in that form, must be the row's text.
            auto& list = counter_events[key];
            auto  it   = std::find_if(list.begin(),
                                   list.end(),
                                   [&](const auto& p) {
                                       return p.first == ts &&
                                              rocprofv3_validate::counter_value_text(p.second) ==
                                                  cc[r][v];
                                   });
            if(it == list.end())
                fail("no counter event " + cc[r][n] + " = " + cc[r][v] + " at " + cc[r][s] +
                     " under agent " + agent + " (row " + std::to_string(r) + " of " + cc_file +
                     ", Agent_Id '" + cc[r][a] + "')");
            list.erase(it);
        }
        for(const auto& [key, list] : counter_events)
            for(const auto& [ts, value] : list)
                if(value != 0.0 || ends[key].count(ts) == 0)
                    fail("counter event " + std::get<1>(key) + " = " + std::to_string(value) +
                         " at " + std::to_string(ts) + " is neither a row of " + cc_file +
                         " nor a return to 0 at a row's end");
    }
    else if(!counter_events.empty())
        fail("the trace has counter events, but --counters was not given");

    std::printf("validate_pftrace: ok: %zu kernel slices, %zu memory copy slices, %zu marker "
                "slices, %zu tracks\n",
                slices.size(),
                copy_slices.size(),
                marker_slices.size(),
                tracks.size());
    return 0;
}
