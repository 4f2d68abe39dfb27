// What the tool collected (the plain records of model/records.hpp and the accumulators of
// model/kernel_stats.hpp, gathered in `results`), and the files it writes from it.
// kernel_trace.csv, memory_copy_trace.csv and counter_collection.csv are streamed (rows appended as
// records arrive, csv_stream); the other files are written whole, atomically (a temporary file
// renamed over the old one), at checkpoints during the run and at finalization. File names and
// columns follow API.md ("rocprofv3 (the CLI) facts"); docs/rocprofv3.md describes them. Nothing
// here calls the SDK: the collected data is plain values, so the writers are testable.
#pragma once

#include "config.hpp"
#include "model/kernel_stats.hpp"
#include "model/records.hpp"

#include <nlohmann/json.hpp>

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/experimental/kernel_replay_outcome.h>

#include <sys/types.h>

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
class record_spill;
struct replay_report;

struct results
{
    // -A/--agent-index: the form of the CSV files' agent columns (agent_label).
    agent_index                           agent_index_mode = agent_index::relative;
    uint64_t                              pid              = 0;
    uint64_t                              init_time        = 0; // ns, SDK clock
    uint64_t                              fini_time        = 0;
    std::vector<std::string>              command          = {};
    std::vector<agent_entry>              agents           = {};
    std::vector<counter_entry>            counters         = {};
    std::map<uint64_t, kernel_symbol>     kernel_symbols   = {}; // by kernel_id
    std::map<uint64_t, code_object_entry> code_objects     = {}; // by id
    std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> dispatches      = {};
    std::vector<counter_dispatch>                                    counter_records = {};
    // --memory-copy-trace: the copies, in arrival order (kept only for outputs written whole).
    std::vector<rocprofiler_buffer_tracing_memory_copy_record_t> memory_copies = {};
    // --marker-trace: marks, closed ranges and other marker calls, in the order they ended
    // (kept only for outputs written whole).
    std::vector<marker_event> markers = {};
    // --cuda-runtime-trace / --cuda-driver-trace: the calls, in the order they ended (kept only
    // for outputs written whole).
    std::vector<marker_event> api_calls       = {};
    uint64_t                  dropped_records = 0;
    // Under kernel replay, per agent handle: the counters of each group the agent collects, and
    // per replay pass of its dispatches the groups whose values that pass's record carries (a
    // group of several passes is collected over consecutive passes and reported by the first; one
    // configuration of all groups reports every group from pass 0). A dispatch is replayed when
    // its agent plans at least two passes.
    // With -f json and records that go nowhere else in memory, the kernel dispatch and counter
    // records of results.json are spilled to part files instead of being kept (record_spill).
    std::shared_ptr<record_spill> dispatch_spill    = {};
    std::shared_ptr<record_spill> counter_spill     = {};
    std::shared_ptr<record_spill> memory_copy_spill = {};
    std::shared_ptr<record_spill> marker_spill      = {};
    std::shared_ptr<record_spill> api_spill         = {};
    // Under kernel replay: results.json's per-dispatch outcome markers (replay_ledger's sink).
    std::shared_ptr<record_spill>                             replay_outcome_spill = {};
    std::map<uint64_t, std::vector<std::vector<std::string>>> replay_groups        = {};
    std::map<uint64_t, std::vector<std::vector<uint64_t>>>    replay_pass_groups   = {};
    kernel_stats_accumulator                                  kernel_stats         = {};

    run_end end = {};

    // The kernel's name; empty when the id is not in kernel_symbols.
    const std::string&   kernel_name(uint64_t kernel_id) const;
    const kernel_symbol* find_symbol(uint64_t kernel_id) const;
    const agent_entry*   find_agent(rocprofiler_agent_id_t id) const;
};

// What Agent_Id columns show: the agent's logical node id (its index among all agents), as
// rocprofv3 does; the handle only when the agent is unknown.
uint64_t agent_number(const results& data, rocprofiler_agent_id_t id);
// The CSV files' name of an agent, as upstream writes it: "Agent 1" (data.agent_index_mode);
// "Agent <handle>" for an agent the list does not know.
std::string agent_label(const results& data, rocprofiler_agent_id_t id);
// A counter value as upstream's CSV files write floating-point values: at least 1, fixed with 6
// decimals ("16384.000000"); below 1 (0 and negative values included), scientific with 8
// ("2.48342814e-02").
std::string csv_counter_value(double value);

