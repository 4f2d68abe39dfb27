// rocpd merge: one database holding every input's runs, in AMD's layout for a file of several
// runs. Each run's tables carry its UUID as suffix, so the runs' tables sit side by side without a
// change: each is created from the input's own CREATE TABLE text and its rows copied as they are
// (ids, guids and strings stay as written, and rocprofv3_raw_name stays with its rows). Then each
// unsuffixed per-table view (rocpd_string, rocpd_kernel_dispatch, ...) becomes the UNION ALL of
// that table over every run, and the data and summary views (kernels, memory_copies, top, ...),
// which join on id and guid, are created once over those. rocprofv3_merge records the inputs.
//
// Merging a merged file works the same (its runs are its suffixes). A run found in two inputs
// (the same file twice, or a copy) is refused. The output is written to <output>.partial-<pid>
// and renamed into place when complete; the inputs are attached read-only.
#include "commands.hpp"
#include "job.hpp"

#include "rocpd/schema.hpp"

#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace rocpd
{
namespace
{
// SQLite refuses a compound SELECT of more than 500 terms: views of more runs are built from
// chunk views of this many.
constexpr size_t union_chunk = 250;

std::string
sql_name(const std::string& name)
{
    auto out = std::string{"\""};
    for(char c : name)
        out += c == '"' ? std::string{"\"\""} : std::string{c};
    return out + "\"";
}

// @p path as an SQLite URI that opens it read-only (every byte outside the unreserved set
// percent-encoded).
std::string
read_only_uri(const std::string& path)
{
    auto abs = std::filesystem::absolute(path).string();
    auto out = std::string{"file:"};
    for(unsigned char c : abs)
    {
        if(std::isalnum(c) != 0 || c == '/' || c == '-' || c == '_' || c == '.' || c == '~')
            out += static_cast<char>(c);
        else
        {
            static constexpr const char* hex = "0123456789ABCDEF";
            out += '%';
            out += hex[c >> 4U];
            out += hex[c & 0xfU];
        }
    }
    return out + "?mode=ro";
}

// The run's UUID of a table suffix ('_' and the UUID with '-' made '_': hex digits otherwise).
std::string
guid_of(const std::string& suffix)
{
    auto out = suffix.substr(1);
    std::replace(out.begin(), out.end(), '_', '-');
    return out;
}

class output_database
{
public:
    explicit output_database(const std::string& path)
        : m_path{path}
    {
        std::remove(path.c_str());
        if(sqlite3_open_v2(path.c_str(),
                           &m_db,
                           SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
                           nullptr) != SQLITE_OK)
            fail("cannot create");
        exec("PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF;");
    }
    ~output_database()
    {
        if(m_db != nullptr) sqlite3_close(m_db);
        if(!m_kept) std::remove(m_path.c_str());
    }
    output_database(const output_database&)            = delete;
    output_database& operator=(const output_database&) = delete;

    [[noreturn]] void fail(const std::string& what) const
    {
        throw failure{exit_code::output,
                      m_path + ": " + what + " (" + (m_db != nullptr ? sqlite3_errmsg(m_db) : "") +
                          ")"};
    }
    void exec(const std::string& sql)
    {
        char* message = nullptr;
        if(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
        {
            const auto text = std::string{message != nullptr ? message : "?"};
            sqlite3_free(message);
            throw failure{exit_code::output, m_path + ": " + text};
        }
    }
    // Rows of @p sql as text columns.
    std::vector<std::vector<std::string>> rows(const std::string& sql)
    {
        auto          out  = std::vector<std::vector<std::string>>{};
        sqlite3_stmt* stmt = nullptr;
        if(sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
            fail("cannot read: " + sql);
        while(sqlite3_step(stmt) == SQLITE_ROW)
        {
            auto& row = out.emplace_back();
            for(int i = 0; i < sqlite3_column_count(stmt); ++i)
                row.push_back(column_text(stmt, i));
        }
        sqlite3_finalize(stmt);
        return out;
    }
    void keep() { m_kept = true; }

private:
    std::string m_path = {};
    sqlite3*    m_db   = nullptr;
    bool        m_kept = false;
};

// The data and summary views of the schema: everything from its first data view on (the text
// before that creates one run's tables and per-table views).
std::string
data_views_sql()
{
    const auto text = std::string{rocprofiler::tool::rocpd_schema_sql};
    const auto at   = text.find("CREATE VIEW \"code_objects\"");
    if(at == std::string::npos)
        throw failure{exit_code::internal, "rocpd merge: the schema has no data views"};
    return text.substr(at);
}
} // namespace

int
run_merge(const arguments& args)
{
    const auto the_job = job{args};
    auto       error   = std::error_code{};
    for(const auto& db : the_job.databases())
        if(std::filesystem::equivalent(db.path(), args.output_file, error))
            throw failure{exit_code::usage,
                          "rocpd merge: the output " + args.output_file + " is one of the inputs"};

    const auto partial = args.output_file + ".partial-" + std::to_string(::getpid());
    auto       out     = output_database{partial};
    out.exec("CREATE TABLE rocprofv3_merge (\"path\" TEXT, \"guid\" TEXT NOT NULL, \"rank\" "
             "TEXT, \"pid\" TEXT, \"hostname\" TEXT)");

    auto runs   = std::map<std::string, std::string>{};              // suffix -> input path
    auto unions = std::map<std::string, std::vector<std::string>>{}; // base -> suffixed tables
    for(const auto& db : the_job.databases())
    {
        // One transaction per input (SQLite attaches outside transactions only).
        out.exec("ATTACH DATABASE '" + read_only_uri(db.path()) + "' AS input");
        out.exec("BEGIN");
        auto suffixes = std::vector<std::string>{};
        for(const auto& row : out.rows("SELECT value FROM input.rocpd_metadata WHERE tag = 'uuid'"))
        {
            const auto& suffix = row.at(0);
            auto [it, added]   = runs.emplace(suffix, db.path());
            if(!added)
                throw failure{exit_code::bad_input,
                              "rocpd merge: run " + guid_of(suffix) +
                                  " is in two inputs: " + it->second + " and " + db.path()};
            suffixes.push_back(suffix);
        }
        for(const auto& row : out.rows("SELECT name, sql FROM input.sqlite_master WHERE type = "
                                       "'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"))
        {
            const auto& name = row.at(0);
            if(name == "rocprofv3_merge")
            {
                out.exec("INSERT INTO rocprofv3_merge SELECT * FROM input.rocprofv3_merge");
                continue;
            }
            auto suffix =
                std::find_if(suffixes.begin(),
                             suffixes.end(),
                             [&name](const std::string& s) {
                                 return name.size() > s.size() &&
                                        name.compare(name.size() - s.size(), s.size(), s) == 0;
                             });
            if(suffix == suffixes.end())
            {
                const auto what =
                    db.path() + ": table " + name + " is not in the schema merge writes";
                if(!args.force)
                    throw failure{exit_code::bad_input, what + "; --force merges without it"};
                std::cerr << "rocpd: warning: " << what << "; left out (--force)\n";
                continue;
            }
            out.exec(row.at(1));
            out.exec("INSERT INTO main." + sql_name(name) + " SELECT * FROM input." +
                     sql_name(name));
            unions[name.substr(0, name.size() - suffix->size())].push_back(name);
        }
        // One row per run of this input, from the run's own metadata table.
        for(const auto& suffix : suffixes)
        {
            auto tags = std::map<std::string, std::string>{};
            for(const auto& row :
                out.rows("SELECT tag, value FROM input." + sql_name("rocpd_metadata" + suffix)))
                tags.emplace(row.at(0), row.at(1));
            auto values = std::string{};
            for(const auto* key : {"guid", "rank", "pid", "hostname"})
            {
                auto it = tags.find(key);
                values += ", ";
                if(it == tags.end())
                    values += "NULL";
                else
                {
                    auto text = std::string{"'"};
                    for(char c : it->second)
                        text += c == '\'' ? std::string{"''"} : std::string{c};
                    values += text + "'";
                }
            }
            auto path = std::string{"'"};
            for(char c : db.path())
                path += c == '\'' ? std::string{"''"} : std::string{c};
            out.exec("INSERT INTO rocprofv3_merge VALUES (" + path + "'" + values + ")");
        }
        out.exec("COMMIT");
        out.exec("DETACH DATABASE input");
    }
    out.exec("BEGIN");

    // Each per-table view over every run, in chunks SQLite accepts.
    auto union_of = [](const std::vector<std::string>& names, size_t from, size_t to)
    {
        auto sql = std::string{};
        for(size_t i = from; i < to; ++i)
            sql +=
                (sql.empty() ? "SELECT * FROM " : " UNION ALL SELECT * FROM ") + sql_name(names[i]);
        return sql;
    };
    for(const auto& [base, names] : unions)
    {
        if(names.size() <= union_chunk)
        {
            out.exec("CREATE VIEW " + sql_name(base) + " AS " + union_of(names, 0, names.size()));
            continue;
        }
        auto chunks = std::vector<std::string>{};
        for(size_t from = 0; from < names.size(); from += union_chunk)
        {
            chunks.push_back("rocprofv3_union_" + std::to_string(chunks.size()) + "_" + base);
            out.exec("CREATE VIEW " + sql_name(chunks.back()) + " AS " +
                     union_of(names, from, std::min(names.size(), from + union_chunk)));
        }
        out.exec("CREATE VIEW " + sql_name(base) + " AS " + union_of(chunks, 0, chunks.size()));
    }
    out.exec(data_views_sql());
    out.exec("COMMIT");

    std::filesystem::rename(partial, args.output_file, error);
    if(error)
        throw failure{exit_code::output,
                      args.output_file + ": cannot rename the merged database into place (" +
                          error.message() + ")"};
    out.keep();
    std::cerr << "rocpd: merged " << the_job.databases().size() << " databases (" << runs.size()
              << " runs) into " << args.output_file << '\n';
    return 0;
}
} // namespace rocpd
