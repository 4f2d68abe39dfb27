/* The rocJPEG tracing domain (ROCJPEG_API): operation and table ids with rocprofiler-sdk's values.
 * rocJPEG does not run here, so the kind reports nothing; its argument union (rocprofiler-sdk's
 * rocjpeg/api_args.h) is not declared, as it needs rocJPEG's headers. */
#pragma once

#include <rocprofiler-sdk/rocjpeg/api_id.h>
#include <rocprofiler-sdk/rocjpeg/table_id.h>
