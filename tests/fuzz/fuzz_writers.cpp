// A name from the application (any bytes) through each output's string path, as
// docs/rocprofv3.md's table "Names that are not UTF-8 or hold control characters" says:
// - CSV (csv_quote): the field, read back as RFC 4180 says, gives the same bytes;
// - JSON (nlohmann's dump with error_handler_t::replace, as results.json and its part files are
//   written): the text parses, holds no raw control character (results.json's writer indents
//   after every newline it sees), and its string is untrusted::valid_utf8(name): the name itself
//   when it is valid UTF-8;
// - Perfetto (protowire::field_string): one well-formed length-delimited field whose bytes are
//   valid_utf8(name);
// - rocpd (rocpd::bind into SQLite): the TEXT column reads back as valid_utf8(name), the BLOB
//   (rocprofv3_raw_name's column) as the name's bytes.
#include "csv/rows.hpp"
#include "pftrace/protowire.hpp"
#include "protobuf_varint.hpp"
#include "rocpd/sqlite_bind.hpp"
#include "untrusted/utf8.hpp"

#include <nlohmann/json.hpp>
#include <sqlite3.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>
#include <string_view>

namespace untrusted = rocprofiler::untrusted;
namespace protowire = rocprofiler::tool::protowire;

namespace
{
// One RFC 4180 field (quoted, quotes doubled) read back; nothing when @p field is not one.
std::optional<std::string>
read_csv_field(std::string_view field)
{
    if(field.size() < 2 || field.front() != '"' || field.back() != '"') return std::nullopt;
    auto out = std::string{};
    for(size_t i = 1; i + 1 < field.size(); ++i)
    {
        if(field[i] == '"')
        {
            if(i + 2 >= field.size() || field[i + 1] != '"') return std::nullopt;
            ++i;
        }
        out += field[i];
    }
    return out;
}

void
check_csv(std::string_view name)
{
    const auto back = read_csv_field(rocprofiler::tool::csv_quote(name));
    if(!back || *back != name) std::abort();
}

void
check_json(std::string_view name, const std::string& expected)
{
    using ordered     = nlohmann::ordered_json;
    const auto record = ordered{{"kernel_name", std::string{name}}};
    for(int indent : {-1, 1})
    {
        const auto text = record.dump(indent, ' ', false, ordered::error_handler_t::replace);
        for(char c : text)
            if(static_cast<unsigned char>(c) < 0x20 && c != '\n') std::abort();
        const auto back = nlohmann::json::parse(text); // throws (a crash here) when not JSON
        if(back.at("kernel_name").get<std::string>() != expected) std::abort();
    }
}

void
check_protobuf(std::string_view name, const std::string& expected, uint32_t field)
{
    auto out = std::string{};
    protowire::field_string(out, field, name);
    auto pos = size_t{0};
    auto tag = read_varint(out, pos);
    if(!tag || *tag != ((uint64_t{field} << 3U) | 2U)) std::abort();
    auto length = read_varint(out, pos);
    if(!length || *length != out.size() - pos) std::abort();
    const auto bytes = std::string_view{out}.substr(pos);
    if(!untrusted::is_valid_utf8(bytes) || bytes != expected) std::abort();
}

sqlite3*
database()
{
    static sqlite3* db = []
    {
        sqlite3* out = nullptr;
        if(sqlite3_open(":memory:", &out) != SQLITE_OK ||
           sqlite3_exec(
               out, "CREATE TABLE names (string TEXT, raw BLOB)", nullptr, nullptr, nullptr) !=
               SQLITE_OK)
            std::abort();
        return out;
    }();
    return db;
}

void
check_rocpd(std::string_view name, const std::string& expected)
{
    auto*         db     = database();
    sqlite3_stmt* insert = nullptr;
    sqlite3_stmt* select = nullptr;
    if(sqlite3_prepare_v2(db, "INSERT INTO names VALUES (?, ?)", -1, &insert, nullptr) !=
           SQLITE_OK ||
       sqlite3_prepare_v2(
           db, "SELECT typeof(string), string, raw FROM names", -1, &select, nullptr) != SQLITE_OK)
        std::abort();
    rocprofiler::tool::rocpd::bind(insert, 1, name);
    rocprofiler::tool::rocpd::bind(insert, 2, rocprofiler::tool::rocpd::blob{name});
    if(sqlite3_step(insert) != SQLITE_DONE) std::abort();
    if(sqlite3_step(select) != SQLITE_ROW) std::abort();
    const auto type =
        std::string_view{reinterpret_cast<const char*>(sqlite3_column_text(select, 0))};
    const auto* text      = reinterpret_cast<const char*>(sqlite3_column_text(select, 1));
    const auto  text_size = static_cast<size_t>(sqlite3_column_bytes(select, 1));
    const auto* raw       = static_cast<const char*>(sqlite3_column_blob(select, 2));
    const auto  raw_size  = static_cast<size_t>(sqlite3_column_bytes(select, 2));
    const auto  shown     = std::string_view{text != nullptr ? text : "", text_size};
    const auto  bytes     = std::string_view{raw != nullptr ? raw : "", raw_size};
    if(type != "text" || !untrusted::is_valid_utf8(shown) || shown != expected || bytes != name)
        std::abort();
    sqlite3_finalize(insert);
    sqlite3_finalize(select);
    if(sqlite3_exec(db, "DELETE FROM names", nullptr, nullptr, nullptr) != SQLITE_OK) std::abort();
}
} // namespace

extern "C" int
LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const auto name     = std::string_view{reinterpret_cast<const char*>(data), size};
    const auto expected = untrusted::valid_utf8(name);
    if(untrusted::is_valid_utf8(name) != (expected == name)) std::abort();
    if(!untrusted::is_valid_utf8(expected)) std::abort();
    check_csv(name);
    check_json(name, expected);
    // Field numbers of one and of two varint bytes, and the largest protobuf allows.
    for(uint32_t field : {1U, 18U, (1U << 29U) - 1U})
        check_protobuf(name, expected, field);
    check_rocpd(name, expected);
    return 0;
}
