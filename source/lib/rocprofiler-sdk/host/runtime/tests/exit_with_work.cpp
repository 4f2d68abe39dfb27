// Exits while the process device has work in flight: a kernel that never returns on its own
// ("running"), or a kernel that blocks followed by queued packets ("queued"). The exit-time
// shutdown must not hang; CTest's timeout catches a hang. Prints "exit-ok" right before returning.

#include <rocprofiler-sdk-host/host.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <thread>

namespace
{
std::atomic<bool> started{false};

void
never_returns(const rocprofiler_host_work_item_t*, void*)
{
    started = true;
    // Bounded so that the process cannot live forever if exit itself were broken.
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{60};
    while(std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds{1});
}

void
blocks_briefly(const rocprofiler_host_work_item_t*, void*)
{
    started = true;
    std::this_thread::sleep_for(std::chrono::milliseconds{50});
}

int
fail(const char* what, rocprofiler_host_status_t status)
{
    std::fprintf(stderr, "%s: %s\n", what, rocprofiler_host_status_string(status));
    return 1;
}
} // namespace

int
main(int argc, char** argv)
{
    if(argc != 2 || (std::strcmp(argv[1], "running") != 0 && std::strcmp(argv[1], "queued") != 0))
    {
        std::fprintf(stderr, "usage: %s running|queued\n", argv[0]);
        return 2;
    }
    const bool running = std::strcmp(argv[1], "running") == 0;

    auto queue  = rocprofiler_host_queue_t{};
    auto kernel = rocprofiler_host_kernel_t{};
    auto status = rocprofiler_host_create_queue(&queue);
    if(status != ROCPROFILER_HOST_STATUS_SUCCESS) return fail("create_queue", status);
    status = rocprofiler_host_register_kernel(
        "exit_kernel", running ? never_returns : blocks_briefly, 0, 0, &kernel);
    if(status != ROCPROFILER_HOST_STATUS_SUCCESS) return fail("register_kernel", status);

    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = kernel;
    params.grid           = {1, 1, 1};
    params.workgroup_size = {1, 1, 1};
    for(int i = 0; i < (running ? 1 : 100); ++i)
    {
        status = rocprofiler_host_dispatch(queue, &params);
        if(status != ROCPROFILER_HOST_STATUS_SUCCESS) return fail("dispatch", status);
    }
    while(!started)
        std::this_thread::yield();
    std::printf("exit-ok\n");
    return 0;
}
