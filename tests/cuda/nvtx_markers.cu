// NVTX calls of a CUDA program, traced as marker records by the SDK's NVTX injection
// (run_nvtx_test.sh checks the records). Built with nvcc, it launches a kernel inside the nested
// ranges twice: once before cudaProfilerStart and once between it and cudaProfilerStop (the
// profiler controls; rocprofv3 --selected-regions traces only the second); built as C++
// (nvtx_markers_host.cpp includes this file), it has no kernel and runs without a GPU. It writes
// nothing itself.
#include <nvtx3/nvToolsExt.h>

#if defined(__CUDACC__)
#    include "cuda_check.hpp"

#    include <cuda_profiler_api.h>
#    include <cuda_runtime.h>

namespace
{
__global__ void
fill(int* out, int value)
{
    out[threadIdx.x] = value;
}

void
work()
{
    int* buffer = nullptr;
    CHECK(cudaMalloc(&buffer, 32 * sizeof(int)));
    fill<<<1, 32>>>(buffer, 7);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStart());
    fill<<<1, 32>>>(buffer, 8);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaProfilerStop());
    CHECK(cudaFree(buffer));
}
} // namespace
#else
namespace
{
void
work()
{
}
} // namespace
#endif

int
main()
{
    nvtxNameOsThreadA(0, "main thread");
    nvtxMarkA("start");
    nvtxRangePushA("outer");
    nvtxRangePushA("inner");
    work();
    nvtxRangePop();
    nvtxRangePop();
    nvtxMarkW(L"wide \u00e9");

    const nvtxRangeId_t id = nvtxRangeStartA("started");
    nvtxRangeEnd(id);

    nvtxDomainHandle_t    domain     = nvtxDomainCreateA("nvtx-test");
    nvtxStringHandle_t    registered = nvtxDomainRegisterStringA(domain, "registered");
    nvtxEventAttributes_t attr       = {};
    attr.version                     = NVTX_VERSION;
    attr.size                        = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
    attr.messageType                 = NVTX_MESSAGE_TYPE_REGISTERED;
    attr.message.registered          = registered;
    nvtxDomainRangePushEx(domain, &attr);
    nvtxDomainRangePop(domain);
    nvtxDomainDestroy(domain);
    return 0;
}
