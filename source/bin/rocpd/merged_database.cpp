#include "merged_database.hpp"

#include "rocpd/schema.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>

namespace rocpd
{
namespace
{
// SQLite refuses a compound SELECT of more than 500 terms: views of more runs are built from
// chunk views of this many.
constexpr size_t union_chunk = 250;

// @p text between @p quote characters, each one inside doubled: an SQL name ('"') or text ('\'').
std::string
sql_quoted(const std::string& text, char quote)
{
    auto out = std::string{quote};
    for(char c : text)
    {
        out += c;
        if(c == quote) out += c;
    }
    return out + quote;
}

std::string
sql_name(const std::string& name)
{
    return sql_quoted(name, '"');
}

std::string
sql_text(const std::string& text)
{
    return sql_quoted(text, '\'');
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

// The data and summary views of the schema: everything from its first data view on (the text
// before that creates one run's tables and per-table views).
std::string
data_views_sql()
{
    const auto text = std::string{rocprofiler::tool::rocpd_schema_sql};
    const auto at   = text.find("CREATE VIEW \"code_objects\"");
    if(at == std::string::npos)
        throw failure{exit_code::internal, "rocpd: the schema has no data views"};
    return text.substr(at);
}

// SELECT * FROM each of @p names in [from, to), as one UNION ALL.
std::string
union_of(const std::vector<std::string>& names, size_t from, size_t to)
{
    auto sql = std::string{};
    for(size_t i = from; i < to; ++i)
        sql += (sql.empty() ? "SELECT * FROM " : " UNION ALL SELECT * FROM ") + sql_name(names[i]);
    return sql;
}
} // namespace

merged_database::merged_database(const std::string& path)
    : m_path{path}
{
    if(!path.empty()) std::remove(path.c_str());
    // A relative name that starts with "file:" is a file of that name, not a URI.
    const auto opened = path.rfind("file:", 0) == 0 ? "./" + path : path;
    if(sqlite3_open_v2(opened.c_str(),
                       &m_db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_URI,
                       nullptr) != SQLITE_OK)
    {
        const auto why = std::string{m_db != nullptr ? sqlite3_errmsg(m_db) : "out of memory"};
        sqlite3_close(m_db);
        m_db = nullptr;
        throw failure{exit_code::output,
                      (path.empty() ? std::string{"a temporary database"} : path) +
                          ": cannot create (" + why + ")"};
    }
    exec(path.empty() ? "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                      : "PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF;");
}

merged_database::~merged_database()
{
    if(m_db != nullptr) sqlite3_close(m_db);
    if(!m_kept && !m_path.empty()) std::remove(m_path.c_str());
}

void
merged_database::exec(const std::string& sql)
{
    char* message = nullptr;
    if(sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK)
    {
        const auto text = std::string{message != nullptr ? message : "?"};
        sqlite3_free(message);
        throw failure{exit_code::output,
                      (m_path.empty() ? std::string{"the job's temporary database"} : m_path) +
                          ": " + text};
    }
}

std::vector<std::vector<std::string>>
merged_database::rows(const std::string& sql, const std::string& input)
{
    auto          out  = std::vector<std::vector<std::string>>{};
    sqlite3_stmt* stmt = nullptr;
    auto          rc   = sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr);
    while(rc == SQLITE_OK && (rc = sqlite3_step(stmt)) == SQLITE_ROW)
    {
        auto& row = out.emplace_back();
        for(int i = 0; i < sqlite3_column_count(stmt); ++i)
            row.push_back(column_text(stmt, i));
        rc = SQLITE_OK;
    }
    // A read that stops before its end is the input's failure, not a shorter answer.
    const auto why = std::string{sqlite3_errmsg(m_db)};
    sqlite3_finalize(stmt);
    if(rc != SQLITE_DONE)
        throw failure{exit_code::bad_input, input + ": cannot read it (" + why + ")"};
    return out;
}

void
merged_database::attach(const std::string& path)
{
    exec("ATTACH DATABASE " + sql_text(read_only_uri(path)) + " AS input");
}

void
merged_database::build_schema(const job& inputs, bool force)
{
    exec("CREATE TABLE rocprofv3_merge (\"path\" TEXT, \"guid\" TEXT NOT NULL, \"rank\" TEXT, "
         "\"pid\" TEXT, \"hostname\" TEXT)");
    auto runs   = std::map<std::string, std::string>{};              // suffix -> input path
    auto unions = std::map<std::string, std::vector<std::string>>{}; // base -> suffixed tables
    m_tables_of_input.clear();
    for(const auto& db : inputs.databases())
    {
        auto& tables = m_tables_of_input.emplace_back();
        // One transaction per input (SQLite attaches outside transactions only).
        attach(db.path());
        exec("BEGIN");
        auto suffixes = std::vector<std::string>{};
        for(const auto& row :
            rows("SELECT value FROM input.rocpd_metadata WHERE tag = 'uuid'", db.path()))
        {
            const auto& suffix = row.at(0);
            auto [it, added]   = runs.emplace(suffix, db.path());
            if(!added)
                throw failure{exit_code::bad_input,
                              "rocpd: run " + guid_of(suffix) + " is in two inputs: " + it->second +
                                  " and " + db.path()};
            suffixes.push_back(suffix);
        }
        auto merged_input = false; // a merged file: its rocprofv3_merge records its runs
        for(const auto& row : rows("SELECT name, sql FROM input.sqlite_master WHERE type = "
                                   "'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
                                   db.path()))
        {
            const auto& name = row.at(0);
            if(name == "rocprofv3_merge")
            {
                // A merged input's own record of its inputs: small, always copied.
                exec("INSERT INTO rocprofv3_merge SELECT * FROM input.rocprofv3_merge");
                merged_input = true;
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
                const auto what = db.path() + ": table " + name + " is not in the rocpd schema";
                if(!force) throw failure{exit_code::bad_input, what + "; --force leaves it out"};
                std::cerr << "rocpd: warning: " << what << "; left out (--force)\n";
                continue;
            }
            exec(row.at(1));
            tables.push_back(name);
            const auto base = name.substr(0, name.size() - suffix->size());
            unions[base].push_back(name);
            m_base_of.emplace(name, base);
        }
        // One row per run of this input, from the run's own metadata table (a merged input's
        // runs are in the rows copied above).
        for(const auto& suffix : merged_input ? std::vector<std::string>{} : suffixes)
        {
            auto tags = std::map<std::string, std::string>{};
            for(const auto& row :
                rows("SELECT tag, value FROM input." + sql_name("rocpd_metadata" + suffix),
                     db.path()))
                tags.emplace(row.at(0), row.at(1));
            auto values = sql_text(db.path());
            for(const auto* key : {"guid", "rank", "pid", "hostname"})
            {
                auto it = tags.find(key);
                values += ", " + (it == tags.end() ? std::string{"NULL"} : sql_text(it->second));
            }
            exec("INSERT INTO rocprofv3_merge VALUES (" + values + ")");
        }
        exec("COMMIT");
        exec("DETACH DATABASE input");
    }
    m_runs = runs.size();

    exec("BEGIN");
    // Each per-table view over every run, in chunks SQLite accepts.
    for(const auto& [base, names] : unions)
    {
        if(names.size() <= union_chunk)
        {
            exec("CREATE VIEW " + sql_name(base) + " AS " + union_of(names, 0, names.size()));
            continue;
        }
        auto chunks = std::vector<std::string>{};
        for(size_t from = 0; from < names.size(); from += union_chunk)
        {
            chunks.push_back("rocprofv3_union_" + std::to_string(chunks.size()) + "_" + base);
            exec("CREATE VIEW " + sql_name(chunks.back()) + " AS " +
                 union_of(names, from, std::min(names.size(), from + union_chunk)));
        }
        exec("CREATE VIEW " + sql_name(base) + " AS " + union_of(chunks, 0, chunks.size()));
    }
    exec(data_views_sql());
    exec("COMMIT");
}

std::set<std::string>
merged_database::bases_of(const std::set<std::string>& tables) const
{
    auto out = std::set<std::string>{};
    for(const auto& name : tables)
        if(auto it = m_base_of.find(name); it != m_base_of.end()) out.insert(it->second);
    return out;
}

void
merged_database::copy_rows(const job& inputs, const std::set<std::string>* tables)
{
    const auto& dbs = inputs.databases();
    for(size_t i = 0; i < dbs.size() && i < m_tables_of_input.size(); ++i)
    {
        auto wanted = std::vector<std::string>{};
        for(const auto& name : m_tables_of_input[i])
            if(tables == nullptr || tables->count(name) != 0) wanted.push_back(name);
        if(wanted.empty()) continue;
        attach(dbs[i].path());
        exec("BEGIN");
        for(const auto& name : wanted)
            exec("INSERT INTO main." + sql_name(name) + " SELECT * FROM input." + sql_name(name));
        exec("COMMIT");
        exec("DETACH DATABASE input");
    }
}
} // namespace rocpd
