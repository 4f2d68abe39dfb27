/* The C side of api_args_tool.cpp: the argument unions read by member from C99 (-pedantic
 * -Werror), as a C tool written for AMD's rocprofiler-sdk reads them; linked into the same
 * program, which calls it. */
#include <rocprofiler-sdk/callback_tracing.h>

#include <stddef.h>
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
    rocprofiler_hip_dim3_t                            grid;
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

    /* HIP members of every kind of parameter: dim3 through a pointer (rocprofiler_dim3_t here),
     * structures by value, enumerations, graph and memory-pool handles, OpenGL names. */
    grid.x                                     = 2;
    grid.y                                     = 3;
    grid.z                                     = 4;
    hip.args.__hipPopCallConfiguration.gridDim = &grid;
    if(hip.args.__hipPopCallConfiguration.gridDim->y != 3) ++failures;
    hip.args.hipMalloc3D.extent.depth = 7;
    if(hip.args.hipMalloc3D.extent.depth != 7) ++failures;
    hip.args.hipIpcOpenMemHandle.handle.reserved[63] = 5;
    if(hip.args.hipIpcOpenMemHandle.handle.reserved[63] != 5) ++failures;
    hip.args.hipTexRefSetAddressMode.am = 2;
    if(hip.args.hipTexRefSetAddressMode.am != 2) ++failures;
    hip.args.hipGraphLaunch.graphExec = NULL;
    if(hip.args.hipGraphLaunch.graphExec != NULL) ++failures;
    hip.args.hipMemPoolTrimTo.min_bytes_to_hold = 64;
    if(hip.args.hipMemPoolTrimTo.min_bytes_to_hold != 64) ++failures;
    hip.args.hipGraphicsGLRegisterBuffer.buffer = 9u;
    if(hip.args.hipGraphicsGLRegisterBuffer.buffer != 9u) ++failures;

    return failures;
}
