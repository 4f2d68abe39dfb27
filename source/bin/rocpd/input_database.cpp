#include "input_database.hpp"

#include <sqlite3.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <fstream>
#include <set>

namespace rocpd
{
namespace
{
uint32_t
big_endian(const unsigned char* p, int bytes)
{
    uint32_t value = 0;
    for(int i = 0; i < bytes; ++i)
        value = (value << 8U) | p[i];
    return value;
}

// The file on its own, before SQLite sees it: present, a regular file, SQLite's header, and as
// long as the header says (a truncated copy would otherwise fail only on the first missing page,
// in the middle of a command).
void
check_file(const std::string& path)
{
    struct stat st = {};
    if(::stat(path.c_str(), &st) != 0) throw failure{exit_code::bad_input, path + ": no such file"};
    if(!S_ISREG(st.st_mode)) throw failure{exit_code::bad_input, path + ": not a regular file"};
    auto in = std::ifstream{path, std::ios::binary};
    if(!in.is_open())
        throw failure{exit_code::bad_input,
                      path + ": cannot be opened for reading (" + std::strerror(errno) + ")"};
    auto header = std::array<unsigned char, 100>{};
    in.read(reinterpret_cast<char*>(header.data()), header.size());
    if(!in)
    {
        if(st.st_size == 0)
            throw failure{exit_code::bad_input, path + ": empty file, not an SQLite database"};
        if(std::memcmp(header.data(), "SQLite format 3", std::min<size_t>(st.st_size, 15)) == 0)
            throw failure{exit_code::bad_input,
                          path + ": truncated SQLite database (" + std::to_string(st.st_size) +
                              " bytes, shorter than its header)"};
        throw failure{exit_code::bad_input, path + ": not an SQLite database"};
    }
    if(std::memcmp(header.data(), "SQLite format 3\0", 16) != 0)
        throw failure{exit_code::bad_input, path + ": not an SQLite database"};
    auto page_size = static_cast<uint64_t>(big_endian(&header[16], 2));
    if(page_size == 1) page_size = 65536;
    const auto pages       = big_endian(&header[28], 4);
    const auto change      = big_endian(&header[24], 4);
    const auto valid_for   = big_endian(&header[92], 4);
    const auto header_size = page_size * pages;
    // The header's page count is trusted only when it was written by the last change (SQLite's
    // own rule: version-valid-for equals the change counter).
    if(pages != 0 && change == valid_for && header_size > static_cast<uint64_t>(st.st_size))
        throw failure{exit_code::bad_input,
                      path + ": truncated SQLite database (" + std::to_string(st.st_size) +
                          " bytes of " + std::to_string(header_size) + ")"};
}
// The checks at open query rocpd_metadata, a view: a file may define it as a query that never ends
// (a recursive one) or one that runs for hours. The open gives up after this many SQLite virtual
// machine steps, in units of open_step_unit; rocpd_metadata of a real database, merged ones
// included, takes a few thousand steps per run.
constexpr int open_step_unit   = 1000;
constexpr int open_step_budget = 10000;

int
count_open_steps(void* left)
{
    return --*static_cast<int*>(left) < 0 ? 1 : 0;
}
} // namespace

std::string
column_text(sqlite3_stmt* stmt, int column)
{
    const auto* text = sqlite3_column_text(stmt, column);
    return text != nullptr ? std::string{reinterpret_cast<const char*>(text)} : std::string{};
}

void
input_database::open() const
{
    const auto rc = sqlite3_open_v2(m_path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr);
    if(rc != SQLITE_OK)
    {
        const auto message =
            std::string{m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc)};
        sqlite3_close(m_db);
        m_db = nullptr;
        throw failure{exit_code::bad_input, m_path + ": cannot open (" + message + ")"};
    }
    sqlite3_busy_timeout(m_db, m_busy_ms);
    sqlite3_extended_result_codes(m_db, 1);
}

sqlite3*
input_database::handle() const
{
    if(m_db == nullptr) open();
    return m_db;
}

void
input_database::close() const
{
    if(m_db != nullptr) sqlite3_close(m_db);
    m_db = nullptr;
}

