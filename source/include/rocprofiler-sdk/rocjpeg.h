/* The rocJPEG tracing domain (ROCJPEG_API): operation and table ids with rocprofiler-sdk's values,
 * and the argument union (rocjpeg/api_args.h). rocJPEG does not run here, so the kind reports
 * nothing. */
#pragma once

#include <rocprofiler-sdk/rocjpeg/api_args.h>
#include <rocprofiler-sdk/rocjpeg/api_id.h>
#include <rocprofiler-sdk/rocjpeg/table_id.h>
