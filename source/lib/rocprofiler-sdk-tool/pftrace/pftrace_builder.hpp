// The Perfetto trace of the tool's records (<prefix>_results.pftrace): which tracks the records
// go to and the slices and counter values they become, encoded by perfetto_trace
// (pftrace/trace_writer.hpp), which describes the format. Tracks are a process track for the
// profiled process, one child track per agent, one child track per queue of that agent (more than
// one when dispatches of a queue overlap, as a slice track must nest), and one counter track per
// agent and counter.
//
// Memory copies are slices on a "Memory copies" child track of the device agent a copy involves
// ("Memory copies (host)" under the process for a copy within host memory). Markers (the rows of
// marker_api_trace.csv) are slices on a "Markers (thread <tid>)" child track of the process per
// thread, where a thread's marks, push/pop ranges and calls nest; process-wide start/stop ranges,
// which need not nest, on "Markers (process ranges)" and its overlap lanes. Nothing here calls the
// SDK; not thread-safe (the tool calls a builder with its lock held).
#pragma once

#include "model/results.hpp"
#include "pftrace/trace_writer.hpp"

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace rocprofiler::tool
{

// The trace built record by record, as the tool receives them, so that it can be streamed to disk
// with memory that does not grow with the run (tracks, lanes and a window of recent dispatch ids):
// agents, queues, kernel slices (one per kernel_trace.csv row; under kernel replay one per pass,
// annotated with its replay_pass: a dispatch's n-th record is its pass n), counter tracks with
// each dispatch's counter values (from the dispatch's start; back to 0 at its end unless the next
// value of that track starts there), and memory copy slices. The constructor encodes the clock
// snapshot and the process track; take() hands over what was encoded since the last call.
class pftrace_builder
{
public:
    pftrace_builder(const results& data, bool kernel_replay);

    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
    void memory_copy(const results& data, const rocprofiler_buffer_tracing_memory_copy_record_t& c);
    void counters(const results& data, const counter_dispatch& rec);
    // One marker_api_trace.csv row: a slice named by its function (a mark has no duration), with
    // its domain, correlation id and thread.
    void marker(const marker_event& e);
    // One cuda_api_trace.csv row: a slice on the calling thread's "CUDA API (thread <tid>)" track
    // (a thread's calls nest: a runtime call encloses its driver calls).
    void api_call(const marker_event& e);
    // The last return to 0 of every counter track.
    void        finish();
    std::string take();

private:
    // Slices of one track must nest. Slices of one queue that overlap go to further lanes: lane 0
    // is the queue's own track, lane n a child "... (overlap n)".
    struct lanes
    {
        uint64_t              parent   = 0;
        std::string           name     = {};
        std::vector<uint64_t> tracks   = {};
        std::vector<uint64_t> max_ends = {};

        uint64_t place(perfetto_trace& trace, uint64_t begin, uint64_t end);
    };
    struct counter_track
    {
        uint64_t                track         = 0;
        std::optional<uint64_t> pending_reset = {};
    };

    uint64_t agent_track(const results& data, rocprofiler_agent_id_t id);
    // The track of `thread` in `tracks`, a child of the process track named "<what> (thread N)".
    uint64_t thread_track(std::map<uint64_t, uint64_t>& tracks, const char* what, uint64_t thread);
    void     row_slice(uint64_t track, const marker_event& e);
    uint64_t pass_of(uint64_t dispatch_id);

    perfetto_trace                                            m_trace          = {};
    bool                                                      m_kernel_replay  = false;
    uint64_t                                                  m_process        = 0;
    std::map<uint64_t, uint64_t>                              m_agent_tracks   = {};
    std::map<std::pair<uint64_t, uint64_t>, lanes>            m_queues         = {};
    std::map<uint64_t, lanes>                                 m_copy_lanes     = {};
    std::map<uint64_t, uint64_t>                              m_marker_tracks  = {}; // by thread
    std::map<uint64_t, uint64_t>                              m_api_tracks     = {}; // by thread
    std::optional<lanes>                                      m_process_ranges = {};
    std::map<std::pair<uint64_t, std::string>, counter_track> m_counters       = {};
    recent_dispatches m_passes = {}; // numbers each dispatch's records: its replay pass
};

// The whole trace of @p data, through pftrace_builder with the records in start order.
std::string results_pftrace(const results& data, bool kernel_replay);
} // namespace rocprofiler::tool
