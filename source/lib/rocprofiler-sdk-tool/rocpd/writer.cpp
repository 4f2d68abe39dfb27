#if defined(ROCPROFILER_TOOL_HAVE_SQLITE3)
#    include "config/placeholders.hpp"
#    include "contract/environment.hpp"
#    include "files/atomic_file.hpp"
#    include "files/write_guard.hpp"
#    include "rocpd/rocpd_writer.hpp"
#    include "rocpd/run_uuid.hpp"
#    include "rocpd/schema.hpp"
#    include "rocpd/sqlite_bind.hpp"
#    include "untrusted/utf8.hpp"

#    include <nlohmann/json.hpp>

#    include <sqlite3.h>
#    include <sys/utsname.h>
#    include <unistd.h>

#    include <cstdlib>
#    include <map>
#    include <string_view>
#    include <utility>

namespace rocprofiler::tool
{
using namespace rocpd;

rocpd_writer::~rocpd_writer()
{
    for(auto& [sql, stmt] : m_statements)
        sqlite3_finalize(stmt);
    if(m_db != nullptr) sqlite3_close(m_db);
}

bool
rocpd_available()
{
    return true;
}

void
rocpd_writer::fail(const std::string& what)
{
    if(m_error.empty())
        m_error = "could not write '" + m_path + "': " + what +
                  (m_db != nullptr ? std::string{": "} + sqlite3_errmsg(m_db) : std::string{});
    for(auto& [sql, stmt] : m_statements)
        sqlite3_finalize(stmt);
    m_statements.clear();
    if(m_db != nullptr) sqlite3_close(m_db);
    m_db = nullptr;
}

bool
rocpd_writer::exec(const char* sql)
{
    if(m_db == nullptr) return false;
    // SQLite writes the file inside these calls (exec and step): past the file size limit they
    // fail with SQLITE_FULL or SQLITE_IOERR instead of ending the application.
    auto  guard   = sigxfsz_guard{};
    char* message = nullptr;
    if(sqlite3_exec(m_db, sql, nullptr, nullptr, &message) != SQLITE_OK)
    {
        auto what = std::string{message != nullptr ? message : "error"};
        sqlite3_free(message);
        fail(what);
        return false;
    }
    return true;
}

sqlite3_stmt*
rocpd_writer::prepare(const char* sql)
{
    if(m_db == nullptr) return nullptr;
    auto it = m_statements.find(sql);
    if(it == m_statements.end())
    {
        // Statements name the run's tables as <table>{{uuid}} (the views cannot be written).
        const auto    text = fill_rocpd_placeholders(sql, m_guid);
        sqlite3_stmt* stmt = nullptr;
        if(sqlite3_prepare_v2(m_db, text.c_str(), -1, &stmt, nullptr) != SQLITE_OK)
        {
            fail("preparing a statement");
            return nullptr;
        }
        it = m_statements.emplace(sql, stmt).first;
    }
    sqlite3_reset(it->second);
    sqlite3_clear_bindings(it->second);
    return it->second;
}

bool
rocpd_writer::step(sqlite3_stmt* stmt)
{
    if(stmt == nullptr) return false;
    auto guard = sigxfsz_guard{};
    auto rc    = sqlite3_step(stmt);
    sqlite3_reset(stmt);
    if(rc != SQLITE_DONE && rc != SQLITE_ROW)
    {
        fail("inserting a row");
        return false;
    }
    ++m_pending;
    return true;
}

void
rocpd_writer::begin()
{
    if(m_db != nullptr && !m_in_transaction && exec("BEGIN")) m_in_transaction = true;
}

bool
rocpd_writer::usable() const
{
    // SQLite connections must not be used across fork(): a child forked without exec (whose
    // outputs the tool does not write) leaves the parent's database alone.
    return m_db != nullptr && ::getpid() == m_owner;
}

void
rocpd_writer::commit()
{
    if(!usable() || !m_in_transaction) return;
    m_in_transaction = false;
    m_pending        = 0;
    exec("COMMIT");
}

void
rocpd_writer::commit_if_large()
{
    if(m_pending >= commit_rows) commit();
}

int64_t
rocpd_writer::string_id(const std::string& text)
{
    if(auto it = m_strings.find(text); it != m_strings.end()) return it->second;
    begin();
    // The row of the text as the column holds it (valid UTF-8): two names that differ only in
    // ill-formed bytes show the same text and share it (the column is UNIQUE).
    const auto shown = untrusted::valid_utf8(text);
    auto       id    = int64_t{0};
    if(auto it = m_string_rows.find(shown); it != m_string_rows.end())
        id = it->second;
    else
    {
        auto* stmt = prepare("INSERT INTO rocpd_string{{uuid}} (guid, string) VALUES (?, ?)");
        if(stmt == nullptr) return 0;
        bind_all(stmt, m_guid, shown);
        if(!step(stmt)) return 0;
        id = sqlite3_last_insert_rowid(m_db);
        m_string_rows.emplace(shown, id);
    }
    if(shown != text && !raw_name("rocpd_string", id, text)) return 0;
    m_strings.emplace(text, id);
    return id;
}

bool
rocpd_writer::raw_name(const char* table, int64_t row, const std::string& bytes)
{
    auto* stmt = prepare("INSERT OR IGNORE INTO rocprofv3_raw_name{{uuid}} (table_name, row_id, "
                         "raw) VALUES (?, ?, ?)");
    if(stmt == nullptr) return false;
    bind_all(stmt, table, row, blob{bytes});
    return step(stmt);
}

bool
rocpd_writer::open(const std::string& path, const results& data)
{
    m_path  = path;
    m_guid  = new_run_uuid();
    m_owner = ::getpid();
    if(!create(path)) return false;
    insert_run(data);
    insert_agents(data);
    for(const auto& [id, entry] : data.code_objects)
        code_object(entry);
    for(const auto& [id, sym] : data.kernel_symbols)
        kernel(sym);
    commit();
    return m_db != nullptr;
}

// The file, replacing an old one, with its schema, inside the first transaction.
bool
rocpd_writer::create(const std::string& path)
{
    // A symbolic link at the name is refused (and left alone), as at any output's name.
    if(auto refusal = symbolic_link_refusal(path); !refusal.empty())
    {
        m_error = std::move(refusal);
        return false;
    }
    // A database of an earlier run with this prefix is replaced, as the CSV files are.
    ::unlink(path.c_str());
    ::unlink((path + "-journal").c_str());
    // NOFOLLOW (SQLite >= 3.31): a link planted between the unlink and the open is refused.
#    ifdef SQLITE_OPEN_NOFOLLOW
    constexpr int open_nofollow = SQLITE_OPEN_NOFOLLOW;
#    else
    constexpr int open_nofollow = 0;
#    endif
    if(sqlite3_open_v2(path.c_str(),
                       &m_db,
                       SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | open_nofollow,
                       nullptr) != SQLITE_OK)
    {
        fail("opening it");
        return false;
    }
    // DELETE: committed batches are in the main file, an interrupted one in the journal that the
    // next reader rolls back. NORMAL: a batch reaches the OS at its commit; a power loss may cost
    // the last batches, a process's death does not.
    if(!exec("PRAGMA journal_mode = DELETE; PRAGMA synchronous = NORMAL;") || !exec("BEGIN") ||
       !exec(rocpd_schema_for(m_guid).c_str()))
        return false;
    m_in_transaction = true;
    return true;
}

// The rows of the run: metadata, the node, the process.
void
rocpd_writer::insert_run(const results& data)
{
    auto uts = utsname{};
    ::uname(&uts);
    auto command = std::string{};
    for(const auto& arg : data.command)
        command += (command.empty() ? "" : " ") + arg;

    // What `rocpd` reads to put the databases of one job side by side (docs/rocpd.md): the
    // profiled command line and the launcher's job id say which job a database belongs to, the
    // rank and the process which part of it; agent_index is the -A form the CSV files used.
    // schema_version, uuid and guid, AMD's three, come first: the schema inserts them.
    auto tags = std::vector<std::pair<std::string, std::string>>{
        {"writer", "rocprofv3 (this SDK's tool library)"},
        {"command", command},
        {"pid", std::to_string(data.pid)},
        {"hostname", uts.nodename},
        {"agent_index",
         data.agent_index_mode == agent_index::absolute
             ? "absolute"
             : (data.agent_index_mode == agent_index::type_relative ? "type-relative"
                                                                    : "relative")}};
    const auto where =
        placeholders::launch_values([](const char* name) { return std::getenv(name); });
    if(where.rank) tags.emplace_back("rank", *where.rank);
    if(where.size) tags.emplace_back("size", *where.size);
    if(where.job) tags.emplace_back("job_id", *where.job);
    // The processes one rocprofv3 command profiled (a parent and the workers it started, whatever
    // their command lines) share its run directory, private to that command on this host.
    if(const auto* run = std::getenv(contract::run_dir); run != nullptr && *run != '\0')
        tags.emplace_back("profiler_run", std::string{uts.nodename} + ":" + run);
    for(const auto& [tag, value] : tags)
    {
        auto* meta = prepare("INSERT INTO rocpd_metadata{{uuid}} (tag, value) VALUES (?, ?)");
        bind_all(meta, tag, value);
        step(meta);
    }

    auto machine = read_first_line("/etc/machine-id");
    if(machine.empty()) machine = uts.nodename;
    auto node =
        prepare("INSERT INTO rocpd_info_node{{uuid}} (id, guid, hash, machine_id, system_name, "
                "hostname, release, version, hardware_name, domain_name) VALUES (?, ?, "
                "?, ?, ?, ?, ?, ?, ?, ?)");
    bind_all(node,
             node_row,
             m_guid,
             static_cast<int64_t>(std::hash<std::string>{}(machine) >> 1U),
             machine,
             uts.sysname,
             uts.nodename,
             uts.release,
             uts.version,
             uts.machine,
             uts.domainname);
    step(node);

    auto process =
        prepare("INSERT INTO rocpd_info_process{{uuid}} (id, guid, nid, ppid, pid, init, "
                "start, command) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    bind_all(process,
             process_row,
             m_guid,
             node_row,
             static_cast<int64_t>(::getppid()),
             data.pid,
             data.init_time,
             data.init_time,
             command);
    step(process);
}

// The agents, and the one stream every dispatch is on.
void
rocpd_writer::insert_agents(const results& data)
{
    auto type_index = std::map<int, int64_t>{};
    for(const auto& agent : data.agents)
    {
        auto ext = nlohmann::json{{"handle", agent.info.id.handle},
                                  {"node_id", agent.info.node_id},
                                  {"gfx_target_version", agent.info.gfx_target_version},
                                  {"cu_count", agent.info.cu_count},
                                  {"wave_front_size", agent.info.wave_front_size}};
        if(agent.counters_error) ext["counters_error"] = *agent.counters_error;
        auto* stmt = prepare(
            "INSERT INTO rocpd_info_agent{{uuid}} (id, guid, nid, pid, type, absolute_index, "
            "logical_index, type_index, uuid, name, model_name, vendor_name, product_name, "
            "user_name, extdata) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
        m_agent_numbers[agent.info.id.handle] = agent_number(data, agent.info.id);
        bind_all(stmt,
                 agent_number(data, agent.info.id),
                 m_guid,
                 node_row,
                 process_row,
                 agent_type(agent.info.type),
                 static_cast<uint64_t>(agent.info.node_id),
                 static_cast<uint64_t>(agent.info.logical_node_id),
                 type_index[agent.info.type]++,
                 agent.info.id.handle,
                 agent.name,
                 agent.model_name,
                 agent.vendor_name,
                 agent.product_name,
                 agent.product_name,
                 ext.dump());
        step(stmt);
    }
    // No HIP streams are known: every dispatch is on stream 0, as kernel_trace.csv's Stream_Id.
    auto* stream = prepare("INSERT INTO rocpd_info_stream{{uuid}} (id, guid, nid, pid, name) "
                           "VALUES (0, ?, ?, ?, 'none')");
    bind_all(stream, m_guid, node_row, process_row);
    step(stream);
}

bool
rocpd_writer::finish(const results& data, std::string& error)
{
    if(m_db != nullptr && !usable())
    {
        error = "'" + m_path + "' belongs to the process that opened it";
        return false;
    }
    if(m_db != nullptr)
    {
        begin();
        auto* process =
            prepare("UPDATE rocpd_info_process{{uuid}} SET fini = ?, end = ?, extdata = ? "
                    "WHERE id = ?");
        auto end    = nlohmann::json{};
        end["kind"] = data.end.kind == run_end::signal ? "signal"
                      : data.end.kind == run_end::exit ? "exit"
                                                       : "running";
        if(data.end.kind == run_end::signal) end["signal"] = data.end.number;
        bind_all(process,
                 data.fini_time,
                 data.fini_time,
                 nlohmann::json{{"end", end}, {"dropped_records", data.dropped_records}}.dump(),
                 process_row);
        step(process);
        // Kernels whose names were reported after their first dispatch replace the placeholder.
        for(const auto& [id, sym] : data.kernel_symbols)
            if(auto it = m_kernels.find(id); it == m_kernels.end() || it->second != sym.reported)
                kernel(sym);
        commit();
    }
    for(auto& [sql, stmt] : m_statements)
        sqlite3_finalize(stmt);
    m_statements.clear();
    if(m_db != nullptr && sqlite3_close(m_db) != SQLITE_OK && m_error.empty())
        m_error = "could not close '" + m_path + "': " + sqlite3_errmsg(m_db);
    m_db  = nullptr;
    error = m_error;
    return m_error.empty();
}
} // namespace rocprofiler::tool
#endif
