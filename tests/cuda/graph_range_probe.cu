// How CUPTI's range profiler sees a CUDA graph launch: the fact that decides whether the kernel
// nodes of a graph can be counted one by one (docs/cuda.md, "CUDA graph kernels"). No SDK in the
// process: CUPTI's range profiler directly, on the primary context, counting
// smsp__warps_launched.sum (warps launched, known from each grid), user replay, one session each:
//   auto_plain  auto ranges (CUPTI's range per kernel) over two plain launches: the control
//   auto_chain  auto ranges over one launch of a graph of three kernels captured from a stream
//   auto_fork   auto ranges over one launch of a graph of two independent kernels
//   user_chain  one user range around each of two launches of the three-kernel graph
// Each session runs on a freshly enabled range profiler and prints every range (index, name,
// warps) and one PROBE line, `PROBE mode=<m> ranges=<n> dropped=<d> warps=<w0,...> names=<...>`,
// or `PROBE mode=<m> error=<the failing call and CUPTI's message>`, then what one range per kernel
// node or per launch would give (EXPECT). Exits 0 when the set-up ran (what each session found is
// reported, not judged: run_graph_range_probe.sh reads it), 1 when the set-up failed.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "cupti_range_session.hpp"

namespace
{
__global__ void
probe_kernel(int* sink)
{
    if(threadIdx.x == 0 && sink != nullptr) atomicAdd(sink, 1);
}

std::string last_error; // the failure that ended the current session

bool
cuda_ok(cudaError_t rc, const char* call)
{
    if(rc == cudaSuccess) return true;
    std::fprintf(stderr, "graph_range_probe: %s: %s\n", call, cudaGetErrorString(rc));
    last_error = std::string{call} + ": " + cudaGetErrorString(rc);
    return false;
}

#define CUDA_OK(CALL)                                                                              \
    if(!cuda_ok((CALL), #CALL)) return false

const char* const metric          = "smsp__warps_launched.sum";
constexpr int     warps_per_block = 2; // 64 threads

// One session in `mode` on a freshly enabled range profiler: `work` runs between Start and Stop
// (it pushes and pops user ranges itself in user mode); then every range is printed. A failed step
// leaves its message in last_error and the profiler enabled (the caller disables it).
template <typename Work>
bool
session(CUcontext                       ctx,
        const cupti_range::host_config& host,
        cupti_range::session&           s,
        CUpti_ProfilerRange             mode,
        const char*                     label,
        Work&&                          work,
        const char*                     expect)
{
    if(!cupti_range::start(ctx, host, mode, 64, s, last_error)) return false;
    if(!work()) return false;
    CUDA_OK(cudaDeviceSynchronize());
    auto measured = cupti_range::measured{};
    if(!cupti_range::stop_and_read(host, s, measured, last_error)) return false;
    auto warps_list = std::string{}, name_list = std::string{};
    for(size_t r = 0; r < measured.ranges.size(); ++r)
    {
        const auto& range = measured.ranges[r];
        std::printf("range mode=%s index=%zu name=%s warps=%.0f\n",
                    label,
                    r,
                    range.name.c_str(),
                    range.value);
        warps_list += (r ? "," : "") + std::to_string(static_cast<long long>(range.value));
        name_list += (r ? "|" : "") + range.name;
    }
    std::printf("PROBE mode=%s ranges=%zu dropped=%zu warps=%s names=%s\n",
                label,
                measured.ranges.size(),
                measured.dropped,
                warps_list.c_str(),
                name_list.c_str());
    std::printf("EXPECT mode=%s %s\n", label, expect);
    return cupti_range::disable(s, last_error);
}

bool
launch(cudaStream_t stream, int blocks, int* sink)
{
    probe_kernel<<<blocks, warps_per_block * 32, 0, stream>>>(sink);
    return cuda_ok(cudaGetLastError(), "probe_kernel<<<>>>");
}

bool
run()
{
    CUDA_OK(cudaSetDevice(0));
    CUDA_OK(cudaFree(nullptr)); // the primary context
    auto ctx = CUcontext{};
    if(cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || ctx == nullptr) return false;
    int* sink = nullptr;
    CUDA_OK(cudaMalloc(&sink, sizeof(int)));
    auto stream = cudaStream_t{};
    CUDA_OK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));

    // A chain of three kernels of 3, 5 and 7 blocks (6, 10 and 14 warps).
    auto chain = cudaGraph_t{};
    CUDA_OK(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    for(int blocks : {3, 5, 7})
        if(!launch(stream, blocks, sink)) return false;
    CUDA_OK(cudaStreamEndCapture(stream, &chain));
    auto chain_exec = cudaGraphExec_t{};
    CUDA_OK(cudaGraphInstantiate(&chain_exec, chain, 0));

    // Two independent kernels of 11 and 13 blocks (22 and 26 warps): no order between them.
    auto fork = cudaGraph_t{};
    CUDA_OK(cudaGraphCreate(&fork, 0));
    for(int blocks : {11, 13})
    {
        void* args[]        = {&sink};
        auto  params        = cudaKernelNodeParams{};
        params.func         = reinterpret_cast<void*>(probe_kernel);
        params.gridDim      = dim3(blocks);
        params.blockDim     = dim3(warps_per_block * 32);
        params.kernelParams = args;
        auto node           = cudaGraphNode_t{};
        CUDA_OK(cudaGraphAddKernelNode(&node, fork, nullptr, 0, &params));
    }
    auto fork_exec = cudaGraphExec_t{};
    CUDA_OK(cudaGraphInstantiate(&fork_exec, fork, 0));
    CUDA_OK(cudaDeviceSynchronize());

    auto host = cupti_range::host_config{};
    if(!cupti_range::open_host(ctx, metric, host, last_error))
    {
        std::fprintf(stderr, "graph_range_probe: %s\n", last_error.c_str());
        return false;
    }
    auto s    = cupti_range::session{};
    auto push = [&s](const char* name) { return cupti_range::push_range(s, name, last_error); };
    auto pop  = [&s] { return cupti_range::pop_range(s, last_error); };
    // Each session on its own: one that fails is reported (PROBE ... error=) and the next runs on
    // a freshly enabled profiler.
    auto run_session =
        [&](CUpti_ProfilerRange mode, const char* label, auto&& work, const char* expect)
    {
        last_error.clear();
        if(session(ctx, host, s, mode, label, work, expect)) return;
        std::printf("PROBE mode=%s error=%s\n", label, last_error.c_str());
        auto ignored = std::string{};
        cupti_range::disable(s, ignored);
        cudaDeviceSynchronize();
    };
    // Control: auto ranges over two plain launches of 1 and 3 blocks.
    run_session(
        CUPTI_AutoRange,
        "auto_plain",
        [&] { return launch(stream, 1, sink) && launch(stream, 3, sink); },
        "ranges=2 warps=2,6");
    // The three-kernel chain, launched once.
    run_session(
        CUPTI_AutoRange,
        "auto_chain",
        [&] { return cuda_ok(cudaGraphLaunch(chain_exec, stream), "cudaGraphLaunch"); },
        "per_node=6,10,14 per_launch=30");
    // The two independent kernels, launched once.
    run_session(
        CUPTI_AutoRange,
        "auto_fork",
        [&] { return cuda_ok(cudaGraphLaunch(fork_exec, stream), "cudaGraphLaunch"); },
        "per_node=22,26 (either order) per_launch=48");
    // A user range around each of two launches of the chain.
    run_session(
        CUPTI_UserRange,
        "user_chain",
        [&]
        {
            for(const char* name : {"first", "second"})
            {
                if(!push(name)) return false;
                if(!cuda_ok(cudaGraphLaunch(chain_exec, stream), "cudaGraphLaunch")) return false;
                if(!pop()) return false;
            }
            return true;
        },
        "ranges=2 warps=30,30");
    return true;
}
} // namespace

int
main()
{
    const bool ok = run();
    std::printf("RESULT graph_range_probe_ran=%d\n", ok ? 1 : 0);
    return ok ? 0 : 1;
}
