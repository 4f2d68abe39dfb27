// otf2_trace::write through the OTF2 library (Debian: libotf2-trace-dev; checked with OTF2
// 3.0.2). Built only where CMake found the library (ROCPROFILER_TOOL_HAVE_OTF2).
#if defined(ROCPROFILER_TOOL_HAVE_OTF2)
#    include "otf2/otf2_trace.hpp"

#    include <otf2/otf2.h>

#    include <stdlib.h>

#    include <algorithm>
#    include <cstdarg>
#    include <cstdio>
#    include <filesystem>
#    include <limits>
#    include <map>
#    include <string>
#    include <system_error>
#    include <vector>

namespace rocprofiler::tool
{
namespace fs = std::filesystem;

bool
otf2_available()
{
    return true;
}

namespace
{
// OTF2's error messages, kept for the error text instead of printed to stderr.
std::string*
last_otf2_message()
{
    static thread_local std::string message;
    return &message;
}

OTF2_ErrorCode
keep_message(
    void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* fmt, va_list va)
{
    char text[512] = {};
    std::vsnprintf(text, sizeof(text), fmt, va);
    *last_otf2_message() = text;
    return code;
}

OTF2_FlushType
pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool)
{
    return OTF2_FLUSH;
}

OTF2_TimeStamp
post_flush(void*, OTF2_FileType, OTF2_LocationRef)
{
    return 0;
}

const char*
region_description(otf2_trace::region_kind kind)
{
    switch(kind)
    {
    case otf2_trace::region_kind::kernel:
        return "kernel dispatch";
    case otf2_trace::region_kind::memory_copy:
        return "memory copy";
    case otf2_trace::region_kind::marker:
        return "marker";
    case otf2_trace::region_kind::api_call:
        return "API call";
    }
    return "";
}

OTF2_RegionRole
region_role(otf2_trace::region_kind kind)
{
    switch(kind)
    {
    case otf2_trace::region_kind::kernel:
        return OTF2_REGION_ROLE_FUNCTION;
    case otf2_trace::region_kind::memory_copy:
        return OTF2_REGION_ROLE_DATA_TRANSFER;
    case otf2_trace::region_kind::marker:
        return OTF2_REGION_ROLE_CODE;
    case otf2_trace::region_kind::api_call:
        return OTF2_REGION_ROLE_FUNCTION;
    }
    return OTF2_REGION_ROLE_UNKNOWN;
}

OTF2_Paradigm
region_paradigm(const otf2_trace::region& r)
{
    if(r.kind == otf2_trace::region_kind::marker) return OTF2_PARADIGM_USER;
    if(r.kind == otf2_trace::region_kind::api_call && r.domain.rfind("CUDA", 0) == 0)
        return OTF2_PARADIGM_CUDA;
    return OTF2_PARADIGM_UNKNOWN;
}

// One location of the archive: a lane of a location of the model.
struct lane_entry
{
    uint64_t                              group     = 0;
    std::string                           name      = {};
    otf2_trace::location_kind             kind      = otf2_trace::location_kind::thread;
    std::vector<otf2_trace::interval>     intervals = {};
    std::vector<otf2_trace::metric_point> metrics   = {}; // in time order
};

OTF2_LocationType
location_type(otf2_trace::location_kind kind)
{
    switch(kind)
    {
    case otf2_trace::location_kind::thread:
        return OTF2_LOCATION_TYPE_CPU_THREAD;
    case otf2_trace::location_kind::stream:
        return OTF2_LOCATION_TYPE_ACCELERATOR_STREAM;
    case otf2_trace::location_kind::metric:
        return OTF2_LOCATION_TYPE_METRIC;
    }
    return OTF2_LOCATION_TYPE_UNKNOWN;
}

// The OTF2 calls of one archive; the first failure is kept, later calls are skipped.
class archive_writer
{
public:
    bool               ok() const { return m_error.empty(); }
    const std::string& error() const { return m_error; }

