// The run's UUID, which names a rocpd database's tables (AMD's layout: every table carries the
// suffix '_' + the UUID with '-' made '_') and fills every row's guid column. A version-7 UUID
// (RFC 9562): 48 bits of Unix time in milliseconds, then random bits, so that the databases of
// processes started in the same millisecond on different nodes still differ.
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace rocprofiler::tool::rocpd
{
// The UUID of @p unix_ms and @p random (10 bytes; 74 of their bits are used), as text:
// 8-4-4-4-12 lower-case hex digits, version 7, variant 10.
inline std::string
format_run_uuid(uint64_t unix_ms, const std::array<uint8_t, 10>& random)
{
    auto bytes = std::array<uint8_t, 16>{};
    for(int i = 0; i < 6; ++i)
        bytes[i] = static_cast<uint8_t>(unix_ms >> (8U * static_cast<unsigned>(5 - i)));
    for(int i = 0; i < 10; ++i)
        bytes[6 + i] = random[i];
    bytes[6]                         = static_cast<uint8_t>(0x70U | (bytes[6] & 0x0fU));
    bytes[8]                         = static_cast<uint8_t>(0x80U | (bytes[8] & 0x3fU));
    static constexpr const char* hex = "0123456789abcdef";
    auto                         out = std::string{};
    for(int i = 0; i < 16; ++i)
    {
        if(i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        out += hex[bytes[i] >> 4U];
        out += hex[bytes[i] & 0x0fU];
    }
    return out;
}

// A fresh UUID for this process: the time now, and random bytes from the kernel (getrandom), or,
// where that fails, a hash of the machine id, pid, parent pid and a monotonic clock.
std::string new_run_uuid();

// The table suffix of @p uuid: '_' and the UUID with each '-' made '_'.
inline std::string
run_table_suffix(const std::string& uuid)
{
    auto out = std::string{"_"};
    for(char c : uuid)
        out += c == '-' ? '_' : c;
    return out;
}
} // namespace rocprofiler::tool::rocpd
