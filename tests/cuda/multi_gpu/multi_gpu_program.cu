// GPU test program for kernel replay on several devices at once. Usage:
//   cuda-multi-gpu-program count
//       prints the number of CUDA devices
//   cuda-multi-gpu-program run <layout> <memory> <result.bin> <program.json>
//       layout  two: thread 0 on device 0, thread 1 on device 1 (needs 2 GPUs, else exit 77)
//               one: both threads on device 0
//       memory  device:  every buffer from cudaMalloc on the thread's device
//               managed: each thread's `a` and histogram from cudaMallocManaged
//               peer:    thread 0's `a` lives on device 1 and its kernels on device 0 write it
//                        through peer access (layout two only; exit 77 without peer access)
// Each thread, after a start barrier, runs MULTI_GPU_ITERATIONS (default 12) iterations of four
// non-idempotent kernels on its own stream: a += b, an atomic histogram, c += 1 + i % 7 after a
// spin of MULTI_GPU_SPIN_US (default 1000) microseconds, and b = 3 b + 1 (test tools leave the
// last one unreplayed: its name contains "scale"). The program checks its results against one run
// of each kernel (exit 1, with FAIL lines, if not), writes the result bytes of every thread (so a
// run under replay can be compared byte for byte with one without the profiler) and a JSON
// description: devices (ordinal, uuid), threads (OS thread id, device, launches per kernel) and
// each kernel's grid and block.
#include <cuda_runtime.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuda_check.hpp"

namespace
{
constexpr int      skip_code  = 77;
constexpr size_t   n          = size_t{1} << 20; // a, b, in
constexpr size_t   nc         = 64 * 256;        // c: one wave of 64 blocks
constexpr unsigned bins       = 64;
constexpr unsigned block_size = 256;
constexpr unsigned grid_n     = static_cast<unsigned>(n / block_size);
constexpr unsigned grid_c     = static_cast<unsigned>(nc / block_size);

__global__ void
multi_gpu_add(unsigned* a, const unsigned* b, size_t count) // a += b
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i < count) a[i] += b[i];
}

__global__ void
multi_gpu_histogram(const unsigned* in, unsigned* hist, size_t count, unsigned nbins)
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i < count) atomicAdd(&hist[in[i] % nbins], 1u);
}

__device__ unsigned long long
global_ns()
{
    unsigned long long t = 0;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// Spins for spin_ns (every block at once: one wave), then c += 1 + i % 7.
__global__ void
multi_gpu_spin_add(unsigned* c, size_t count, unsigned long long spin_ns)
{
    if(threadIdx.x == 0)
    {
        const auto start = global_ns();
        while(global_ns() - start < spin_ns)
        {
        }
    }
    __syncthreads();
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i < count) c[i] += 1u + static_cast<unsigned>(i % 7);
}

__global__ void
multi_gpu_scale(unsigned* b, size_t count) // b = 3 b + 1, never replayed by the test tools
{
    size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i < count) b[i] = 3u * b[i] + 1u;
}

size_t
env_size(const char* name, size_t fallback)
{
    const char* value = std::getenv(name);
    return (value != nullptr && *value != '\0') ? std::strtoull(value, nullptr, 10) : fallback;
}

struct host_problem
{
    std::vector<unsigned> a    = std::vector<unsigned>(n);
    std::vector<unsigned> b    = std::vector<unsigned>(n);
    std::vector<unsigned> in   = std::vector<unsigned>(n);
    std::vector<unsigned> hist = std::vector<unsigned>(bins);
    std::vector<unsigned> c    = std::vector<unsigned>(nc);

    explicit host_problem(unsigned seed)
    {
        for(size_t i = 0; i < n; ++i)
        {
            a[i]  = seed * 100003u + static_cast<unsigned>(i);
            b[i]  = seed + 3u * static_cast<unsigned>(i) + 1u;
            in[i] = (static_cast<unsigned>(i) * 2654435761u) ^ (seed * 40503u);
        }
        for(size_t i = 0; i < nc; ++i)
            c[i] = seed + static_cast<unsigned>(i);
    }

    // What one run of each kernel of one iteration gives.
    void iterate()
    {
        for(size_t i = 0; i < n; ++i)
            a[i] += b[i];
        for(size_t i = 0; i < n; ++i)
            hist[in[i] % bins] += 1u;
        for(size_t i = 0; i < nc; ++i)
            c[i] += 1u + static_cast<unsigned>(i % 7);
        for(size_t i = 0; i < n; ++i)
            b[i] = 3u * b[i] + 1u;
    }
};

struct thread_result
{
    int                      device = 0;
    long                     tid    = 0;
    std::vector<unsigned>    a, b, hist, c;
    std::vector<std::string> errors = {};
};

std::string
uuid_hex(const cudaUUID_t& uuid)
{
    auto out = std::string{};
    char buf[3];
    for(char byte : uuid.bytes)
    {
        std::snprintf(buf, sizeof(buf), "%02x", static_cast<unsigned char>(byte));
        out += buf;
    }
    return out;
}

