// The OTF2 trace of one or more processes (-f otf2, `rocpd convert -f otf2`): which locations the
// records go to and the regions they become, kept in memory as plain intervals until write() hands
// them to the OTF2 library (otf2_archive.cpp, built only where the library was found).
//
// Each process is one location group (OTF2_LOCATION_GROUP_TYPE_PROCESS) named by its caller
// ("host_kernels (pid 1234, rank 0, host node7)"), under a system tree node per host. Its
// locations: one accelerator stream per queue of an agent ("Agent 1 Queue 3") holding the kernel
// dispatches, one per agent for its memory copies ("Agent 1 memory copies"; "Host memory copies"
// for copies within host memory), one CPU thread per thread id ("Thread 4321") holding the
// thread's markers and CUDA API calls, and "Process ranges" for the process-wide start/stop
// ranges. Every record is one Enter and one Leave of a region: a kernel by its name, a copy by its
// direction, a marker by its message or function, an API call by its function. Regions are shared
// by name and kind across processes.
//
// OTF2 wants the Enter/Leave events of a location in time order and properly nested. Records that
// overlap on one location without nesting (dispatches of one queue running together, process
// ranges) are moved to further locations of the same group, "<name> (overlap N)", as the
// Perfetto trace moves them to further tracks.
//
// Counter values (--pmc) are metric events: one metric location per agent of a process ("Agent 1
// counters", OTF2_LOCATION_TYPE_METRIC), one Metric event per counter record (a dispatch, or one
// replay pass of it) at the dispatch's end, holding its counters' values (summed over instances,
// as counter_collection.csv sums them) as doubles. Each counter name is a metric member
// (absolute point values); each distinct list of names a metric class (at most 255 members: a
// longer list is split into several classes and events). Nothing here calls the SDK or the OTF2
// library.
#pragma once

#include "model/results.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

namespace rocprofiler::tool
{
// Whether this build writes OTF2 (the OTF2 library was found when it was configured).
bool otf2_available();

class otf2_trace
{
public:
    enum class region_kind : uint8_t
    {
        kernel,
        memory_copy,
        marker,
        api_call,
    };
    enum class location_kind : uint8_t
    {
        thread, // OTF2_LOCATION_TYPE_CPU_THREAD
        stream, // OTF2_LOCATION_TYPE_ACCELERATOR_STREAM: a queue, a copy engine
        metric, // OTF2_LOCATION_TYPE_METRIC: an agent's counter values
    };
    struct interval
    {
        uint64_t start  = 0;
        uint64_t end    = 0;
        uint32_t region = 0;
    };
    // One Metric event: the values of metric class @c metric_class's members, in its order.
    struct metric_point
    {
        uint64_t            time         = 0;
        uint32_t            metric_class = 0;
        std::vector<double> values       = {};
    };
    struct location
    {
        std::string               name      = {};
        location_kind             kind      = location_kind::thread;
        std::vector<interval>     intervals = {};
        std::vector<metric_point> metrics   = {};
    };
    struct process
    {
        std::string name = {};
        std::string host = {};
        // Locations by a key that orders them: kind of record, agent or thread, queue.
        std::map<std::tuple<int, uint64_t, uint64_t>, location> locations = {};
    };
    struct region
    {
        std::string name   = {};
        std::string domain = {}; // markers and API calls: the domain ("MARKER_CORE_API")
        region_kind kind   = region_kind::kernel;
    };

    // A new process (location group): @p name as shown, @p host the node it ran on. Returns its
    // index for the record calls.
    size_t add_process(std::string name, std::string host);

    // One record of process @p p, as the tool has it (the same records the other sinks get).
    void dispatch(size_t                                                     p,
                  const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
    void memory_copy(size_t                                                 p,
                     const results&                                         data,
                     const rocprofiler_buffer_tracing_memory_copy_record_t& c);
    void marker(size_t p, const marker_event& e);
    void api_call(size_t p, const marker_event& e);
    void counters(size_t p, const results& data, const counter_dispatch& rec);

    // The most members OTF2 takes in one metric class (its member count is a uint8_t).
    static constexpr size_t max_metric_members = 255;

    // The CLOCK_MONOTONIC instant that matches @p realtime_ns (ns since the epoch), so that the
    // archive's clock properties carry the wall-clock time of its first event; unknown otherwise.
    void set_realtime_anchor(uint64_t monotonic_ns, uint64_t realtime_ns)
    {
        m_anchor = std::pair{monotonic_ns, realtime_ns};
    }

    const std::vector<process>& processes() const { return m_processes; }
    const std::vector<region>&  regions() const { return m_regions; }
    // The counter names (metric members) and the metric classes (lists of member indices).
    const std::vector<std::string>&                     metric_members() const { return m_members; }
    const std::vector<std::vector<uint32_t>>&           metric_classes() const { return m_classes; }
    const std::optional<std::pair<uint64_t, uint64_t>>& realtime_anchor() const { return m_anchor; }
    size_t                                              records() const { return m_records; }

    // Writes the archive <directory>/<name>.otf2 (the anchor file), <name>.def and <name>/ (the
    // local definitions and events), replacing an archive of that name. It is written into a
    // fresh directory beside them first and moved into place once whole, so a failed write leaves
    // no partial archive. Returns false with @p error naming the path and the reason, also in a
    // build without the OTF2 library ("built without OTF2 support").
    bool write(const std::string& directory, const std::string& name, std::string& error) const;

private:
    uint32_t  region_of(region_kind kind, const std::string& name, const std::string& domain);
    location& location_of(
        size_t p, int order, uint64_t a, uint64_t b, location_kind kind, const std::string& name);

    std::vector<process>                                                  m_processes  = {};
    std::vector<region>                                                   m_regions    = {};
    std::map<std::tuple<region_kind, std::string, std::string>, uint32_t> m_region_ids = {};
    std::vector<std::string>                                              m_members    = {};
    std::map<std::string, uint32_t>                                       m_member_ids = {};
    std::vector<std::vector<uint32_t>>                                    m_classes    = {};
    std::map<std::vector<uint32_t>, uint32_t>                             m_class_ids  = {};
    std::optional<std::pair<uint64_t, uint64_t>>                          m_anchor     = {};
    size_t                                                                m_records    = 0;
};

// The intervals of one location split into lanes whose Enter/Leave sequences are in time order
// and properly nested: lane 0 keeps every interval it can, the others take the rest. Each lane's
// intervals come in the order their Enter events are written (by start, an enclosing interval
// before those it encloses). Exposed for the tests.
std::vector<std::vector<otf2_trace::interval>> otf2_lanes(std::vector<otf2_trace::interval> list);
} // namespace rocprofiler::tool
