/* The HSA tracing domains (HSA_*_API, SCRATCH_MEMORY): operation ids, table ids and scratch
 * memory arguments, with rocprofiler-sdk's values. No agent here is an HSA agent, so these kinds
 * report nothing; the HSA argument union (rocprofiler-sdk's hsa/api_args.h) is not declared, as
 * it needs HSA's own headers (see docs/api.md, "Conformance with AMD's headers"). */
#pragma once

#include <rocprofiler-sdk/hsa/api_id.h>
#include <rocprofiler-sdk/hsa/scratch_memory_args.h>
#include <rocprofiler-sdk/hsa/scratch_memory_id.h>
#include <rocprofiler-sdk/hsa/table_id.h>
#include <rocprofiler-sdk/hsa_types.h>
