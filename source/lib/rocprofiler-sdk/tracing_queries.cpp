// Entry points of the name and iteration queries of callback_tracing.h and buffer_tracing.h.
// They answer from the constant tables of tracing/names.cpp, so they work at any time (before
// registration, during it and after finalization) and from any thread.

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>

#include "common/api_guard.hpp"
#include "tracing/names.hpp"

#include <optional>
#include <string_view>

namespace
{
// Writes a name found in the tables (a static NUL-terminated string) to the optional outputs.
void
write_name(std::string_view name, const char** name_out, uint64_t* name_len_out)
{
    if(name_out) *name_out = name.data();
    if(name_len_out) *name_len_out = name.size();
}
} // namespace

extern "C"
{
    rocprofiler_status_t rocprofiler_query_callback_tracing_kind_name(
        rocprofiler_callback_tracing_kind_t kind, const char** name, uint64_t* name_len)
    {
        ROCP_API_GUARD_BEGIN
        const auto found = rocprofiler::tracing::callback_kind_name(static_cast<int>(kind));
        if(!found) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        write_name(*found, name, name_len);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_callback_tracing_kind_name")
    }

    rocprofiler_status_t rocprofiler_query_callback_tracing_kind_operation_name(
        rocprofiler_callback_tracing_kind_t kind,
        rocprofiler_tracing_operation_t     operation,
        const char**                        name,
        uint64_t*                           name_len)
    {
        ROCP_API_GUARD_BEGIN
        if(!rocprofiler::tracing::callback_kind_name(static_cast<int>(kind)))
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        const auto found =
            rocprofiler::tracing::callback_operation_name(static_cast<int>(kind), operation);
        if(!found) return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
        write_name(*found, name, name_len);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_callback_tracing_kind_operation_name")
    }

    rocprofiler_status_t
    rocprofiler_iterate_callback_tracing_kinds(rocprofiler_callback_tracing_kind_cb_t callback,
                                               void*                                  data)
    {
        ROCP_API_GUARD_BEGIN
        if(!callback) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        for(int kind = ROCPROFILER_CALLBACK_TRACING_NONE + 1;
            kind < ROCPROFILER_CALLBACK_TRACING_LAST;
            ++kind)
        {
            if(callback(static_cast<rocprofiler_callback_tracing_kind_t>(kind), data) != 0) break;
        }
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_iterate_callback_tracing_kinds")
    }

    rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operations(
        rocprofiler_callback_tracing_kind_t              kind,
        rocprofiler_callback_tracing_kind_operation_cb_t callback,
        void*                                            data)
    {
        ROCP_API_GUARD_BEGIN
        if(!rocprofiler::tracing::callback_kind_name(static_cast<int>(kind)))
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        if(!callback) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto last = rocprofiler::tracing::callback_operation_count(static_cast<int>(kind));
        for(int32_t op = rocprofiler::tracing::callback_operation_first(static_cast<int>(kind));
            op < last;
            ++op)
        {
            if(callback(kind, op, data) != 0) break;
        }
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_iterate_callback_tracing_kind_operations")
    }

    rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_name(
        rocprofiler_buffer_tracing_kind_t kind, const char** name, uint64_t* name_len)
    {
        ROCP_API_GUARD_BEGIN
        const auto found = rocprofiler::tracing::buffer_kind_name(static_cast<int>(kind));
        if(!found) return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        write_name(*found, name, name_len);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_buffer_tracing_kind_name")
    }

    rocprofiler_status_t
    rocprofiler_query_buffer_tracing_kind_operation_name(rocprofiler_buffer_tracing_kind_t kind,
                                                         rocprofiler_tracing_operation_t operation,
                                                         const char**                    name,
                                                         uint64_t*                       name_len)
    {
        ROCP_API_GUARD_BEGIN
        if(!rocprofiler::tracing::buffer_kind_name(static_cast<int>(kind)))
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        const auto found =
            rocprofiler::tracing::buffer_operation_name(static_cast<int>(kind), operation);
        if(!found) return ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND;
        write_name(*found, name, name_len);
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_query_buffer_tracing_kind_operation_name")
    }

    rocprofiler_status_t
    rocprofiler_iterate_buffer_tracing_kinds(rocprofiler_buffer_tracing_kind_cb_t callback,
                                             void*                                data)
    {
        ROCP_API_GUARD_BEGIN
        if(!callback) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        for(int kind = ROCPROFILER_BUFFER_TRACING_NONE + 1; kind < ROCPROFILER_BUFFER_TRACING_LAST;
            ++kind)
        {
            if(callback(static_cast<rocprofiler_buffer_tracing_kind_t>(kind), data) != 0) break;
        }
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_iterate_buffer_tracing_kinds")
    }

    rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kind_operations(
        rocprofiler_buffer_tracing_kind_t              kind,
        rocprofiler_buffer_tracing_kind_operation_cb_t callback,
        void*                                          data)
    {
        ROCP_API_GUARD_BEGIN
        if(!rocprofiler::tracing::buffer_kind_name(static_cast<int>(kind)))
            return ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND;
        if(!callback) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto last = rocprofiler::tracing::buffer_operation_count(static_cast<int>(kind));
        for(int32_t op = rocprofiler::tracing::buffer_operation_first(static_cast<int>(kind));
            op < last;
            ++op)
        {
            if(callback(kind, op, data) != 0) break;
        }
        return ROCPROFILER_STATUS_SUCCESS;
        ROCP_API_GUARD_END("rocprofiler_iterate_buffer_tracing_kind_operations")
    }
}
