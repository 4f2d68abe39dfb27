// The rocpd database (<prefix>_results.db, -f rocpd, the default format): an SQLite file in AMD's
// rocpd layout (schema version 3): tables named with the run's UUID as suffix
// (rocpd_kernel_dispatch_<uuid>), one unsuffixed view per table, and the views AMD's tools query
// (kernels, memory_copies, regions, counters_collection, top, busy, ...), so that a program
// written against AMD's schema reads ours unchanged. The SQL is our own; docs/rocpd.md lists what
// the extdata columns and this SDK's rocprofv3_* tables hold.
//
// The database is streamed like kernel_trace.csv: records are inserted as they arrive, through
// prepared statements, inside a transaction that is committed every commit_rows rows and by
// commit() (the tool's flusher calls it periodically), so memory stays bounded and a run that
// ends abruptly leaves every committed batch. The rollback journal (journal_mode DELETE) keeps
// the main file consistent whatever ends the process: an interrupted batch is rolled back by the
// next reader. Not thread-safe: the tool calls it with its mutex held.
// rocpd/writer.cpp holds the database side (SQLite, transactions, the run's rows), rocpd/rows.cpp
// the mapping of each record to its rows; the schema is rocpd/schema.sql, the run's UUID
// rocpd/run_uuid.hpp.
#pragma once

#include "model/results.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace rocprofiler::tool
{
// Whether this build writes rocpd databases (SQLite3 was found when it was configured).
bool rocpd_available();

class rocpd_writer
{
public:
    rocpd_writer() = default;
    ~rocpd_writer();
    rocpd_writer(const rocpd_writer&)            = delete;
    rocpd_writer& operator=(const rocpd_writer&) = delete;

    // Creates the database at @p path (replacing an old one) with the schema, the node, the
    // process, the agents and what is already known of code objects and kernels.
    bool open(const std::string& path, const results& data);

    void code_object(const code_object_entry& entry);
    void kernel(const kernel_symbol& sym);
    // One kernel_trace.csv row.
    void dispatch(const results&                                             data,
                  const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
    // The counter values of one pass of one dispatch (counter_collection.csv's rows).
    void counters(const results& data, const counter_dispatch& rec);
    // One memory_copy_trace.csv row: a rocpd_memory_copy row and its event.
    void memory_copy(const results& data, const rocprofiler_buffer_tracing_memory_copy_record_t& r);
    // One marker_api_trace.csv row: a rocpd_region row (the function as its name) and its event
    // (the domain as its category, the row's correlation id).
    void marker(const results& data, const marker_event& e);

    // What kernel replay did with one dispatch, and the counter groups it is missing
    // (replay_ledger's sink).
    void replay_outcome(const results&               data,
                        const tool::replay_outcome&  outcome,
                        const std::vector<uint64_t>& missing);
    // Commits the open batch; the next insert opens another.
    void commit();
    // Writes the end of the run (process fini, how the run ended), commits,
    // closes. Returns false with the error.
    bool finish(const results& data, std::string& error);

    const std::string& path() const { return m_path; }
    const std::string& error() const { return m_error; }
    bool               is_open() const { return m_db != nullptr; }

    static constexpr uint64_t commit_rows = 4096;
    // The event id of the first memory copy (dispatch ids stay below it).
    static constexpr uint64_t memory_copy_event_base = uint64_t{1} << 48U;
    // The event id of the first marker (copies stay below it).
    static constexpr uint64_t marker_event_base = uint64_t{1} << 50U;

private:
    bool          create(const std::string& path);
    void          insert_run(const results& data);
    void          insert_agents(const results& data);
    bool          usable() const;
    bool          exec(const char* sql);
    sqlite3_stmt* prepare(const char* sql);
    bool          step(sqlite3_stmt* stmt);
    void          begin();
    void          commit_if_large();
    void          fail(const std::string& what);
    void          ensure_kernel(const results& data, uint64_t kernel_id);
    void          ensure_thread(uint64_t tid);
    void          ensure_queue(uint64_t queue);
    // The rocpd_info_agent row standing for host memory (a CPU agent, extdata host_memory),
    // added at the first copy from or to the host.
    int64_t host_agent(const results& data);
    // Inserts the event and the rocpd_kernel_dispatch row of a dispatch unless present (a kernel
    // trace record replaces a row made from a counter record); returns whether it wrote the row.
    bool insert_dispatch(const results&                            data,
                         const rocprofiler_kernel_dispatch_info_t& info,
                         uint64_t                                  thread_id,
                         uint64_t                                  correlation,
                         uint64_t                                  start,
                         uint64_t                                  end,
                         const std::string&                        extdata,
                         bool                                      from_trace);
    // The rocpd_info_pmc row of a counter; @p fallback_name names one the agent did not list.
    int64_t pmc_id(const results&         data,
                   rocprofiler_agent_id_t agent,
                   uint64_t               counter_id,
                   const std::string&     fallback_name);
    // The rocpd_string row of @p text (a name not valid UTF-8 also gets a rocprofv3_raw_name row).
    int64_t string_id(const std::string& text);
    // A rocprofv3_raw_name row: the bytes of a name that is not valid UTF-8, for @p row of @p
    // table.
    bool raw_name(const char* table, int64_t row, const std::string& bytes);

    sqlite3*                                         m_db             = nullptr;
    std::string                                      m_path           = {};
    std::string                                      m_error          = {};
    std::string                                      m_guid           = {};
    int                                              m_owner          = 0; // pid that opened it
    bool                                             m_in_transaction = false;
    uint64_t                                         m_pending        = 0;
    uint64_t                                         m_copies         = 0;
    uint64_t                                         m_markers        = 0;
    std::map<std::string, sqlite3_stmt*>             m_statements     = {};
    std::map<uint64_t, bool>                         m_kernels        = {}; // id -> reported
    std::set<uint64_t>                               m_threads        = {};
    std::optional<int64_t>                           m_host_agent     = {};
    std::map<uint64_t, uint64_t>                     m_agent_numbers  = {}; // handle -> row id
    std::set<uint64_t>                               m_queues         = {};
    std::map<std::pair<uint64_t, uint64_t>, int64_t> m_pmc            = {};
    std::map<std::string, int64_t>                   m_strings        = {}; // name -> row
    std::map<std::string, int64_t>                   m_string_rows    = {}; // column text -> row
};
} // namespace rocprofiler::tool
