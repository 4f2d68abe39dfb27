/* Arguments and return values of the marker (ROCTx) operations, as callback tracing delivers
 * them in rocprofiler_callback_tracing_marker_api_data_t. Strings point to the caller's memory
 * and are valid only during the callback. */
#pragma once

#include <rocprofiler-sdk/defines.h>

#include <rocprofiler-sdk-roctx/types.h>

#include <stdint.h>

ROCPROFILER_EXTERN_C_INIT

/** @brief Member of the argument union for an operation without arguments (C and C++ sizes
 *  agree: an empty struct would be 0 bytes in C and 1 in C++). */
typedef struct rocprofiler_marker_api_no_args
{
    char empty;
} rocprofiler_marker_api_no_args;

/** @brief Return value of a marker operation (the member named after the function's type). */
typedef union rocprofiler_marker_api_retval_t
{
    int32_t          int32_t_retval; /**< roctxRangePushA, roctxRangePop, control, naming */
    int64_t          int64_t_retval; /**< unused here */
    roctx_range_id_t roctx_range_id_t_retval; /**< roctxRangeStartA */
} rocprofiler_marker_api_retval_t;

/** @brief Arguments of a marker operation, one member per function. */
typedef union rocprofiler_marker_api_args_t
{
    struct
    {
        const char* message;
    } roctxMarkA;
    struct
    {
        const char* message;
    } roctxRangePushA;
    struct
    {
        rocprofiler_marker_api_no_args no_args;
    } roctxRangePop;
    struct
    {
        const char* message;
    } roctxRangeStartA;
    struct
    {
        roctx_range_id_t id;
    } roctxRangeStop;
    struct
    {
        roctx_thread_id_t* tid;
    } roctxGetThreadId;
    struct
    {
        roctx_thread_id_t tid;
    } roctxProfilerPause;
    struct
    {
        roctx_thread_id_t tid;
    } roctxProfilerResume;
    struct
    {
        const char* name;
    } roctxNameOsThread;
    struct
    {
        const char*               name;
        const struct hsa_agent_s* agent;
    } roctxNameHsaAgent;
    struct
    {
        const char* name;
        int         device_id;
    } roctxNameHipDevice;
    struct
    {
        const char*                name;
        const struct ihipStream_t* stream;
    } roctxNameHipStream;
    struct
    {
        const char* message;
    } roctxThreadRangeA; ///< MARKER_CORE_RANGE_API (a kind no ROCTx call here reports)
    struct
    {
        const char* message;
    } roctxProcessRangeA; ///< MARKER_CORE_RANGE_API (a kind no ROCTx call here reports)
} rocprofiler_marker_api_args_t;

ROCPROFILER_EXTERN_C_FINI
