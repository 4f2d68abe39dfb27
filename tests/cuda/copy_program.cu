// Memory copy tracing on CUDA: a program that is its own tool (rocprofiler_configure below,
// exported). It copies host to device (pageable), runs a kernel, copies device to device and, on a
// stream, device to pinned host memory, then checks at finalization that MEMORY_COPY records
// describe exactly those three copies: direction, bytes, agents, the copying thread, times around
// the kernel's, and correlation ids in issue order. With COPY_TEST_PASSES=N > 1 the kernel is
// replayed N times: kernel replay's own snapshot and restore copies must not show, and the program
// must see one run's results. Exit 0: all checks held; 1: a check failed (each printed as FAIL).
// With COPY_TEST_NO_TOOL=1 the program is not a tool (it only copies and checks its results): the
// rocprofv3 tests run it under rocprofv3's tool.
#include <rocprofiler-sdk/rocprofiler.h>

#include "cuda_check.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <vector>

namespace
{
constexpr size_t n     = size_t{1} << 20; // ints
constexpr size_t bytes = n * sizeof(int);

struct seen_t
{
    std::mutex                                                       mutex   = {};
    std::vector<rocprofiler_buffer_tracing_memory_copy_record_t>     copies  = {};
    std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t> kernels = {};
    uint64_t                                                         dropped = 0;
};

seen_t&
seen()
{
    static auto* value = new seen_t{};
    return *value;
}

uint64_t main_thread = 0;
uint64_t passes      = 1;
int      failures    = 0;

void
expect(bool ok, const char* what)
{
    if(ok) return;
    std::printf("FAIL: %s\n", what);
    ++failures;
}

void
on_records(rocprofiler_context_id_t,
           rocprofiler_buffer_id_t,
           rocprofiler_record_header_t** headers,
           size_t                        count,
           void*,
           uint64_t drops)
{
    auto& s    = seen();
    auto  lock = std::lock_guard{s.mutex};
    s.dropped += drops;
    for(size_t i = 0; i < count; ++i)
    {
        if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
        if(headers[i]->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY)
            s.copies.push_back(*static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(
                headers[i]->payload));
        else if(headers[i]->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
            s.kernels.push_back(
                *static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                    headers[i]->payload));
    }
}

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return passes;
}

void
on_replay(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY ||
       record.operation != ROCPROFILER_KERNEL_REPLAY_CONFIG ||
       record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER)
        return;
    static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload)
        ->replay_pass_count = pass_count;
}

void
setup(rocprofiler_status_t status, const char* what)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return;
    std::printf("FAIL: %s: %s\n", what, rocprofiler_get_status_string(status));
    std::exit(1);
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    if(const char* env = std::getenv("COPY_TEST_PASSES")) passes = std::strtoull(env, nullptr, 10);
    auto ctx = rocprofiler_context_id_t{};
    auto buf = rocprofiler_buffer_id_t{};
    setup(rocprofiler_create_context(&ctx), "create_context");
    setup(rocprofiler_create_buffer(
              ctx, 1 << 16, 1 << 15, ROCPROFILER_BUFFER_POLICY_LOSSLESS, on_records, nullptr, &buf),
          "create_buffer");
    setup(rocprofiler_configure_buffer_tracing_service(
              ctx, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, nullptr, 0, buf),
          "configure memory copy tracing");
    setup(rocprofiler_configure_buffer_tracing_service(
              ctx, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, buf),
          "configure kernel dispatch tracing");
    if(passes > 1)
        setup(rocprofiler_configure_callback_tracing_service(
                  ctx, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, nullptr, 0, on_replay, nullptr),
              "configure kernel replay");
    setup(rocprofiler_start_context(ctx), "start_context");
    return 0;
}

