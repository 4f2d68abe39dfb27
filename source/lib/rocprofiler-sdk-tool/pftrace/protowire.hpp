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
void field_bytes(std::string& out, uint32_t field, std::string_view bytes); // also strings and
                                                                            // sub-messages
} // namespace protowire
} // namespace rocprofiler::tool
