// One database holding every run of a job's inputs, in AMD's layout for a file of several runs:
// what `rocpd merge` writes, and what `rocpd query` reads when given several inputs. Each run's
// tables carry its UUID as suffix, so the runs' tables sit side by side unchanged: each is
// created from the input's own CREATE TABLE text; each unsuffixed per-table view (rocpd_string,
// rocpd_kernel_dispatch, ...) is the UNION ALL of that table over every run; the data and summary
// views (kernels, memory_copies, top, ...), which join on id and guid, are created once over
// those; rocprofv3_merge records the inputs. A run found in two inputs is refused.
//
// The schema is built first with every table empty; rows are copied after, of every table
// (merge) or of only the tables a statement reads (query): the copy costs what is read.
#pragma once

#include "job.hpp"

#include <map>
#include <set>
#include <string>
#include <vector>

struct sqlite3;

namespace rocpd
{
class merged_database
{
public:
    // Creates the database at @p path (replaced when present); an empty path is a private
    // temporary file that SQLite removes when the connection closes. Failures throw
    // failure{output} naming the path.
    explicit merged_database(const std::string& path);
    ~merged_database();
    merged_database(const merged_database&)            = delete;
    merged_database& operator=(const merged_database&) = delete;

    // The tables of every run of @p inputs (empty), the views over them and rocprofv3_merge.
    // A table of no run is refused (failure{bad_input}) unless @p force, which leaves it out
    // with a warning.
    void build_schema(const job& inputs, bool force);
    // Copies the rows of the tables @p tables names (suffixed names; every table when null) from
    // the inputs build_schema read; each input is attached read-only while its rows are copied.
    void copy_rows(const job& inputs, const std::set<std::string>* tables);

    // The per-table view names (rocpd_kernel_dispatch, ...) of @p tables' suffixed names, sorted.
    std::set<std::string> bases_of(const std::set<std::string>& tables) const;

    sqlite3* handle() const { return m_db; }
    size_t   runs() const { return m_runs; }
    // Runs @p sql; failures throw failure{output} naming the database.
    void exec(const std::string& sql);
    // Keeps the file when this object ends (without it a named file is removed).
    void keep() { m_kept = true; }

private:
    // The rows of @p sql over the attached @p input; a failed read throws failure{bad_input}
    // naming it.
    std::vector<std::vector<std::string>> rows(const std::string& sql, const std::string& input);
    void                                  attach(const std::string& path);

    std::string m_path = {};
    sqlite3*    m_db   = nullptr;
    bool        m_kept = false;
    size_t      m_runs = 0;
    // Suffixed table -> its per-table view's name.
    std::map<std::string, std::string> m_base_of = {};
    // Per input (in job order), the suffixed tables it brought.
    std::vector<std::vector<std::string>> m_tables_of_input = {};
};
} // namespace rocpd
