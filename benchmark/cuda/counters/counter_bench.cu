// The workload of the counter benchmark (run_counter_bench.sh): rocprofv3 with hardware counters
// under kernel replay against Nsight Compute. Not a test: it checks its own results (so that a
// profiler that breaks them shows) and prints one line; the script does the timing.
//
// Four uint32 arrays of --mib MiB each (default 64: 256 MiB) and a small float array; --iters
// iterations (default 10) of 6 kernels = 60 launches, deterministic, several of them in place:
//   mix       b = a * 2654435761 + salt
//   add       c = a + b
//   xor_shift a ^= c >> 3                      (in place)
//   reduce    sums[it] += sum(c)               (atomics into a 64-bit total)
//   stencil   d[i] = a[i-1] + a[i] + a[i+1]    (clamped at the ends)
//   fma_chain f = 64 fmaf steps of f           (in place, compute-bound)
// The host repeats the computation and compares every element.
// Prints: BENCH_PROGRAM launches=<n> bytes=<device bytes> ok=<0|1>; writes
// {"launches": n, "kernels": [...], "ok": bool} to $PROGRAM_OUTPUT when set. Exit 0 when correct.
#include <cuda_runtime.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "cuda_check.hpp"

namespace
{
constexpr unsigned kGrid     = 2048;
constexpr unsigned kBlock    = 256;
constexpr unsigned kMul      = 2654435761u;
constexpr int      kFmaSteps = 64;
constexpr size_t   kFloats   = size_t{1} << 16;
constexpr float    kFmaA     = 0.99951171875f;
constexpr float    kFmaB     = 0.000244140625f;
} // namespace

#define GRID_STRIDE(i, n)                                                                          \
    for(size_t i = static_cast<size_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n);            \
        i += static_cast<size_t>(gridDim.x) * blockDim.x)

extern "C" __global__ void
mix(const unsigned* a, unsigned* b, size_t n, unsigned salt)
{
    GRID_STRIDE(i, n) b[i] = a[i] * kMul + salt;
}

extern "C" __global__ void
add(const unsigned* a, const unsigned* b, unsigned* c, size_t n)
{
    GRID_STRIDE(i, n) c[i] = a[i] + b[i];
}

extern "C" __global__ void
xor_shift(unsigned* a, const unsigned* c, size_t n)
{
    GRID_STRIDE(i, n) a[i] ^= c[i] >> 3;
}

extern "C" __global__ void
reduce(const unsigned* c, size_t n, unsigned long long* total)
{
    unsigned long long s = 0;
    GRID_STRIDE(i, n) s += c[i];
    for(int o = 16; o > 0; o >>= 1)
        s += __shfl_down_sync(0xffffffffu, s, o);
    if((threadIdx.x & 31u) == 0) atomicAdd(total, s);
}

extern "C" __global__ void
stencil(const unsigned* a, unsigned* d, size_t n)
{
    GRID_STRIDE(i, n)
    {
        unsigned left  = a[i > 0 ? i - 1 : 0];
        unsigned right = a[i + 1 < n ? i + 1 : n - 1];
        d[i]           = left + a[i] + right;
    }
}

extern "C" __global__ void
fma_chain(float* f, size_t n, int steps, float a, float b)
{
    GRID_STRIDE(i, n)
    {
        float x = f[i];
        for(int k = 0; k < steps; ++k)
            x = fmaf(x, a, b);
        f[i] = x;
    }
}

