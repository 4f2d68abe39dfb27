/* The HIP tracing domains (HIP_RUNTIME_API, HIP_COMPILER_API): operation and table ids with
 * rocprofiler-sdk's values. No HIP runtime runs here, so these kinds report nothing; the HIP
 * argument union (rocprofiler-sdk's hip/api_args.h) is not declared, as it needs HIP's headers. */
#pragma once

#include <rocprofiler-sdk/hip/api_id.h>
#include <rocprofiler-sdk/hip/table_id.h>
