/**
 * @file hash.hpp
 * @brief `std::hash` for the SDK's handle types (rocprofiler-sdk's C++ helper), so that handles
 * can be keys of unordered containers; the hash of a handle is its `handle` word.
 * Header-only; C++17.
 */
#pragma once

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/hsa.h>
#include <rocprofiler-sdk/internal_threading.h>

#include <cstddef>
#include <cstdint>
#include <functional>

namespace rocprofiler
{
namespace sdk
{
namespace hash
{
/** @brief Hash of a type of one 64-bit `handle` word. */
template <typename Tp> struct handle_hasher
{
    static_assert(sizeof(Tp) == sizeof(uint64_t), "only for opaque handle types");
    size_t operator()(Tp val) const noexcept { return static_cast<size_t>(val.handle); }
};
} // namespace hash
} // namespace sdk
} // namespace rocprofiler

#define ROCPROFILER_CXX_HANDLE_HASH(TYPE)                                                          \
    template <> struct hash<TYPE> : ::rocprofiler::sdk::hash::handle_hasher<TYPE>                  \
    {                                                                                              \
    };

namespace std
{
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_context_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_agent_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_address_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_queue_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_stream_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_buffer_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_counter_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_profile_config_id_t)
ROCPROFILER_CXX_HANDLE_HASH(rocprofiler_callback_thread_t)
ROCPROFILER_CXX_HANDLE_HASH(hsa_agent_t)
ROCPROFILER_CXX_HANDLE_HASH(hsa_signal_t)
ROCPROFILER_CXX_HANDLE_HASH(hsa_executable_t)
ROCPROFILER_CXX_HANDLE_HASH(hsa_region_t)
ROCPROFILER_CXX_HANDLE_HASH(hsa_amd_memory_pool_t)
} // namespace std

#undef ROCPROFILER_CXX_HANDLE_HASH