void
compare(const char*                  what,
        const std::vector<unsigned>& got,
        const std::vector<unsigned>& want,
        std::vector<std::string>&    errors)
{
    size_t bad = 0, first = 0;
    for(size_t i = 0; i < want.size(); ++i)
        if(got[i] != want[i])
        {
            if(bad == 0) first = i;
            ++bad;
        }
    if(bad == 0) return;
    char line[256];
    std::snprintf(line,
                  sizeof(line),
                  "%s: %zu of %zu elements differ from one run of each kernel (first [%zu]: got "
                  "%u, want %u)",
                  what,
                  bad,
                  want.size(),
                  first,
                  got[first],
                  want[first]);
    errors.emplace_back(line);
}

int
run(const std::string& layout,
    const std::string& memory,
    const char*        result_path,
    const char*        json_path)
{
    auto count = 0;
    if(cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
    if(count < 1)
    {
        std::printf("SKIP: no CUDA device\n");
        return skip_code;
    }
    if(layout == "two" && count < 2)
    {
        std::printf("SKIP: needs 2 GPUs (found %d)\n", count);
        return skip_code;
    }
    if(layout != "two" && layout != "one")
    {
        std::fprintf(stderr, "unknown layout '%s'\n", layout.c_str());
        return 2;
    }
    if(memory != "device" && memory != "managed" && memory != "peer")
    {
        std::fprintf(stderr, "unknown memory '%s'\n", memory.c_str());
        return 2;
    }
    if(memory == "peer")
    {
        auto can = 0;
        if(layout != "two" || cudaDeviceCanAccessPeer(&can, 0, 1) != cudaSuccess || can == 0)
        {
            std::printf("SKIP: device 0 cannot access device 1's memory (no peer access)\n");
            return skip_code;
        }
    }
    const auto iterations = env_size("MULTI_GPU_ITERATIONS", 12);
    const auto spin_ns =
        static_cast<unsigned long long>(env_size("MULTI_GPU_SPIN_US", 1000)) * 1000ull;

    auto results = std::vector<thread_result>(2);
    auto ready   = std::atomic<int>{0};
    auto worker  = [&](int t)
    {
        auto& r  = results[t];
        r.device = (layout == "two") ? t : 0;
        r.tid    = static_cast<long>(::syscall(SYS_gettid));
        CHECK(cudaSetDevice(r.device));
        if(memory == "peer" && t == 0) CHECK(cudaDeviceEnablePeerAccess(1, 0));
        auto host   = host_problem{static_cast<unsigned>(t + 1)};
        auto stream = cudaStream_t{};
        CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
        unsigned *a = nullptr, *b = nullptr, *in = nullptr, *hist = nullptr, *c = nullptr;
        if(memory == "managed")
        {
            CHECK(cudaMallocManaged(&a, n * sizeof(unsigned)));
            CHECK(cudaMallocManaged(&hist, bins * sizeof(unsigned)));
        }
        else if(memory == "peer" && t == 0)
        {
            CHECK(cudaSetDevice(1));
            CHECK(cudaMalloc(&a, n * sizeof(unsigned)));
            CHECK(cudaSetDevice(r.device));
            CHECK(cudaMalloc(&hist, bins * sizeof(unsigned)));
        }
        else
        {
            CHECK(cudaMalloc(&a, n * sizeof(unsigned)));
            CHECK(cudaMalloc(&hist, bins * sizeof(unsigned)));
        }
        CHECK(cudaMalloc(&b, n * sizeof(unsigned)));
        CHECK(cudaMalloc(&in, n * sizeof(unsigned)));
        CHECK(cudaMalloc(&c, nc * sizeof(unsigned)));
        CHECK(cudaMemcpy(a, host.a.data(), n * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(b, host.b.data(), n * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(in, host.in.data(), n * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(hist, host.hist.data(), bins * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(c, host.c.data(), nc * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaDeviceSynchronize());

        ++ready;
        while(ready.load() < 2) // both threads launch at the same time
            std::this_thread::yield();
        for(size_t it = 0; it < iterations; ++it)
        {
            multi_gpu_add<<<grid_n, block_size, 0, stream>>>(a, b, n);
            CHECK(cudaGetLastError());
            multi_gpu_histogram<<<grid_n, block_size, 0, stream>>>(in, hist, n, bins);
            CHECK(cudaGetLastError());
            multi_gpu_spin_add<<<grid_c, block_size, 0, stream>>>(c, nc, spin_ns);
            CHECK(cudaGetLastError());
            multi_gpu_scale<<<grid_n, block_size, 0, stream>>>(b, n);
            CHECK(cudaGetLastError());
            host.iterate();
        }
        CHECK(cudaStreamSynchronize(stream));
        r.a.resize(n);
        r.b.resize(n);
        r.hist.resize(bins);
        r.c.resize(nc);
        CHECK(cudaMemcpy(r.a.data(), a, n * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(r.b.data(), b, n * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(r.hist.data(), hist, bins * sizeof(unsigned), cudaMemcpyDefault));
        CHECK(cudaMemcpy(r.c.data(), c, nc * sizeof(unsigned), cudaMemcpyDefault));
        compare("a (a += b)", r.a, host.a, r.errors);
        compare("b (b = 3b + 1)", r.b, host.b, r.errors);
        compare("histogram", r.hist, host.hist, r.errors);
        compare("c (spin, c += 1 + i % 7)", r.c, host.c, r.errors);
        CHECK(cudaFree(a));
        CHECK(cudaFree(b));
        CHECK(cudaFree(in));
        CHECK(cudaFree(hist));
        CHECK(cudaFree(c));
        CHECK(cudaStreamDestroy(stream));
    };
    auto t0 = std::thread{worker, 0};
    auto t1 = std::thread{worker, 1};
    t0.join();
    t1.join();

    auto ok = true;
    if(FILE* f = std::fopen(result_path, "wb"))
    {
        for(const auto& r : results)
            for(const auto* v : {&r.a, &r.b, &r.hist, &r.c})
                std::fwrite(v->data(), sizeof(unsigned), v->size(), f);
        std::fclose(f);
    }
    else
    {
        std::fprintf(stderr, "cannot write %s\n", result_path);
        return 2;
    }

    FILE* j = std::fopen(json_path, "w");
    if(j == nullptr)
    {
        std::fprintf(stderr, "cannot write %s\n", json_path);
        return 2;
    }
    std::fprintf(j,
                 "{\"layout\": \"%s\", \"memory\": \"%s\", \"iterations\": %zu, \"devices\": [",
                 layout.c_str(),
                 memory.c_str(),
                 iterations);
    const int used = (layout == "two") ? 2 : 1;
    for(int d = 0; d < used; ++d)
    {
        auto prop = cudaDeviceProp{};
        CHECK(cudaGetDeviceProperties(&prop, d));
        std::fprintf(j,
                     "%s{\"ordinal\": %d, \"uuid\": \"%s\", \"name\": \"%s\", \"pci_bus\": %d}",
                     d == 0 ? "" : ", ",
                     d,
                     uuid_hex(prop.uuid).c_str(),
                     prop.name,
                     prop.pciBusID);
    }
    std::fprintf(j, "], \"kernels\": [");
    struct kernel_shape
    {
        const char* name;
        unsigned    grid;
        const char* replayed;
    };
    const kernel_shape shapes[] = {{"multi_gpu_add", grid_n, "true"},
                                   {"multi_gpu_histogram", grid_n, "true"},
                                   {"multi_gpu_spin_add", grid_c, "true"},
                                   {"multi_gpu_scale", grid_n, "false"}};
    for(size_t k = 0; k < 4; ++k)
        std::fprintf(j,
                     "%s{\"name\": \"%s\", \"grid\": %u, \"block\": %u, \"launches_per_thread\": "
                     "%zu, \"replayed_by_test_tool\": %s}",
                     k == 0 ? "" : ", ",
                     shapes[k].name,
                     shapes[k].grid,
                     block_size,
                     iterations,
                     shapes[k].replayed);
    std::fprintf(j, "], \"threads\": [");
    for(size_t t = 0; t < results.size(); ++t)
    {
        const auto& r = results[t];
        std::fprintf(j,
                     "%s{\"index\": %zu, \"device\": %d, \"tid\": %ld, \"errors\": [",
                     t == 0 ? "" : ", ",
                     t,
                     r.device,
                     r.tid);
        for(size_t e = 0; e < r.errors.size(); ++e)
        {
            std::fprintf(j, "%s\"%s\"", e == 0 ? "" : ", ", r.errors[e].c_str());
            std::fprintf(
                stderr, "FAIL: thread %zu (device %d): %s\n", t, r.device, r.errors[e].c_str());
            ok = false;
        }
        std::fprintf(j, "]}");
    }
    std::fprintf(j, "], \"ok\": %s}\n", ok ? "true" : "false");
    std::fclose(j);
    std::printf("cuda-multi-gpu-program: layout=%s memory=%s iterations=%zu results %s\n",
                layout.c_str(),
                memory.c_str(),
                iterations,
                ok ? "match one run of each kernel" : "DIFFER from one run of each kernel");
    return ok ? 0 : 1;
}
} // namespace

int
main(int argc, char** argv)
{
    const auto mode = std::string{argc > 1 ? argv[1] : ""};
    if(mode == "count")
    {
        auto count = 0;
        if(cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
        std::printf("%d\n", count);
        return 0;
    }
    if(mode == "run" && argc == 6) return run(argv[2], argv[3], argv[4], argv[5]);
    std::fprintf(stderr,
                 "usage: %s count | run <two|one> <device|managed|peer> <result.bin> "
                 "<program.json>\n",
                 argv[0]);
    return 2;
}
