/* The HSA tracing domains (HSA_*_API, SCRATCH_MEMORY): operation ids, table ids, the argument
 * union of HSA's functions and scratch memory arguments, with rocprofiler-sdk's values. No agent
 * here is an HSA agent, so these kinds report nothing (see docs/api.md, "Conformance with AMD's
 * headers"). */
#pragma once

/* rocprofiler-sdk defines AMD_INTERNAL_BUILD around its include of HSA's header and states here
 * whether it did (1). These headers include no HSA header and never define it: 0. */
#ifndef ROCPROFILER_DEFINED_AMD_INTERNAL_BUILD
#    define ROCPROFILER_DEFINED_AMD_INTERNAL_BUILD 0
#endif

#include <rocprofiler-sdk/ext_version.h>
#include <rocprofiler-sdk/hsa/api_args.h>
#include <rocprofiler-sdk/hsa/api_id.h>
#include <rocprofiler-sdk/hsa/scratch_memory_args.h>
#include <rocprofiler-sdk/hsa/scratch_memory_id.h>
#include <rocprofiler-sdk/hsa/table_id.h>
#include <rocprofiler-sdk/hsa_types.h>
