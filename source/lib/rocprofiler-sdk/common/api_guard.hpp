// The exception firewall of the C API. Every extern "C" entry point wraps its body in
// ROCP_API_GUARD_BEGIN / ROCP_API_GUARD_END so that no C++ exception crosses into a tool. The
// report is common::report_current_exception (common/guard.hpp), the library's one guard.
#pragma once

#include "common/guard.hpp"

#include <rocprofiler-sdk/fwd.h>

#define ROCP_API_GUARD_BEGIN                                                                       \
    try                                                                                            \
    {
#define ROCP_API_GUARD_END(FUNCTION_NAME)                                                          \
    }                                                                                              \
    catch(...)                                                                                     \
    {                                                                                              \
        return ::rocprofiler::common::report_current_exception(FUNCTION_NAME) ==                   \
                       ::rocprofiler::common::caught::out_of_memory                                \
                   ? ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES                                     \
                   : ROCPROFILER_STATUS_ERROR;                                                     \
    }

// Returns the status of EXPR from the enclosing function when it is not SUCCESS.
#define ROCP_RETURN_IF_ERROR(EXPR)                                                                 \
    do                                                                                             \
    {                                                                                              \
        if(auto _rocp_status = (EXPR); _rocp_status != ROCPROFILER_STATUS_SUCCESS)                 \
            return _rocp_status;                                                                   \
    } while(0)
