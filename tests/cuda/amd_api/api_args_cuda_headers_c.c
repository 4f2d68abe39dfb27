/* The C half of api_args_cuda_headers.cpp: our headers first, then CUDA's. */
#include <rocprofiler-sdk/callback_tracing.h>

#include <cuda_runtime.h>

#include <string.h>

int api_args_cuda_headers_c(void);

int
api_args_cuda_headers_c(void)
{
    rocprofiler_callback_tracing_hip_api_data_t data;
    rocprofiler_hip_dim3_t                      hip_block = {64, 1, 1};
    dim3                                        cuda_block;
    int                                         failures = 0;
    memset(&data, 0, sizeof(data));
    cuda_block.x                                 = 32;
    data.args.__hipPopCallConfiguration.blockDim = &hip_block;
    if(data.args.__hipPopCallConfiguration.blockDim->x != 64) ++failures;
    if(cuda_block.x != 32) ++failures;
    return failures;
}
