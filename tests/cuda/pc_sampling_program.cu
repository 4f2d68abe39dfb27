// The PC sampling GPU test's program: one kernel whose time is spent in a short dependent loop
// (a few instructions), launched a few times, then the result checked. The tool
// (pc_sampling_tool_cuda.cpp) must find most samples on a handful of PCs: the loop's.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void
hot_loop(float* out, int iterations)
{
    float x = static_cast<float>(threadIdx.x);
    // Not unrolled: the loop must stay a few instructions for "a handful of PCs" to hold.
#pragma unroll 1
    for(int i = 0; i < iterations; ++i)
        x = x * 0.999f + 0.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int
main()
{
    constexpr int blocks = 264, threads = 256, launches = 3;
    float*        out = nullptr;
    if(cudaMalloc(&out, sizeof(float) * blocks * threads) != cudaSuccess) return 1;
    for(int i = 0; i < launches; ++i)
        hot_loop<<<blocks, threads>>>(out, 1 << 20);
    if(cudaDeviceSynchronize() != cudaSuccess) return 1;
    float first = 0;
    cudaMemcpy(&first, out, sizeof(first), cudaMemcpyDeviceToHost);
    cudaFree(out);
    std::printf("RESULT pc_sampling_program launches=%d first=%g\n", launches, first);
    return 0;
}
