/* Operations of ROCPROFILER_*_TRACING_ROCDECODE_API.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_rocdecode_api_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_ROCDECODE_API_ID_NONE                         = -1,
    ROCPROFILER_ROCDECODE_API_ID_rocDecCreateVideoParser      = 0,
    ROCPROFILER_ROCDECODE_API_ID_rocDecParseVideoData         = 1,
    ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyVideoParser     = 2,
    ROCPROFILER_ROCDECODE_API_ID_rocDecCreateDecoder          = 3,
    ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyDecoder         = 4,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetDecoderCaps         = 5,
    ROCPROFILER_ROCDECODE_API_ID_rocDecDecodeFrame            = 6,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetDecodeStatus        = 7,
    ROCPROFILER_ROCDECODE_API_ID_rocDecReconfigureDecoder     = 8,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetVideoFrame          = 9,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetErrorName           = 10,
    ROCPROFILER_ROCDECODE_API_ID_rocDecCreateBitstreamReader  = 11,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetBitstreamCodecType  = 12,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetBitstreamBitDepth   = 13,
    ROCPROFILER_ROCDECODE_API_ID_rocDecGetBitstreamPicData    = 14,
    ROCPROFILER_ROCDECODE_API_ID_rocDecDestroyBitstreamReader = 15,
    ROCPROFILER_ROCDECODE_API_ID_LAST                         = 16,
} rocprofiler_rocdecode_api_id_t;
