// libcupti, opened with dlopen at run time (the SDK links nothing of CUDA), and the two tables of
// its functions the backend calls: the profiler API's (metric lists, configuration images, the
// range profiler) and the activity API's (kernel records, API callbacks).
//
// The tables are plain structs of function pointers. A test may fill a profiler table with its own
// functions and install it (use_profiler_table), so that the logic above CUPTI runs without
// libcupti.
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include <cupti.h>
#include <cupti_profiler_host.h>
#include <cupti_profiler_target.h>
#include <cupti_range_profiler.h>
#include <cupti_target.h>

#include <string>

namespace rocprofiler::cuda
{
// The dlopen handle of libcupti (ROCPROFILER_CUPTI_LIBRARY first, then the usual names and the
// toolkit's folders), opened on first use, or nullptr when none can be found. Never closed.
void* cupti_library();

#define ROCP_CUPTI_PROFILER_FUNCTIONS(X)                                                           \
    X(cuptiGetResultString)                                                                        \
    X(cuptiProfilerInitialize)                                                                     \
    X(cuptiDeviceGetChipName)                                                                      \
    X(cuptiProfilerGetCounterAvailability)                                                         \
    X(cuptiProfilerHostInitialize)                                                                 \
    X(cuptiProfilerHostDeinitialize)                                                               \
    X(cuptiProfilerHostGetBaseMetrics)                                                             \
    X(cuptiProfilerHostGetMetricProperties)                                                        \
    X(cuptiProfilerHostConfigAddMetrics)                                                           \
    X(cuptiProfilerHostGetConfigImageSize)                                                         \
    X(cuptiProfilerHostGetConfigImage)                                                             \
    X(cuptiProfilerHostGetNumOfPasses)                                                             \
    X(cuptiProfilerHostEvaluateToGpuValues)                                                        \
    X(cuptiRangeProfilerEnable)                                                                    \
    X(cuptiRangeProfilerDisable)                                                                   \
    X(cuptiRangeProfilerGetCounterDataSize)                                                        \
    X(cuptiRangeProfilerCounterDataImageInitialize)                                                \
    X(cuptiRangeProfilerSetConfig)                                                                 \
    X(cuptiRangeProfilerStart)                                                                     \
    X(cuptiRangeProfilerStop)                                                                      \
    X(cuptiRangeProfilerPushRange)                                                                 \
    X(cuptiRangeProfilerPopRange)                                                                  \
    X(cuptiRangeProfilerDecodeData)                                                                \
    X(cuptiRangeProfilerGetCounterDataInfo)                                                        \
    X(cuptiRangeProfilerCounterDataGetRangeInfo)

// The profiler API. Usable only when `error` is empty; a function may be null otherwise.
struct cupti_profiler_table
{
#define ROCP_CUPTI_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUPTI_PROFILER_FUNCTIONS(ROCP_CUPTI_DECLARE)
#undef ROCP_CUPTI_DECLARE
    std::string error = {}; // why the table is unusable, or empty
};

// The profiler table in use: the one installed by use_profiler_table(), or else the one looked
// up in cupti_library() on first use. Thread-safe.
const cupti_profiler_table& profiler_table();

// For tests: every later profiler_table() returns `table` (nullptr: the loaded one again). The
// caller keeps `table` alive while installed and installs it while no other thread calls CUPTI.
void use_profiler_table(const cupti_profiler_table* table);

#define ROCP_CUPTI_ACTIVITY_FUNCTIONS(X)                                                           \
    X(cuptiGetResultString)                                                                        \
    X(cuptiActivityRegisterTimestampCallback)                                                      \
    X(cuptiActivityRegisterCallbacks)                                                              \
    X(cuptiActivityEnable)                                                                         \
    X(cuptiActivityFlushAll)                                                                       \
    X(cuptiActivityFlushPeriod)                                                                    \
    X(cuptiActivitySetAttribute)                                                                   \
    X(cuptiActivityGetNextRecord)                                                                  \
    X(cuptiSubscribe)                                                                              \
    X(cuptiEnableCallback)                                                                         \
    X(cuptiGetCallbackName)

// The activity API: every function is set.
struct cupti_activity_table
{
#define ROCP_CUPTI_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUPTI_ACTIVITY_FUNCTIONS(ROCP_CUPTI_DECLARE)
#undef ROCP_CUPTI_DECLARE
};

// The activity table looked up in `handle` (a new one per call, owned by the caller), or nullptr
// when one of its functions is missing.
cupti_activity_table* load_activity_table(void* handle);

// The text of a CUPTI result (through the profiler table's cuptiGetResultString when it has one),
// or "CUptiResult <number>".
std::string result_text(CUptiResult result);
} // namespace rocprofiler::cuda
