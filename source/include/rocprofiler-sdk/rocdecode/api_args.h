/* Arguments and return values of the rocDecode functions (ROCDECODE_API), one union member per
 * function, as rocprofiler-sdk's callback record declares them. rocDecode does not run here: no
 * record of this kind is delivered; the declarations let tools written for rocprofiler-sdk
 * compile. All members are declared, with rocDecode's types: a tool that includes rocDecode's
 * headers (rocdecode/rocdecode.h, rocparser.h, roc_bitstream_reader.h) before this one gets them;
 * otherwise the stand-ins below name the handles (void*), the enumerations (32-bit) and the
 * structures (incomplete: named through pointers only), with rocDecode's sizes. */
#pragma once

#include <rocprofiler-sdk/defines.h>

#include <stdint.h>

/* 1 when rocDecode's own headers provide the types (detected when rocdecode.h was included
 * first); 0 when the stand-ins below do. */
#if !defined(ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE)
#    if defined(ROCDECAPI)
#        define ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE 1
#    else
#        define ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE 0
#    endif
#endif

#if ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE > 0
#    if !defined(ROCDECAPI)
#        error "ROCPROFILER_SDK_USE_SYSTEM_ROCDECODE: include rocDecode's headers first"
#    endif
#else
typedef void*                                RocdecVideoParser;     /* rocparser.h */
typedef void*                                rocDecDecoderHandle;   /* rocdecode.h */
typedef void*                                RocdecBitstreamReader; /* roc_bitstream_reader.h */
typedef int32_t                              rocDecStatus;          /* enum rocDecStatus_enum */
typedef int32_t                              rocDecVideoCodec;      /* enum rocDecVideoCodec_enum */
typedef struct _RocdecParserParams           RocdecParserParams;
typedef struct _RocdecSourceDataPacket       RocdecSourceDataPacket;
typedef struct _RocDecoderCreateInfo         RocDecoderCreateInfo;
typedef struct _RocdecDecodeCaps             RocdecDecodeCaps;
typedef struct _RocdecPicParams              RocdecPicParams;
typedef struct _RocdecDecodeStatus           RocdecDecodeStatus;
typedef struct _RocdecReconfigureDecoderInfo RocdecReconfigureDecoderInfo;
typedef struct _RocdecProcParams             RocdecProcParams;
#endif

ROCPROFILER_EXTERN_C_INIT

/** @brief Member for a function without arguments (1 byte in C and C++ alike). */
typedef struct rocprofiler_rocdecode_api_no_args
{
    char empty;
} rocprofiler_rocdecode_api_no_args;

/** @brief Return value of a rocDecode function (the member named after its type). */
typedef union rocprofiler_rocdecode_api_retval_t
{
    uint64_t    uint64_t_retval;
    int32_t     rocDecStatus_retval;
    const char* const_charp_retval; /**< rocDecGetErrorName */
} rocprofiler_rocdecode_api_retval_t;

/** @brief Arguments of a rocDecode function, one member per function. */
typedef union rocprofiler_rocdecode_api_args_t
{
    struct
    {
        RocdecVideoParser*  parser_handle;
        RocdecParserParams* params;
    } rocDecCreateVideoParser;
    struct
    {
        RocdecVideoParser       parser_handle;
        RocdecSourceDataPacket* packet;
    } rocDecParseVideoData;
    struct
    {
        RocdecVideoParser parser_handle;
    } rocDecDestroyVideoParser;
    struct
    {
        rocDecDecoderHandle*  decoder_handle;
        RocDecoderCreateInfo* decoder_create_info;
    } rocDecCreateDecoder;
    struct
    {
        rocDecDecoderHandle decoder_handle;
    } rocDecDestroyDecoder;
    struct
    {
        RocdecDecodeCaps* decode_caps;
    } rocDecGetDecoderCaps;
    struct
    {
        rocDecDecoderHandle decoder_handle;
        RocdecPicParams*    pic_params;
    } rocDecDecodeFrame;
    struct
    {
        rocDecDecoderHandle decoder_handle;
        int                 pic_idx;
        RocdecDecodeStatus* decode_status;
    } rocDecGetDecodeStatus;
    struct
    {
        rocDecDecoderHandle           decoder_handle;
        RocdecReconfigureDecoderInfo* reconfig_params;
    } rocDecReconfigureDecoder;
    struct
    {
        rocDecDecoderHandle decoder_handle;
        int                 pic_idx;
        void**              dev_mem_ptr;
        uint32_t*           horizontal_pitch;
        RocdecProcParams*   vid_postproc_params;
    } rocDecGetVideoFrame;
    struct
    {
        rocDecStatus rocdec_status;
    } rocDecGetErrorName;
    struct
    {
        RocdecBitstreamReader* bs_reader_handle;
        const char*            input_file_path;
    } rocDecCreateBitstreamReader;
    struct
    {
        RocdecBitstreamReader bs_reader_handle;
        rocDecVideoCodec*     codec_type;
    } rocDecGetBitstreamCodecType;
    struct
    {
        RocdecBitstreamReader bs_reader_handle;
        int*                  bit_depth;
    } rocDecGetBitstreamBitDepth;
    struct
    {
        RocdecBitstreamReader bs_reader_handle;
        uint8_t**             pic_data;
        int*                  pic_size;
        int64_t*              pts;
    } rocDecGetBitstreamPicData;
    struct
    {
        RocdecBitstreamReader bs_reader_handle;
    } rocDecDestroyBitstreamReader;
} rocprofiler_rocdecode_api_args_t;

ROCPROFILER_EXTERN_C_FINI
