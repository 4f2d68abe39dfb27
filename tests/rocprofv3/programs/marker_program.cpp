// A program that annotates itself with ROCTx (librocprofiler-sdk-roctx) around host-device
// kernels: marks, nested push/pop ranges, a process range closed by another thread, a thread
// name, and profiler pause/resume around its first and last kernels:
//
//   pause; kernel before_region; resume
//   mark "program start"; push "outer" { kernel inside_region; push "inner" { mark "inside
//   inner" } }; start "handoff" -> worker thread { push "worker" {} ; stop "handoff" }
//   name this thread "main"; pause; kernel after_region
//
// Usage: rocprofv3-marker-program [--truth FILE]. --truth writes {"pid", "main_thread",
// "worker_thread", "push_depths": [outer, inner], "pop_depths": [inner, outer]} as the program saw
// them (the validator compares the outputs with it).
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <sys/syscall.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>

namespace
{
void
check(rocprofiler_host_status_t status, const char* what)
{
    if(status == ROCPROFILER_HOST_STATUS_SUCCESS) return;
    std::fprintf(
        stderr, "marker_program: %s failed: %s\n", what, rocprofiler_host_status_string(status));
    std::exit(90);
}

void
touch(const rocprofiler_host_work_item_t* item, void* args)
{
    static_cast<int*>(*static_cast<int* const*>(args))[item->global_linear_id] += 1;
}

uint64_t
thread_id()
{
    return static_cast<uint64_t>(::syscall(SYS_gettid));
}
} // namespace

int
main(int argc, char** argv)
{
    auto truth_file = std::string{};
    for(int i = 1; i < argc; ++i)
    {
        auto arg = std::string{argv[i]};
        if(arg == "--truth" && i + 1 < argc)
            truth_file = argv[++i];
        else
        {
            std::fprintf(stderr, "marker_program: unknown argument '%s'\n", arg.c_str());
            return 2;
        }
    }

    auto queue = rocprofiler_host_queue_t{};
    check(rocprofiler_host_create_queue(&queue), "create_queue");
    int* data = nullptr;
    check(rocprofiler_host_malloc(64 * sizeof(int), reinterpret_cast<void**>(&data)), "malloc");
    auto run = [&](const char* name)
    {
        auto kernel = rocprofiler_host_kernel_t{};
        check(rocprofiler_host_register_kernel(name, touch, 0, 0, &kernel), "register");
        auto params           = rocprofiler_host_dispatch_params_t{};
        params.size           = sizeof(params);
        params.kernel         = kernel;
        params.grid           = {1, 1, 1}; // workgroups
        params.workgroup_size = {64, 1, 1};
        params.args           = &data;
        params.args_size      = sizeof(data);
        check(rocprofiler_host_dispatch(queue, &params), "dispatch");
        check(rocprofiler_host_queue_synchronize(queue), "synchronize");
    };

    roctxProfilerPause(0);
    run("before_region");
    roctxProfilerResume(0);

    roctxMarkA("program start");
    const int outer = roctxRangePushA("outer");
    run("inside_region");
    const int inner = roctxRangePushA("inner");
    roctxMarkA("inside inner");
    const int inner_pop = roctxRangePop();
    const int outer_pop = roctxRangePop();

    const auto handoff       = roctxRangeStartA("handoff");
    auto       worker_thread = uint64_t{0};
    std::thread{[&]
                {
                    worker_thread = thread_id();
                    roctxRangePushA("worker");
                    roctxRangePop();
                    roctxRangeStop(handoff);
                }}
        .join();
    roctxNameOsThread("main");

    roctxProfilerPause(0);
    run("after_region");
    check(rocprofiler_host_free(data), "free");

    if(!truth_file.empty())
    {
        auto* f = std::fopen(truth_file.c_str(), "w");
        if(f == nullptr) return 91;
        std::fprintf(f,
                     "{\"pid\": %d, \"main_thread\": %llu, \"worker_thread\": %llu, "
                     "\"push_depths\": [%d, %d], \"pop_depths\": [%d, %d]}\n",
                     static_cast<int>(::getpid()),
                     static_cast<unsigned long long>(thread_id()),
                     static_cast<unsigned long long>(worker_thread),
                     outer,
                     inner,
                     inner_pop,
                     outer_pop);
        std::fclose(f);
    }
    std::printf("marker program: ok\n");
    return 0;
}
