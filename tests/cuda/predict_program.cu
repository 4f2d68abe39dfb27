// GPU test program for kernel replay's write-set prediction on CUDA: kernels whose writes a
// prediction from the argument pointers alone would miss. Usage:
//   cuda-predict-program predict <out.bin>  every case below once (the learning case 5 times);
//                                           checks each result against what one run of each
//                                           kernel gives (exit 1 if not) and writes the bytes
//   cuda-predict-program drift <out.bin>    a kernel that writes a different place on each pass
//                                           (an index it reads and increments in pinned host
//                                           memory, which no restore resets)
// Under replay each case must end as a run without the SDK: fully replayed, or ended after the
// pass that wrote outside the snapshot (the application then holds exactly one run's results).
#include <cuda.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

namespace
{
constexpr int n = 1 << 16;

int
blocks_for(int count)
{
    return (count + 255) / 256;
}

int failures = 0;
void
expect(bool ok, const std::string& what)
{
    if(ok) return;
    ++failures;
    std::printf("FAIL: %s\n", what.c_str());
}

void
append(std::vector<unsigned char>& out, const void* device, size_t bytes)
{
    const auto at = out.size();
    out.resize(at + bytes);
    CHECK(cudaMemcpy(out.data() + at, device, bytes, cudaMemcpyDeviceToHost));
}

// Every int of `p` equals `want`.
void
expect_all(const int* p, int count, int want, const std::string& what)
{
    auto host = std::vector<int>(count);
    CHECK(cudaMemcpy(host.data(), p, count * sizeof(int), cudaMemcpyDeviceToHost));
    const auto wrong = std::count_if(host.begin(), host.end(), [want](int v) { return v != want; });
    expect(wrong == 0,
           what + " (" + std::to_string(wrong) + " of " + std::to_string(count) + " wrong, first " +
               std::to_string(host[0]) + ")");
}

__global__ void
fill(int* p, int count, int value)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count) p[i] = value;
}

// The pointer one past the end: p[i - count] += 1.
__global__ void
one_past_end(int* end, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count) end[i - count] += 1;
}

// A 1-based base (the allocation's address minus one element): p[1..count] += 1.
__global__ void
one_based(int* base1, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
    if(i <= count) base1[i] += 1;
}

// A pointer at an odd offset of a packed argument struct.
struct __attribute__((packed)) packed_args
{
    char  tag;
    int*  data;
    short scale;
    int   count;
};
static_assert(sizeof(packed_args) == 15, "packed");

__global__ void
packed_pointer(packed_args args)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < args.count) args.data[i] += args.scale;
}

// Writes through pointers kept in device memory (grouped-GEMM style): ptrs[g][i] += g + 1.
__global__ void
pointer_table(int* const* ptrs, int groups, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i >= count) return;
    for(int g = 0; g < groups; ++g)
        ptrs[g][i] += g + 1;
}

// In place: x = 3x + 1.
__global__ void
in_place(int* x, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count) x[i] = 3 * x[i] + 1;
}

__global__ void
atomic_sum(const int* x, int count, unsigned long long* total)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count) atomicAdd(total, static_cast<unsigned long long>(x[i]));
}

// Append-style output: the multiples of 3 of `in`, at slots taken from a device counter.
__global__ void
append_multiples(const int* in, int count, int* out, unsigned* next)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count && in[i] % 3 == 0) out[atomicAdd(next, 1u)] = in[i];
}

// Writes `count` ints at `base + offset` (an offset in ints to another allocation): memory no
// argument points into.
__global__ void
offset_write(int* base, long long offset, int count)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < count) base[offset + i] += 2;
}

// Pass k writes x[0] (k == 0) or the other allocation (k > 0): k comes from a counter in pinned
// host memory, reached through a pointer kept in device memory.
__global__ void
drifting_write(int* x, unsigned* const* holder, long long offset)
{
    if(blockIdx.x != 0 || threadIdx.x != 0) return;
    volatile unsigned* counter = *holder; // one thread: no atomic over the bus needed
    const unsigned     k       = *counter;
    *counter                   = k + 1;
    __threadfence_system();
    if(k == 0)
        x[0] += 1;
    else
        x[offset] += 1;
}

