/* The RCCL tracing domain (RCCL_API): operation and table ids with rocprofiler-sdk's values. RCCL
 * does not run here, so the kind reports nothing; its argument union (rocprofiler-sdk's
 * rccl/api_args.h) is not declared, as it needs RCCL's headers. */
#pragma once

#include <rocprofiler-sdk/rccl/api_id.h>
#include <rocprofiler-sdk/rccl/table_id.h>
