/* The rocDecode tracing domain (ROCDECODE_API): operation and table ids with rocprofiler-sdk's
 * values, and the argument union (rocdecode/api_args.h). rocDecode does not run here, so the kind
 * reports nothing. */
#pragma once

#include <rocprofiler-sdk/rocdecode/api_args.h>
#include <rocprofiler-sdk/rocdecode/api_id.h>
#include <rocprofiler-sdk/rocdecode/table_id.h>
