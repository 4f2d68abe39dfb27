// rocpd merge: one database holding every input's rows. Each table's ids are shifted past the
// ids already merged (an input's id i becomes i + the largest id of the table before it), and
// every column that refers to a row of another table is shifted with it, so the views join each
// process's rows to its own agents, threads, kernels and events. Strings and nodes are shared:
// a string or a machine present in several inputs is one row. The result gets the schema of
// rocprofv3's writer and its own rocpd_metadata (which inputs, which job).
//
// The one reader of tables rather than views: a merge copies the storage itself. It is written
// to <output>.partial-<pid> and renamed into place when complete; the inputs stay read-only.
#include "commands.hpp"
#include "job.hpp"

#include "rocpd/schema.hpp"

#include <nlohmann/json.hpp>
#include <sqlite3.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <unordered_map>

namespace rocpd
{
namespace
{
const std::string string_table   = "rocpd_string";
const std::string raw_name_table = "rocprofv3_raw_name";
const std::string node_table     = "rocpd_info_node";

// The table a column refers to, by its name; empty when it holds a value, not a row's id.
std::string
referenced_table(const std::string& table, const std::string& column)
{
    // The process and thread rows keep the operating system's pid, ppid and tid.
    if(table == "rocpd_info_process" && (column == "pid" || column == "ppid")) return {};
    if(table == "rocpd_info_thread" && (column == "tid" || column == "ppid")) return {};
    static const std::map<std::string, std::string> refs = {
        {"nid", node_table},
        {"pid", "rocpd_info_process"},
        {"tid", "rocpd_info_thread"},
        {"agent_id", "rocpd_info_agent"},
        {"dst_agent_id", "rocpd_info_agent"},
        {"src_agent_id", "rocpd_info_agent"},
        {"queue_id", "rocpd_info_queue"},
        {"stream_id", "rocpd_info_stream"},
        {"kernel_id", "rocpd_info_kernel_symbol"},
        {"code_object_id", "rocpd_info_code_object"},
        {"event_id", "rocpd_event"},
        {"pmc_id", "rocpd_info_pmc"},
        {"category_id", string_table},
        {"name_id", string_table},
        {"region_name_id", string_table},
    };
    auto it = refs.find(column);
    return it != refs.end() ? it->second : std::string{};
}

class output_database
{
public:
    explicit output_database(const std::string& path)
        : m_path{path}
    {
        std::remove(path.c_str());
        if(sqlite3_open_v2(
               path.c_str(), &m_db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
           SQLITE_OK)
            fail("cannot create");
        exec("PRAGMA journal_mode = DELETE; PRAGMA synchronous = OFF; BEGIN;");
        exec(rocprofiler::tool::rocpd_schema_sql);
    }
    ~output_database()
    {
        for(auto& [sql, stmt] : m_statements)
            sqlite3_finalize(stmt);
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
    sqlite3_stmt* prepare(const std::string& sql)
    {
        auto& stmt = m_statements[sql];
        if(stmt == nullptr &&
           sqlite3_prepare_v2(m_db, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
            fail("cannot prepare " + sql);
        sqlite3_reset(stmt);
        sqlite3_clear_bindings(stmt);
        return stmt;
    }
    void step_done(sqlite3_stmt* stmt)
    {
        if(sqlite3_step(stmt) != SQLITE_DONE) fail("cannot insert");
    }
    int64_t single_int(const std::string& sql)
    {
        auto* stmt  = prepare(sql);
        auto  value = int64_t{0};
        if(sqlite3_step(stmt) == SQLITE_ROW) value = sqlite3_column_int64(stmt, 0);
        sqlite3_reset(stmt);
        return value;
    }
    std::vector<std::string> tables()
    {
        auto  names = std::vector<std::string>{};
        auto* stmt  = prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT "
                              "LIKE 'sqlite_%' AND name != 'rocpd_metadata' ORDER BY name");
        while(sqlite3_step(stmt) == SQLITE_ROW)
            names.emplace_back(reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0)));
        sqlite3_reset(stmt);
        return names;
    }
    void     keep() { m_kept = true; }
    sqlite3* handle() const { return m_db; }

private:
    std::string                          m_path       = {};
    sqlite3*                             m_db         = nullptr;
    bool                                 m_kept       = false;
    std::map<std::string, sqlite3_stmt*> m_statements = {};
};

// How one input's ids map into the output.
struct id_map
{
    std::map<std::string, int64_t>           offset  = {}; // per table
    std::map<std::string, std::set<int64_t>> ids     = {}; // of the small tables
    std::unordered_map<int64_t, int64_t>     strings = {};
    std::unordered_map<int64_t, int64_t>     nodes   = {};

