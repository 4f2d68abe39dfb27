// rocpd convert -f csv: kernel_trace.csv, memory_copy_trace.csv, counter_collection.csv and
// marker_api_trace.csv of each database, as rocprofv3 -f csv writes them: the rows come from the
// views (the counter values from rocpd_pmc_event and rocpd_info_pmc) and are formatted by
// the tool library's own CSV row functions (csv/rows.hpp), fed with records rebuilt from the view
// columns, so that the two writers cannot drift apart. Rows are streamed to the files, in the
// views' order (by start time; rocprofv3 writes them in completion order). Under kernel replay a
// dispatch has a kernel trace row per pass, as rocprofv3 writes them (the further passes' times
// are in its extdata); Process_Id is each row's own process (a merged database holds several).
//
// Each database gets its own set of files: <name>_kernel_trace.csv, ... where <name> is -o (one
// input), -o + "_" + the input's file stem (several inputs), or the stem alone (no -o). A file is
// written only when its view has rows.
//
// rocpd convert -f pftrace: one Perfetto trace for the job, <-o or rocpd>_results.pftrace, one
// process track per database (job_pftrace.hpp), written while the records are read; the counter
// records of counter_collection.csv become its counter tracks.
//
// rocpd convert -f otf2: one OTF2 archive for the job, <-o or rocpd>_results.otf2 (with .def and
// the folder of the same name), written by the tool library's OTF2 writer (otf2/otf2_trace.hpp)
// from the same rebuilt records, one process (location group) per database named by its program,
// pid, rank and host. The records of every database are read first; the archive is written after
// the CSV files, and its failure leaves them in place; counter values are its metric events.
#include "commands.hpp"
#include "job.hpp"
#include "job_pftrace.hpp"
#include "tables.hpp"

#include "csv/rows.hpp"
#include "model/names.hpp"
#include "model/results.hpp"
#include "otf2/otf2_sink.hpp"
#include "otf2/otf2_trace.hpp"

