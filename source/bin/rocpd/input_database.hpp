// One input database, opened read-only (SQLITE_OPEN_READONLY: `rocpd` never writes its inputs)
// and checked before anything reads it: the file exists, is SQLite, is whole (its header's page
// count fits the file), is a rocpd database in AMD's layout (a rocpd_metadata view with the run's
// uuid, and the views) of a schema version this reader knows. A database of the layout rocprofv3
// wrote before (unsuffixed tables) is refused with its own message. Every failure is a `failure`
// naming the file (errors.hpp).
//
// The file is opened again when read (each_row, handle) and closed by close(): a job of thousands
// of databases holds one SQLite connection (its file descriptor, schema and page cache) at a time,
// not one per input (job::each_database).
//
// Readers go through the views (kernels, memory_copies, regions) and rocpd_metadata only, so that
// a later table layout behind the same views needs no change here; `rocpd merge` alone copies
// tables (merge.cpp).
#pragma once

#include "errors.hpp"

#include <functional>
#include <map>
#include <string>

struct sqlite3;
struct sqlite3_stmt;

namespace rocpd
{
// The rocpd schema version this reader knows (rocpd_metadata's schema_version).
inline constexpr const char* known_schema_version = "3";

class input_database
{
public:
    // Throws failure{bad_input} (or {locked}) naming @p path.
    input_database(const std::string& path, int busy_timeout_ms);
    ~input_database();
    input_database(input_database&& other) noexcept;
    input_database& operator=(input_database&&) = delete;
    input_database(const input_database&)       = delete;

    const std::string& path() const { return m_path; }
    // The open connection, opening the file again when close() closed it (read-only; a failure
    // to open throws as the constructor does).
    sqlite3* handle() const;
    // Closes the connection and frees its caches; the next read opens the file again.
    void close() const;
    // A rocpd_metadata value; empty when the tag is absent.
    std::string tag(const std::string& name) const;
    bool        has_tag(const std::string& name) const { return m_metadata.count(name) != 0; }
    // How many runs the file holds (uuid rows of rocpd_metadata): 1, or more in a merged file.
    int runs() const { return m_runs; }

    // Runs @p sql, calling @p row for each row. An SQLite error throws a failure naming the
    // file: {locked} for a database still locked after the busy timeout, @p on_error otherwise
    // (with SQLite's message).
    void each_row(const std::string&                        sql,
                  const std::function<void(sqlite3_stmt*)>& row,
                  exit_code                                 on_error = exit_code::bad_input) const;

    // The SQLite error of @p rc as this file's failure.
    [[noreturn]] void fail(int rc, const std::string& what, exit_code on_error) const;

private:
    void open() const;
    // pid, command, hostname and rank from rocpd_info_process/rocpd_info_node, for a file
    // without rocprofv3's own tags (one AMD's rocprofv3 wrote).
    void tags_from_process_row();

    std::string                        m_path     = {};
    mutable sqlite3*                   m_db       = nullptr;
    int                                m_busy_ms  = 0;
    std::map<std::string, std::string> m_metadata = {};
    int                                m_runs     = 0;
};

// A column as text (empty for NULL).
std::string column_text(sqlite3_stmt* stmt, int column);
} // namespace rocpd
