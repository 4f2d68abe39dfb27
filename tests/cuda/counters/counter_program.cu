// A CUDA runtime-API program whose hardware counter values are known in advance, for the counter
// tests (tests/cuda/counters/run_counter_test.py). Every kernel is deterministic, checks its own
// result on the host, and has analytic expectations that the program writes as JSON to
// $PROGRAM_OUTPUT:
//   launches[i] = {kernel, grid, block, expected: {metric: {value, tol}}}   (tol: relative)
// The kernels are extern "C" so that rocprofv3 and ncu show the same plain names.
//
// Launch order (default mode): scrub_write, stream_read, copy_kernel, fma_loop, warps_odd,
// accumulate, accumulate, scrub_write, stream_read.
//   stream_read   reads the whole input once (--stream-mib, default 256): dram__bytes_read.sum is
//                 the input's size (the scrub before it writes 4x the L2 so that no input line is
//                 in L2; the scrub buffer is allocated last, so a replay restore that copies the
//                 allocations in order ends with it too), l1tex global load sectors = bytes / 32.
//   copy_kernel   64 MiB copy: global load and store sectors = bytes / 32 each.
//   fma_loop      4 independent fmaf chains of --fma-iters iterations per thread: FFMA thread
//                 instructions = threads * iters * 4.
//   warps_odd     grid (37,3), block (20,5) = 100 threads: 4 warps per block, 444 warps.
//   accumulate    a += b (not idempotent: a replay that does not restore memory fails the check).
// Every launch expects smsp__warps_launched.sum = blocks * ceil(threads per block / 32).
//
// Options:
//   --stream-mib N   input size of stream_read (default 256)
//   --fma-iters N    trip count of fma_loop (default 2048)
//   --fault          warps_odd, accumulate, then a kernel that writes through a null pointer; exits
//                    0 when the fault is reported (by the launch or the next synchronization)
//   --hold-cupti     (cuda-counter-program-cupti only) before any allocation, enable CUPTI's range
//                    profiler on the primary context and start a session collecting
//                    smsp__warps_launched.sum around every kernel, as another profiler in the
//                    process would; at the end, decode it and print what it measured
// Exit: 0 results correct, 1 a result wrong, 2 a CUDA error, 3 the CUPTI session could not be set
// up.
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#if defined(COUNTER_PROGRAM_WITH_CUPTI)
#    include "cupti_range_session.hpp"
#endif

namespace
{
constexpr unsigned kBlock      = 256;
constexpr unsigned kStreamGrid = 1024;
constexpr unsigned kFmaGrid    = 264;
constexpr float    kFmaA       = 0.9990234375f; // exact in binary
constexpr float    kFmaB       = 0.0009765625f;
} // namespace

