/* Operations of ROCPROFILER_*_TRACING_ROCJPEG_API.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_rocjpeg_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_ROCJPEG_API_ID_NONE                 = -1,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamCreate  = 0,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamParse   = 1,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegStreamDestroy = 2,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegCreate        = 3,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegDestroy       = 4,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegGetImageInfo  = 5,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegDecode        = 6,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegDecodeBatched = 7,
    ROCPROFILER_ROCJPEG_API_ID_rocJpegGetErrorName  = 8,
    ROCPROFILER_ROCJPEG_API_ID_LAST                 = 9,
} rocprofiler_rocjpeg_api_id_t;
