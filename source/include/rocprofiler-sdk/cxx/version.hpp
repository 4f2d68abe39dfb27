/**
 * @file version.hpp
 * @brief Version numbers encoded as one integer (rocprofiler-sdk's C++ helper). Header-only;
 * C++17.
 */
#pragma once

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>

namespace rocprofiler
{
namespace sdk
{
namespace version
{
/**
 * @brief Splits a version written as `major * F * F + minor * F + patch` into its triplet, F being
 * `FactorV`: with the default 100, 10203 is 1.2.3 (the form of ROCPROFILER_VERSION); with 1000,
 * 1002003 is 1.2.3.
 */
template <uint64_t FactorV = 100>
constexpr rocprofiler_version_triplet_t
compute_version_triplet(uint64_t version)
{
    static_assert(FactorV > 0, "the factor must be positive");
    rocprofiler_version_triplet_t out{};
    out.major = static_cast<uint32_t>(version / (FactorV * FactorV));
    out.minor = static_cast<uint32_t>((version / FactorV) % FactorV);
    out.patch = static_cast<uint32_t>(version % FactorV);
    return out;
}
} // namespace version
} // namespace sdk
} // namespace rocprofiler
