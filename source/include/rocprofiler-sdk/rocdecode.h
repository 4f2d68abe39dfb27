/* The rocDecode tracing domain (ROCDECODE_API): operation and table ids with rocprofiler-sdk's
 * values. rocDecode does not run here, so the kind reports nothing; its argument union
 * (rocprofiler-sdk's rocdecode/api_args.h) is not declared, as it needs rocDecode's headers. */
#pragma once

#include <rocprofiler-sdk/rocdecode/api_id.h>
#include <rocprofiler-sdk/rocdecode/table_id.h>
