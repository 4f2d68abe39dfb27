/* Operations of the HIP tracing kinds: one enum per HIP API table. */
#pragma once

#include <rocprofiler-sdk/hip/compiler_api_id.h>
#include <rocprofiler-sdk/hip/runtime_api_id.h>
