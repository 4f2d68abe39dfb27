// Kernel-replay benchmark of the CUDA backend (not a test: it prints numbers, run_replay_bench.sh
// turns them into ratios). Modes:
//   restore <bytes>  times cuMemcpyDtoD of <bytes> (the plain D2D copy), then launches a kernel
//                    over a <bytes> buffer 5 times (under replay the SDK snapshots and restores it;
//                    its [cuda-timing] line gives the restore times)
//   verify <bytes>   a kernel that writes 4 KiB, launched 6 times, beside <bytes> of other tracked
//                    memory that the SDK hashes around each pass (the [cuda-replay-memory] line's
//                    hash_* fields give the hash kernel's throughput)
//   fixed <iters>    median host time of (launch of a tiny kernel + cuStreamSynchronize) and of a
//                    4 KiB cuMemcpyDtoDAsync + sync, over a 4 KiB working set
//   launch <count>   <count> empty kernels back to back on one stream: host time per launch
//   many <count> [iters]  like fixed (the kernel touches 4 KiB), with <count> tracked 64 KiB
//                    allocations on the device: the snapshot and restore copy them all
// Prints "BENCH key=value" lines.
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#define CHECK_CU(CALL)                                                                             \
    do                                                                                             \
    {                                                                                              \
        CUresult r_ = (CALL);                                                                      \
        if(r_ != CUDA_SUCCESS)                                                                     \
        {                                                                                          \
            std::fprintf(stderr, "%s:%d: %s: CUresult %d\n", __FILE__, __LINE__, #CALL, r_);       \
            std::exit(2);                                                                          \
        }                                                                                          \
    } while(0)

__global__ void
touch(unsigned* a, size_t n)
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i < n) a[i] += 1u;
}

__global__ void
empty_kernel()
{
}

double
now_us()
{
    return std::chrono::duration<double, std::micro>(
               std::chrono::steady_clock::now().time_since_epoch())
        .count();
}

double
median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