input_database::input_database(const std::string& path, int busy_timeout_ms)
    : m_path{path}
    , m_busy_ms{busy_timeout_ms}
{
    check_file(path);
    open();

    auto steps_left = open_step_budget;
    sqlite3_progress_handler(m_db, open_step_unit, &count_open_steps, &steps_left);
    try
    {
        auto names = std::set<std::string>{};
        each_row("SELECT type || ':' || name FROM sqlite_master",
                 [&names](sqlite3_stmt* s) { names.insert(column_text(s, 0)); });
        // rocprofv3 before AMD's layout wrote rocpd_metadata as a table, its tables without
        // the run's suffix: a layout this reader no longer reads.
        if(names.count("table:rocpd_metadata") != 0)
            throw failure{exit_code::bad_input,
                          path +
                              ": a rocpd database of the layout rocprofv3 wrote before it followed "
                              "AMD's (tables without the run's UUID suffix); this rocpd reads "
                              "AMD's layout only: profile again to write it"};
        if(names.count("view:rocpd_metadata") == 0)
            throw failure{exit_code::bad_input,
                          path +
                              ": an SQLite database, but not a rocpd database (no rocpd_metadata "
                              "view)"};
        for(const auto* view : {"kernels", "memory_copies", "regions"})
            if(names.count(std::string{"view:"} + view) == 0)
                throw failure{exit_code::bad_input,
                              path + ": not a rocpd database this reader knows (no view '" + view +
                                  "')"};
        // A merged file has one uuid (and one set of tags) per run: the first run's tags are
        // the file's, and what names one process (rank, pid) is left out when there are several.
        each_row("SELECT tag, value FROM rocpd_metadata",
                 [this](sqlite3_stmt* s)
                 {
                     const auto name = column_text(s, 0);
                     if(name == "uuid") ++m_runs;
                     m_metadata.emplace(name, column_text(s, 1));
                 });
        if(m_runs > 1)
            for(const auto* per_process : {"rank", "pid", "hostname"})
                m_metadata.erase(per_process);
        if(m_runs == 1 && !has_tag("pid")) tags_from_process_row();
    }
    catch(...)
    {
        sqlite3_close(m_db);
        m_db = nullptr;
        if(steps_left < 0)
            throw failure{exit_code::bad_input,
                          path +
                              ": reading its metadata views (rocpd_metadata, rocpd_info_process) "
                              "did not end within " +
                              std::to_string(int64_t{open_step_budget} * open_step_unit) +
                              " SQLite steps: not a rocpd database this reader opens"};
        throw;
    }
    sqlite3_progress_handler(m_db, 0, nullptr, nullptr);
    if(!has_tag("schema_version"))
    {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw failure{exit_code::bad_input,
                      path + ": not a rocpd database (no schema_version in rocpd_metadata)"};
    }
    if(m_runs == 0)
    {
        sqlite3_close(m_db);
        m_db = nullptr;
        throw failure{exit_code::bad_input,
                      path + ": not a rocpd database of AMD's layout (no uuid in rocpd_metadata)"};
    }
    if(tag("schema_version") != known_schema_version)
    {
        const auto version = tag("schema_version");
        sqlite3_close(m_db);
        m_db = nullptr;
        throw failure{exit_code::bad_input,
                      path + ": rocpd schema version " + version + ", this rocpd reads version " +
                          known_schema_version};
    }
    // Checked: the commands open it again when they read it.
    close();
}

void
input_database::tags_from_process_row()
{
    // A database AMD's rocprofv3 wrote has AMD's tags only: what names its process comes from
    // the process's row, its node's and, where the launcher set one, the rank in its
    // environment. A tag the file has is never replaced.
    // The launchers' variables in the order rocprofv3's %rank% reads them.
    auto rank = std::string{"COALESCE("};
    for(const auto* var :
        {"SLURM_PROCID", "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK", "PMI_RANK", "MPI_RANK"})
        rank += std::string{"json_extract(p.environment, '$."} + var + "'), ";
    rank.replace(rank.size() - 2, 2, ")");
    each_row("SELECT p.pid, p.command, n.hostname, CASE WHEN json_valid(p.environment) THEN " +
                 rank +
                 " END FROM rocpd_info_process AS p LEFT JOIN rocpd_info_node AS n ON n.id = "
                 "p.nid AND n.guid = p.guid ORDER BY p.id LIMIT 1",
             [this](sqlite3_stmt* s)
             {
                 const char* names[] = {"pid", "command", "hostname", "rank"};
                 for(int i = 0; i < 4; ++i)
                     if(sqlite3_column_type(s, i) != SQLITE_NULL)
                         m_metadata.emplace(names[i], column_text(s, i));
             });
}

input_database::~input_database()
{
    if(m_db != nullptr) sqlite3_close(m_db);
}

input_database::input_database(input_database&& other) noexcept
    : m_path{std::move(other.m_path)}
    , m_db{other.m_db}
    , m_busy_ms{other.m_busy_ms}
    , m_metadata{std::move(other.m_metadata)}
    , m_runs{other.m_runs}
{
    other.m_db = nullptr;
}

std::string
input_database::tag(const std::string& name) const
{
    auto it = m_metadata.find(name);
    return it != m_metadata.end() ? it->second : std::string{};
}

void
input_database::fail(int rc, const std::string& what, exit_code on_error) const
{
    const auto primary = rc & 0xff;
    const auto message = std::string{m_db != nullptr ? sqlite3_errmsg(m_db) : sqlite3_errstr(rc)};
    if(primary == SQLITE_BUSY || primary == SQLITE_LOCKED)
        throw failure{exit_code::locked,
                      m_path + ": database is locked (still after " + std::to_string(m_busy_ms) +
                          " ms; --busy-timeout sets the wait)"};
    if(primary == SQLITE_NOTADB)
        throw failure{exit_code::bad_input, m_path + ": not an SQLite database (" + message + ")"};
    if(primary == SQLITE_CORRUPT)
        throw failure{exit_code::bad_input,
                      m_path + ": damaged or truncated SQLite database (" + message + ")"};
    if(rc == SQLITE_READONLY_ROLLBACK)
        throw failure{exit_code::bad_input,
                      m_path + ": cannot be read without writing it (" + message +
                          "; an interrupted write left a journal beside it: open it once with "
                          "sqlite3 to roll that back)"};
    throw failure{on_error, m_path + ": " + what + ": " + message};
}

void
input_database::each_row(const std::string&                        sql,
                         const std::function<void(sqlite3_stmt*)>& row,
                         exit_code                                 on_error) const
{
    sqlite3_stmt* stmt = nullptr;
    auto          rc   = sqlite3_prepare_v2(handle(), sql.c_str(), -1, &stmt, nullptr);
    if(rc != SQLITE_OK)
    {
        sqlite3_finalize(stmt);
        fail(rc, "query failed", on_error);
    }
    if(stmt == nullptr) throw failure{on_error, m_path + ": empty query"};
    try
    {
        while((rc = sqlite3_step(stmt)) == SQLITE_ROW)
            row(stmt);
    }
    catch(...)
    {
        sqlite3_finalize(stmt);
        throw;
    }
    sqlite3_finalize(stmt);
    if(rc != SQLITE_DONE) fail(rc, "query failed", on_error);
}
} // namespace rocpd
