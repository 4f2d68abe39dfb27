// GPU test program for kernel replay around failures and module globals. Usage:
//   cuda-fault-program fault     a replayable kernel (buf[i] += 1), then a kernel that writes to an
//                                illegal address (a replay candidate: its pointer argument is
//                                tracked), then one more launch. Prints the error names the
//                                application sees: from the faulting launch, the synchronize after
//                                it, the launch after that and its synchronize.
//   cuda-fault-program globals   kernels that increment __device__ counters: one the host resolved
//                                before the launch (cudaMemcpyToSymbol), one it never touched
//                                before. Prints their values after one launch each (1 without
//                                replay, and with replay when module globals are snapshotted).
//   cuda-fault-program stuck     a kernel on one stream that waits for a flag that a kernel on
//                                another stream sets, launched after it (a replayed pass of the
//                                waiting kernel cannot finish before the application's next
//                                launch). The waiting kernel also increments a counter once. Its
//                                wait is bounded (20 s on the device's clock) so that a broken
//                                replay ends, reported as gave_up=1, instead of hanging.
// Prints one "FAULT ...", "GLOBALS ..." or "STUCK ..." line of key=value pairs; exit 0, or 3 when
// the fault mode saw no error at all (the test would be meaningless), 2 on an unexpected failure.
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <string>

#define CHECK(CALL)                                                                                \
    do                                                                                             \
    {                                                                                              \
        cudaError_t err_ = (CALL);                                                                 \
        if(err_ != cudaSuccess)                                                                    \
        {                                                                                          \
            std::fprintf(                                                                          \
                stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #CALL, cudaGetErrorString(err_));   \
            return 2;                                                                              \
        }                                                                                          \
    } while(0)

__global__ void
bump(unsigned* buf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) buf[i] += 1u;
}

// Reads tracked memory, writes an address no allocation has (the null page).
__global__ void
fault_write(const unsigned* good, unsigned long long bad)
{
    if(threadIdx.x == 0) *reinterpret_cast<volatile unsigned*>(bad) = good[0] + 1u;
}

__device__ __forceinline__ unsigned long long
globaltimer_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Waits until *flag is set (or 20 s passed: gave_up = 1), then counter += 1.
__global__ void
wait_for_flag(const volatile unsigned* flag, unsigned* counter, unsigned* gave_up)
{
    if(threadIdx.x != 0 || blockIdx.x != 0) return;
    const unsigned long long start = globaltimer_ns();
    while(*flag == 0u)
    {
        if(globaltimer_ns() - start > 20ull * 1000 * 1000 * 1000)
        {
            *gave_up = 1u;
            break;
        }
        __nanosleep(1000);
    }
    *counter += 1u;
}

__global__ void
set_flag(unsigned* flag)
{
    if(threadIdx.x == 0 && blockIdx.x == 0) atomicExch(flag, 1u);
}

__device__ unsigned resolved_counter = 0; // the host resolves it before the launch
__device__ unsigned lazy_counter     = 0; // the host touches it only after the launch

__global__ void
bump_resolved()
{
    if(threadIdx.x == 0 && blockIdx.x == 0) resolved_counter += 1u;
}

__global__ void
bump_lazy()
{
    if(threadIdx.x == 0 && blockIdx.x == 0) lazy_counter += 1u;
}

namespace
{
int
run_fault()
{
    constexpr int n   = 1024;
    unsigned*     buf = nullptr;
    CHECK(cudaMalloc(&buf, n * sizeof(unsigned)));
    CHECK(cudaMemset(buf, 0, n * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());

    bump<<<(n + 255) / 256, 256>>>(buf, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    unsigned pre = 0;
    CHECK(cudaMemcpy(&pre, buf, sizeof(pre), cudaMemcpyDeviceToHost));

    fault_write<<<1, 32>>>(buf, 0x8ULL);
    const cudaError_t launch = cudaGetLastError();
    const cudaError_t sync   = cudaDeviceSynchronize();
    // The context is broken now: the next launch and synchronize report it too.
    bump<<<(n + 255) / 256, 256>>>(buf, n);
    const cudaError_t post_launch = cudaGetLastError();
    const cudaError_t post_sync   = cudaDeviceSynchronize();

    std::printf("FAULT pre_value=%u launch=%s sync=%s post_launch=%s post_sync=%s\n",
                pre,
                cudaGetErrorName(launch),
                cudaGetErrorName(sync),
                cudaGetErrorName(post_launch),
                cudaGetErrorName(post_sync));
    std::fflush(stdout);
    return (launch == cudaSuccess && sync == cudaSuccess) ? 3 : 0;
}

int
run_globals()
{
    // A tracked allocation as well, so that the device has a snapshot besides the globals.
    unsigned* buf = nullptr;
    CHECK(cudaMalloc(&buf, 256 * sizeof(unsigned)));
    CHECK(cudaMemset(buf, 0, 256 * sizeof(unsigned)));
    const unsigned zero = 0;
    CHECK(cudaMemcpyToSymbol(resolved_counter, &zero, sizeof(zero)));
    CHECK(cudaDeviceSynchronize());

    bump_resolved<<<1, 32>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    bump_lazy<<<1, 32>>>();
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    unsigned resolved = 0, lazy = 0;
    CHECK(cudaMemcpyFromSymbol(&resolved, resolved_counter, sizeof(resolved)));
    CHECK(cudaMemcpyFromSymbol(&lazy, lazy_counter, sizeof(lazy)));
    CHECK(cudaFree(buf));
    std::printf("GLOBALS resolved=%u lazy=%u\n", resolved, lazy);
    return 0;
}

int
run_stuck()
{
    unsigned* words = nullptr; // flag, counter, gave_up
    CHECK(cudaMalloc(&words, 3 * sizeof(unsigned)));
    CHECK(cudaMemset(words, 0, 3 * sizeof(unsigned)));
    CHECK(cudaDeviceSynchronize());
    // Both kernels loaded before the first launch: with lazy module loading (CUDA's default) the
    // launch of set_flag would load its module, which waits for the running wait_for_flag.
    cudaFuncAttributes attributes = {};
    CHECK(cudaFuncGetAttributes(&attributes, wait_for_flag));
    CHECK(cudaFuncGetAttributes(&attributes, set_flag));
    cudaStream_t waiter = nullptr, producer = nullptr;
    CHECK(cudaStreamCreateWithFlags(&waiter, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&producer, cudaStreamNonBlocking));

    wait_for_flag<<<1, 32, 0, waiter>>>(words, words + 1, words + 2);
    CHECK(cudaGetLastError());
    set_flag<<<1, 32, 0, producer>>>(words);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());

    unsigned host[3] = {};
    CHECK(cudaMemcpy(host, words, sizeof(host), cudaMemcpyDeviceToHost));
    CHECK(cudaStreamDestroy(waiter));
    CHECK(cudaStreamDestroy(producer));
    CHECK(cudaFree(words));
    std::printf("STUCK flag=%u counter=%u gave_up=%u\n", host[0], host[1], host[2]);
    return 0;
}
} // namespace

int
main(int argc, char** argv)
{
    const std::string mode = argc > 1 ? argv[1] : "";
    if(mode == "fault") return run_fault();
    if(mode == "globals") return run_globals();
    if(mode == "stuck") return run_stuck();
    std::fprintf(stderr, "usage: %s <fault|globals|stuck>\n", argv[0]);
    return 2;
}
