// What the rocpd writer's two halves (rocpd/writer.cpp: the database; rocpd/rows.cpp: records to
// rows) share: the binding of values to SQLite statements and the run's fixed row ids. Only built
// with SQLite.
#pragma once

#include "model/results.hpp"
#include "untrusted/utf8.hpp"

#include <sqlite3.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <string>
#include <string_view>

namespace rocprofiler::tool::rocpd
{
// One node and one process per database: their row ids.
constexpr int64_t node_row    = 1;
constexpr int64_t process_row = 1;

inline std::string
read_first_line(const char* path)
{
    auto in   = std::ifstream{path};
    auto line = std::string{};
    std::getline(in, line);
    return line;
}

inline const char*
agent_type(rocprofiler_agent_type_t type)
{
    switch(type)
    {
    case ROCPROFILER_AGENT_TYPE_CPU:
        return "CPU";
    case ROCPROFILER_AGENT_TYPE_GPU:
        return "GPU";
    default:
        break;
    }
    return nullptr;
}

inline void
bind(sqlite3_stmt* stmt, int index, int64_t value)
{
    sqlite3_bind_int64(stmt, index, value);
}
inline void
bind(sqlite3_stmt* stmt, int index, uint64_t value)
{
    // SQLite integers are signed 64-bit; ids and timestamps stay below 2^63.
    sqlite3_bind_int64(stmt, index, static_cast<int64_t>(value));
}
inline void
bind(sqlite3_stmt* stmt, int index, std::optional<uint64_t> value)
{
    if(value)
        sqlite3_bind_int64(stmt, index, static_cast<int64_t>(*value));
    else
        sqlite3_bind_null(stmt, index);
}
inline void
bind(sqlite3_stmt* stmt, int index, double value)
{
    sqlite3_bind_double(stmt, index, value);
}
// Text is bound as valid UTF-8 (untrusted::valid_utf8): every TEXT column holds UTF-8, whatever the
// application named its kernels and markers. The bytes of such a name go to rocprofv3_raw_name.
inline void
bind(sqlite3_stmt* stmt, int index, std::string_view value)
{
    if(untrusted::is_valid_utf8(value))
        sqlite3_bind_text(
            stmt, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
    else
    {
        const auto valid = untrusted::valid_utf8(value);
        sqlite3_bind_text(
            stmt, index, valid.data(), static_cast<int>(valid.size()), SQLITE_TRANSIENT);
    }
}
inline void
bind(sqlite3_stmt* stmt, int index, const std::string& value)
{
    bind(stmt, index, std::string_view{value});
}
inline void
bind(sqlite3_stmt* stmt, int index, const char* value)
{
    if(value == nullptr)
        sqlite3_bind_null(stmt, index);
    else
        bind(stmt, index, std::string_view{value});
}
// Bytes as they are, in a BLOB.
struct blob
{
    std::string_view bytes = {};
};
inline void
bind(sqlite3_stmt* stmt, int index, blob value)
{
    sqlite3_bind_blob(
        stmt, index, value.bytes.data(), static_cast<int>(value.bytes.size()), SQLITE_TRANSIENT);
}

template <typename... Args>
void
bind_all(sqlite3_stmt* stmt, const Args&... args)
{
    auto index = 0;
    (bind(stmt, ++index, args), ...);
}
} // namespace rocprofiler::tool::rocpd
