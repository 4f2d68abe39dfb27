/*
 * The function tables through which librocprofiler-sdk-roctx hands its calls to the SDK: the
 * library passes them to rocprofiler_set_api_table("roctx", ...) on its first call, and the SDK
 * replaces entries with tracing wrappers that call the library's own implementation.
 */
#pragma once

#include <rocprofiler-sdk-roctx/defines.h>
#include <rocprofiler-sdk-roctx/types.h>
#include <rocprofiler-sdk-roctx/version.h>

#include <stddef.h>
#include <stdint.h>

ROCTX_EXTERN_C_INIT

#define ROCTX_API_TABLE_VERSION_MAJOR 0
#define ROCTX_API_TABLE_VERSION_STEP 0

typedef void (*roctxMarkA_fn_t)(const char* message);
typedef int (*roctxRangePushA_fn_t)(const char* message);
typedef int (*roctxRangePop_fn_t)(void);
typedef roctx_range_id_t (*roctxRangeStartA_fn_t)(const char* message);
typedef void (*roctxRangeStop_fn_t)(roctx_range_id_t id);
typedef int (*roctxProfilerPause_fn_t)(roctx_thread_id_t tid);
typedef int (*roctxProfilerResume_fn_t)(roctx_thread_id_t tid);
typedef int (*roctxNameOsThread_fn_t)(const char* name);
typedef int (*roctxNameHsaAgent_fn_t)(const char* name, const struct hsa_agent_s* agent);
typedef int (*roctxNameHipDevice_fn_t)(const char* name, int device_id);
typedef int (*roctxNameHipStream_fn_t)(const char* name, const struct ihipStream_t* stream);
typedef int (*roctxGetThreadId_fn_t)(roctx_thread_id_t* tid);

/** @brief Markers and ranges (ROCPROFILER_*_TRACING_MARKER_CORE_API). */
typedef struct roctxCoreApiTable_t
{
    uint64_t              size; /**< sizeof the table the library filled */
    roctxMarkA_fn_t       roctxMarkA_fn;
    roctxRangePushA_fn_t  roctxRangePushA_fn;
    roctxRangePop_fn_t    roctxRangePop_fn;
    roctxRangeStartA_fn_t roctxRangeStartA_fn;
    roctxRangeStop_fn_t   roctxRangeStop_fn;
    roctxGetThreadId_fn_t roctxGetThreadId_fn;
} roctxCoreApiTable_t;

/** @brief Profiler control (ROCPROFILER_*_TRACING_MARKER_CONTROL_API). */
typedef struct roctxControlApiTable_t
{
    uint64_t                 size;
    roctxProfilerPause_fn_t  roctxProfilerPause_fn;
    roctxProfilerResume_fn_t roctxProfilerResume_fn;
} roctxControlApiTable_t;

/** @brief Naming (ROCPROFILER_*_TRACING_MARKER_NAME_API). */
typedef struct roctxNameApiTable_t
{
    uint64_t                size;
    roctxNameOsThread_fn_t  roctxNameOsThread_fn;
    roctxNameHsaAgent_fn_t  roctxNameHsaAgent_fn;
    roctxNameHipDevice_fn_t roctxNameHipDevice_fn;
    roctxNameHipStream_fn_t roctxNameHipStream_fn;
} roctxNameApiTable_t;

ROCTX_EXTERN_C_FINI
