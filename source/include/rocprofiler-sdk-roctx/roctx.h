/**
 * @file roctx.h
 * @brief ROCTx: markers and ranges a program puts in its own code (librocprofiler-sdk-roctx.so).
 *
 * A program links librocprofiler-sdk-roctx and calls these functions; when a profiler built on
 * the SDK is loaded in the process, each call is traced as an operation of the marker domains
 * (ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API, _CONTROL_API, _NAME_API and their buffer kinds).
 * Without a profiler the calls cost a function call and keep their documented results (range
 * depths, range ids), so a program needs no build switch to ship with its markers.
 *
 * Push/pop ranges nest per thread; start/stop ranges are process-wide and may end on another
 * thread. All strings are NUL-terminated and only read during the call.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

#include <rocprofiler-sdk-roctx/defines.h>
#include <rocprofiler-sdk-roctx/types.h>
#include <rocprofiler-sdk-roctx/version.h>

ROCTX_EXTERN_C_INIT

/** @brief Marks one instant with @p message. */
void roctxMarkA(const char* message) ROCTX_API ROCTX_NONNULL(1);

/**
 * @brief Opens a range nested in the thread's open push ranges.
 * @return The depth of the new range (0 for an outermost one).
 */
int roctxRangePushA(const char* message) ROCTX_API ROCTX_NONNULL(1);

/**
 * @brief Closes the thread's innermost push range.
 * @return The depth the closed range had, or a negative value when the thread had none open.
 */
int roctxRangePop(void) ROCTX_API;

/**
 * @brief Opens a process range, which any thread may close.
 * @return The range's id (never 0), to pass to roctxRangeStop.
 */
roctx_range_id_t roctxRangeStartA(const char* message) ROCTX_API ROCTX_NONNULL(1);

/** @brief Closes the process range @p id. */
void roctxRangeStop(roctx_range_id_t id) ROCTX_API;

/**
 * @brief Asks the profiler to stop collecting (0: the whole process; else the thread @p tid).
 * @return 0 when the request was delivered or there is no profiler; a profiler may return
 * non-zero for a request it cannot honour.
 */
int roctxProfilerPause(roctx_thread_id_t tid) ROCTX_API;

/** @brief Asks the profiler to collect again after roctxProfilerPause. Same conventions. */
int roctxProfilerResume(roctx_thread_id_t tid) ROCTX_API;

/** @brief Asks the profiler to label the calling thread @p name (the thread is not renamed). */
int roctxNameOsThread(const char* name) ROCTX_API ROCTX_NONNULL(1);

/** @brief Asks the profiler to label an HSA agent (kept for source compatibility). */
int roctxNameHsaAgent(const char* name, const struct hsa_agent_s* agent) ROCTX_API
    ROCTX_NONNULL(1, 2);

/** @brief Asks the profiler to label device @p device_id. */
int roctxNameHipDevice(const char* name, int device_id) ROCTX_API ROCTX_NONNULL(1);

/** @brief Asks the profiler to label a stream (a HIP stream handle; kept for source compatibility).
 */
int roctxNameHipStream(const char* name, const struct ihipStream_t* stream) ROCTX_API
    ROCTX_NONNULL(1);

/**
 * @brief Writes the calling thread's id, the value rocprofiler_get_thread_id gives a tool.
 * @return 0.
 */
int roctxGetThreadId(roctx_thread_id_t* tid) ROCTX_API ROCTX_NONNULL(1);

ROCTX_EXTERN_C_FINI

#if !defined(roctxRangeStart)
/** @brief The ASCII form. */
#    define roctxRangeStart(message) roctxRangeStartA(message)
#endif

#if !defined(roctxMark)
/** @brief The ASCII form. */
#    define roctxMark(message) roctxMarkA(message)
#endif

#if !defined(roctxRangePush)
/** @brief The ASCII form. */
#    define roctxRangePush(message) roctxRangePushA(message)
#endif
