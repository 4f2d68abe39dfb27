/**
 * @file cxx/serialization/load.hpp
 * @brief cereal `load` functions for the values a tool reads back from what save.hpp wrote: the
 * handles, ids and small value types (not the records, which hold pointers into the SDK). Keys
 * are those save.hpp writes. C++17.
 */
#pragma once

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/hsa_types.h>

#include <cereal/cereal.hpp>

#if !defined(ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN)
#    define ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN                                                 \
        namespace cereal                                                                           \
        {
#endif

#if !defined(ROCPROFILER_SDK_CEREAL_NAMESPACE_END)
#    define ROCPROFILER_SDK_CEREAL_NAMESPACE_END } // namespace cereal
#endif

/* Helper of the load functions (and of a tool's own): loads one named field of `data`. */
#define ROCP_SDK_LOAD_DATA_FIELD(FIELD) ar(make_nvp(#FIELD, data.FIELD))

ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN

#define ROCP_SDK_LOAD_HANDLE(TYPE)                                                                 \
    template <typename ArchiveT> void load(ArchiveT& ar, TYPE& data)                               \
    {                                                                                              \
        ROCP_SDK_LOAD_DATA_FIELD(handle);                                                          \
    }

ROCP_SDK_LOAD_HANDLE(rocprofiler_context_id_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_agent_id_t)
ROCP_SDK_LOAD_HANDLE(hsa_agent_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_queue_id_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_stream_id_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_counter_id_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_buffer_id_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_counter_config_id_t)
ROCP_SDK_LOAD_HANDLE(rocprofiler_address_t)
#undef ROCP_SDK_LOAD_HANDLE

template <typename ArchiveT>
void
load(ArchiveT& ar, rocprofiler_user_data_t& data)
{
    ROCP_SDK_LOAD_DATA_FIELD(value);
}

template <typename ArchiveT>
void
load(ArchiveT& ar, rocprofiler_correlation_id_t& data)
{
    ROCP_SDK_LOAD_DATA_FIELD(internal);
    ar(make_nvp("external", data.external.value));
    ROCP_SDK_LOAD_DATA_FIELD(ancestor);
}

template <typename ArchiveT>
void
load(ArchiveT& ar, rocprofiler_async_correlation_id_t& data)
{
    ROCP_SDK_LOAD_DATA_FIELD(internal);
    ar(make_nvp("external", data.external.value));
}

template <typename ArchiveT>
void
load(ArchiveT& ar, rocprofiler_dim3_t& data)
{
    ROCP_SDK_LOAD_DATA_FIELD(x);
    ROCP_SDK_LOAD_DATA_FIELD(y);
    ROCP_SDK_LOAD_DATA_FIELD(z);
}

ROCPROFILER_SDK_CEREAL_NAMESPACE_END
