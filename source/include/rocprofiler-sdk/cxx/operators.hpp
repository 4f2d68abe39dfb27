/**
 * @file operators.hpp
 * @brief Comparison operators for the SDK's handle types (rocprofiler-sdk's C++ helper), so that
 * handles can be compared and used as keys of ordered containers: `==`, `!=`, `<`, `>`, `<=`, `>=`
 * compare the `handle` words; agents compare by `id`; `rocprofiler_dim3_t` is equal when x, y and
 * z are, and orders by its product x*y*z, then by (x, y, z). Header-only; C++17.
 */
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/hsa.h>
#include <rocprofiler-sdk/internal_threading.h>

#include <cstdint>
#include <tuple>

namespace rocprofiler
{
namespace sdk
{
namespace operators
{
/** @brief Equality of two opaque handles (types of one 64-bit `handle` word). */
template <typename Tp>
bool
equal(Tp lhs, Tp rhs)
{
    static_assert(sizeof(Tp) == sizeof(uint64_t), "only for opaque handle types");
    return lhs.handle == rhs.handle;
}

/** @brief Order of two opaque handles. */
template <typename Tp>
bool
less(Tp lhs, Tp rhs)
{
    static_assert(sizeof(Tp) == sizeof(uint64_t), "only for opaque handle types");
    return lhs.handle < rhs.handle;
}
} // namespace operators
} // namespace sdk
} // namespace rocprofiler

// Every type gets == and <; the other four are written from those two.
#define ROCPROFILER_CXX_HANDLE_EQ_LT(TYPE)                                                         \
    inline bool operator==(TYPE lhs, TYPE rhs)                                                     \
    {                                                                                              \
        return ::rocprofiler::sdk::operators::equal(lhs, rhs);                                     \
    }                                                                                              \
    inline bool operator<(TYPE lhs, TYPE rhs)                                                      \
    {                                                                                              \
        return ::rocprofiler::sdk::operators::less(lhs, rhs);                                      \
    }

#define ROCPROFILER_CXX_DERIVED_COMPARISONS(TYPE)                                                  \
    inline bool operator!=(TYPE lhs, TYPE rhs)                                                     \
    {                                                                                              \
        return !(lhs == rhs);                                                                      \
    }                                                                                              \
    inline bool operator>(TYPE lhs, TYPE rhs)                                                      \
    {                                                                                              \
        return rhs < lhs;                                                                          \
    }                                                                                              \
    inline bool operator<=(TYPE lhs, TYPE rhs)                                                     \
    {                                                                                              \
        return !(rhs < lhs);                                                                       \
    }                                                                                              \
    inline bool operator>=(TYPE lhs, TYPE rhs)                                                     \
    {                                                                                              \
        return !(lhs < rhs);                                                                       \
    }

ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_context_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_address_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_agent_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_queue_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_stream_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_buffer_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_counter_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_profile_config_id_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(rocprofiler_callback_thread_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(hsa_agent_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(hsa_signal_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(hsa_executable_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(hsa_region_t)
ROCPROFILER_CXX_HANDLE_EQ_LT(hsa_amd_memory_pool_t)

inline bool
operator==(const rocprofiler_agent_v0_t& lhs, const rocprofiler_agent_v0_t& rhs)
{
    return lhs.id == rhs.id;
}

inline bool
operator<(const rocprofiler_agent_v0_t& lhs, const rocprofiler_agent_v0_t& rhs)
{
    return lhs.id < rhs.id;
}

inline bool
operator==(rocprofiler_dim3_t lhs, rocprofiler_dim3_t rhs)
{
    return lhs.x == rhs.x && lhs.y == rhs.y && lhs.z == rhs.z;
}

inline bool
operator<(rocprofiler_dim3_t lhs, rocprofiler_dim3_t rhs)
{
    const uint64_t lhs_size = uint64_t{lhs.x} * lhs.y * lhs.z;
    const uint64_t rhs_size = uint64_t{rhs.x} * rhs.y * rhs.z;
    if(lhs_size != rhs_size) return lhs_size < rhs_size;
    return std::tie(lhs.x, lhs.y, lhs.z) < std::tie(rhs.x, rhs.y, rhs.z);
}

ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_context_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_address_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_agent_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_queue_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_stream_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_buffer_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_counter_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_profile_config_id_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_callback_thread_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(hsa_agent_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(hsa_signal_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(hsa_executable_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(hsa_region_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(hsa_amd_memory_pool_t)
ROCPROFILER_CXX_DERIVED_COMPARISONS(const rocprofiler_agent_v0_t&)
ROCPROFILER_CXX_DERIVED_COMPARISONS(rocprofiler_dim3_t)

#undef ROCPROFILER_CXX_HANDLE_EQ_LT
#undef ROCPROFILER_CXX_DERIVED_COMPARISONS
