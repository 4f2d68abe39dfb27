// CUDA graph kernels in the trace: one plain launch, then three kernels captured from a stream
// (cudaStreamCaptureModeGlobal) into a graph launched twice. Prints the result check and what the
// trace must hold (GRAPH_EXPECT lines, read by run_graph_test.sh).
#include "cuda_check.hpp"

#include <cstdio>
#include <vector>

__global__ void
graph_plain(float* x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) x[i] = 1.0f;
}

__global__ void
graph_add(float* x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) x[i] += 1.0f;
}

__global__ void
graph_scale(float* x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) x[i] *= 2.0f;
}

__global__ void
graph_sub(float* x, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) x[i] -= 1.0f;
}

int
main()
{
    constexpr int n = 1 << 16, block = 256, grid = n / block, launches = 2;
    float*        x = nullptr;
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    auto stream = cudaStream_t{};
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    graph_plain<<<grid, block, 0, stream>>>(x, n);
    CHECK(cudaGetLastError());

    auto graph = cudaGraph_t{};
    CHECK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    graph_add<<<grid, block, 0, stream>>>(x, n);
    graph_scale<<<grid, block, 0, stream>>>(x, n);
    graph_sub<<<grid, block, 0, stream>>>(x, n);
    CHECK(cudaStreamEndCapture(stream, &graph));
    auto exec = cudaGraphExec_t{};
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    for(int i = 0; i < launches; ++i)
        CHECK(cudaGraphLaunch(exec, stream));
    CHECK(cudaStreamSynchronize(stream));

    // 1 -> (1 + 1) * 2 - 1 = 3 -> (3 + 1) * 2 - 1 = 7
    auto host = std::vector<float>(n);
    CHECK(cudaMemcpy(host.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    auto wrong = 0;
    for(auto v : host)
        wrong += v != 7.0f;
    std::printf("RESULT wrong_elements=%d\n", wrong);
    std::printf("GRAPH_EXPECT launches=%d nodes=3 grid=%d block=%d\n", launches, grid, block);
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFree(x));
    return wrong == 0 ? 0 : 1;
}
