// What the SDK costs per dispatch on the host reference device: a dispatch-and-wait loop of a
// small kernel, run as configured by the environment, prints the median and the 90th percentile
// of the per-dispatch time. Compare runs:
//
//   build/bin/host-dispatch-overhead                          # SDK loaded, no tool
//   ROCP_TOOL_LIBRARIES=<tool.so> build/bin/host-dispatch-overhead
//
// BENCH_ITERATIONS=N times N dispatches instead of 2000 (a long run shows whether a tool's memory
// grows with the run). With BENCH_REPLAY_PASSES=N (N >= 2) the program configures kernel replay
// itself (through rocprofiler_force_configure) with N passes per dispatch, so the replay window's
// fixed cost can be read off against N = 1 (BENCH_REPLAY_PASSES=1: replay configured, every
// dispatch opts out).
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace
{
uint64_t passes = 0; // 0: do not configure replay

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
       record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload)
            ->replay_pass_count = pass_count;
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    auto ctx = rocprofiler_context_id_t{};
    if(rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS) return 1;
    if(rocprofiler_configure_callback_tracing_service(
           ctx, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, nullptr, 0, replay_callback, nullptr) !=
       ROCPROFILER_STATUS_SUCCESS)
        return 1;
    return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

rocprofiler_tool_configure_result_t*
configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "host-dispatch-overhead";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, nullptr, nullptr};
    return &result;
}

struct args_t
{
    float* data;
};

void
scale(const rocprofiler_host_work_item_t* item, void* raw)
{
    static_cast<args_t*>(raw)->data[item->global_linear_id] *= 1.0001f;
}

bool
ok(rocprofiler_host_status_t status, const char* what)
{
    if(status == ROCPROFILER_HOST_STATUS_SUCCESS) return true;
    std::fprintf(stderr,
                 "host-dispatch-overhead: %s failed: %s\n",
                 what,
                 rocprofiler_host_status_string(status));
    return false;
}
} // namespace

int
main()
{
    if(const char* env = std::getenv("BENCH_REPLAY_PASSES"); env != nullptr && *env)
    {
        passes = std::strtoull(env, nullptr, 10);
        if(passes == 0 || rocprofiler_force_configure(configure) != ROCPROFILER_STATUS_SUCCESS)
        {
            std::fprintf(stderr, "host-dispatch-overhead: BENCH_REPLAY_PASSES must be >= 1\n");
            return 2;
        }
    }
    constexpr uint32_t elements   = 1024;
    constexpr int      warmup     = 200;
    int                iterations = 2000; // BENCH_ITERATIONS overrides
    if(const char* env = std::getenv("BENCH_ITERATIONS"); env != nullptr && *env)
    {
        iterations = std::atoi(env);
        if(iterations < 1)
        {
            std::fprintf(stderr, "host-dispatch-overhead: BENCH_ITERATIONS must be >= 1\n");
            return 2;
        }
    }

    auto  kernel = rocprofiler_host_kernel_t{};
    auto  queue  = rocprofiler_host_queue_t{};
    auto  signal = rocprofiler_host_signal_t{};
    void* data   = nullptr;
    if(!ok(rocprofiler_host_register_kernel("scale", scale, 0, 0, &kernel), "register") ||
       !ok(rocprofiler_host_create_queue(&queue), "queue") ||
       !ok(rocprofiler_host_malloc(elements * sizeof(float), &data), "malloc") ||
       !ok(rocprofiler_host_memset(data, 0, elements * sizeof(float)), "memset") ||
       !ok(rocprofiler_host_create_signal(0, &signal), "signal"))
        return 1;

    auto args                = args_t{static_cast<float*>(data)};
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = kernel;
    params.grid              = {elements / 256, 1, 1};
    params.workgroup_size    = {256, 1, 1};
    params.args              = &args;
    params.args_size         = sizeof(args);
    params.completion_signal = signal;

    auto samples = std::vector<double>{};
    samples.reserve(iterations);
    for(int i = 0; i < warmup + iterations; ++i)
    {
        if(!ok(rocprofiler_host_signal_store(signal, 1), "signal store")) return 1;
        auto start = std::chrono::steady_clock::now();
        if(!ok(rocprofiler_host_dispatch(queue, &params), "dispatch") ||
           !ok(rocprofiler_host_signal_wait(signal,
                                            ROCPROFILER_HOST_SIGNAL_CONDITION_LT,
                                            1,
                                            ROCPROFILER_HOST_TIMEOUT_INFINITE,
                                            nullptr),
               "wait"))
            return 1;
        auto end = std::chrono::steady_clock::now();
        if(i >= warmup)
            samples.push_back(std::chrono::duration<double, std::micro>(end - start).count());
    }
    std::sort(samples.begin(), samples.end());
    std::printf(
        "host-dispatch-overhead: replay passes=%llu dispatches=%d median_us=%.2f p90_us=%.2f\n",
        static_cast<unsigned long long>(passes),
        iterations,
        samples[samples.size() / 2],
        samples[samples.size() * 9 / 10]);
    return 0;
}
