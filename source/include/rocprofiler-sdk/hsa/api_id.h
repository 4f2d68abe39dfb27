/* Operations of the HSA tracing kinds: one enum per HSA API table. */
#pragma once

#include <rocprofiler-sdk/hsa/amd_ext_api_id.h>
#include <rocprofiler-sdk/hsa/core_api_id.h>
#include <rocprofiler-sdk/hsa/finalize_ext_api_id.h>
#include <rocprofiler-sdk/hsa/image_ext_api_id.h>
