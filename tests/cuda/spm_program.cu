// The SPM GPU test's program: one kernel of a fixed amount of work (a dependent arithmetic loop,
// several milliseconds), launched 6 times with a wait after each, then the result checked. Every
// launch executes the same instructions, so one launch's sampled total and another's counted total
// of an instruction count must agree (spm_tool_cuda.cpp).
#include <cuda_runtime.h>

#include <cstdio>

__global__ void
fixed_work(float* out, int iterations)
{
    float x = static_cast<float>(threadIdx.x);
#pragma unroll 1
    for(int i = 0; i < iterations; ++i)
        x = x * 0.999f + 0.5f;
    out[blockIdx.x * blockDim.x + threadIdx.x] = x;
}

int
main()
{
    constexpr int blocks = 528, threads = 256, launches = 6;
    float*        out = nullptr;
    if(cudaMalloc(&out, sizeof(float) * blocks * threads) != cudaSuccess) return 1;
    for(int i = 0; i < launches; ++i)
    {
        fixed_work<<<blocks, threads>>>(out, 1 << 16);
        if(cudaDeviceSynchronize() != cudaSuccess) return 1;
    }
    float first = 0;
    cudaMemcpy(&first, out, sizeof(first), cudaMemcpyDeviceToHost);
    cudaFree(out);
    // x converges to 500 from below: a finite value near it means the kernel ran.
    const bool ok = first > 400.0f && first < 501.0f;
    std::printf(
        "RESULT spm_program launches=%d first=%g %s\n", launches, first, ok ? "ok" : "WRONG");
    return ok ? 0 : 1;
}