// The symbol of @p kernel_id, adding the placeholder kernel_<id> when it was never reported. When
// it adds one, @p warning (if given) receives the one-time warning to print.
const kernel_symbol& ensure_kernel_symbol(results& data, uint64_t kernel_id, std::string* warning);

// Per kernel name (data.kernel_stats, merged by name), sorted by total duration (largest first),
// ties by name.
std::vector<kernel_stat> compute_kernel_stats(const results& data);

// A CSV field: quoted, with embedded quotes doubled (RFC 4180).
std::string csv_quote(std::string_view text);

// The path of one output file: <output_path>/<prefix>_<suffix>.
std::string output_file(const config& cfg, uint64_t pid, std::string_view suffix);

// The rows of the streamed files: header, then one call per record.
std::string kernel_trace_csv_header();
std::string kernel_trace_csv_row(const results&                                             data,
                                 const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
std::string counter_collection_csv_header();
std::string counter_collection_csv_rows(const results& data, const counter_dispatch& rec);

// memory_copy_trace.csv: upstream's columns (Kind, Direction, Stream_Id, Source_Agent_Id,
// Destination_Agent_Id, Correlation_Id, Start_Timestamp, End_Timestamp), then ours (Bytes,
// Source_Address, Destination_Address, Thread_Id).
// marker_api_trace.csv: upstream's columns Domain, Function, Process_Id, Thread_Id,
// Correlation_Id, Start_Timestamp, End_Timestamp.
std::string marker_api_trace_csv_header();
std::string marker_api_trace_csv_row(const results& data, const marker_event& e);

std::string memory_copy_trace_csv_header();
std::string memory_copy_trace_csv_row(const results&                                         data,
                                      const rocprofiler_buffer_tracing_memory_copy_record_t& r);
// A side of a copy in the Perfetto trace's annotations: the agent's number (agent_number), or
// "host" for host memory (agent handle 0: the SDK lists no CPU agent). memory_copy_trace.csv names
// it as agent_label does ("Agent 1"), or "host".
std::string memory_copy_agent(const results& data, rocprofiler_agent_id_t id);
// "MEMORY_COPY_HOST_TO_DEVICE", as upstream's Direction column names a copy's direction.
std::string memory_copy_direction_name(rocprofiler_memory_copy_operation_t operation);

// "SIGSEGV" for SIGSEGV; "signal N" for a signal without a name here.
std::string signal_name(int number);

// An append-only output file: rows are buffered and written with write(2) by flush(), so what
// was flushed is on disk whatever ends the process later (the last row may be cut by SIGKILL or
// _exit in the middle of a write; rocprofv3 trims it). The first error (with the OS reason) stops
// the stream; finish() also notices a file removed or replaced during the run.
class csv_stream
{
public:
    csv_stream() = default;
    ~csv_stream();
    csv_stream(const csv_stream&)            = delete;
    csv_stream& operator=(const csv_stream&) = delete;

    bool open(const std::string& path, const std::string& header);
    void append(std::string_view rows);
    void flush();
    // Flushes, checks that the path still names this file, closes. Returns false with the error.
    bool finish(std::string& error);

    const std::string& path() const { return m_path; }
    const std::string& error() const { return m_error; }
    size_t             pending() const { return m_buffer.size(); }
    bool               is_open() const { return m_fd >= 0; }

private:
    std::string m_path   = {};
    std::string m_buffer = {};
    std::string m_error  = {};
    int         m_fd     = -1;
    size_t      m_size   = 0; // bytes of whole flushes in the file
    uint64_t    m_dev    = 0; // the file m_fd was opened on: an application that closes
    uint64_t    m_ino    = 0; // descriptors it did not open must not get our rows in its own
};

// Records of a whole-file output kept on disk instead of in memory, so that memory does not grow
// with the run: each record is appended as one line of compact JSON to a part file next to the
// output, and the output's writer copies them into its array (results.json). The part file is
// removed when the spill is destroyed or reopened. Used under the tool's lock.
class record_spill
{
public:
    record_spill() = default;
    ~record_spill();
    record_spill(const record_spill&)            = delete;
    record_spill& operator=(const record_spill&) = delete;

    bool open(const std::string& path);
    void append(const nlohmann::ordered_json& record);
    void flush();
    // Writes the records to @p fd, separated by ",\n" (the elements of a JSON array). Returns 0
    // or the errno.
    int  copy_to(int fd);
    void remove();

    uint64_t           size() const { return m_count; }
    bool               is_open() const { return m_fd >= 0; }
    const std::string& error() const { return m_error; }

private:
    std::string m_path   = {};
    std::string m_buffer = {};
    std::string m_error  = {};
    int         m_fd     = -1;
    uint64_t    m_count  = 0;
    uint64_t    m_dev    = 0; // as csv_stream's
    uint64_t    m_ino    = 0;
};

// results.json's spills that are open, each with the name of the array it stands for
// ("kernel_dispatch", "counter_collection", "memory_copy", "marker_api", "cuda_api",
// "kernel_replay_outcome").
std::vector<std::pair<const char*, record_spill*>> spills(const results& data);

// The JSON of one kernel dispatch record and of one counter record, as results.json holds them.
nlohmann::ordered_json
dispatch_record_json(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
nlohmann::ordered_json counter_record_json(const counter_dispatch& rec);
nlohmann::ordered_json
memory_copy_record_json(const rocprofiler_buffer_tracing_memory_copy_record_t& r);
nlohmann::ordered_json marker_event_json(const marker_event& e);

// Writes every file the configuration asks for, each atomically. With @p streamed, the streamed
// files (kernel_trace.csv, memory_copy_trace.csv, counter_collection.csv, results.pftrace) are
// left to their streams; counter_collection_missing.csv is always a stream (replay_ledger).
// Under kernel replay, @p replay holds what the outcomes add up to (none: nothing arrived).
// Returns the paths written; errors (a directory that cannot be created, a file that cannot be
// written) name the file and the OS reason and are appended to @p errors.
std::vector<std::string> write_outputs(const config&             cfg,
                                       const results&            data,
                                       std::vector<std::string>& errors,
                                       bool                      streamed = false,
                                       const replay_report*      replay   = nullptr);

// Opens the output @p path for writing with @p flags (O_WRONLY or O_RDWR, O_CREAT, O_TRUNC...),
// never through a symbolic link: O_NOFOLLOW and O_CLOEXEC are added, so a link planted at the name
// is refused and its target left untouched. Returns the descriptor, or -1 with @p error set to
// "refusing to write '<path>': it is a symbolic link" or "could not write '<path>': <OS reason>".
int open_output(const std::string& path, int flags, mode_t mode, std::string& error);
// "refusing to write '<path>': it is a symbolic link" when @p path is one, else empty.
std::string symbolic_link_refusal(const std::string& path);
// Creates a temporary for @p path in its directory, "<path>.tmp-<random>", exclusively
// (O_CREAT | O_EXCL | O_NOFOLLOW): a file or link already at a guessed name is never opened.
// @p mode is applied with the umask, as for any output. Returns the descriptor (its name in
// @p temporary), or -1 with errno set.
int create_temporary(const std::string& path, mode_t mode, std::string& temporary);

// Writes @p contents to @p path atomically (a temporary file in the same directory, created
// exclusively under an unpredictable name, renamed over it). A symbolic link at @p path is
// refused. On failure appends "could not write '<path>': <OS reason>" to @p errors.
bool write_file_atomically(const std::string&        path,
                           const std::string&        contents,
                           std::vector<std::string>& errors);
// The same with the contents written by @p write_contents to the temporary file's descriptor
// (returns 0 or the errno).
bool write_file_atomically(const std::string&             path,
                           const std::function<int(int)>& write_contents,
                           std::vector<std::string>&      errors);
} // namespace rocprofiler::tool
