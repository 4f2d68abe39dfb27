/* Types of the ROCTx marker API. */
#pragma once

#include <rocprofiler-sdk-roctx/defines.h>

#include <stdint.h>

/** @brief Identifies a process range from roctxRangeStartA to roctxRangeStop. */
typedef uint64_t roctx_range_id_t;

/** @brief An operating-system thread id, as rocprofiler_get_thread_id gives it. */
typedef uint64_t roctx_thread_id_t;
