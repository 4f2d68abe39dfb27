// Entry points of rocprofiler.h: version, time, thread and status queries.

#include <rocprofiler-sdk/rocprofiler.h>

#include "common/api_guard.hpp"
#include "common/thread.hpp"
#include "common/time.hpp"
#include "status/status.hpp"

extern "C"
{
    rocprofiler_status_t rocprofiler_get_version(uint32_t* major, uint32_t* minor, uint32_t* patch)
    {
        if(major) *major = ROCPROFILER_VERSION_MAJOR;
        if(minor) *minor = ROCPROFILER_VERSION_MINOR;
        if(patch) *patch = ROCPROFILER_VERSION_PATCH;
        return ROCPROFILER_STATUS_SUCCESS;
    }

    rocprofiler_status_t rocprofiler_get_version_triplet(rocprofiler_version_triplet_t* info)
    {
        ROCP_API_GUARD_BEGIN
        if(info == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *info = rocprofiler_version_triplet_t{
            ROCPROFILER_VERSION_MAJOR, ROCPROFILER_VERSION_MINOR, ROCPROFILER_VERSION_PATCH};
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_get_version_triplet")
    }

    rocprofiler_status_t rocprofiler_get_timestamp(rocprofiler_timestamp_t* ts)
    {
        ROCP_API_GUARD_BEGIN
        if(!ts) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *ts = rocprofiler::common::timestamp_ns();
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_get_timestamp")
    }

    rocprofiler_status_t rocprofiler_get_thread_id(rocprofiler_thread_id_t* tid)
    {
        ROCP_API_GUARD_BEGIN
        if(!tid) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        *tid = rocprofiler::common::thread_id();
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_get_thread_id")
    }

    // The two status queries return a string, not a status, so they cannot use the API guard; they
    // only index a static table and cannot throw. Tools are C code and may pass any int here.
    const char* rocprofiler_get_status_name(rocprofiler_status_t status)
    {
        return rocprofiler::status::name(static_cast<int>(status));
    }

    const char* rocprofiler_get_status_string(rocprofiler_status_t status)
    {
        return rocprofiler::status::message(static_cast<int>(status));
    }
}