long long
offset_ints(const int* from, const int* to)
{
    return static_cast<long long>(reinterpret_cast<intptr_t>(to) -
                                  reinterpret_cast<intptr_t>(from)) /
           static_cast<long long>(sizeof(int));
}

void
mode_predict(std::vector<unsigned char>& out)
{
    int *a = nullptr, *b = nullptr, *c = nullptr, *x = nullptr;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc(&b, n * sizeof(int)));
    CHECK(cudaMalloc(&c, n * sizeof(int)));
    CHECK(cudaMalloc(&x, n * sizeof(int)));
    fill<<<blocks_for(n), 256>>>(a, n, 10);
    fill<<<blocks_for(n), 256>>>(b, n, 20);
    fill<<<blocks_for(n), 256>>>(c, n, 30);
    fill<<<blocks_for(n), 256>>>(x, n, 5);

    one_past_end<<<blocks_for(n), 256>>>(a + n, n);
    one_based<<<blocks_for(n), 256>>>(b - 1, n); // (b - 1)[1..n] is b[0..n-1]
    packed_pointer<<<blocks_for(n), 256>>>(packed_args{'p', c, 3, n});
    in_place<<<blocks_for(n), 256>>>(x, n);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    expect_all(a, n, 11, "one past the end: a[i - n] += 1");
    expect_all(b, n, 21, "1-based base: (b - 1)[1..n] += 1");
    expect_all(c, n, 33, "packed struct pointer: c += 3");
    expect_all(x, n, 16, "in place: x = 3x + 1");

    // Pointer table in device memory, three groups.
    constexpr int groups    = 3;
    int*          g[groups] = {};
    for(auto& p : g)
    {
        CHECK(cudaMalloc(&p, n * sizeof(int)));
        fill<<<blocks_for(n), 256>>>(p, n, 100);
    }
    int** table = nullptr;
    CHECK(cudaMalloc(&table, sizeof(g)));
    CHECK(cudaMemcpy(table, g, sizeof(g), cudaMemcpyHostToDevice));
    pointer_table<<<blocks_for(n), 256>>>(table, groups, n);
    CHECK(cudaDeviceSynchronize());
    for(int k = 0; k < groups; ++k)
        expect_all(g[k], n, 100 + k + 1, "pointer table group " + std::to_string(k));

    // Atomics and an append-style output.
    unsigned long long* total = nullptr;
    CHECK(cudaMalloc(&total, sizeof(*total)));
    CHECK(cudaMemset(total, 0, sizeof(*total)));
    atomic_sum<<<blocks_for(n), 256>>>(x, n, total);
    int*      in   = nullptr;
    int*      list = nullptr;
    unsigned* next = nullptr;
    CHECK(cudaMalloc(&in, n * sizeof(int)));
    CHECK(cudaMalloc(&list, n * sizeof(int)));
    CHECK(cudaMalloc(&next, sizeof(unsigned)));
    CHECK(cudaMemset(list, 0xff, n * sizeof(int)));
    CHECK(cudaMemset(next, 0, sizeof(unsigned)));
    auto hin = std::vector<int>(n);
    for(int i = 0; i < n; ++i)
        hin[i] = (i * 7919) % 1000;
    CHECK(cudaMemcpy(in, hin.data(), n * sizeof(int), cudaMemcpyHostToDevice));
    append_multiples<<<blocks_for(n), 256>>>(in, n, list, next);
    CHECK(cudaDeviceSynchronize());
    auto htotal = 0ULL;
    CHECK(cudaMemcpy(&htotal, total, sizeof(htotal), cudaMemcpyDeviceToHost));
    expect(htotal == 16ULL * n, "atomic sum counted once");
    auto hnext = 0u;
    CHECK(cudaMemcpy(&hnext, next, sizeof(hnext), cudaMemcpyDeviceToHost));
    auto want = std::vector<int>{};
    for(int v : hin)
        if(v % 3 == 0) want.push_back(v);
    auto hlist = std::vector<int>(n);
    CHECK(cudaMemcpy(hlist.data(), list, n * sizeof(int), cudaMemcpyDeviceToHost));
    expect(hnext == want.size(),
           "append counter = the number of multiples of 3 (" + std::to_string(hnext) + ")");
    // The order of the appended values depends on scheduling: compared (and written) sorted.
    std::sort(hlist.begin(), hlist.begin() + std::min<size_t>(hnext, n));
    std::sort(want.begin(), want.end());
    expect(std::equal(want.begin(), want.end(), hlist.begin()) && hlist[want.size()] == -1,
           "append output: each multiple of 3 once, nothing after");

    // Memory allocated on the kernel's stream just before the launch.
    cudaStream_t s = nullptr;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    int* pooled = nullptr;
    CHECK(cudaMallocAsync(reinterpret_cast<void**>(&pooled), n * sizeof(int), s));
    fill<<<blocks_for(n), 256, 0, s>>>(pooled, n, 40);
    in_place<<<blocks_for(n), 256, 0, s>>>(pooled, n);
    CHECK(cudaStreamSynchronize(s));
    expect_all(pooled, n, 121, "stream-ordered allocation: 3 * 40 + 1");

    // Managed memory.
    int* managed = nullptr;
    CHECK(cudaMallocManaged(&managed, n * sizeof(int)));
    for(int i = 0; i < n; ++i)
        managed[i] = 7;
    in_place<<<blocks_for(n), 256>>>(managed, n);
    CHECK(cudaDeviceSynchronize());
    expect(std::count(managed, managed + n, 22) == n, "managed memory: 3 * 7 + 1");

    // A virtual reservation with three mappings; the kernel writes across the boundaries.
    auto prop          = CUmemAllocationProp{};
    prop.type          = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    auto dev           = 0;
    CHECK(cudaGetDevice(&dev));
    prop.location.id = dev;
    size_t gran      = 0;
    CHECK_CU(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    constexpr int maps     = 3;
    const size_t  reserved = maps * gran;
    CUdeviceptr   va       = 0;
    CHECK_CU(cuMemAddressReserve(&va, reserved, 0, 0, 0));
    CUmemGenericAllocationHandle handles[maps] = {};
    for(int k = 0; k < maps; ++k)
    {
        CHECK_CU(cuMemCreate(&handles[k], gran, &prop, 0));
        CHECK_CU(cuMemMap(va + k * gran, gran, 0, handles[k], 0));
    }
    auto access     = CUmemAccessDesc{};
    access.location = prop.location;
    access.flags    = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    CHECK_CU(cuMemSetAccess(va, reserved, &access, 1));
    const int vmm_n = static_cast<int>(reserved / sizeof(int));
    auto*     vmm   = reinterpret_cast<int*>(va);
    // From the middle of the first mapping to the middle of the last one: across both boundaries.
    const int vmm_lo    = static_cast<int>(gran / sizeof(int) / 2);
    const int vmm_count = vmm_n - 2 * vmm_lo;
    fill<<<blocks_for(vmm_n), 256>>>(vmm, vmm_n, 1);
    in_place<<<blocks_for(vmm_count), 256>>>(vmm + vmm_lo, vmm_count);
    CHECK(cudaDeviceSynchronize());
    auto hv = std::vector<int>(vmm_n);
    CHECK(cudaMemcpy(hv.data(), vmm, reserved, cudaMemcpyDeviceToHost));
    auto wrong_v = 0;
    for(int i = 0; i < vmm_n; ++i)
    {
        const bool in_range = i >= vmm_lo && i < vmm_lo + vmm_count;
        if(hv[i] != (in_range ? 4 : 1)) ++wrong_v;
    }
    expect(wrong_v == 0,
           "VMM mappings written across boundaries (" + std::to_string(wrong_v) + " wrong)");

    // A kernel that writes memory no argument points into, five times: the first dispatches end
    // after the pass that wrote outside the snapshot (learning), the later ones are replayed.
    int *lhs = nullptr, *far = nullptr;
    CHECK(cudaMalloc(&lhs, n * sizeof(int)));
    CHECK(cudaMalloc(&far, n * sizeof(int)));
    fill<<<blocks_for(n), 256>>>(far, n, 0);
    constexpr int repeats = 5;
    for(int k = 0; k < repeats; ++k)
        offset_write<<<blocks_for(n), 256>>>(lhs, offset_ints(lhs, far), n);
    CHECK(cudaDeviceSynchronize());
    expect_all(
        far, n, 2 * repeats, "writes through an offset, " + std::to_string(repeats) + " times");

    std::printf(
        "predict_program predict: failures=%d total=%llu appended=%u\n", failures, htotal, hnext);
    append(out, a, n * sizeof(int));
    append(out, b, n * sizeof(int));
    append(out, c, n * sizeof(int));
    append(out, x, n * sizeof(int));
    for(auto* p : g)
        append(out, p, n * sizeof(int));
    append(out, total, sizeof(*total));
    append(out, next, sizeof(*next));
    out.insert(out.end(),
               reinterpret_cast<const unsigned char*>(hlist.data()),
               reinterpret_cast<const unsigned char*>(hlist.data() + n));
    append(out, pooled, n * sizeof(int));
    append(out, managed, n * sizeof(int));
    append(out, vmm, reserved);
    append(out, far, n * sizeof(int));

    CHECK(cudaFreeAsync(pooled, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
    CHECK_CU(cuMemUnmap(va, reserved));
    for(auto h : handles)
        CHECK_CU(cuMemRelease(h));
    CHECK_CU(cuMemAddressFree(va, reserved));
}

void
mode_drift(std::vector<unsigned char>& out)
{
    int *x = nullptr, *other = nullptr;
    CHECK(cudaMalloc(&x, n * sizeof(int)));
    CHECK(cudaMalloc(&other, n * sizeof(int)));
    fill<<<blocks_for(n), 256>>>(x, n, 0);
    fill<<<blocks_for(n), 256>>>(other, n, 0);
    unsigned* counter = nullptr;
    CHECK(cudaHostAlloc(&counter, sizeof(unsigned), cudaHostAllocMapped));
    *counter              = 0;
    unsigned* device_view = nullptr;
    CHECK(cudaHostGetDevicePointer(&device_view, counter, 0));
    unsigned** holder = nullptr;
    CHECK(cudaMalloc(&holder, sizeof(unsigned*)));
    CHECK(cudaMemcpy(holder, &device_view, sizeof(device_view), cudaMemcpyHostToDevice));
    drifting_write<<<1, 32>>>(x, holder, offset_ints(x, other));
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    auto hx = 0, ho = 0;
    CHECK(cudaMemcpy(&hx, x, sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&ho, other, sizeof(int), cudaMemcpyDeviceToHost));
    // Without the SDK: one run, x[0] = 1. Under replay the passes after the first write `other`,
    // and the run ends after the first of them: what that pass left is what the program sees.
    std::printf("predict_program drift: passes=%u x[0]=%d other[0]=%d\n", *counter, hx, ho);
    expect(*counter >= 1, "the kernel ran");
    expect(hx + ho == 1, "exactly one pass's write is kept");
    append(out, x, sizeof(int));
}
} // namespace

int
main(int argc, char** argv)
{
    if(argc < 3)
    {
        std::fprintf(stderr, "usage: %s <predict|drift> <out.bin>\n", argv[0]);
        return 2;
    }
    const std::string mode = argv[1];
    auto              out  = std::vector<unsigned char>{};
    if(mode == "predict")
        mode_predict(out);
    else if(mode == "drift")
        mode_drift(out);
    else
        return 2;
    CHECK(cudaDeviceSynchronize());
    FILE* f = std::fopen(argv[2], "wb");
    if(f == nullptr) return 2;
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    return failures == 0 ? 0 : 1;
}
