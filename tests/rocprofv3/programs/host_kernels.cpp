// Test program for rocprofv3: runs named kernels on two queues of the host reference device.
//
//   host_kernels [--marker FILE] [--exit-code N] [--exit-in-flight] [--iterations N]
//
// --marker FILE     creates FILE first thing (tests prove "the application was not run" by its
//                   absence)
// --exit-code N     returns N from main after the work
// --exit-in-flight  submits slow kernels and calls exit(0) without waiting for them
// --iterations N    rounds of dispatches (default 3)
//
// Each round dispatches "vector_add" and "scale,with_comma" on queue A and "reduce_sum" on queue
// B, so a run of R rounds has 3R dispatches: R of each kernel. It prints that count.
#include <rocprofiler-sdk-host/host.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

namespace
{
struct buffers
{
    float*   a;
    float*   b;
    float*   c;
    uint64_t n;
};

void
vector_add(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* bufs = static_cast<buffers*>(args);
    if(item->global_linear_id < bufs->n)
        bufs->c[item->global_linear_id] = bufs->a[item->global_linear_id] + bufs->b[item->global_linear_id];
}

void
scale(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* bufs = static_cast<buffers*>(args);
    if(item->global_linear_id < bufs->n) bufs->a[item->global_linear_id] *= 1.5f;
}

void
reduce_sum(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* bufs = static_cast<buffers*>(args);
    if(item->global_linear_id == 0)
    {
        float sum = 0;
        for(uint64_t i = 0; i < bufs->n; ++i)
            sum += bufs->b[i];
        bufs->c[0] = sum;
    }
}

void
slow_kernel(const rocprofiler_host_work_item_t*, void*)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

void
check(rocprofiler_host_status_t status, const char* what)
{
    if(status != ROCPROFILER_HOST_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "host_kernels: %s failed: %s\n", what, rocprofiler_host_status_string(status));
        std::exit(90);
    }
}

void
dispatch(rocprofiler_host_queue_t queue, rocprofiler_host_kernel_t kernel, const buffers& bufs,
         uint32_t workgroups, uint32_t workgroup_size)
{
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = kernel;
    params.grid           = {workgroups, 1, 1};
    params.workgroup_size = {workgroup_size, 1, 1};
    params.args           = &bufs;
    params.args_size      = sizeof(bufs);
    check(rocprofiler_host_dispatch(queue, &params), "dispatch");
}
}  // namespace

int
main(int argc, char** argv)
{
    int  exit_code      = 0;
    int  iterations     = 3;
    bool exit_in_flight = false;
    for(int i = 1; i < argc; ++i)
    {
        auto arg = std::string{argv[i]};
        if(arg == "--marker" && i + 1 < argc)
        {
            if(auto* f = std::fopen(argv[++i], "w")) std::fclose(f);
        }
        else if(arg == "--exit-code" && i + 1 < argc)
            exit_code = std::atoi(argv[++i]);
        else if(arg == "--iterations" && i + 1 < argc)
            iterations = std::atoi(argv[++i]);
        else if(arg == "--exit-in-flight")
            exit_in_flight = true;
        else
        {
            std::fprintf(stderr, "host_kernels: unknown argument '%s'\n", argv[i]);
            return 91;
        }
    }

    constexpr uint64_t n = 4096;
    auto bufs            = buffers{nullptr, nullptr, nullptr, n};
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&bufs.a)), "malloc");
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&bufs.b)), "malloc");
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&bufs.c)), "malloc");
    for(uint64_t i = 0; i < n; ++i)
    {
        bufs.a[i] = 1.0f;
        bufs.b[i] = 2.0f;
    }

    rocprofiler_host_kernel_t k_add{}, k_scale{}, k_reduce{}, k_slow{};
    check(rocprofiler_host_register_kernel("vector_add", vector_add, 0, 0, &k_add), "register");
    check(rocprofiler_host_register_kernel("scale,with_comma", scale, 0, 0, &k_scale), "register");
    check(rocprofiler_host_register_kernel("reduce_sum", reduce_sum, 16, 256, &k_reduce), "register");
    check(rocprofiler_host_register_kernel("slow_kernel", slow_kernel, 0, 0, &k_slow), "register");

    rocprofiler_host_queue_t qa{}, qb{};
    check(rocprofiler_host_create_queue(&qa), "create_queue");
    check(rocprofiler_host_create_queue(&qb), "create_queue");

    if(exit_in_flight)
    {
        // Four slow kernels per queue, then exit() while they are queued or running.
        for(int i = 0; i < 4; ++i)
        {
            dispatch(qa, k_slow, bufs, 1, 1);
            dispatch(qb, k_slow, bufs, 1, 1);
        }
        std::printf("dispatches: 8\n");
        std::fflush(stdout);
        std::exit(0);
    }

    for(int round = 0; round < iterations; ++round)
    {
        dispatch(qa, k_add, bufs, 16, 256);
        dispatch(qa, k_scale, bufs, 8, 512);
        dispatch(qb, k_reduce, bufs, 2, 64);
    }
    check(rocprofiler_host_queue_synchronize(qa), "synchronize");
    check(rocprofiler_host_queue_synchronize(qb), "synchronize");
    std::printf("dispatches: %d\n", 3 * iterations);
    check(rocprofiler_host_destroy_queue(qa), "destroy_queue");
    check(rocprofiler_host_destroy_queue(qb), "destroy_queue");
    return exit_code;
}