    // The output's id of a reference to @p table, or nothing to copy the value as it is (a
    // reference to no row, such as stream_id 0 where no stream is recorded).
    std::optional<int64_t> map(const std::string& table, int64_t old) const
    {
        if(table == string_table || table == node_table)
        {
            const auto& m  = table == string_table ? strings : nodes;
            auto        it = m.find(old);
            if(it == m.end()) return std::nullopt;
            return it->second;
        }
        auto known = ids.find(table);
        if(known != ids.end() && known->second.count(old) == 0) return std::nullopt;
        auto off = offset.find(table);
        return old + (off != offset.end() ? off->second : 0);
    }
};

std::vector<std::string>
columns_of(const input_database& db, const std::string& table)
{
    auto names = std::vector<std::string>{};
    db.each_row("SELECT name FROM pragma_table_info('" + table + "')",
                [&names](sqlite3_stmt* s) { names.emplace_back(column_text(s, 0)); });
    return names;
}

// Copies @p table of @p db; a table shared by text (strings, nodes) adds only what is new and
// records where each input row went.
void
copy_table(const input_database& db, output_database& out, const std::string& table, id_map& map)
{
    const auto columns = columns_of(db, table);
    if(columns.empty()) return; // an input without the table (an older writer)
    const bool shared = table == string_table || table == node_table;
    // rocprofv3_raw_name points at a row of the table its table_name column names (the raw bytes
    // of a name that was not valid UTF-8): that reference follows the row; two inputs' identical
    // raw names of one shared string are one row.
    const bool raw_names = table == raw_name_table;
    const auto key    = table == string_table ? std::string{"string"} : std::string{"machine_id"};
    auto       select = std::string{"SELECT "};
    auto insert = std::string{raw_names ? "INSERT OR IGNORE INTO " : "INSERT INTO "} + table + " (";
    auto values = std::string{};
    int  key_col = -1;
    int  id_col  = -1;
    int  tbl_col = -1; // rocprofv3_raw_name.table_name
    for(size_t i = 0; i < columns.size(); ++i)
    {
        select += (i == 0 ? "\"" : ", \"") + columns[i] + '"';
        if(columns[i] == key) key_col = static_cast<int>(i);
        if(columns[i] == "id") id_col = static_cast<int>(i);
        if(raw_names && columns[i] == "table_name") tbl_col = static_cast<int>(i);
    }
    select += " FROM " + table;
    bool first = true;
    for(size_t i = 0; i < columns.size(); ++i)
    {
        if(shared && static_cast<int>(i) == id_col) continue; // the output numbers shared rows
        insert += (first ? "\"" : ", \"") + columns[i] + '"';
        values += first ? "?" : ", ?";
        first = false;
    }
    insert += ") VALUES (" + values + ")";

    db.each_row(
        select,
        [&](sqlite3_stmt* src)
        {
            if(shared && key_col >= 0 && id_col >= 0)
            {
                auto* find = out.prepare("SELECT id FROM " + table + " WHERE " + key + " = ?");
                sqlite3_bind_value(find, 1, sqlite3_column_value(src, key_col));
                const auto old = sqlite3_column_int64(src, id_col);
                auto&      m   = table == string_table ? map.strings : map.nodes;
                if(sqlite3_step(find) == SQLITE_ROW)
                {
                    m[old] = sqlite3_column_int64(find, 0);
                    sqlite3_reset(find);
                    return;
                }
                sqlite3_reset(find);
            }
            auto* stmt  = out.prepare(insert);
            int   index = 1;
            for(size_t i = 0; i < columns.size(); ++i)
            {
                if(shared && static_cast<int>(i) == id_col) continue;
                auto target = columns[i] == "id" ? table : referenced_table(table, columns[i]);
                if(raw_names && tbl_col >= 0 && columns[i] == "row_id")
                    target = column_text(src, tbl_col);
                if(!target.empty() && sqlite3_column_type(src, static_cast<int>(i)) != SQLITE_NULL)
                {
                    const auto old    = sqlite3_column_int64(src, static_cast<int>(i));
                    const auto mapped = columns[i] == "id"
                                            ? std::optional<int64_t>{old + map.offset[table]}
                                            : map.map(target, old);
                    if(mapped)
                    {
                        sqlite3_bind_int64(stmt, index++, *mapped);
                        continue;
                    }
                }
                sqlite3_bind_value(stmt, index++, sqlite3_column_value(src, static_cast<int>(i)));
            }
            out.step_done(stmt);
            if(shared && id_col >= 0)
            {
                auto& m = table == string_table ? map.strings : map.nodes;
                m[sqlite3_column_int64(src, id_col)] = sqlite3_last_insert_rowid(out.handle());
            }
        });
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
    const auto tables  = out.tables();
    // Tables whose every id is loaded to tell a reference to no row (kept as it is) from one to
    // be shifted: the info tables, small by nature. Events are referenced only by real rows.
    const auto small = [](const std::string& t) { return t.rfind("rocpd_info_", 0) == 0; };

    // A table of an input that the writer's schema lacks would be lost: refused, or with --force
    // left out with a warning.
    for(const auto& db : the_job.databases())
        db.each_row(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
            "'sqlite_%' AND name != 'rocpd_metadata'",
            [&](sqlite3_stmt* s)
            {
                const auto name = column_text(s, 0);
                if(std::find(tables.begin(), tables.end(), name) != tables.end()) return;
                const auto what =
                    db.path() + ": table " + name + " is not in the schema merge writes";
                if(!args.force)
                    throw failure{exit_code::bad_input, what + "; --force merges without it"};
                std::cerr << "rocpd: warning: " << what << "; left out (--force)\n";
            });

    auto inputs = nlohmann::json::array();
    for(const auto& db : the_job.databases())
    {
        auto map = id_map{};
        for(const auto& t : tables)
        {
            auto has_id = false;
            for(const auto& c : columns_of(db, t))
                has_id = has_id || c == "id";
            if(!has_id) continue;
            // Past the largest id so far (ids may start at 0: the stream row).
            map.offset[t] = out.single_int("SELECT COALESCE(MAX(id) + 1, 0) FROM " + t);
            if(small(t) && t != node_table)
                db.each_row("SELECT id FROM " + t,
                            [&](sqlite3_stmt* s)
                            { map.ids[t].insert(sqlite3_column_int64(s, 0)); });
        }
        copy_table(db, out, string_table, map);
        copy_table(db, out, node_table, map);
        for(const auto& t : tables)
            if(t != string_table && t != node_table) copy_table(db, out, t, map);
        inputs.push_back(
            {{"path", db.path()},
             {"guid", db.tag("guid")},
             {"rank", db.has_tag("rank") ? nlohmann::json(db.tag("rank")) : nlohmann::json{}},
             {"pid", db.tag("pid")},
             {"hostname", db.tag("hostname")}});
    }

    const auto& first = the_job.databases().front();
    auto        tags  = std::vector<std::pair<std::string, std::string>>{
                {"schema_version", known_schema_version},
                {"guid", "merged-" + first.tag("guid")},
                {"writer", "rocpd merge"},
                {"merged_inputs", inputs.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)}};
    for(const auto* copied : {"command", "job_id", "agent_index", "size"})
        if(first.has_tag(copied)) tags.emplace_back(copied, first.tag(copied));
    for(const auto& [tag, value] : tags)
    {
        auto* stmt = out.prepare("INSERT INTO rocpd_metadata (tag, value) VALUES (?, ?)");
        sqlite3_bind_text(stmt, 1, tag.c_str(), -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(stmt, 2, value.c_str(), -1, SQLITE_TRANSIENT);
        out.step_done(stmt);
    }
    out.exec("COMMIT");
    std::filesystem::rename(partial, args.output_file, error);
    if(error)
        throw failure{exit_code::output,
                      args.output_file + ": cannot rename the merged database into place (" +
                          error.message() + ")"};
    out.keep();
    std::cerr << "rocpd: merged " << the_job.databases().size() << " databases into "
              << args.output_file << '\n';
    return 0;
}
} // namespace rocpd
