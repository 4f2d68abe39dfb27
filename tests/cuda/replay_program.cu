// GPU test program for kernel replay on non-idempotent and concurrent work. Usage:
//   cuda-replay-program nonidem <out.bin>   a += b, an atomic histogram, an in-place update and a
//                                           cuBLAS SGEMM with beta = 1; writes every result's bytes
//   cuda-replay-program streams <out.bin>   4 threads x 2 streams launching concurrently
//   cuda-replay-program capture <out.bin>   one plain launch, then a stream capture and a graph
//                                           launch (twice)
// Each mode checks its own results against what one run of each kernel gives (exit 1 if not) and
// writes the result bytes, so a run under replay can be compared byte for byte with one without.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuda_check.hpp"
#define CHECK_BLAS(CALL)                                                                           \
    do                                                                                             \
    {                                                                                              \
        cublasStatus_t st_ = (CALL);                                                               \
        if(st_ != CUBLAS_STATUS_SUCCESS)                                                           \
        {                                                                                          \
            std::fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #CALL, st_); \
            std::exit(2);                                                                          \
        }                                                                                          \
    } while(0)

__global__ void
add_into(float* a, const float* b, int n) // a += b
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) a[i] += b[i];
}

__global__ void
histogram(const unsigned* data, int n, unsigned* bins, int nbins)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) atomicAdd(&bins[data[i] % nbins], 1u);
}

__global__ void
inplace_update(float* x, int n) // x = x * 1.5 + 0.25, in place
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) x[i] = x[i] * 1.5f + 0.25f;
}

__global__ void
iota_u32(unsigned* d, int n, unsigned mul)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) d[i] = static_cast<unsigned>(i) * mul + 7u;
}

__global__ void
set_f32(float* d, int n, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) d[i] = static_cast<float>((i * 37) % 101) * scale;
}

__global__ void
increment(int* a, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if(i < n) a[i] += 1;
}

int
blocks_for(int n)
{
    return (n + 255) / 256;
}

