/**
 * @file utility.hpp
 * @brief Small formatting helpers (rocprofiler-sdk's C++ helper). Header-only; C++17.
 */
#pragma once

#include <cstddef>
#include <iomanip>
#include <sstream>
#include <string>

namespace rocprofiler
{
namespace sdk
{
namespace utility
{
/** @brief `val` in hexadecimal with a `0x` prefix, zero-padded to at least `width` digits:
 * `as_hex(255, 4)` is "0x00ff". */
template <typename Tp>
std::string
as_hex(Tp val, size_t width = 0)
{
    std::ostringstream out{};
    out << "0x" << std::hex << std::setfill('0') << std::setw(static_cast<int>(width)) << val;
    return out.str();
}
} // namespace utility
} // namespace sdk
} // namespace rocprofiler