    bool check(OTF2_ErrorCode code, const char* what)
    {
        if(code == OTF2_SUCCESS || !m_error.empty()) return code == OTF2_SUCCESS;
        m_error = std::string{what} + ": " + OTF2_Error_GetName(code) + " (" +
                  OTF2_Error_GetDescription(code) + ")";
        if(!last_otf2_message()->empty()) m_error += ": " + *last_otf2_message();
        return false;
    }
    void fail(std::string why)
    {
        if(m_error.empty()) m_error = std::move(why);
    }

private:
    std::string m_error = {};
};

// The archive in @p directory (made by the caller, empty) under @p name.
std::string
write_archive(const otf2_trace& trace, const std::string& directory, const std::string& name)
{
    auto out = archive_writer{};

    // Every location split into lanes that nest, numbered in the group's order.
    auto lanes = std::vector<lane_entry>{};
    auto first = std::numeric_limits<uint64_t>::max();
    auto last  = uint64_t{0};
    for(size_t g = 0; g < trace.processes().size(); ++g)
    {
        // A process without records still gets a location: OTF2's readers refuse a group (and an
        // archive) without one.
        if(trace.processes()[g].locations.empty())
            lanes.push_back(
                lane_entry{g, "Process (no records)", otf2_trace::location_kind::thread, {}, {}});
        for(const auto& [key, loc] : trace.processes()[g].locations)
        {
            if(loc.kind == otf2_trace::location_kind::metric)
            {
                // Points: one lane, in time order (records arrive in completion order).
                auto points = loc.metrics;
                std::stable_sort(points.begin(),
                                 points.end(),
                                 [](const auto& a, const auto& b) { return a.time < b.time; });
                for(const auto& m : points)
                {
                    first = std::min(first, m.time);
                    last  = std::max(last, m.time);
                }
                lanes.push_back(lane_entry{g, loc.name, loc.kind, {}, std::move(points)});
                continue;
            }
            auto split = otf2_lanes(loc.intervals);
            for(size_t i = 0; i < split.size(); ++i)
            {
                for(const auto& iv : split[i])
                {
                    first = std::min(first, iv.start);
                    last  = std::max(last, iv.end);
                }
                lanes.push_back(lane_entry{
                    g,
                    i == 0 ? loc.name : loc.name + " (overlap " + std::to_string(i) + ")",
                    loc.kind,
                    std::move(split[i]),
                    {}});
            }
        }
    }
    if(first > last) first = last = 0;

    auto* archive = OTF2_Archive_Open(directory.c_str(),
                                      name.c_str(),
                                      OTF2_FILEMODE_WRITE,
                                      OTF2_CHUNK_SIZE_EVENTS_DEFAULT,
                                      OTF2_CHUNK_SIZE_DEFINITIONS_DEFAULT,
                                      OTF2_SUBSTRATE_POSIX,
                                      OTF2_COMPRESSION_NONE);
    if(archive == nullptr)
    {
        out.fail("the OTF2 library could not create the archive" +
                 (last_otf2_message()->empty() ? std::string{} : ": " + *last_otf2_message()));
        return out.error();
    }
    auto flush = OTF2_FlushCallbacks{pre_flush, post_flush};
    out.check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "setting flush callbacks");
    out.check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "setting collective callbacks");
    out.check(OTF2_Archive_SetCreator(archive, "rocprofv3"), "setting the creator");
    out.check(OTF2_Archive_SetDescription(
                  archive, "kernel dispatches, memory copies, markers, API calls and counters"),
              "setting the description");

    // Events: per lane, Enter at each start and Leave at each end, in time order.
    auto events = std::vector<uint64_t>(lanes.size(), 0);
    if(out.ok() && out.check(OTF2_Archive_OpenEvtFiles(archive), "opening the event files"))
    {
        for(size_t l = 0; l < lanes.size() && out.ok(); ++l)
        {
            auto* writer = OTF2_Archive_GetEvtWriter(archive, l);
            if(writer == nullptr)
            {
                out.fail("no event writer for location " + std::to_string(l));
                break;
            }
            auto open        = std::vector<otf2_trace::interval>{};
            auto leave_until = [&](uint64_t time)
            {
                while(!open.empty() && open.back().end <= time && out.ok())
                {
                    out.check(
                        OTF2_EvtWriter_Leave(writer, nullptr, open.back().end, open.back().region),
                        "writing a Leave event");
                    open.pop_back();
                    ++events[l];
                }
            };
            for(const auto& iv : lanes[l].intervals)
            {
                leave_until(iv.start);
                out.check(OTF2_EvtWriter_Enter(writer, nullptr, iv.start, iv.region),
                          "writing an Enter event");
                ++events[l];
                open.push_back(iv);
            }
            leave_until(std::numeric_limits<uint64_t>::max());
            // Counter values: doubles, one Metric event per point.
            auto types  = std::vector<OTF2_Type>{};
            auto values = std::vector<OTF2_MetricValue>{};
            for(const auto& m : lanes[l].metrics)
            {
                if(!out.ok()) break;
                types.assign(m.values.size(), OTF2_TYPE_DOUBLE);
                values.resize(m.values.size());
                for(size_t v = 0; v < m.values.size(); ++v)
                    values[v].floating_point = m.values[v];
                out.check(OTF2_EvtWriter_Metric(writer,
                                                nullptr,
                                                m.time,
                                                static_cast<OTF2_MetricRef>(m.metric_class),
                                                static_cast<uint8_t>(m.values.size()),
                                                types.data(),
                                                values.data()),
                          "writing a Metric event");
                ++events[l];
            }
            out.check(OTF2_Archive_CloseEvtWriter(archive, writer), "closing an event writer");
        }
        out.check(OTF2_Archive_CloseEvtFiles(archive), "closing the event files");
    }

    // Local definitions: none, but each location has its (empty) file.
    if(out.ok() && out.check(OTF2_Archive_OpenDefFiles(archive), "opening the definition files"))
    {
        for(size_t l = 0; l < lanes.size() && out.ok(); ++l)
        {
            auto* writer = OTF2_Archive_GetDefWriter(archive, l);
            if(writer == nullptr)
            {
                out.fail("no definition writer for location " + std::to_string(l));
                break;
            }
            out.check(OTF2_Archive_CloseDefWriter(archive, writer), "closing a definition writer");
        }
        out.check(OTF2_Archive_CloseDefFiles(archive), "closing the definition files");
    }

    // Global definitions: clock, strings, regions, the system tree, groups, locations.
    auto* defs = out.ok() ? OTF2_Archive_GetGlobalDefWriter(archive) : nullptr;
    if(out.ok() && defs == nullptr) out.fail("no global definition writer");
    if(out.ok())
    {
        // Timestamps are nanoseconds of CLOCK_MONOTONIC, the SDK's clock; the anchor, when known,
        // gives the wall-clock time of the first one.
        auto realtime = uint64_t{OTF2_UNDEFINED_TIMESTAMP};
        if(const auto& anchor = trace.realtime_anchor(); anchor && first > 0)
            realtime = anchor->second + first - anchor->first;
        out.check(OTF2_GlobalDefWriter_WriteClockProperties(
                      defs, 1000000000ULL, first, last - first, realtime),
                  "writing the clock properties");

        auto strings = std::map<std::string, OTF2_StringRef>{};
        auto string  = [&](const std::string& text)
        {
            auto it = strings.find(text);
            if(it != strings.end()) return it->second;
            const auto ref = static_cast<OTF2_StringRef>(strings.size());
            out.check(OTF2_GlobalDefWriter_WriteString(defs, ref, text.c_str()),
                      "writing a string");
            strings.emplace(text, ref);
            return ref;
        };
        const auto& regions = trace.regions();
        for(size_t r = 0; r < regions.size() && out.ok(); ++r)
        {
            const auto& region      = regions[r];
            auto        description = std::string{region_description(region.kind)};
            if(!region.domain.empty()) description += " (" + region.domain + ")";
            out.check(OTF2_GlobalDefWriter_WriteRegion(defs,
                                                       static_cast<OTF2_RegionRef>(r),
                                                       string(region.name),
                                                       string(region.name),
                                                       string(description),
                                                       region_role(region.kind),
                                                       region_paradigm(region),
                                                       OTF2_REGION_FLAG_NONE,
                                                       string(""),
                                                       0,
                                                       0),
                      "writing a region");
        }

        // Counters: a member per name (a count: no unit, absolute values at a point), a class
        // per list of names, recorded asynchronously on the agents' metric locations.
        const auto& members = trace.metric_members();
        for(size_t m = 0; m < members.size() && out.ok(); ++m)
            out.check(OTF2_GlobalDefWriter_WriteMetricMember(defs,
                                                             static_cast<OTF2_MetricMemberRef>(m),
                                                             string(members[m]),
                                                             string("hardware counter"),
                                                             OTF2_METRIC_TYPE_OTHER,
                                                             OTF2_METRIC_ABSOLUTE_POINT,
                                                             OTF2_TYPE_DOUBLE,
                                                             OTF2_BASE_DECIMAL,
                                                             0,
                                                             string("#")),
                      "writing a metric member");
        const auto& classes = trace.metric_classes();
        for(size_t c = 0; c < classes.size() && out.ok(); ++c)
        {
            auto refs = std::vector<OTF2_MetricMemberRef>(classes[c].begin(), classes[c].end());
            out.check(OTF2_GlobalDefWriter_WriteMetricClass(defs,
                                                            static_cast<OTF2_MetricRef>(c),
                                                            static_cast<uint8_t>(refs.size()),
                                                            refs.data(),
                                                            OTF2_METRIC_ASYNCHRONOUS,
                                                            OTF2_RECORDER_KIND_ABSTRACT),
                      "writing a metric class");
        }

        // The system tree: the machine, one node per host, the processes under their host.
        const auto root = OTF2_SystemTreeNodeRef{0};
        out.check(
            OTF2_GlobalDefWriter_WriteSystemTreeNode(
                defs, root, string("machine"), string("machine"), OTF2_UNDEFINED_SYSTEM_TREE_NODE),
            "writing the system tree");
        auto hosts = std::map<std::string, OTF2_SystemTreeNodeRef>{};
        for(size_t g = 0; g < trace.processes().size() && out.ok(); ++g)
        {
            const auto& p    = trace.processes()[g];
            const auto  host = p.host.empty() ? std::string{"unknown host"} : p.host;
            auto        it   = hosts.find(host);
            if(it == hosts.end())
            {
                const auto node = static_cast<OTF2_SystemTreeNodeRef>(hosts.size() + 1);
                out.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(
                              defs, node, string(host), string("node"), root),
                          "writing the system tree");
                it = hosts.emplace(host, node).first;
            }
            out.check(OTF2_GlobalDefWriter_WriteLocationGroup(defs,
                                                              static_cast<OTF2_LocationGroupRef>(g),
                                                              string(p.name),
                                                              OTF2_LOCATION_GROUP_TYPE_PROCESS,
                                                              it->second,
                                                              OTF2_UNDEFINED_LOCATION_GROUP),
                      "writing a location group");
        }
        for(size_t l = 0; l < lanes.size() && out.ok(); ++l)
            out.check(OTF2_GlobalDefWriter_WriteLocation(
                          defs,
                          static_cast<OTF2_LocationRef>(l),
                          string(lanes[l].name),
                          location_type(lanes[l].kind),
                          events[l],
                          static_cast<OTF2_LocationGroupRef>(lanes[l].group)),
                      "writing a location");
    }
    // Closed in any case, so that the files are released; its own failure counts too.
    out.check(OTF2_Archive_Close(archive), "closing the archive");
    return out.error();
}

