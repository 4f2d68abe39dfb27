/* Arguments and return values of the rocJPEG functions (ROCJPEG_API), one union member per
 * function, as rocprofiler-sdk's callback record declares them. rocJPEG does not run here: no
 * record of this kind is delivered; the declarations let tools written for rocprofiler-sdk
 * compile. All members are declared, with rocJPEG's types: a tool that includes rocJPEG's header
 * (rocjpeg/rocjpeg.h) before this one gets them; otherwise the stand-ins below name the handles
 * (void*), the enumerations (32-bit) and the structures (incomplete: named through pointers
 * only), with rocJPEG's sizes. */
#pragma once

#include <rocprofiler-sdk/defines.h>

#include <stddef.h>
#include <stdint.h>

/* 1 when rocJPEG's own header provides the types (detected when it was included first); 0 when
 * the stand-ins below do. */
#if !defined(ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG)
#    if defined(ROC_JPEG_H)
#        define ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG 1
#    else
#        define ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG 0
#    endif
#endif

#if ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG > 0
#    if !defined(ROC_JPEG_H)
#        error "ROCPROFILER_SDK_USE_SYSTEM_ROCJPEG: include rocJPEG's header first"
#    endif
#else
typedef void*                                      RocJpegStreamHandle;
typedef void*                                      RocJpegHandle;
typedef int32_t                                    RocJpegStatus;            /* enumeration */
typedef int32_t                                    RocJpegBackend;           /* enumeration */
typedef int32_t                                    RocJpegChromaSubsampling; /* enumeration */
typedef struct rocprofiler_rocjpeg_decode_params_s RocJpegDecodeParams;
typedef struct rocprofiler_rocjpeg_image_s         RocJpegImage;
#endif

ROCPROFILER_EXTERN_C_INIT

/** @brief Member for a function without arguments (1 byte in C and C++ alike). */
typedef struct rocprofiler_rocjpeg_api_no_args
{
    char empty;
} rocprofiler_rocjpeg_api_no_args;

/** @brief Return value of a rocJPEG function (the member named after its type). */
typedef union rocprofiler_rocjpeg_api_retval_t
{
    int32_t     rocJpegStatus_retval;
    const char* const_charp_retval; /**< rocJpegGetErrorName */
} rocprofiler_rocjpeg_api_retval_t;

/** @brief Arguments of a rocJPEG function, one member per function. */
typedef union rocprofiler_rocjpeg_api_args_t
{
    struct
    {
        RocJpegStreamHandle* jpeg_stream_handle;
    } rocJpegStreamCreate;
    struct
    {
        const unsigned char* data;
        size_t               length;
        RocJpegStreamHandle  jpeg_stream_handle;
    } rocJpegStreamParse;
    struct
    {
        RocJpegStreamHandle jpeg_stream_handle;
    } rocJpegStreamDestroy;
    struct
    {
        RocJpegBackend backend;
        int            device_id;
        RocJpegHandle* handle;
    } rocJpegCreate;
    struct
    {
        RocJpegHandle handle;
    } rocJpegDestroy;
    struct
    {
        RocJpegHandle             handle;
        RocJpegStreamHandle       jpeg_stream_handle;
        uint8_t*                  num_components;
        RocJpegChromaSubsampling* subsampling;
        uint32_t*                 widths;
        uint32_t*                 heights;
    } rocJpegGetImageInfo;
    struct
    {
        RocJpegHandle              handle;
        RocJpegStreamHandle        jpeg_stream_handle;
        const RocJpegDecodeParams* decode_params;
        RocJpegImage*              destination;
    } rocJpegDecode;
    struct
    {
        RocJpegHandle              handle;
        RocJpegStreamHandle*       jpeg_stream_handles;
        int                        batch_size;
        const RocJpegDecodeParams* decode_params;
        RocJpegImage*              destinations;
    } rocJpegDecodeBatched;
    struct
    {
        RocJpegStatus rocjpeg_status;
    } rocJpegGetErrorName;
} rocprofiler_rocjpeg_api_args_t;

ROCPROFILER_EXTERN_C_FINI
