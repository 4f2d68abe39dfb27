// The fuzz targets' own protobuf reading (independent of the writers they check): one base-128
// varint at @p pos of @p in, @p pos moved past it; nothing when it is cut short or too long.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

inline std::optional<uint64_t>
read_varint(std::string_view in, size_t& pos)
{
    uint64_t value = 0;
    for(unsigned shift = 0; shift < 64 && pos < in.size(); shift += 7)
    {
        const auto byte = static_cast<uint8_t>(in[pos++]);
        value |= uint64_t{byte & 0x7fU} << shift;
        if((byte & 0x80U) == 0) return value;
    }
    return std::nullopt;
}