// Buffers are flushed before this runs (CUPTI's copies included): every record is here.
void
tool_fini(void*)
{
    auto& s    = seen();
    auto  lock = std::lock_guard{s.mutex};
    std::printf("RESULT copies=%zu kernel_records=%zu dropped=%llu passes=%llu\n",
                s.copies.size(),
                s.kernels.size(),
                static_cast<unsigned long long>(s.dropped),
                static_cast<unsigned long long>(passes));
    for(const auto& c : s.copies)
        std::printf("RESULT copy op=%d bytes=%llu src_agent=%llu dst_agent=%llu tid=%llu corr=%llu "
                    "start=%llu end=%llu\n",
                    static_cast<int>(c.operation),
                    static_cast<unsigned long long>(c.bytes),
                    static_cast<unsigned long long>(c.src_agent_id.handle),
                    static_cast<unsigned long long>(c.dst_agent_id.handle),
                    static_cast<unsigned long long>(c.thread_id),
                    static_cast<unsigned long long>(c.correlation_id.internal),
                    static_cast<unsigned long long>(c.start_timestamp),
                    static_cast<unsigned long long>(c.end_timestamp));
    expect(s.dropped == 0, "no records dropped");
    expect(s.copies.size() == 3, "exactly the program's 3 copies (the SDK's own left out)");
    expect(s.kernels.size() == passes, "one kernel record per pass");
    if(s.copies.size() != 3 || s.kernels.empty())
    {
        std::fflush(stdout);
        std::_Exit(1);
    }
    const auto& h2d = s.copies[0];
    const auto& d2d = s.copies[1];
    const auto& d2h = s.copies[2];
    const auto& k   = s.kernels.back();
    const auto  gpu = k.dispatch_info.agent_id.handle;
    expect(h2d.operation == ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE, "first copy host to device");
    expect(d2d.operation == ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE, "second device to device");
    expect(d2h.operation == ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST, "third device to host");
    expect(h2d.bytes == bytes && d2d.bytes == bytes && d2h.bytes == bytes / 2, "bytes copied");
    expect(h2d.src_agent_id.handle == 0 && h2d.dst_agent_id.handle == gpu, "host to device agents");
    expect(d2d.src_agent_id.handle == gpu && d2d.dst_agent_id.handle == gpu,
           "device to device agents");
    expect(d2h.src_agent_id.handle == gpu && d2h.dst_agent_id.handle == 0, "device to host agents");
    for(const auto& c : s.copies)
    {
        expect(c.size == sizeof(c), "record size");
        expect(c.thread_id == main_thread, "the copying thread");
        expect(c.start_timestamp > 0 && c.start_timestamp <= c.end_timestamp, "copy times");
    }
    // Issue order: the kernel between the first and the second copy, on the same clock (20 us of
    // slack for the conversion of GPU times to it).
    constexpr uint64_t slack = 20000;
    expect(h2d.end_timestamp <= k.start_timestamp + slack, "host to device ends before the kernel");
    expect(s.kernels.front().end_timestamp <= d2d.start_timestamp + slack,
           "device to device starts after the kernel");
    expect(d2d.end_timestamp <= d2h.start_timestamp + slack, "copies in order");
    expect(h2d.correlation_id.internal < k.correlation_id.internal &&
               k.correlation_id.internal < d2d.correlation_id.internal &&
               d2d.correlation_id.internal < d2h.correlation_id.internal,
           "correlation ids in issue order");
    std::printf("RESULT failures=%d\n", failures);
    std::fflush(stdout);
    if(failures != 0) std::_Exit(1);
}

__global__ void
increment(int* data, size_t count)
{
    const auto i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
    if(i < count) data[i] += 1;
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    if(const char* off = std::getenv("COPY_TEST_NO_TOOL"); off != nullptr && off[0] == '1')
        return nullptr;
    id->name           = "copy-test";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}

int
main()
{
    main_thread = static_cast<uint64_t>(syscall(SYS_gettid));
    auto host   = std::vector<int>(n);
    for(size_t i = 0; i < n; ++i)
        host[i] = static_cast<int>(i);
    int* a      = nullptr;
    int* b      = nullptr;
    int* pinned = nullptr;
    CHECK(cudaMalloc(&a, bytes));
    CHECK(cudaMalloc(&b, bytes));
    CHECK(cudaMallocHost(&pinned, bytes / 2));
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreate(&stream));

    CHECK(cudaMemcpy(a, host.data(), bytes, cudaMemcpyHostToDevice));
    increment<<<(n + 255) / 256, 256>>>(a, n);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(b, a, bytes, cudaMemcpyDeviceToDevice));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpyAsync(pinned, b, bytes / 2, cudaMemcpyDeviceToHost, stream));
    CHECK(cudaStreamSynchronize(stream));

    auto wrong = size_t{0};
    for(size_t i = 0; i < n / 2; ++i)
        if(pinned[i] != host[i] + 1) ++wrong;
    std::printf("RESULT wrong_elements=%zu\n", wrong);
    CHECK(cudaStreamDestroy(stream));
    CHECK(cudaFreeHost(pinned));
    CHECK(cudaFree(b));
    CHECK(cudaFree(a));
    return wrong == 0 ? 0 : 1;
}
