// The exception firewall of the C API. Every extern "C" entry point wraps its body in
// ROCP_API_GUARD_BEGIN / ROCP_API_GUARD_END so that no C++ exception crosses into a tool.
#pragma once

#include "common/logging.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <exception>
#include <new>

#define ROCP_API_GUARD_BEGIN                                                                       \
    try                                                                                            \
    {
#define ROCP_API_GUARD_END(FUNCTION_NAME)                                                          \
    }                                                                                              \
    catch(const std::bad_alloc&)                                                                   \
    {                                                                                              \
        ROCP_LOG(error) << FUNCTION_NAME << ": out of memory";                                     \
        return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;                                          \
    }                                                                                              \
    catch(const std::exception& e)                                                                 \
    {                                                                                              \
        ROCP_LOG(error) << FUNCTION_NAME << ": internal error: " << e.what();                      \
        return ROCPROFILER_STATUS_ERROR;                                                           \
    }                                                                                              \
    catch(...)                                                                                     \
    {                                                                                              \
        ROCP_LOG(error) << FUNCTION_NAME << ": unknown internal error";                            \
        return ROCPROFILER_STATUS_ERROR;                                                           \
    }

// Returns the status of EXPR from the enclosing function when it is not SUCCESS.
#define ROCP_RETURN_IF_ERROR(EXPR)                                                                 \
    do                                                                                             \
    {                                                                                              \
        if(auto _rocp_status = (EXPR); _rocp_status != ROCPROFILER_STATUS_SUCCESS)                 \
            return _rocp_status;                                                                   \
    } while(0)