int
main(int argc, char** argv)
{
    size_t mib   = 64;
    int    iters = 10;
    for(int i = 1; i < argc; ++i)
    {
        std::string a = argv[i];
        if(a == "--mib" && i + 1 < argc)
            mib = std::strtoull(argv[++i], nullptr, 10);
        else if(a == "--iters" && i + 1 < argc)
            iters = std::atoi(argv[++i]);
        else
        {
            std::fprintf(stderr, "usage: %s [--mib N] [--iters N]\n", argv[0]);
            return 2;
        }
    }
    const size_t n     = (mib << 20) / sizeof(unsigned);
    const size_t bytes = n * sizeof(unsigned);

    std::vector<unsigned> a(n), b(n), c(n), d(n);
    std::vector<float>    f(kFloats);
    for(size_t i = 0; i < n; ++i)
        a[i] = static_cast<unsigned>(i * 7u + 1u);
    for(size_t i = 0; i < kFloats; ++i)
        f[i] = static_cast<float>(i % 4096);

    unsigned *          d_a = nullptr, *d_b = nullptr, *d_c = nullptr, *d_d = nullptr;
    float*              d_f    = nullptr;
    unsigned long long* d_sums = nullptr;
    CHECK(cudaMalloc(&d_a, bytes));
    CHECK(cudaMalloc(&d_b, bytes));
    CHECK(cudaMalloc(&d_c, bytes));
    CHECK(cudaMalloc(&d_d, bytes));
    CHECK(cudaMalloc(&d_f, kFloats * sizeof(float)));
    CHECK(cudaMalloc(&d_sums, iters * sizeof(unsigned long long)));
    CHECK(cudaMemcpy(d_a, a.data(), bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d_f, f.data(), kFloats * sizeof(float), cudaMemcpyHostToDevice));
    std::vector<unsigned long long> zeros(iters, 0);
    CHECK(cudaMemcpy(
        d_sums, zeros.data(), iters * sizeof(unsigned long long), cudaMemcpyHostToDevice));

    std::vector<std::string> kernels;
    for(int it = 0; it < iters; ++it)
    {
        unsigned salt = 0x9e3779b9u * static_cast<unsigned>(it + 1);
        mix<<<kGrid, kBlock>>>(d_a, d_b, n, salt);
        add<<<kGrid, kBlock>>>(d_a, d_b, d_c, n);
        xor_shift<<<kGrid, kBlock>>>(d_a, d_c, n);
        reduce<<<kGrid, kBlock>>>(d_c, n, d_sums + it);
        stencil<<<kGrid, kBlock>>>(d_a, d_d, n);
        fma_chain<<<64, kBlock>>>(d_f, kFloats, kFmaSteps, kFmaA, kFmaB);
        CHECK(cudaGetLastError());
        for(const char* k : {"mix", "add", "xor_shift", "reduce", "stencil", "fma_chain"})
            kernels.emplace_back(k);
    }
    CHECK(cudaDeviceSynchronize());

    // The host's run of the same work.
    std::vector<unsigned long long> sums(iters, 0);
    for(int it = 0; it < iters; ++it)
    {
        unsigned salt = 0x9e3779b9u * static_cast<unsigned>(it + 1);
        for(size_t i = 0; i < n; ++i)
        {
            b[i] = a[i] * kMul + salt;
            c[i] = a[i] + b[i];
            a[i] ^= c[i] >> 3;
            sums[it] += c[i];
        }
        for(float& x : f)
            for(int k = 0; k < kFmaSteps; ++k)
                x = std::fma(x, kFmaA, kFmaB);
    }
    for(size_t i = 0; i < n; ++i)
        d[i] = a[i > 0 ? i - 1 : 0] + a[i] + a[i + 1 < n ? i + 1 : n - 1];

    std::vector<std::string> failures;
    auto compare = [&](const char* name, const void* dev, const void* host, size_t size)
    {
        std::vector<unsigned char> got(size);
        CHECK(cudaMemcpy(got.data(), dev, size, cudaMemcpyDeviceToHost));
        if(std::memcmp(got.data(), host, size) != 0) failures.emplace_back(name);
    };
    compare("a", d_a, a.data(), bytes);
    compare("b", d_b, b.data(), bytes);
    compare("c", d_c, c.data(), bytes);
    compare("d", d_d, d.data(), bytes);
    compare("f", d_f, f.data(), kFloats * sizeof(float));
    compare("sums", d_sums, sums.data(), iters * sizeof(unsigned long long));
    for(void* p : {static_cast<void*>(d_a),
                   static_cast<void*>(d_b),
                   static_cast<void*>(d_c),
                   static_cast<void*>(d_d),
                   static_cast<void*>(d_f),
                   static_cast<void*>(d_sums)})
        CHECK(cudaFree(p));

    bool        ok  = failures.empty();
    const char* out = std::getenv("PROGRAM_OUTPUT");
    if(out != nullptr && *out != '\0')
    {
        if(FILE* fp = std::fopen(out, "w"))
        {
            std::fprintf(fp,
                         "{\"launches\": %zu, \"ok\": %s, \"kernels\": [",
                         kernels.size(),
                         ok ? "true" : "false");
            for(size_t i = 0; i < kernels.size(); ++i)
                std::fprintf(fp, "%s\"%s\"", i ? ", " : "", kernels[i].c_str());
            std::fprintf(fp, "]}\n");
            std::fclose(fp);
        }
    }
    std::string wrong;
    for(const auto& w : failures)
        wrong += " " + w;
    std::printf("BENCH_PROGRAM launches=%zu bytes=%zu ok=%d%s%s\n",
                kernels.size(),
                4 * bytes + kFloats * sizeof(float),
                ok ? 1 : 0,
                ok ? "" : " wrong:",
                wrong.c_str());
    return ok ? 0 : 1;
}
