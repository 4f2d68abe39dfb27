// The protobuf wire format, encoding only: what the Perfetto trace writer (perfetto.cpp) needs.
#include "pftrace/protowire.hpp"
#include "untrusted/utf8.hpp"

#include <cstring>

namespace rocprofiler::tool
{
namespace protowire
{
void
varint(std::string& out, uint64_t value)
{
    while(value >= 0x80)
    {
        out.push_back(static_cast<char>((value & 0x7FU) | 0x80U));
        value >>= 7U;
    }
    out.push_back(static_cast<char>(value));
}

namespace
{
// Wire types: 0 varint, 1 fixed64, 2 length-delimited.
void
tag(std::string& out, uint32_t field, uint32_t wire_type)
{
    varint(out, (static_cast<uint64_t>(field) << 3U) | wire_type);
}
} // namespace

void
field_varint(std::string& out, uint32_t field, uint64_t value)
{
    tag(out, field, 0);
    varint(out, value);
}

void
field_int64(std::string& out, uint32_t field, int64_t value)
{
    field_varint(out, field, static_cast<uint64_t>(value));
}

void
field_double(std::string& out, uint32_t field, double value)
{
    tag(out, field, 1);
    auto bits = uint64_t{0};
    std::memcpy(&bits, &value, sizeof(bits));
    for(int i = 0; i < 8; ++i)
        out.push_back(static_cast<char>((bits >> (8U * static_cast<unsigned>(i))) & 0xFFU));
}

void
field_bytes(std::string& out, uint32_t field, std::string_view bytes)
{
    tag(out, field, 2);
    varint(out, bytes.size());
    out.append(bytes);
}

void
field_string(std::string& out, uint32_t field, std::string_view text)
{
    if(untrusted::is_valid_utf8(text)) return field_bytes(out, field, text);
    field_bytes(out, field, untrusted::valid_utf8(text));
}
} // namespace protowire
} // namespace rocprofiler::tool
