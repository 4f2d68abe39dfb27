// rocpd query: one SELECT over the job.
//
// One input: the statement runs on its read-only connection. Several: on the union of the inputs,
// the database `rocpd merge` would write of them (merged_database.hpp), built in a private
// temporary file: aggregates and joins span every process, and each run's rows meet only its
// own agents, threads and kernels (the views join on id and guid). Only the tables the statement
// reads are copied: the statement is prepared once on the empty schema with an authorizer that
// records the tables it reads, those tables' rows are copied, and it is prepared again and run.
// SQLite attaches at most SQLITE_MAX_ATTACHED databases to one connection (10 in Debian's
// libsqlite3), so the inputs are attached one at a time while their rows are copied.
//
// --per-database runs the statement on each input separately instead, each row led by a
// `database` column naming its file: no copy at all, one open input at a time (a job of
// thousands of processes), and a run given twice is allowed there.
#include "commands.hpp"
#include "job.hpp"
#include "merged_database.hpp"
#include "tables.hpp"

#include <sqlite3.h>

#include <cctype>
#include <functional>
#include <iostream>
#include <set>

namespace rocpd
{
namespace
{
cell
value_of(sqlite3_stmt* s, int column)
{
    switch(sqlite3_column_type(s, column))
    {
    case SQLITE_INTEGER:
        return static_cast<int64_t>(sqlite3_column_int64(s, column));
    case SQLITE_FLOAT:
        return sqlite3_column_double(s, column);
    case SQLITE_NULL:
        return {};
    default:
        return column_text(s, column);
    }
}

bool
only_space(const char* text)
{
    for(; text != nullptr && *text != '\0'; ++text)
        if(std::isspace(static_cast<unsigned char>(*text)) == 0 && *text != ';') return false;
    return true;
}

// The statement of --query prepared on @p db; @p on_error names the database in a failure.
sqlite3_stmt*
prepared(sqlite3*                                              db,
         const std::string&                                    sql,
         const std::function<void(int rc, const std::string&)> on_error)
{
    sqlite3_stmt* stmt = nullptr;
    const char*   tail = nullptr;
    const auto    rc   = sqlite3_prepare_v2(db, sql.c_str(), -1, &stmt, &tail);
    if(rc != SQLITE_OK)
    {
        sqlite3_finalize(stmt);
        on_error(rc, "bad query");
    }
    if(stmt == nullptr || !only_space(tail))
    {
        sqlite3_finalize(stmt);
        throw failure{exit_code::query_failed,
                      "rocpd query: --query takes exactly one SQL statement"};
    }
    return stmt;
}

// Steps @p stmt to its end, each row (led by @p lead when not empty) to @p out.
int
each_result_row(sqlite3_stmt* stmt, const std::string& lead, table_stream& out)
{
    const auto columns = sqlite3_column_count(stmt);
    auto       rc      = SQLITE_OK;
    while((rc = sqlite3_step(stmt)) == SQLITE_ROW)
    {
        auto row = std::vector<cell>{};
        if(!lead.empty()) row.emplace_back(lead);
        for(int i = 0; i < columns; ++i)
            row.emplace_back(value_of(stmt, i));
        out.row(row);
    }
    return rc;
}

std::vector<std::string>
column_names(sqlite3_stmt* stmt)
{
    auto names = std::vector<std::string>{};
    for(int i = 0; i < sqlite3_column_count(stmt); ++i)
        names.emplace_back(sqlite3_column_name(stmt, i));
    return names;
}

// Each input separately, rows led by the database's path.
void
per_database(const job& the_job, const arguments& args, table_stream& out)
{
    auto names = std::vector<std::string>{"database"};
    bool named = false;
    the_job.each_database(
        [&](const input_database& db)
        {
            auto*      stmt    = prepared(db.handle(),
                                  args.query,
                                  [&db](int rc, const std::string& what)
                                  { db.fail(rc, what, exit_code::query_failed); });
            const auto columns = static_cast<size_t>(sqlite3_column_count(stmt));
            if(!named)
            {
                for(auto& name : column_names(stmt))
                    names.push_back(std::move(name));
                out.set_columns(names);
                named = true;
            }
            else if(columns + 1 != names.size())
            {
                sqlite3_finalize(stmt);
                throw failure{exit_code::query_failed,
                              db.path() + ": the query gives " + std::to_string(columns) +
                                  " columns here and " + std::to_string(names.size() - 1) + " in " +
                                  the_job.databases().front().path()};
            }
            const auto rc = each_result_row(stmt, db.path(), out);
            sqlite3_finalize(stmt);
            if(rc != SQLITE_DONE) db.fail(rc, "query failed", exit_code::query_failed);
        });
}

// SQLite's authorizer during the first prepare: the tables the statement reads (through views
// too: SQLite reports the tables under them).
int
record_read(void* user, int action, const char* table, const char*, const char*, const char*)
{
    if(action == SQLITE_READ && table != nullptr)
        static_cast<std::set<std::string>*>(user)->insert(table);
    return SQLITE_OK;
}

// The union of the inputs, one statement over it.
void
on_the_union(const job& the_job, const arguments& args, table_stream& out)
{
    auto union_db = merged_database{""};
    union_db.build_schema(the_job, args.force);
    auto* db     = union_db.handle();
    auto  failed = [db](int rc, const std::string& what)
    {
        throw failure{exit_code::query_failed,
                      "rocpd query: " + what + " (on the union of the inputs): " +
                          sqlite3_errstr(rc) + ": " + sqlite3_errmsg(db)};
    };
    auto read = std::set<std::string>{};
    sqlite3_set_authorizer(db, record_read, &read);
    sqlite3_finalize(prepared(db, args.query, failed));
    sqlite3_set_authorizer(db, nullptr, nullptr);
    union_db.copy_rows(the_job, &read);
    // What the union cost: the tables copied (of every run).
    auto copied = std::string{};
    for(const auto& base : union_db.bases_of(read))
        copied += (copied.empty() ? "" : ", ") + base;
    std::cerr << "rocpd: query on the union of " << the_job.databases().size() << " databases ("
              << union_db.runs() << " runs); rows copied from "
              << (copied.empty() ? std::string{"no table"} : copied) << '\n';
    // The union stands for the inputs, which are read-only.
    union_db.exec("PRAGMA query_only = 1");
    auto* stmt = prepared(db, args.query, failed);
    out.set_columns(column_names(stmt));
    const auto rc = each_result_row(stmt, "", out);
    sqlite3_finalize(stmt);
    if(rc != SQLITE_DONE) failed(rc, "query failed");
}

// One input: its own connection.
void
on_the_one(const job& the_job, const arguments& args, table_stream& out)
{
    const auto& db   = the_job.databases().front();
    auto*       stmt = prepared(db.handle(),
                          args.query,
                          [&db](int rc, const std::string& what)
                          { db.fail(rc, what, exit_code::query_failed); });
    out.set_columns(column_names(stmt));
    const auto rc = each_result_row(stmt, "", out);
    sqlite3_finalize(stmt);
    if(rc != SQLITE_DONE) db.fail(rc, "query failed", exit_code::query_failed);
}
} // namespace

int
run_query(const arguments& args)
{
    const auto the_job = job{args};
    auto       out     = table_stream{args, "query", "rocpd_query"};
    if(args.per_database)
        per_database(the_job, args, out);
    else if(the_job.databases().size() == 1)
        on_the_one(the_job, args, out);
    else
        on_the_union(the_job, args, out);
    out.finish();
    return 0;
}
} // namespace rocpd