int
main(int argc, char** argv)
{
    if(argc < 3)
    {
        std::fprintf(stderr, "usage: %s <restore|verify|fixed|many|launch> <n>\n", argv[0]);
        return 2;
    }
    const std::string mode = argv[1];
    const auto        n    = std::strtoull(argv[2], nullptr, 10);
    CHECK(cudaFree(nullptr));
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    if(mode == "restore")
    {
        const size_t bytes = n;
        unsigned *   src = nullptr, *dst = nullptr;
        CHECK(cudaMalloc(&src, bytes));
        CHECK(cudaMalloc(&dst, bytes));
        CHECK(cudaMemset(src, 1, bytes));
        CHECK(cudaMemset(dst, 0, bytes));
        CHECK(cudaDeviceSynchronize());
        cudaEvent_t e0 = nullptr, e1 = nullptr;
        CHECK(cudaEventCreate(&e0));
        CHECK(cudaEventCreate(&e1));
        auto ms = std::vector<double>{};
        for(int k = 0; k < 12; ++k)
        {
            CHECK(cudaEventRecord(e0, 0));
            CHECK_CU(cuMemcpyDtoD(
                reinterpret_cast<CUdeviceptr>(dst), reinterpret_cast<CUdeviceptr>(src), bytes));
            CHECK(cudaEventRecord(e1, 0));
            CHECK(cudaEventSynchronize(e1));
            float t = 0;
            CHECK(cudaEventElapsedTime(&t, e0, e1));
            if(k >= 2) ms.push_back(t);
        }
        const double d2d_us = median(ms) * 1e3;
        std::printf("BENCH d2d_bytes=%zu d2d_us_median=%.1f d2d_gbps=%.1f\n",
                    bytes,
                    d2d_us,
                    static_cast<double>(bytes) / d2d_us / 1e3);
        CHECK(cudaFree(dst)); // only src stays tracked: the snapshot is <bytes>
        const size_t words = bytes / sizeof(unsigned);
        auto         host  = std::vector<double>{};
        for(int k = 0; k < 5; ++k)
        {
            const double t0 = now_us();
            touch<<<static_cast<unsigned>((words + 255) / 256), 256, 0, stream>>>(src, words);
            CHECK(cudaStreamSynchronize(stream));
            host.push_back(now_us() - t0);
        }
        unsigned first = 0;
        CHECK(cudaMemcpy(&first, src, sizeof(first), cudaMemcpyDeviceToHost));
        std::printf("BENCH restore_dispatch_us_median=%.1f src0=0x%08x\n", median(host), first);
        CHECK(cudaFree(src));
    }
    else if(mode == "verify")
    {
        // A kernel that writes 4 KiB while n bytes of other tracked memory must be verified: the
        // SDK hashes them before pass 0 and after every pass another follows ([cuda-replay-memory]
        // hash_* fields).
        const size_t bytes = n;
        unsigned *   big = nullptr, *small = nullptr;
        CHECK(cudaMalloc(&big, bytes));
        CHECK(cudaMalloc(&small, 4096));
        CHECK(cudaMemset(big, 1, bytes));
        CHECK(cudaMemset(small, 0, 4096));
        CHECK(cudaDeviceSynchronize());
        auto host = std::vector<double>{};
        for(int k = 0; k < 6; ++k)
        {
            const double t0 = now_us();
            touch<<<4, 256, 0, stream>>>(small, 1024);
            CHECK(cudaStreamSynchronize(stream));
            host.push_back(now_us() - t0);
        }
        std::printf("BENCH verify_bytes=%zu verify_dispatch_us_median=%.1f\n", bytes, median(host));
        CHECK(cudaFree(big));
        CHECK(cudaFree(small));
    }
    else if(mode == "fixed")
    {
        constexpr size_t words = 1024; // 4 KiB
        unsigned *       a = nullptr, *b = nullptr;
        CHECK(cudaMalloc(&a, words * sizeof(unsigned)));
        CHECK(cudaMalloc(&b, words * sizeof(unsigned)));
        CHECK(cudaMemset(a, 0, words * sizeof(unsigned)));
        CHECK(cudaDeviceSynchronize());
        auto disp = std::vector<double>{}, copy = std::vector<double>{};
        for(unsigned long long k = 0; k < n + 10; ++k)
        {
            const double t0 = now_us();
            touch<<<4, 256, 0, stream>>>(a, words);
            CHECK(cudaStreamSynchronize(stream));
            const double t1 = now_us();
            CHECK_CU(cuMemcpyDtoDAsync(reinterpret_cast<CUdeviceptr>(b),
                                       reinterpret_cast<CUdeviceptr>(a),
                                       words * sizeof(unsigned),
                                       reinterpret_cast<CUstream>(stream)));
            CHECK(cudaStreamSynchronize(stream));
            const double t2 = now_us();
            if(k >= 10)
            {
                disp.push_back(t1 - t0);
                copy.push_back(t2 - t1);
            }
        }
        unsigned first = 0;
        CHECK(cudaMemcpy(&first, a, sizeof(first), cudaMemcpyDeviceToHost));
        std::printf("BENCH fixed_iters=%llu dispatch_us_median=%.2f copy_us_median=%.2f a0=%u\n",
                    n,
                    median(disp),
                    median(copy),
                    first);
    }
    else if(mode == "many")
    {
        constexpr size_t words = 16384; // 64 KiB per allocation
        const auto       iters = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : 200ULL;
        auto             bufs  = std::vector<unsigned*>(n, nullptr);
        for(auto& b : bufs)
        {
            CHECK(cudaMalloc(&b, words * sizeof(unsigned)));
            CHECK(cudaMemset(b, 0, words * sizeof(unsigned)));
        }
        CHECK(cudaDeviceSynchronize());
        auto disp = std::vector<double>{};
        for(unsigned long long k = 0; k < iters + 10; ++k)
        {
            const double t0 = now_us();
            touch<<<4, 256, 0, stream>>>(bufs[0], 1024);
            CHECK(cudaStreamSynchronize(stream));
            if(k >= 10) disp.push_back(now_us() - t0);
        }
        unsigned first = 0;
        CHECK(cudaMemcpy(&first, bufs[0], sizeof(first), cudaMemcpyDeviceToHost));
        for(auto* b : bufs)
            CHECK(cudaFree(b));
        std::printf(
            "BENCH many_allocs=%llu many_dispatch_us_median=%.2f a0=%u\n", n, median(disp), first);
    }
    else if(mode == "launch")
    {
        for(int k = 0; k < 100; ++k)
            empty_kernel<<<1, 32, 0, stream>>>();
        CHECK(cudaStreamSynchronize(stream));
        const double t0 = now_us();
        for(unsigned long long k = 0; k < n; ++k)
            empty_kernel<<<1, 32, 0, stream>>>();
        const double t1 = now_us();
        CHECK(cudaStreamSynchronize(stream));
        const double t2 = now_us();
        CHECK(cudaGetLastError());
        std::printf("BENCH launches=%llu launch_us_per=%.3f with_sync_us_per=%.3f\n",
                    n,
                    (t1 - t0) / static_cast<double>(n),
                    (t2 - t0) / static_cast<double>(n));
    }
    CHECK(cudaStreamDestroy(stream));
    return 0;
}