void
append(std::vector<unsigned char>& out, const void* device, size_t bytes)
{
    const auto at = out.size();
    out.resize(at + bytes);
    CHECK(cudaMemcpy(out.data() + at, device, bytes, cudaMemcpyDeviceToHost));
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
mode_nonidem(std::vector<unsigned char>& out)
{
    constexpr int n = 1 << 20;
    float *       a = nullptr, *b = nullptr, *x = nullptr;
    unsigned *    data = nullptr, *bins = nullptr;
    constexpr int nbins = 97;
    CHECK(cudaMalloc(&a, n * sizeof(float)));
    CHECK(cudaMalloc(&b, n * sizeof(float)));
    CHECK(cudaMalloc(&x, n * sizeof(float)));
    CHECK(cudaMalloc(&data, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&bins, nbins * sizeof(unsigned)));
    set_f32<<<blocks_for(n), 256>>>(a, n, 0.5f);
    set_f32<<<blocks_for(n), 256>>>(b, n, 0.25f);
    set_f32<<<blocks_for(n), 256>>>(x, n, 0.01f);
    iota_u32<<<blocks_for(n), 256>>>(data, n, 2654435761u);
    CHECK(cudaMemset(bins, 0, nbins * sizeof(unsigned)));
    for(int k = 0; k < 3; ++k)
    {
        add_into<<<blocks_for(n), 256>>>(a, b, n);
        histogram<<<blocks_for(n), 256>>>(data, n, bins, nbins);
        inplace_update<<<blocks_for(n), 256>>>(x, n);
    }
    CHECK(cudaGetLastError());

    // cuBLAS SGEMM with beta = 1: C = A*B + C, twice.
    constexpr int m = 256;
    float *       A = nullptr, *B = nullptr, *C = nullptr;
    CHECK(cudaMalloc(&A, m * m * sizeof(float)));
    CHECK(cudaMalloc(&B, m * m * sizeof(float)));
    CHECK(cudaMalloc(&C, m * m * sizeof(float)));
    set_f32<<<blocks_for(m * m), 256>>>(A, m * m, 0.125f);
    set_f32<<<blocks_for(m * m), 256>>>(B, m * m, 0.0625f);
    set_f32<<<blocks_for(m * m), 256>>>(C, m * m, 1.0f);
    cublasHandle_t handle = nullptr;
    CHECK_BLAS(cublasCreate(&handle));
    const float alpha = 1.0f, beta = 1.0f;
    for(int k = 0; k < 2; ++k)
        CHECK_BLAS(cublasSgemm(
            handle, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &alpha, A, m, B, m, &beta, C, m));
    CHECK(cudaDeviceSynchronize());

    // Self-checks against the host (exact: the operations are exact in float or integer).
    auto ha = std::vector<float>(n), hb = std::vector<float>(n), hx = std::vector<float>(n);
    auto hbins = std::vector<unsigned>(nbins);
    CHECK(cudaMemcpy(ha.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hx.data(), x, n * sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hbins.data(), bins, nbins * sizeof(unsigned), cudaMemcpyDeviceToHost));
    auto wrong_a = 0, wrong_x = 0;
    for(int i = 0; i < n; ++i)
    {
        float ea = static_cast<float>((i * 37) % 101) * 0.5f;
        float eb = static_cast<float>((i * 37) % 101) * 0.25f;
        for(int k = 0; k < 3; ++k)
            ea += eb;
        float ex = static_cast<float>((i * 37) % 101) * 0.01f;
        for(int k = 0; k < 3; ++k)
            ex = ex * 1.5f + 0.25f;
        if(ha[i] != ea) ++wrong_a;
        // The device may contract to an FMA: allow 1e-5 relative.
        if(std::abs(hx[i] - ex) > 1e-5f * (1.0f + std::abs(ex))) ++wrong_x;
    }
    auto ebins = std::vector<unsigned>(nbins, 0);
    for(int i = 0; i < n; ++i)
        ebins[(static_cast<unsigned>(i) * 2654435761u + 7u) % nbins] += 3;
    expect(wrong_a == 0, "a += b three times (" + std::to_string(wrong_a) + " wrong)");
    expect(wrong_x == 0, "in-place update three times (" + std::to_string(wrong_x) + " wrong)");
    expect(hbins == ebins, "atomic histogram counts three runs");
    // GEMM: C0 + 2*A*B (column-major), checked on a few elements with a tolerance.
    auto hC = std::vector<float>(m * m), hA = std::vector<float>(m * m),
         hB = std::vector<float>(m * m);
    CHECK(cudaMemcpy(hC.data(), C, m * m * sizeof(float), cudaMemcpyDeviceToHost));
    for(int i = 0; i < m * m; ++i)
    {
        hA[i] = static_cast<float>((i * 37) % 101) * 0.125f;
        hB[i] = static_cast<float>((i * 37) % 101) * 0.0625f;
    }
    auto wrong_c = 0;
    for(int r = 0; r < m; r += 17)
        for(int c = 0; c < m; c += 13)
        {
            double dot = 0;
            for(int k = 0; k < m; ++k)
                dot += static_cast<double>(hA[r + k * m]) * hB[k + c * m];
            const double want = static_cast<double>((r + c * m) * 37 % 101) + 2.0 * dot;
            if(std::abs(hC[r + c * m] - want) > 1e-3 * (1.0 + std::abs(want))) ++wrong_c;
        }
    expect(wrong_c == 0,
           "GEMM with beta = 1 accumulated twice (" + std::to_string(wrong_c) + " wrong)");
    std::printf("replay_program nonidem: a[1]=%g x[1]=%g bins[0]=%u C[0]=%g\n",
                ha[1],
                hx[1],
                hbins[0],
                hC[0]);
    (void)hb;
    append(out, a, n * sizeof(float));
    append(out, x, n * sizeof(float));
    append(out, bins, nbins * sizeof(unsigned));
    append(out, C, m * m * sizeof(float));
    CHECK_BLAS(cublasDestroy(handle));
}

void
mode_streams(std::vector<unsigned char>& out)
{
    constexpr int threads = 4, streams_per_thread = 2, launches = 6, n = 1 << 16;
    int*          buffers[threads * streams_per_thread] = {};
    for(auto& b : buffers)
    {
        CHECK(cudaMalloc(&b, n * sizeof(int)));
        CHECK(cudaMemset(b, 0, n * sizeof(int)));
    }
    CHECK(cudaDeviceSynchronize());
    auto workers = std::vector<std::thread>{};
    for(int t = 0; t < threads; ++t)
        workers.emplace_back(
            [t, &buffers]
            {
                cudaStream_t s[streams_per_thread] = {};
                for(auto& st : s)
                    CHECK(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
                for(int k = 0; k < launches; ++k)
                    for(int j = 0; j < streams_per_thread; ++j)
                        increment<<<blocks_for(n), 256, 0, s[j]>>>(
                            buffers[t * streams_per_thread + j], n);
                CHECK(cudaGetLastError());
                for(auto& st : s)
                {
                    CHECK(cudaStreamSynchronize(st));
                    CHECK(cudaStreamDestroy(st));
                }
            });
    for(auto& w : workers)
        w.join();
    auto host  = std::vector<int>(n);
    auto wrong = 0;
    for(auto* b : buffers)
    {
        CHECK(cudaMemcpy(host.data(), b, n * sizeof(int), cudaMemcpyDeviceToHost));
        for(int v : host)
            if(v != launches) ++wrong;
        append(out, b, n * sizeof(int));
    }
    expect(wrong == 0,
           "every buffer incremented exactly " + std::to_string(launches) + " times (" +
               std::to_string(wrong) + " wrong)");
    std::printf("replay_program streams: %d threads x %d streams x %d launches, wrong=%d\n",
                threads,
                streams_per_thread,
                launches,
                wrong);
}

void
mode_capture(std::vector<unsigned char>& out)
{
    constexpr int n = 1 << 16;
    int*          a = nullptr;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMemset(a, 0, n * sizeof(int)));
    cudaStream_t s = nullptr;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    increment<<<blocks_for(n), 256, 0, s>>>(a, n); // a plain launch: replayed
    CHECK(cudaGetLastError());
    CHECK(cudaDeviceSynchronize());
    cudaGraph_t graph = nullptr;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    for(int k = 0; k < 3; ++k)
        increment<<<blocks_for(n), 256, 0, s>>>(a, n); // captured: not run now
    CHECK(cudaStreamEndCapture(s, &graph));
    cudaGraphExec_t exec = nullptr;
    CHECK(cudaGraphInstantiate(&exec, graph, 0));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaGraphLaunch(exec, s));
    CHECK(cudaStreamSynchronize(s));
    auto host = std::vector<int>(n);
    CHECK(cudaMemcpy(host.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost));
    auto wrong = 0;
    for(int v : host)
        if(v != 7) ++wrong;
    expect(wrong == 0,
           "1 plain + 2 graph launches of 3 increments = 7 (" + std::to_string(wrong) + " wrong)");
    std::printf("replay_program capture: a[0]=%d (expect 7) wrong=%d\n", host[0], wrong);
    append(out, a, n * sizeof(int));
    CHECK(cudaGraphExecDestroy(exec));
    CHECK(cudaGraphDestroy(graph));
    CHECK(cudaStreamDestroy(s));
}
int
main(int argc, char** argv)
{
    if(argc < 3)
    {
        std::fprintf(stderr, "usage: %s <nonidem|streams|capture> <out.bin>\n", argv[0]);
        return 2;
    }
    const std::string mode = argv[1];
    auto              out  = std::vector<unsigned char>{};
    if(mode == "nonidem")
        mode_nonidem(out);
    else if(mode == "streams")
        mode_streams(out);
    else if(mode == "capture")
        mode_capture(out);
    else
        return 2;
    CHECK(cudaDeviceSynchronize());
    FILE* f = std::fopen(argv[2], "wb");
    if(f == nullptr) return 2;
    std::fwrite(out.data(), 1, out.size(), f);
    std::fclose(f);
    return failures == 0 ? 0 : 1;
}
