/* The HIP tracing domains (HIP_RUNTIME_API, HIP_COMPILER_API): operation and table ids with
 * rocprofiler-sdk's values, and the argument union (hip/api_args.h, all of its members). No HIP
 * runtime runs here, so these kinds report nothing. */
#pragma once

#include <rocprofiler-sdk/hip/api_args.h>
#include <rocprofiler-sdk/hip/api_id.h>
#include <rocprofiler-sdk/hip/table_id.h>
