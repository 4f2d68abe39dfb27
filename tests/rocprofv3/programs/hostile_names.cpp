// A program whose kernels and ROCTx markers have names no output should take as they are: one that
// is not valid UTF-8 ("bad\xff\xfe") and one that would forge a line of rocprofv3's and drive a
// terminal (a newline, a fake "rocprofv3: error:", an OSC title sequence, a clear-screen sequence).
// Each kernel runs twice on the host device, inside a push/pop range and after a mark of the same
// name.
//
// Usage: rocprofv3-hostile-names
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk-roctx/roctx.h>

#include <cstdio>
#include <cstdlib>

namespace
{
void
check(rocprofiler_host_status_t status, const char* what)
{
    if(status == ROCPROFILER_HOST_STATUS_SUCCESS) return;
    std::fprintf(
        stderr, "hostile_names: %s failed: %s\n", what, rocprofiler_host_status_string(status));
    std::exit(90);
}

void
touch(const rocprofiler_host_work_item_t* item, void* args)
{
    static_cast<int*>(*static_cast<int* const*>(args))[item->global_linear_id] += 1;
}

constexpr const char* names[] = {"bad\xff\xfe", "evil\nrocprofv3: error: FAKE\x1b]0;t\x07\x1b[2J"};
} // namespace

int
main()
{
    auto queue = rocprofiler_host_queue_t{};
    check(rocprofiler_host_create_queue(&queue), "create_queue");
    int* data = nullptr;
    check(rocprofiler_host_malloc(64 * sizeof(int), reinterpret_cast<void**>(&data)), "malloc");
    for(const auto* name : names)
    {
        auto kernel = rocprofiler_host_kernel_t{};
        check(rocprofiler_host_register_kernel(name, touch, 0, 0, &kernel), "register");
        roctxMarkA(name);
        roctxRangePushA(name);
        for(int i = 0; i < 2; ++i)
        {
            auto params           = rocprofiler_host_dispatch_params_t{};
            params.size           = sizeof(params);
            params.kernel         = kernel;
            params.grid           = {1, 1, 1}; // workgroups
            params.workgroup_size = {64, 1, 1};
            params.args           = &data;
            params.args_size      = sizeof(data);
            check(rocprofiler_host_dispatch(queue, &params), "dispatch");
            check(rocprofiler_host_queue_synchronize(queue), "synchronize");
        }
        roctxRangePop();
    }
    check(rocprofiler_host_free(data), "free");
    std::printf("hostile names: ok\n");
    return 0;
}
