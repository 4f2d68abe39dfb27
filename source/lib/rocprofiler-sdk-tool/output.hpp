// What the tool collected, and the files it writes from it. kernel_trace.csv,
// memory_copy_trace.csv and counter_collection.csv are streamed (rows appended as records arrive,
// csv_stream); the other files are written whole, atomically (a temporary file renamed over the
// old one), at checkpoints during the run and at finalization. File names and columns follow
// API.md ("rocprofv3 (the CLI) facts"); docs/rocprofv3.md describes them. Nothing here calls the
// SDK: the collected data is plain values, so the writers are testable.
#pragma once

#include "config.hpp"

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
// An agent, with its strings copied (the SDK's pointers are only valid during the query).
struct agent_entry
{
    rocprofiler_agent_v0_t info         = {};
    std::string            name         = {};
    std::string            vendor_name  = {};
    std::string            product_name = {};
    std::string            model_name   = {};
    // Counters the agent reports, or why it reports none (a status name such as
    // ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED).
    std::optional<std::string> counters_error = {};
};

struct counter_entry
{
    uint64_t               id          = 0;
    rocprofiler_agent_id_t agent       = {};
    std::string            name        = {};
    std::string            description = {};
    std::string            block       = {};
    std::string            expression  = {};
    bool                   is_constant = false;
    bool                   is_derived  = false;
};

// A kernel as CODE_OBJECT tracing reported it
// (ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER), or a placeholder for a kernel id that
// was never reported (reported = false, name kernel_<id>, every size and count 0).
struct kernel_symbol
{
    uint64_t    kernel_id                 = 0;
    uint64_t    code_object_id            = 0;
    std::string name                      = {};
    uint64_t    kernel_object             = 0;
    uint32_t    kernarg_segment_size      = 0;
    uint32_t    kernarg_segment_alignment = 0;
    uint32_t    group_segment_size        = 0;
    uint32_t    private_segment_size      = 0;
    uint32_t    sgpr_count                = 0;
    uint32_t    arch_vgpr_count           = 0;
    uint32_t    accum_vgpr_count          = 0;
    bool        reported                  = true;
};

// A code object as CODE_OBJECT tracing reported it (ROCPROFILER_CODE_OBJECT_LOAD).
struct code_object_entry
{
    uint64_t               id         = 0;
    rocprofiler_agent_id_t agent      = {};
    std::string            uri        = {};
    uint64_t               load_base  = 0;
    uint64_t               load_size  = 0;
    int64_t                load_delta = 0;
};

// One counter's value for one dispatch (instances summed), as counter_collection.csv shows it.
struct counter_value
{
    uint64_t    counter_id = 0;
    std::string name       = {};
    double      value      = 0.0;
};

// The counters of one executed pass of one dispatch.
struct counter_dispatch
{
    rocprofiler_dispatch_counting_service_data_t data        = {};
    uint64_t                                     thread_id   = 0;
    std::optional<uint64_t>                      replay_pass = {}; // set under kernel replay
    std::vector<counter_value>                   values      = {};
};

// What became of one dispatch that rocprofv3 asked to replay (its agent collects several groups
// and the filters accept it), as the SDK's outcome callback reported it
// (experimental/kernel_replay_outcome.h).
struct replay_outcome
{
    uint64_t                                 dispatch_id = 0;
    rocprofiler_agent_id_t                   agent       = {};
    uint64_t                                 kernel_id   = 0;
    rocprofiler_kernel_replay_outcome_kind_t kind = ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED;
    std::string reason         = {}; // as the SDK names it: "none", "footprint_budget", ...
    uint64_t    passes_run     = 0;
    uint64_t    passes_planned = 0; // what rocprofv3 asked for: one pass per group
    uint64_t    snapshot_bytes = 0;
    uint64_t    written_bytes  = 0;
    uint64_t    verified_bytes = 0;
    uint64_t    failed_pass    = 0; // meaningful for reason "write_outside_snapshot"
};

