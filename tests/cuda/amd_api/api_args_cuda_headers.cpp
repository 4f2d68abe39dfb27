// The HIP argument union in a tool that also includes CUDA's headers (cuda_runtime.h, cupti.h),
// as this SDK's CUDA backend and tools for it do: CUDA's dim3 and the HIP members that take
// HIP's dim3 (through pointers) must not clash, whichever header comes first. The other half,
// api_args_cuda_headers_c.c, includes ours first, from C.
#include <cuda_runtime.h>
#include <cupti.h>

#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/hip/api_args.h>

#include <cstdint>
#include <cstdio>
#include <type_traits>

static_assert(!std::is_same<rocprofiler_hip_dim3_t, dim3>::value, "CUDA's dim3 is not HIP's");
static_assert(std::is_same<rocprofiler_hip_dim3_t, rocprofiler_dim3_t>::value, "HIP dim3");

extern "C" int api_args_cuda_headers_c(void);

int
main()
{
    // CUDA's dim3 still is CUDA's (its constructor), beside the HIP member.
    dim3                                        cuda_grid(7);
    rocprofiler_dim3_t                          hip_grid = {2, 3, 4};
    rocprofiler_callback_tracing_hip_api_data_t data{};
    data.args.__hipPopCallConfiguration.gridDim = &hip_grid;
    int failures                                = 0;
    if(cuda_grid.x != 7 || cuda_grid.y != 1) ++failures;
    if(data.args.__hipPopCallConfiguration.gridDim->z != 4) ++failures;
    failures += api_args_cuda_headers_c();
    if(failures != 0) std::fprintf(stderr, "%d failure(s)\n", failures);
    return failures == 0 ? 0 : 1;
}
