/* The RCCL tracing domain (RCCL_API): operation and table ids with rocprofiler-sdk's values, and
 * the argument union (rccl/api_args.h). RCCL does not run here, so the kind reports nothing. */
#pragma once

#include <rocprofiler-sdk/rccl/api_args.h>
#include <rocprofiler-sdk/rccl/api_id.h>
#include <rocprofiler-sdk/rccl/table_id.h>
