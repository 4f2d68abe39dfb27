// rocpd query: one SELECT over every database of the job. SQLite attaches at most
// SQLITE_MAX_ATTACHED databases to one connection (10 in Debian's libsqlite3, a compile-time
// bound sqlite3_limit cannot raise), so a union of attached databases cannot serve a job of 64 or
// 1000 processes. The query runs on each database's own read-only connection instead, and the
// rows of all are listed in input order, each led by a `database` column naming its file.
// Aggregates are therefore per database (docs/rocpd.md shows how to combine them).
#include "commands.hpp"
#include "job.hpp"
#include "tables.hpp"

#include <sqlite3.h>

#include <cctype>

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
} // namespace

int
run_query(const arguments& args)
{
    const auto the_job = job{args};
    auto       out     = table_stream{args, "query", "rocpd_query"};
    auto       names   = std::vector<std::string>{"database"};
    bool       named   = false;
    the_job.each_database(
        [&](const input_database& db)
        {
            sqlite3_stmt* stmt = nullptr;
            const char*   tail = nullptr;
            auto rc = sqlite3_prepare_v2(db.handle(), args.query.c_str(), -1, &stmt, &tail);
            if(rc != SQLITE_OK)
            {
                sqlite3_finalize(stmt);
                db.fail(rc, "bad query", exit_code::query_failed);
            }
            if(stmt == nullptr || !only_space(tail))
            {
                sqlite3_finalize(stmt);
                throw failure{exit_code::query_failed,
                              "rocpd query: --query takes exactly one SQL statement"};
            }
            const auto columns = sqlite3_column_count(stmt);
            if(!named)
            {
                for(int i = 0; i < columns; ++i)
                    names.emplace_back(sqlite3_column_name(stmt, i));
                out.set_columns(names);
                named = true;
            }
            else if(static_cast<size_t>(columns) + 1 != names.size())
            {
                sqlite3_finalize(stmt);
                throw failure{exit_code::query_failed,
                              db.path() + ": the query gives " + std::to_string(columns) +
                                  " columns here and " + std::to_string(names.size() - 1) + " in " +
                                  the_job.databases().front().path()};
            }
            while((rc = sqlite3_step(stmt)) == SQLITE_ROW)
            {
                auto row = std::vector<cell>{db.path()};
                for(int i = 0; i < columns; ++i)
                    row.emplace_back(value_of(stmt, i));
                out.row(row);
            }
            sqlite3_finalize(stmt);
            if(rc != SQLITE_DONE) db.fail(rc, "query failed", exit_code::query_failed);
        });
    out.finish();
    return 0;
}
} // namespace rocpd
