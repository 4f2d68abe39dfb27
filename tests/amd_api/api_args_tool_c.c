/* The C side of api_args_tool.cpp: the argument unions read by member from C99 (-pedantic
 * -Werror), as a C tool written for AMD's rocprofiler-sdk reads them; linked into the same
 * program, which calls it. */
#include <rocprofiler-sdk/callback_tracing.h>

#include <stdint.h>
#include <string.h>

int api_args_tool_c(void);

int
api_args_tool_c(void)
{
    rocprofiler_callback_tracing_hsa_api_data_t       hsa;
    rocprofiler_callback_tracing_ompt_data_t          ompt;
    rocprofiler_callback_tracing_rocjpeg_api_data_t   jpeg;
    rocprofiler_callback_tracing_rocdecode_api_data_t dec;
    rocprofiler_callback_tracing_rccl_api_data_t      rccl;
    rocprofiler_callback_tracing_hip_api_data_t       hip;
    int                                               failures = 0;

    memset(&hsa, 0, sizeof(hsa));
    memset(&ompt, 0, sizeof(ompt));
    memset(&jpeg, 0, sizeof(jpeg));
    memset(&dec, 0, sizeof(dec));
    memset(&rccl, 0, sizeof(rccl));
    memset(&hip, 0, sizeof(hip));

    hsa.args.hsa_signal_store_relaxed.signal.handle = 3;
    hsa.args.hsa_signal_store_relaxed.value         = -5;
    if(hsa.args.hsa_signal_store_screlease.value != -5) ++failures;
    hsa.args.hsa_ext_program_finalize.control_directives.required_dim = 2;
    if(hsa.args.hsa_ext_program_finalize.control_directives.required_dim != 2) ++failures;

    ompt.args.device_load.bytes = 64;
    if(ompt.args.device_load.bytes != 64) ++failures;
    ompt.args.callback_functions.ompt_get_num_devices = 0;

    jpeg.args.rocJpegStreamParse.length = 12;
    if(jpeg.args.rocJpegStreamParse.length != 12) ++failures;

    dec.args.rocDecGetVideoFrame.pic_idx = 4;
    if(dec.args.rocDecGetVideoFrame.pic_idx != 4) ++failures;

    rccl.args.ncclSend.count = 8;
    if(rccl.args.ncclSend.count != 8) ++failures;

    hip.args.hipMalloc.size = 256;
    if(hip.args.hipMalloc.size != 256) ++failures;

    return failures;
}
