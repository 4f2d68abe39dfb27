// The protobuf wire format (https://protobuf.dev/programming-guides/encoding/), encoding only, for
// the Perfetto trace (perfetto.hpp): no libprotobuf, no schema, fields appended to a string.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace rocprofiler::tool
{
namespace protowire
{
// Appends the protobuf encodings (https://protobuf.dev/programming-guides/encoding/) to @p out.
void varint(std::string& out, uint64_t value);
void field_varint(std::string& out, uint32_t field, uint64_t value);
void field_int64(std::string& out, uint32_t field, int64_t value); // two's complement varint
void field_double(std::string& out, uint32_t field, double value); // fixed64, little-endian
void field_bytes(std::string& out, uint32_t field, std::string_view bytes); // also sub-messages
// A protobuf string field, which must be UTF-8: ill-formed parts of @p text are written as U+FFFD
// (untrusted::valid_utf8), as the JSON output writes them.
void field_string(std::string& out, uint32_t field, std::string_view text);
} // namespace protowire
} // namespace rocprofiler::tool