#include <nlohmann/json.hpp>
#include <rocprofiler-sdk/experimental/graph.h>
#include <sqlite3.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace rocpd
{
namespace
{
namespace tool = rocprofiler::tool;

uint64_t
u64(sqlite3_stmt* s, int column)
{
    return static_cast<uint64_t>(sqlite3_column_int64(s, column));
}

// The names of a database's agents by row id (the Perfetto agent tracks show them).
using agent_names = std::map<uint64_t, std::pair<std::string, std::string>>;

// The agent of a view row (its id and index columns) in @p data, added the first time.
rocprofiler_agent_id_t
agent_of(tool::results&     data,
         sqlite3_stmt*      s,
         int                id,
         int                absolute,
         int                logical,
         int                type_index,
         int                type,
         int                host  = -1,
         const agent_names* names = nullptr)
{
    // Handle 0 is host memory to the CSV rows (the writer's CPU agent row marked host_memory in
    // its extdata; no agent at all in a database another writer made); an agent row's id may be
    // 0 (logical node 0), so the rebuilt handles are the ids plus one.
    if(sqlite3_column_type(s, id) == SQLITE_NULL) return rocprofiler_agent_id_t{0};
    if(host >= 0 && sqlite3_column_int64(s, host) != 0) return rocprofiler_agent_id_t{0};
    const auto handle = u64(s, id) + 1;
    if(data.find_agent(rocprofiler_agent_id_t{handle}) == nullptr)
    {
        auto entry                      = tool::agent_entry{};
        entry.info.id.handle            = handle;
        entry.info.node_id              = static_cast<uint32_t>(u64(s, absolute));
        entry.info.logical_node_id      = static_cast<int32_t>(u64(s, logical));
        entry.info.logical_node_type_id = static_cast<int32_t>(u64(s, type_index));
        entry.info.type =
            column_text(s, type) == "CPU" ? ROCPROFILER_AGENT_TYPE_CPU : ROCPROFILER_AGENT_TYPE_GPU;
        if(names != nullptr)
            if(auto it = names->find(u64(s, id)); it != names->end())
            {
                entry.name         = it->second.first;
                entry.product_name = it->second.second;
            }
        data.agents.push_back(entry);
    }
    return rocprofiler_agent_id_t{handle};
}

// The columns of a dispatch, in the order dispatch_of() reads them: AMD's kernels view (k), with
// the agent's row id and a CUDA graph node's ids (extdata) from the table (kd).
constexpr const char* dispatch_columns =
    "SELECT kd.agent_id, k.agent_abs_index, k.agent_log_index, k.agent_type_index, "
    "k.agent_type, k.queue_id, k.tid, k.dispatch_id, k.kernel_id, k.name, k.corr_id, "
    "k.start, k.\"end\", k.lds_size, k.scratch_size, k.vgpr_count, k.accum_vgpr_count, "
    "k.sgpr_count, k.workgroup_x, k.workgroup_y, k.workgroup_z, k.grid_x, k.grid_y, k.grid_z, "
    "CASE WHEN json_extract(kd.extdata, '$.graph_node_id') IS NOT NULL THEN kd.extdata END";
constexpr int dispatch_column_count = 25;

// A graph node's ids into the dispatch info's reserved padding, where the SDK puts them
// (experimental/graph.h reads them back), so that every output shows them as rocprofv3's do.
void
set_graph_node(rocprofiler_kernel_dispatch_info_t& d, uint64_t graph_id, uint64_t node_id)
{
    const uint64_t marker = ROCPROFILER_DISPATCH_GRAPH_NODE_MARKER;
    static_assert(sizeof(d.reserved_padding) >= 3 * sizeof(uint64_t),
                  "the dispatch info has no room for a graph node's ids");
    std::memcpy(d.reserved_padding, &marker, sizeof(marker));
    std::memcpy(d.reserved_padding + 8, &graph_id, sizeof(graph_id));
    std::memcpy(d.reserved_padding + 16, &node_id, sizeof(node_id));
}

// The kernel trace record of a row of dispatch_columns; its agent and kernel symbol are added to
// @p data the first time.
rocprofiler_buffer_tracing_kernel_dispatch_record_t
dispatch_of(tool::results& data, sqlite3_stmt* s, const agent_names& names)
{
    auto  r           = rocprofiler_buffer_tracing_kernel_dispatch_record_t{};
    auto& d           = r.dispatch_info;
    d.agent_id        = agent_of(data, s, 0, 1, 2, 3, 4, -1, &names);
    d.queue_id.handle = u64(s, 5);
    r.thread_id       = u64(s, 6);
    d.dispatch_id     = u64(s, 7);
    d.kernel_id       = u64(s, 8);
    if(data.kernel_symbols.count(d.kernel_id) == 0)
    {
        auto sym             = tool::kernel_symbol{};
        sym.kernel_id        = d.kernel_id;
        sym.name             = column_text(s, 9);
        sym.arch_vgpr_count  = static_cast<uint32_t>(u64(s, 15));
        sym.accum_vgpr_count = static_cast<uint32_t>(u64(s, 16));
        sym.sgpr_count       = static_cast<uint32_t>(u64(s, 17));
        data.kernel_symbols.emplace(d.kernel_id, std::move(sym));
    }
    r.correlation_id.internal = u64(s, 10);
    r.start_timestamp         = u64(s, 11);
    r.end_timestamp           = u64(s, 12);
    d.group_segment_size      = static_cast<uint32_t>(u64(s, 13));
    d.private_segment_size    = static_cast<uint32_t>(u64(s, 14));
    d.workgroup_size          = {static_cast<uint32_t>(u64(s, 18)),
                                 static_cast<uint32_t>(u64(s, 19)),
                                 static_cast<uint32_t>(u64(s, 20))};
    d.grid_size               = {static_cast<uint32_t>(u64(s, 21)),
                                 static_cast<uint32_t>(u64(s, 22)),
                                 static_cast<uint32_t>(u64(s, 23))};
    // Read from the JSON text, not json_extract's number: an id above 2^63 would come back a REAL.
    if(sqlite3_column_type(s, 24) == SQLITE_TEXT)
    {
        const auto ext     = nlohmann::json::parse(column_text(s, 24), nullptr, false);
        const auto graph   = ext.is_object() ? ext.find("graph_id") : ext.end();
        const auto node    = ext.is_object() ? ext.find("graph_node_id") : ext.end();
        const auto integer = [&](auto it) { return it != ext.end() && it->is_number_unsigned(); };
        if(integer(graph) && integer(node))
            set_graph_node(d, graph->template get<uint64_t>(), node->template get<uint64_t>());
    }
    return r;
}

// The counter record of one pass of a dispatch (@p pass: its replay_pass, none outside kernel
// replay), without its values. The thread and times are the dispatch row's unless the writer kept
// the record's own in the row's extdata counter_records (@p kept, JSON text; empty when absent):
// a counter record is delivered on the thread that completed the dispatch, and each replay pass
// has its own times. @p path names the database in the error for a malformed entry.
tool::counter_dispatch
counter_record_of(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r,
                  std::optional<uint64_t>                                    pass,
                  const std::string&                                         kept,
                  const std::string&                                         path)
{
    auto rec                         = tool::counter_dispatch{};
    rec.data.size                    = sizeof(rec.data);
    rec.data.correlation_id.internal = r.correlation_id.internal;
    rec.data.start_timestamp         = r.start_timestamp;
    rec.data.end_timestamp           = r.end_timestamp;
    rec.data.dispatch_info           = r.dispatch_info;
    rec.thread_id                    = r.thread_id;
    rec.replay_pass                  = pass;
    if(kept.empty()) return rec;
    const auto entries = nlohmann::json::parse(kept, nullptr, false);
    const auto bad     = [&]
    {
        return failure{exit_code::bad_input,
                       path + ": dispatch " + std::to_string(r.dispatch_info.dispatch_id) +
                           ": its extdata's counter_records is not a list of {tid, start, "
                           "end[, replay_pass]}"};
    };
    if(!entries.is_array()) throw bad();
    for(const auto& e : entries)
    {
        if(!e.is_object()) throw bad();
        for(const auto* field : {"tid", "start", "end"})
            if(!e.contains(field) || !e[field].is_number_unsigned()) throw bad();
        const auto it       = e.find("replay_pass");
        const bool has_pass = it != e.end() && !it->is_null();
        if(has_pass && !it->is_number_unsigned()) throw bad();
        if(has_pass != pass.has_value() || (has_pass && it->get<uint64_t>() != *pass)) continue;
        rec.thread_id            = e["tid"].get<uint64_t>();
        rec.data.start_timestamp = e["start"].get<uint64_t>();
        rec.data.end_timestamp   = e["end"].get<uint64_t>();
    }
    return rec;
}

// The times of a dispatch's further replay passes (rocpd_kernel_dispatch.extdata's
// kernel_trace_records: [{start, end}, ...]) that are in @p window; a malformed list is a bad input
// naming the file and the dispatch.
std::vector<std::pair<uint64_t, uint64_t>>
further_passes(const std::string&                kept,
               const std::optional<time_window>& window,
               const std::string&                path,
               uint64_t                          dispatch_id)
{
    auto out = std::vector<std::pair<uint64_t, uint64_t>>{};
    if(kept.empty()) return out;
    const auto entries = nlohmann::json::parse(kept, nullptr, false);
    const auto bad     = [&]
    {
        return failure{exit_code::bad_input,
                       path + ": dispatch " + std::to_string(dispatch_id) +
                           ": its extdata's kernel_trace_records is not a list of {start, end}"};
    };
    if(!entries.is_array()) throw bad();
    for(const auto& e : entries)
    {
        if(!e.is_object()) throw bad();
        for(const auto* field : {"start", "end"})
            if(!e.contains(field) || !e[field].is_number_unsigned()) throw bad();
        const auto start = e["start"].get<uint64_t>();
        const auto end   = e["end"].get<uint64_t>();
        // The window's rule for a record (job.hpp): overlapping it, or wholly inside it.
        if(window && (window->inside_only ? (start < window->start || end > window->end)
                                          : (start > window->end || end < window->start)))
            continue;
        out.emplace_back(start, end);
    }
    return out;
}

// A CSV file opened on first use (a file is written only when it has rows).
class csv_file
{
public:
    csv_file(std::string path, std::string header, bool enabled)
        : m_path{std::move(path)}
        , m_header{std::move(header)}
        , m_enabled{enabled}
    {
    }
    // A file left unfinished (a database that failed part-way) is removed, not left looking whole.
    ~csv_file()
    {
        if(m_out && m_out->is_open())
        {
            m_out->close();
            std::remove(m_path.c_str());
        }
    }
    csv_file(const csv_file&)            = delete;
    csv_file& operator=(const csv_file&) = delete;
    bool      enabled() const { return m_enabled; }
    void      row(const std::string& text)
    {
        if(!m_enabled) return;
        if(!m_out)
        {
            m_out = std::make_unique<std::ofstream>(m_path, std::ios::binary | std::ios::trunc);
            *m_out << m_header;
        }
        *m_out << text;
        if(!*m_out) throw failure{exit_code::output, m_path + ": cannot write"};
    }
    void close()
    {
        if(!m_out) return;
        m_out->close();
        if(!*m_out) throw failure{exit_code::output, m_path + ": cannot write"};
        std::cerr << "rocpd: wrote " << m_path << '\n';
    }

private:
    std::string                    m_path    = {};
    std::string                    m_header  = {};
    std::unique_ptr<std::ofstream> m_out     = {};
    bool                           m_enabled = true;
};

tool::agent_index
agent_index_of(const input_database& db)
{
    const auto mode = db.tag("agent_index");
    if(mode == "absolute") return tool::agent_index::absolute;
    if(mode == "type-relative") return tool::agent_index::type_relative;
    return tool::agent_index::relative;
}

// Where the records of one database go: its CSV files (when -f csv), its process in the
// OTF2 trace (when -f otf2) and in the Perfetto trace (when -f pftrace), named by process_name.
struct destinations
{
    bool              csv          = false;
    tool::otf2_trace* otf2         = nullptr;
    size_t            process      = 0;
    job_pftrace*      pftrace      = nullptr;
    std::string       process_name = {};
};

void
convert_one(const input_database&             db,
            const std::string&                prefix,
            const destinations&               to,
            const std::optional<time_window>& window)
{
    auto data             = tool::results{};
    data.agent_index_mode = agent_index_of(db);
    data.pid              = std::strtoull(db.tag("pid").c_str(), nullptr, 10);

    auto                   names = agent_names{};
    tool::pftrace_builder* trace = nullptr;
    if(to.pftrace != nullptr)
    {
        db.each_row("SELECT id, name, product_name FROM rocpd_info_agent",
                    [&](sqlite3_stmt* s) {
                        names[u64(s, 0)] = {column_text(s, 1), column_text(s, 2)};
                    });
        // The builder names the process track by the program's file name: the whole name here.
        auto name = to.process_name;
        std::replace(name.begin(), name.end(), '/', '_');
        data.command = {name};
        trace        = &to.pftrace->begin_process(data);
    }
    const auto flush = [&]
    {
        if(to.pftrace != nullptr) to.pftrace->flush();
    };

    // Dispatches that only a counter record made (no --kernel-trace) are not kernel trace rows.
    auto kernels = csv_file{prefix + "_kernel_trace.csv", tool::kernel_trace_csv_header(), to.csv};
    // Under kernel replay a dispatch's row holds its first pass; each further pass's kernel trace
    // record (its own times) is a row of rocprofv3's kernel_trace.csv too.
    db.each_row(std::string{dispatch_columns} +
                    ", json_extract(kd.extdata, '$.kernel_trace_records') FROM kernels AS k JOIN "
                    "rocpd_kernel_dispatch AS kd ON kd.id = k.id AND kd.guid = k.guid WHERE "
                    "json_extract(kd.extdata, '$.source') IS NOT 'counter_collection'" +
                    window_filter(window, "k.") + " ORDER BY k.start, k.id",
                [&](sqlite3_stmt* s)
                {
                    auto       r    = dispatch_of(data, s, names);
                    const auto more = further_passes(column_text(s, dispatch_column_count),
                                                     window,
                                                     db.path(),
                                                     r.dispatch_info.dispatch_id);
                    for(size_t pass = 0; pass <= more.size(); ++pass)
                    {
                        if(pass > 0) std::tie(r.start_timestamp, r.end_timestamp) = more[pass - 1];
                        if(kernels.enabled()) kernels.row(tool::kernel_trace_csv_row(data, r));
                        if(to.otf2 != nullptr) to.otf2->dispatch(to.process, data, r);
                        if(trace != nullptr) trace->dispatch(data, r);
                    }
                    flush();
                });
    kernels.close();

    auto operations = std::map<std::string, rocprofiler_memory_copy_operation_t>{};
    for(int op = ROCPROFILER_MEMORY_COPY_NONE; op < ROCPROFILER_MEMORY_COPY_LAST; ++op)
    {
        const auto kind = static_cast<rocprofiler_memory_copy_operation_t>(op);
        operations.emplace(tool::memory_copy_direction_name(kind), kind);
    }
    auto copies =
        csv_file{prefix + "_memory_copy_trace.csv", tool::memory_copy_trace_csv_header(), to.csv};
    db.each_row(
        // AMD's memory_copies view, with the agents' row ids and host flags from the tables.
        "SELECT m.name, mc.src_agent_id, m.src_agent_abs_index, m.src_agent_log_index, "
        "m.src_agent_type_index, m.src_agent_type, mc.dst_agent_id, m.dst_agent_abs_index, "
        "m.dst_agent_log_index, m.dst_agent_type_index, m.dst_agent_type, m.corr_id, m.start, "
        "m.\"end\", m.size, m.src_address, m.dst_address, m.tid, "
        "json_extract(sa.extdata, '$.host_memory'), json_extract(da.extdata, '$.host_memory') "
        "FROM memory_copies AS m JOIN rocpd_memory_copy AS mc ON mc.id = m.id AND mc.guid = "
        "m.guid JOIN rocpd_info_agent AS sa ON sa.id = mc.src_agent_id AND sa.guid = mc.guid "
        "JOIN rocpd_info_agent AS da ON da.id = mc.dst_agent_id AND da.guid = mc.guid WHERE 1" +
            window_filter(window, "m.") + " ORDER BY m.start, m.id",
        [&](sqlite3_stmt* s)
        {
            auto       r   = rocprofiler_buffer_tracing_memory_copy_record_t{};
            const auto op  = operations.find(column_text(s, 0));
            r.operation    = op != operations.end() ? op->second : ROCPROFILER_MEMORY_COPY_NONE;
            r.src_agent_id = agent_of(data, s, 1, 2, 3, 4, 5, 18, &names);
            r.dst_agent_id = agent_of(data, s, 6, 7, 8, 9, 10, 19, &names);
            r.correlation_id.internal = u64(s, 11);
            r.start_timestamp         = u64(s, 12);
            r.end_timestamp           = u64(s, 13);
            r.bytes                   = u64(s, 14);
            r.src_address.handle      = u64(s, 15);
            r.dst_address.handle      = u64(s, 16);
            r.thread_id               = u64(s, 17);
            if(copies.enabled()) copies.row(tool::memory_copy_trace_csv_row(data, r));
            if(to.otf2 != nullptr) to.otf2->memory_copy(to.process, data, r);
            if(trace != nullptr) trace->memory_copy(data, r);
            flush();
        });
    copies.close();

    // Counters: one counter_dispatch per dispatch and replay pass, as rocprofv3's counter record
    // callback makes them, for counter_collection.csv and the Perfetto counter tracks. The rows
    // come grouped by dispatch and pass (dispatches in start order, values in the order written);
    // a record is handed on when the next one starts, so one dispatch is held at a time.
    auto counters =
        csv_file{prefix + "_counter_collection.csv", tool::counter_collection_csv_header(), to.csv};
    if(counters.enabled() || trace != nullptr || to.otf2 != nullptr)
    {
        auto       record = std::optional<tool::counter_dispatch>{};
        auto       key    = std::tuple<std::string, uint64_t, std::optional<uint64_t>>{};
        auto       pid    = data.pid;
        const auto emit   = [&]
        {
            if(!record) return;
            // Process_Id: the record's process (a merged database holds several).
            const auto tagged = std::exchange(data.pid, pid);
            if(counters.enabled()) counters.row(tool::counter_collection_csv_rows(data, *record));
            data.pid = tagged;
            if(trace != nullptr)
            {
                trace->counters(data, *record);
                flush();
            }
            if(to.otf2 != nullptr) to.otf2->counters(to.process, data, *record);
            record.reset();
        };
        constexpr int c = dispatch_column_count;
        db.each_row(
            std::string{dispatch_columns} +
                ", k.guid, k.id, json_extract(pe.extdata, '$.replay_pass'), pi.event_code, "
                "pi.name, pe.value, json_extract(kd.extdata, '$.counter_records'), k.pid "
                "FROM kernels AS k "
                "JOIN rocpd_kernel_dispatch AS kd ON kd.id = k.id AND kd.guid = k.guid "
                "JOIN rocpd_pmc_event AS pe ON pe.event_id = kd.event_id AND pe.guid = kd.guid "
                "JOIN rocpd_info_pmc AS pi ON pi.id = pe.pmc_id AND pi.guid = pe.guid WHERE 1" +
                window_filter(window, "k.") +
                " ORDER BY k.start, k.guid, k.id, json_extract(pe.extdata, '$.replay_pass'), "
                "pe.id",
            [&](sqlite3_stmt* s)
            {
                auto pass = sqlite3_column_type(s, c + 2) == SQLITE_NULL
                                ? std::optional<uint64_t>{}
                                : std::optional<uint64_t>{u64(s, c + 2)};
                auto next = std::tuple{column_text(s, c), u64(s, c + 1), pass};
                if(!record || next != key)
                {
                    emit();
                    key    = std::move(next);
                    record = counter_record_of(
                        dispatch_of(data, s, names), pass, column_text(s, c + 6), db.path());
                    pid = u64(s, c + 7);
                }
                record->values.push_back(tool::counter_value{
                    u64(s, c + 3), column_text(s, c + 4), sqlite3_column_double(s, c + 5)});
            });
        emit();
    }
    counters.close();

    // Regions: the marker domains are marker_api_trace.csv's rows; the CUDA API calls, regions
    // too, go to the OTF2 trace only (their CSV file is not converted yet).
    auto markers =
        csv_file{prefix + "_marker_api_trace.csv", tool::marker_api_trace_csv_header(), to.csv};
    db.each_row("SELECT category, name, tid, corr_id, start, end, category LIKE 'MARKER%', "
                "json_extract(extdata, '$.process_range'), pid FROM regions WHERE 1" +
                    window_filter(window, "") + " ORDER BY start, id",
                [&](sqlite3_stmt* s)
                {
                    auto e               = tool::marker_event{};
                    e.domain             = column_text(s, 0);
                    e.function           = column_text(s, 1);
                    e.thread_id          = u64(s, 2);
                    e.correlation_id     = u64(s, 3);
                    e.start              = u64(s, 4);
                    e.end                = u64(s, 5);
                    e.process_range      = u64(s, 7) != 0;
                    const bool is_marker = u64(s, 6) != 0;
                    if(is_marker && markers.enabled())
                    {
                        // Process_Id: the row's process (a merged database holds several).
                        const auto tagged = std::exchange(data.pid, u64(s, 8));
                        markers.row(tool::marker_api_trace_csv_row(data, e));
                        data.pid = tagged;
                    }
                    if(trace != nullptr)
                    {
                        if(is_marker)
                            trace->marker(e);
                        else
                            trace->api_call(e);
                        flush();
                    }
                    if(to.otf2 == nullptr) return;
                    if(is_marker)
                        to.otf2->marker(to.process, e);
                    else
                        to.otf2->api_call(to.process, e);
                });
    markers.close();
    if(to.pftrace != nullptr) to.pftrace->end_process();
}
} // namespace

int
run_convert(const arguments& args)
{
    const auto the_job = job{args};
    const auto window  = the_job.window(args);
    const auto wants   = [&](const char* f)
    {
        return std::find(args.convert_formats.begin(), args.convert_formats.end(), f) !=
               args.convert_formats.end();
    };
    const bool csv     = wants("csv");
    const bool otf2    = wants("otf2");
    const bool pftrace = wants("pftrace");
    if(otf2 && !tool::otf2_available())
        throw failure{exit_code::usage,
                      "rocpd convert: -f otf2: this rocpd was built without OTF2 support (install "
                      "libotf2-trace-dev and reconfigure); nothing was converted"};

    // The archive's place, checked (and its folder made) before anything is read.
    auto otf2_path = std::string{};
    if(otf2) otf2_path = output_file_path(args, "rocpd", "_results");
    auto trace    = tool::otf2_trace{};
    auto perfetto = std::unique_ptr<job_pftrace>{};
    if(pftrace)
        perfetto =
            std::make_unique<job_pftrace>(output_file_path(args, "rocpd", "_results") + ".pftrace");

    auto used = std::set<std::string>{};
    the_job.each_database(
        [&](const input_database& db)
        {
            const auto stem = std::filesystem::path{db.path()}.stem().string();
            auto       name = args.output_file.empty()
                                  ? stem
                                  : (the_job.databases().size() == 1 ? args.output_file
                                                                     : args.output_file + "_" + stem);
            if(csv && !used.insert(name).second)
                throw failure{
                    exit_code::usage,
                    "rocpd convert: two inputs would write the files " + name +
                        "_*.csv (same file name in different folders); convert them apart"};
            auto to      = destinations{};
            to.csv       = csv;
            auto program = db.tag("command");
            program      = program.substr(0, program.find(' '));
            to.process_name =
                tool::otf2_process_name(program, db.tag("pid"), db.tag("rank"), db.tag("hostname"));
            if(otf2)
            {
                to.otf2    = &trace;
                to.process = trace.add_process(to.process_name, db.tag("hostname"));
            }
            to.pftrace        = perfetto.get();
            auto named        = args;
            named.output_file = name;
            convert_one(db, csv ? output_file_path(named, name, "") : std::string{}, to, window);
        });

    if(perfetto)
    {
        perfetto->close();
        std::cerr << "rocpd: wrote " << perfetto->path() << " (" << perfetto->processes()
                  << " processes)\n";
    }
    if(otf2)
    {
        const auto where = std::filesystem::path{otf2_path};
        auto       error = std::string{};
        if(!trace.write(where.parent_path().string(), where.filename().string(), error))
            throw failure{exit_code::output, error};
        std::cerr << "rocpd: wrote " << otf2_path << ".otf2 (" << trace.processes().size()
                  << " processes, " << trace.records() << " records)\n";
    }
    return 0;
}
} // namespace rocpd
