// A CUDA driver-API program linked against libcuda: it calls cuLaunchKernel itself (parameter
// array and `extra` buffer forms) and cuLaunchKernelEx, on a non-idempotent kernel, and checks
// that each launch added exactly one. Usage: driver_program <kernels.cubin>
#include <cuda.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(CALL)                                                                                \
    do                                                                                             \
    {                                                                                              \
        CUresult res_ = (CALL);                                                                    \
        if(res_ != CUDA_SUCCESS)                                                                   \
        {                                                                                          \
            const char* name_ = nullptr;                                                           \
            cuGetErrorName(res_, &name_);                                                          \
            std::fprintf(                                                                          \
                stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #CALL, name_ ? name_ : "?");        \
            std::exit(2);                                                                          \
        }                                                                                          \
    } while(0)

int
main(int argc, char** argv)
{
    if(argc < 2)
    {
        std::fprintf(stderr, "usage: %s <kernels.cubin>\n", argv[0]);
        return 2;
    }
    CHECK(cuInit(0));
    CUdevice  dev = 0;
    CUcontext ctx = nullptr;
    CHECK(cuDeviceGet(&dev, 0));
    CHECK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CHECK(cuCtxSetCurrent(ctx));
    CUmodule   mod  = nullptr;
    CUfunction func = nullptr;
    CHECK(cuModuleLoad(&mod, argv[1]));
    CHECK(cuModuleGetFunction(&func, mod, "increment"));

    int         n = 1 << 20;
    CUdeviceptr a = 0;
    CHECK(cuMemAlloc(&a, n * sizeof(int)));
    CHECK(cuMemsetD32(a, 100, n));
    const unsigned blocks = (n + 255) / 256;

    void* params[] = {&a, &n};
    CHECK(cuLaunchKernel(func, blocks, 1, 1, 256, 1, 1, 0, nullptr, params, nullptr)); // 101

    // The parameter buffer in the kernel's layout: the pointer at 0, the int at 8; 12 bytes.
    alignas(8) unsigned char buffer[12] = {};
    std::memcpy(buffer, &a, sizeof(a));
    std::memcpy(buffer + 8, &n, sizeof(n));
    size_t buffer_size = sizeof(buffer);
    void*  extra[]     = {CU_LAUNCH_PARAM_BUFFER_POINTER,
                          buffer,
                          CU_LAUNCH_PARAM_BUFFER_SIZE,
                          &buffer_size,
                          CU_LAUNCH_PARAM_END};
    CHECK(cuLaunchKernel(func, blocks, 1, 1, 256, 1, 1, 0, nullptr, nullptr, extra)); // 102

    CUlaunchConfig config = {};
    config.gridDimX = blocks, config.gridDimY = 1, config.gridDimZ = 1;
    config.blockDimX = 256, config.blockDimY = 1, config.blockDimZ = 1;
    CHECK(cuLaunchKernelEx(&config, func, params, nullptr)); // 103
    CHECK(cuCtxSynchronize());

    auto host = std::vector<int>(n);
    CHECK(cuMemcpyDtoH(host.data(), a, n * sizeof(int)));
    auto wrong = 0;
    for(int v : host)
        if(v != 103) ++wrong;
    std::printf("driver_program: a[0]=%d (expect 103) wrong=%d\n", host[0], wrong);
    CHECK(cuMemFree(a));
    CHECK(cuModuleUnload(mod));
    CHECK(cuDevicePrimaryCtxRelease(dev));
    return wrong == 0 ? 0 : 1;
}