// How the run of the outputs ended, as metadata.end of results.json says.
struct run_end
{
    enum kind_t
    {
        running, // a checkpoint written during the run
        exit,    // the tool finalized normally
        signal,  // the tool's signal handler finalized after a fatal or termination signal
    };
    kind_t kind   = running;
    int    number = 0; // the signal
};

// Under kernel replay a dispatch has one record per pass with one dispatch id, and its passes
// complete one after another inside its replay window: this numbers the records of each of the
// last `window` dispatch ids seen (0 for a dispatch's first record, its pass 0), in memory that
// does not grow with the run.
class recent_dispatches
{
public:
    static constexpr size_t window = size_t{1} << 16U;

    // How many records of @p dispatch_id came before this one.
    uint64_t number(uint64_t dispatch_id);

private:
    std::unordered_map<uint64_t, uint64_t> m_seen = {};
    std::deque<uint64_t>                   m_fifo = {};
};

// kernel_stats.csv as dispatches arrive, in memory that does not grow with the run: one
// accumulator per kernel id (names are looked up when the table is made, so a name reported after
// the kernel's first dispatch is used). Under kernel replay the first record of a dispatch id
// stands for the call (pass 0, the execution the application asked for); the others are its
// replay passes (recent_dispatches).
class kernel_stats_accumulator
{
public:
    void add(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);

    struct per_kernel
    {
        uint64_t calls = 0, total = 0, min = UINT64_MAX, max = 0;
        double   sum_sq = 0.0;
    };
    const std::map<uint64_t, per_kernel>& kernels() const { return m_kernels; }

private:
    std::map<uint64_t, per_kernel> m_kernels = {};
    recent_dispatches              m_recent  = {};
};

// One row of marker_api_trace.csv: a mark (start == end), a range from its push (or start) to its
// pop (or stop), or another marker call around its duration. `domain` is the kind's name
// ("MARKER_CORE_API"), `function` the range's or mark's message, else the function's name.
// The rows of cuda_api_trace.csv have the same columns: a CUDA runtime or driver call, `domain`
// its kind's name ("CUDA_RUNTIME_API"), `function` the entry point ("cudaMalloc").
struct marker_event
{
    std::string domain         = {};
    std::string function       = {};
    uint64_t    thread_id      = 0;
    uint64_t    correlation_id = 0; // the push's, start's or mark's call
    uint64_t    start          = 0;
    uint64_t    end            = 0;
    // A roctxRangeStartA/Stop range: process-wide, so it need not nest with the thread's other
    // rows (the Perfetto trace puts these on a track of their own).
    bool process_range = false;
};

// How the CSV files name an agent (rocprofv3 -A/--agent-index, ROCPROF_AGENT_INDEX), as upstream:
// "Agent <node_id>", "Agent <logical_node_id>" (the default) or "GPU <logical_node_type_id>"
// ("CPU ..." for a CPU agent).
enum class agent_index
{
    absolute,
    relative,
    type_relative,
};

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

// One row of kernel_stats.csv.
struct kernel_stat
{
    std::string name       = {};
    uint64_t    calls      = 0;
    uint64_t    total_ns   = 0;
    double      average_ns = 0.0;
    double      percentage = 0.0; // of the total duration of all kernels
    uint64_t    min_ns     = 0;
    uint64_t    max_ns     = 0;
    double      stddev_ns  = 0.0; // population standard deviation
};

// Per kernel name (data.kernel_stats, merged by name), sorted by total duration (largest first),
// ties by name.
std::vector<kernel_stat> compute_kernel_stats(const results& data);

// A CSV field: quoted, with embedded quotes doubled (RFC 4180).
std::string csv_quote(std::string_view text);

// The -S/--summary table, for stderr.
std::string format_summary(const std::vector<kernel_stat>& stats);

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