extern "C" __global__ void
scrub_write(unsigned* buf, size_t n, unsigned seed)
{
    size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for(size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
        buf[i] = static_cast<unsigned>(i) ^ seed;
}

// Every float is an integer in [0, 3]: all partial sums are exact.
extern "C" __global__ void
stream_read(const float4* in, size_t n4, float* partial)
{
    float  s      = 0.0f;
    size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for(size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride)
    {
        float4 v = in[i];
        s += (v.x + v.y) + (v.z + v.w);
    }
    for(int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    __shared__ float warp_sums[32];
    if((threadIdx.x & 31u) == 0) warp_sums[threadIdx.x >> 5] = s;
    __syncthreads();
    if(threadIdx.x == 0)
    {
        float t = 0.0f;
        for(unsigned w = 0; w < blockDim.x / 32; ++w)
            t += warp_sums[w];
        partial[blockIdx.x] = t;
    }
}

extern "C" __global__ void
copy_kernel(const float4* in, float4* out, size_t n4)
{
    size_t stride = static_cast<size_t>(gridDim.x) * blockDim.x;
    for(size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < n4; i += stride)
        out[i] = in[i];
}

// No float multiply or add inside the loop besides the 4 fmaf: FFMA = threads * iters * 4.
extern "C" __global__ void
fma_loop(float* out, int iters, float a, float b)
{
    int   i  = blockIdx.x * blockDim.x + threadIdx.x;
    float x0 = __int2float_rn(i & 1023);
    float x1 = __int2float_rn((i + 1) & 1023);
    float x2 = __int2float_rn((i + 2) & 1023);
    float x3 = __int2float_rn((i + 3) & 1023);
    for(int it = 0; it < iters; ++it)
    {
        x0 = fmaf(x0, a, b);
        x1 = fmaf(x1, a, b);
        x2 = fmaf(x2, a, b);
        x3 = fmaf(x3, a, b);
    }
    out[i] = (x0 + x1) + (x2 + x3);
}

extern "C" __global__ void
warps_odd(unsigned* out)
{
    unsigned tid                               = threadIdx.y * blockDim.x + threadIdx.x;
    unsigned blk                               = blockIdx.y * gridDim.x + blockIdx.x;
    out[blk * (blockDim.x * blockDim.y) + tid] = blk * 1000u + tid * 3u + 1u;
}

extern "C" __global__ void
accumulate(float* a, const float* b, size_t n)
{
    size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if(i < n) a[i] += b[i];
}

extern "C" __global__ void
fault_kernel(int* p)
{
    p[threadIdx.x] = 1;
}

namespace
{
struct expectation
{
    std::string metric;
    double      value;
    double      tol;
};

struct launch_record
{
    std::string              kernel;
    dim3                     grid;
    dim3                     block;
    std::vector<expectation> expected;
    bool                     fault = false;
};

std::vector<launch_record> launches;
std::vector<std::string>   failures;

uint64_t
warps_of(dim3 grid, dim3 block)
{
    uint64_t blocks  = static_cast<uint64_t>(grid.x) * grid.y * grid.z;
    uint64_t threads = static_cast<uint64_t>(block.x) * block.y * block.z;
    return blocks * ((threads + 31) / 32);
}

launch_record&
record(const char* kernel, dim3 grid, dim3 block)
{
    launches.push_back({kernel, grid, block, {}});
    auto& r = launches.back();
    r.expected.push_back(
        {"smsp__warps_launched.sum", static_cast<double>(warps_of(grid, block)), 0.0});
    return r;
}

void
fail(const std::string& what)
{
    std::printf("counter-program: FAIL: %s\n", what.c_str());
    failures.push_back(what);
}

float
input_value(size_t j)
{
    return static_cast<float>((j * j + j / 3) % 4);
}

std::string
json_escape(const std::string& s)
{
    std::string out;
    for(char c : s)
    {
        if(c == '"' || c == '\\') out += '\\';
        if(static_cast<unsigned char>(c) >= 0x20) out += c;
    }
    return out;
}

#if defined(COUNTER_PROGRAM_WITH_CUPTI)
// Another profiler in the process: CUPTI's range profiler enabled on the primary context, a
// session started (auto ranges around every kernel, user replay, one pass).
struct cupti_holder
{
    cupti_range::host_config host;
    cupti_range::session     session;
    cupti_range::measured    measured;
    std::string              error;
};

const char* const kHoldMetric = "smsp__warps_launched.sum";

bool
hold_cupti(CUcontext ctx, cupti_holder& h)
{
    return cupti_range::open_host(ctx, kHoldMetric, h.host, h.error) &&
           cupti_range::start(ctx, h.host, CUPTI_AutoRange, 1024, h.session, h.error);
}

// Ends the session and reads what it measured (reported, not checked: under a replaying profiler
// the number of ranges depends on how many times the kernels ran).
bool
release_cupti(cupti_holder& h)
{
    return cupti_range::stop_and_read(h.host, h.session, h.measured, h.error) &&
           cupti_range::disable(h.session, h.error) && cupti_range::close_host(h.host, h.error);
}
#endif

void
write_json(const char* path, const std::string& mode, const std::string& extra)
{
    if(path == nullptr || *path == '\0') return;
    FILE* f = std::fopen(path, "w");
    if(f == nullptr)
    {
        std::fprintf(stderr, "counter-program: cannot write %s\n", path);
        return;
    }
    std::fprintf(
        f, "{\n  \"program\": \"cuda-counter-program\",\n  \"mode\": \"%s\",\n", mode.c_str());
    std::fprintf(f, "  \"ok\": %s,\n  \"failures\": [", failures.empty() ? "true" : "false");
    for(size_t i = 0; i < failures.size(); ++i)
        std::fprintf(f, "%s\"%s\"", i ? ", " : "", json_escape(failures[i]).c_str());
    std::fprintf(f, "],\n%s  \"launches\": [\n", extra.c_str());
    for(size_t i = 0; i < launches.size(); ++i)
    {
        const auto& l = launches[i];
        std::fprintf(f,
                     "    {\"index\": %zu, \"kernel\": \"%s\", \"grid\": [%u, %u, %u], \"block\": "
                     "[%u, %u, %u], \"fault\": %s, \"expected\": {",
                     i,
                     l.kernel.c_str(),
                     l.grid.x,
                     l.grid.y,
                     l.grid.z,
                     l.block.x,
                     l.block.y,
                     l.block.z,
                     l.fault ? "true" : "false");
        for(size_t k = 0; k < l.expected.size(); ++k)
            std::fprintf(f,
                         "%s\"%s\": {\"value\": %.17g, \"tol\": %g}",
                         k ? ", " : "",
                         l.expected[k].metric.c_str(),
                         l.expected[k].value,
                         l.expected[k].tol);
        std::fprintf(f, "}}%s\n", i + 1 < launches.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
}

template <typename T>
T*
device_alloc(size_t count)
{
    T* p = nullptr;
    CHECK(cudaMalloc(&p, count * sizeof(T)));
    return p;
}

// warps_odd: launch and host check.
void
run_warps(unsigned* d_warps)
{
    dim3 grid(37, 3), block(20, 5);
    record("warps_odd", grid, block);
    warps_odd<<<grid, block>>>(d_warps);
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    size_t                n = 111 * 100;
    std::vector<unsigned> h(n);
    CHECK(cudaMemcpy(h.data(), d_warps, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for(unsigned blk = 0; blk < 111; ++blk)
        for(unsigned t = 0; t < 100; ++t)
            if(h[blk * 100 + t] != blk * 1000u + t * 3u + 1u)
            {
                fail("warps_odd result at block " + std::to_string(blk) + " thread " +
                     std::to_string(t));
                return;
            }
}

void
run_accumulate(float* d_a, const float* d_b, size_t n, int times)
{
    std::vector<float> a(n), b(n);
    for(size_t i = 0; i < n; ++i)
    {
        a[i] = static_cast<float>(i % 1000);
        b[i] = static_cast<float>(i % 7 + 1);
    }
    CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(const_cast<float*>(d_b), b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    dim3 grid(static_cast<unsigned>((n + kBlock - 1) / kBlock)), block(kBlock);
    for(int k = 0; k < times; ++k)
    {
        auto& r = record("accumulate", grid, block);
        r.expected.push_back(
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 2.0 * n * 4 / 32, 0});
        r.expected.push_back(
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 1.0 * n * 4 / 32, 0});
        accumulate<<<grid, block>>>(d_a, d_b, n);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    std::vector<float> out(n);
    CHECK(cudaMemcpy(out.data(), d_a, n * sizeof(float), cudaMemcpyDeviceToHost));
    for(size_t i = 0; i < n; ++i)
        if(out[i] != a[i] + static_cast<float>(times) * b[i])
        {
            fail("accumulate result at " + std::to_string(i) + ": " + std::to_string(out[i]) +
                 " (one run of each launch gives " +
                 std::to_string(a[i] + static_cast<float>(times) * b[i]) + ")");
            return;
        }
}
} // namespace

int
main(int argc, char** argv)
{
    size_t stream_mib = 256;
    int    fma_iters  = 2048;
    bool   fault      = false;
    bool   hold       = false;
    for(int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if(a == "--stream-mib" && i + 1 < argc)
            stream_mib = std::strtoull(argv[++i], nullptr, 10);
        else if(a == "--fma-iters" && i + 1 < argc)
            fma_iters = std::atoi(argv[++i]);
        else if(a == "--fault")
            fault = true;
        else if(a == "--hold-cupti")
            hold = true;
        else
        {
            std::fprintf(stderr,
                         "usage: %s [--stream-mib N] [--fma-iters N] [--fault] [--hold-cupti]\n",
                         argv[0]);
            return 2;
        }
    }
    if(stream_mib < 4) stream_mib = 4;
    const char* output = std::getenv("PROGRAM_OUTPUT");
    std::string extra;
    std::string mode = fault ? "fault" : "counters";

#if defined(COUNTER_PROGRAM_WITH_CUPTI)
    cupti_holder holder;
    if(hold)
    {
        // Before any allocation or launch (which start the SDK): the driver API only.
        CUdevice  dev = 0;
        CUcontext ctx = nullptr;
        if(cuInit(0) != CUDA_SUCCESS || cuDeviceGet(&dev, 0) != CUDA_SUCCESS ||
           cuDevicePrimaryCtxRetain(&ctx, dev) != CUDA_SUCCESS ||
           cuCtxSetCurrent(ctx) != CUDA_SUCCESS)
        {
            std::printf("cupti_hold=failed: primary context\n");
            return 3;
        }
        if(!hold_cupti(ctx, holder))
        {
            std::printf("cupti_hold=failed: %s\n", holder.error.c_str());
            failures.push_back("cupti_hold: " + holder.error);
            write_json(output, "hold", "  \"cupti_hold\": {\"ok\": false},\n");
            return 3;
        }
        std::printf("cupti_hold=ok (range profiler enabled, session started, %s)\n", kHoldMetric);
        std::fflush(stdout);
        mode = "hold";
    }
#else
    if(hold)
    {
        std::fprintf(stderr, "counter-program: --hold-cupti needs cuda-counter-program-cupti\n");
        return 2;
    }
#endif

    CHECK(cudaSetDevice(0));
    int l2 = 0;
    CHECK(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0));

    if(fault)
    {
        unsigned* d_warps = device_alloc<unsigned>(111 * 100);
        size_t    n       = size_t{1} << 20;
        float*    d_a     = device_alloc<float>(n);
        float*    d_b     = device_alloc<float>(n);
        run_warps(d_warps);
        run_accumulate(d_a, d_b, n, 1);
        launches.push_back({"fault_kernel", dim3(1), dim3(32), {}, true});
        launches.back().expected.push_back({"smsp__warps_launched.sum", 1, 0});
        bool ok_before = failures.empty();
        fault_kernel<<<1, 32>>>(nullptr);
        cudaError_t at_launch = cudaGetLastError();
        cudaError_t at_sync   = cudaDeviceSynchronize();
        cudaError_t seen      = at_launch != cudaSuccess ? at_launch : at_sync;
        std::printf("counter-program: fault launch=%s sync=%s\n",
                    cudaGetErrorName(at_launch),
                    cudaGetErrorName(at_sync));
        if(seen == cudaSuccess) fail("the faulting kernel reported no error");
        extra = std::string{"  \"fault_observed\": \""} + cudaGetErrorName(seen) +
                "\",\n  \"results_before_fault_ok\": " + (ok_before ? "true" : "false") + ",\n";
        write_json(output, mode, extra);
        std::printf("counter-program: %s\n", failures.empty() ? "results OK" : "FAILED");
        return failures.empty() ? 0 : 1;
    }

    // Allocations: the scrub buffer last (see the top of the file).
    const size_t stream_bytes = stream_mib << 20;
    const size_t n            = stream_bytes / sizeof(float);
    const size_t n4           = n / 4;
    const size_t copy_bytes   = std::min<size_t>(stream_bytes, size_t{64} << 20);
    const size_t copy4        = copy_bytes / sizeof(float4);
    const size_t fma_threads  = size_t{kFmaGrid} * kBlock;
    const size_t acc_n        = size_t{4} << 20;
    size_t scrub_bytes   = std::max<size_t>(size_t{4} * static_cast<size_t>(l2), size_t{64} << 20);
    scrub_bytes          = (scrub_bytes + (size_t{1} << 20) - 1) & ~((size_t{1} << 20) - 1);
    const size_t scrub_n = scrub_bytes / sizeof(unsigned);

    float*    d_in      = device_alloc<float>(n);
    float*    d_partial = device_alloc<float>(2 * kStreamGrid);
    float4*   d_copy    = device_alloc<float4>(copy4);
    float*    d_fma     = device_alloc<float>(fma_threads);
    unsigned* d_warps   = device_alloc<unsigned>(111 * 100);
    float*    d_acc_a   = device_alloc<float>(acc_n);
    float*    d_acc_b   = device_alloc<float>(acc_n);
    unsigned* d_scrub   = device_alloc<unsigned>(scrub_n);

    std::vector<float> h_in(n);
    for(size_t j = 0; j < n; ++j)
        h_in[j] = input_value(j);
    CHECK(cudaMemcpy(d_in, h_in.data(), stream_bytes, cudaMemcpyHostToDevice));
    // Expected partial sums: float4 i belongs to block (i % stride) / kBlock.
    const size_t          stride = size_t{kStreamGrid} * kBlock;
    std::vector<uint64_t> expected_partial(kStreamGrid, 0);
    for(size_t i = 0; i < n4; ++i)
    {
        uint64_t v = static_cast<uint64_t>(h_in[4 * i] + h_in[4 * i + 1] + h_in[4 * i + 2] +
                                           h_in[4 * i + 3]);
        expected_partial[(i % stride) / kBlock] += v;
    }

    auto scrub = [&](unsigned seed)
    {
        dim3  grid(1056), block(kBlock);
        auto& r = record("scrub_write", grid, block);
        r.expected.push_back(
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", scrub_bytes / 32.0, 0});
        scrub_write<<<grid, block>>>(d_scrub, scrub_n, seed);
        CHECK(cudaGetLastError());
    };
    auto stream = [&](float* partial)
    {
        dim3  grid(kStreamGrid), block(kBlock);
        auto& r = record("stream_read", grid, block);
        r.expected.push_back({"dram__bytes_read.sum", static_cast<double>(stream_bytes), 0.02});
        r.expected.push_back(
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", stream_bytes / 32.0, 0});
        stream_read<<<grid, block>>>(reinterpret_cast<const float4*>(d_in), n4, partial);
        CHECK(cudaGetLastError());
    };
    auto check_stream = [&](float* partial, const char* which)
    {
        std::vector<float> h(kStreamGrid);
        CHECK(cudaMemcpy(h.data(), partial, kStreamGrid * sizeof(float), cudaMemcpyDeviceToHost));
        for(unsigned b = 0; b < kStreamGrid; ++b)
            if(static_cast<uint64_t>(h[b]) != expected_partial[b] ||
               h[b] != static_cast<float>(expected_partial[b]))
            {
                fail(std::string{which} + " partial sum of block " + std::to_string(b) + ": " +
                     std::to_string(h[b]) + " != " + std::to_string(expected_partial[b]));
                return;
            }
    };

    scrub(0x1234u);
    stream(d_partial);
    {
        dim3  grid(1024), block(kBlock);
        auto& r = record("copy_kernel", grid, block);
        r.expected.push_back(
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", copy_bytes / 32.0, 0});
        r.expected.push_back(
            {"l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", copy_bytes / 32.0, 0});
        copy_kernel<<<grid, block>>>(reinterpret_cast<const float4*>(d_in), d_copy, copy4);
        CHECK(cudaGetLastError());
    }
    {
        dim3  grid(kFmaGrid), block(kBlock);
        auto& r = record("fma_loop", grid, block);
        r.expected.push_back({"smsp__sass_thread_inst_executed_op_ffma_pred_on.sum",
                              static_cast<double>(fma_threads) * fma_iters * 4.0,
                              0});
        fma_loop<<<grid, block>>>(d_fma, fma_iters, kFmaA, kFmaB);
        CHECK(cudaGetLastError());
    }
    CHECK(cudaDeviceSynchronize());
    check_stream(d_partial, "stream_read #1");
    {
        std::vector<float> h(copy_bytes / sizeof(float));
        CHECK(cudaMemcpy(h.data(), d_copy, copy_bytes, cudaMemcpyDeviceToHost));
        if(std::memcmp(h.data(), h_in.data(), copy_bytes) != 0) fail("copy_kernel result");
    }
    {
        std::vector<float> chain(1024);
        for(int v = 0; v < 1024; ++v)
        {
            float x = static_cast<float>(v);
            for(int it = 0; it < fma_iters; ++it)
                x = std::fma(x, kFmaA, kFmaB);
            chain[v] = x;
        }
        std::vector<float> h(fma_threads);
        CHECK(cudaMemcpy(h.data(), d_fma, fma_threads * sizeof(float), cudaMemcpyDeviceToHost));
        for(size_t i = 0; i < fma_threads; ++i)
        {
            float e = (chain[i & 1023] + chain[(i + 1) & 1023]) +
                      (chain[(i + 2) & 1023] + chain[(i + 3) & 1023]);
            if(std::memcmp(&e, &h[i], sizeof(float)) != 0)
            {
                fail("fma_loop result at thread " + std::to_string(i));
                break;
            }
        }
    }
    run_warps(d_warps);
    run_accumulate(d_acc_a, d_acc_b, acc_n, 2);
    scrub(0x5678u);
    stream(d_partial + kStreamGrid);
    CHECK(cudaDeviceSynchronize());
    check_stream(d_partial + kStreamGrid, "stream_read #2");
    {
        // The scrub buffer holds the second scrub's values.
        std::vector<unsigned> h(scrub_n);
        CHECK(cudaMemcpy(h.data(), d_scrub, scrub_bytes, cudaMemcpyDeviceToHost));
        for(size_t i = 0; i < scrub_n; ++i)
            if(h[i] != (static_cast<unsigned>(i) ^ 0x5678u))
            {
                fail("scrub_write result at " + std::to_string(i));
                break;
            }
    }

    char sizes[256];
    std::snprintf(sizes,
                  sizeof(sizes),
                  "  \"stream_bytes\": %zu,\n  \"copy_bytes\": %zu,\n  \"scrub_bytes\": %zu,\n  "
                  "\"l2_bytes\": %d,\n  \"fma_iters\": %d,\n",
                  stream_bytes,
                  copy_bytes,
                  scrub_bytes,
                  l2,
                  fma_iters);
    extra = sizes;

#if defined(COUNTER_PROGRAM_WITH_CUPTI)
    if(hold)
    {
        bool        released = release_cupti(holder);
        std::string warps;
        const auto& ranges = holder.measured.ranges;
        for(size_t i = 0; i < ranges.size(); ++i)
            warps += (i ? "," : "") + std::to_string(static_cast<uint64_t>(ranges[i].value));
        if(released)
            std::printf("cupti_hold ranges=%zu dropped=%zu warps=[%s]\n",
                        ranges.size(),
                        holder.measured.dropped,
                        warps.c_str());
        else
            std::printf("cupti_hold release failed: %s\n", holder.error.c_str());
        extra += std::string{"  \"cupti_hold\": {\"ok\": true, \"released\": "} +
                 (released ? "true" : "false") + ", \"ranges\": " + std::to_string(ranges.size()) +
                 ", \"warps\": [" + warps + "], \"release_error\": \"" + json_escape(holder.error) +
                 "\"},\n";
    }
#endif

    for(auto* p :
        std::vector<void*>{d_in, d_partial, d_copy, d_fma, d_warps, d_acc_a, d_acc_b, d_scrub})
        CHECK(cudaFree(p));
    write_json(output, mode, extra);
    std::printf("counter-program: %zu launches, stream %zu MiB, scrub %zu MiB (L2 %d B): %s\n",
                launches.size(),
                stream_bytes >> 20,
                scrub_bytes >> 20,
                l2,
                failures.empty() ? "results OK" : "FAILED");
    return failures.empty() ? 0 : 1;
}