// Removes @p path (file, link or directory tree); an error is appended to @p why.
bool
remove_entry(const fs::path& path, std::string& why)
{
    auto ec = std::error_code{};
    fs::remove_all(path, ec);
    if(ec) why = "could not remove '" + path.string() + "': " + ec.message();
    return !ec;
}
} // namespace

bool
otf2_trace::write(const std::string& directory, const std::string& name, std::string& error) const
{
    const auto dir    = fs::path{directory.empty() ? std::string{"."} : directory};
    const auto anchor = (dir / (name + ".otf2")).string();
    auto       fail   = [&](const std::string& why)
    {
        error = "could not write the OTF2 archive '" + anchor + "': " + why;
        return false;
    };

    // A fresh directory beside the archive's place (same file system, so the entries move by
    // rename), named so that it is not taken for an output.
    auto templ = (dir / (name + ".otf2-partial-XXXXXX")).string();
    if(::mkdtemp(templ.data()) == nullptr)
        return fail(std::error_code{errno, std::generic_category()}.message());
    const auto staging = fs::path{templ};

    const auto former = OTF2_Error_RegisterCallback(keep_message, nullptr);
    last_otf2_message()->clear();
    const auto why = write_archive(*this, staging.string(), name);
    OTF2_Error_RegisterCallback(former, nullptr);
    auto ignored = std::string{};
    if(!why.empty())
    {
        remove_entry(staging, ignored);
        return fail(why);
    }

    // The three entries, each replacing an earlier archive's; a place taken by something of
    // another type (a file where the archive's folder goes) is an error, not replaced.
    const auto entries = {name + ".otf2", name + ".def", name};
    for(const auto& entry : entries)
    {
        const auto target = dir / entry;
        const auto source = staging / entry;
        auto       ec     = std::error_code{};
        const auto status = fs::symlink_status(target, ec);
        if(fs::exists(status))
        {
            const bool want_dir = fs::is_directory(fs::symlink_status(source, ec));
            if(fs::is_symlink(status) || fs::is_directory(status) != want_dir)
            {
                remove_entry(staging, ignored);
                return fail("'" + target.string() + "' is in the way (" +
                            (fs::is_symlink(status) ? "a symbolic link"
                             : want_dir             ? "not a directory"
                                                    : "a directory") +
                            "); remove it or choose another -o/-d");
            }
        }
    }
    for(const auto& entry : entries)
    {
        const auto target = dir / entry;
        auto       reason = std::string{};
        if(fs::is_directory(fs::symlink_status(target)) && !remove_entry(target, reason))
        {
            remove_entry(staging, ignored);
            return fail(reason);
        }
        auto ec = std::error_code{};
        fs::rename(staging / entry, target, ec);
        if(ec)
        {
            remove_entry(staging, ignored);
            return fail("could not move '" + (staging / entry).string() +
                        "' into place: " + ec.message());
        }
    }
    remove_entry(staging, ignored);
    return true;
}
} // namespace rocprofiler::tool
#endif
