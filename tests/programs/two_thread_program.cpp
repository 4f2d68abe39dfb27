// two-thread-program: the application of the field-by-field integration tests.
//
// The main thread registers three kernels (its first use of the device, so a tool's initialize
// runs on it), creates two queues, then the main thread and one worker thread each submit
// `--dispatches N` kernels (default 12) to their own queue, cycling through the kernels. The
// program writes what it did, the ground truth the validator compares the tool's records with, as
// JSON to the path in TEST_PROGRAM_OUTPUT:
//
//   { "t_begin", "t_end",                  SDK clock (rocprofiler_get_timestamp), ns
//     "kernels": { name: { id, private_segment_size, group_segment_size (static) } },
//     "tool_context": handle from test-tool-cxx, or 0 when that tool is not loaded,
//     "threads": [ { "tid", "queue", "dispatches": [ { kernel, kernel_id, grid (workgroups),
//                    workgroup_size, dynamic_group_segment_size, program_pushed } ] } ] }
//
// External correlation ids: when test-tool-cxx is loaded (its exported test_tool_cxx_context()
// is found with dlsym), the program pushes ids itself through
// rocprofiler_push_external_correlation_id on that context around chosen dispatches
// (`program_pushed`, 0 when none) and checks that each pop returns what it pushed.
//
// The kernels' results are checked; the exit status is 0 only if every check passed.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <nlohmann/json.hpp>

#include <dlfcn.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

namespace
{
using json = nlohmann::json;

#define CHECK_HOST(CALL)                                                                           \
    do                                                                                             \
    {                                                                                              \
        auto status_ = (CALL);                                                                     \
        if(status_ != ROCPROFILER_HOST_STATUS_SUCCESS)                                             \
        {                                                                                          \
            std::fprintf(stderr,                                                                   \
                         "two-thread-program: %s failed: %s\n",                                    \
                         #CALL,                                                                    \
                         rocprofiler_host_status_string(status_));                                 \
            std::exit(2);                                                                          \
        }                                                                                          \
    } while(0)

struct fill_args
{
    uint64_t* out;
    uint64_t  n;
    uint64_t  seed;
};

// out[i] = i + seed over a 1-D grid.
void
fill_pattern(const rocprofiler_host_work_item_t* item, void* args)
{
    const auto* p = static_cast<const fill_args*>(args);
    if(item->global_linear_id < p->n)
        p->out[item->global_linear_id] = item->global_linear_id + p->seed;
}

// Counts work-items over a 3-D grid, using its private and group segments.
void
grid_3d(const rocprofiler_host_work_item_t* item, void* args)
{
    const auto* p    = static_cast<const fill_args*>(args);
    auto*       priv = static_cast<uint64_t*>(item->private_segment);
    priv[0]          = item->global_linear_id;
    static_cast<uint32_t*>(item->group_segment)[0] += 1;
    if(priv[0] < p->n) __atomic_fetch_add(&p->out[0], 1, __ATOMIC_RELAXED);
}

// Sums a workgroup's ids in its group segment; the last work-item stores the sum.
void
reduce_wg(const rocprofiler_host_work_item_t* item, void* args)
{
    const auto* p   = static_cast<const fill_args*>(args);
    auto*       sum = static_cast<uint64_t*>(item->group_segment);
    *sum += item->global_linear_id;
    auto wg_items = item->workgroup_size.x * item->workgroup_size.y * item->workgroup_size.z;
    if(item->local_linear_id + 1 == wg_items && item->workgroup_id.x < p->n)
        p->out[item->workgroup_id.x] = *sum;
}

struct kernel_desc
{
    const char*                  name;
    rocprofiler_host_kernel_fn_t fn;
    uint32_t                     private_segment_size;
    uint32_t                     group_segment_size;
    rocprofiler_host_dim3_t      grid;
    rocprofiler_host_dim3_t      workgroup_size;
    uint32_t                     dynamic_group_segment_size;
    rocprofiler_host_kernel_t    handle;
};

std::vector<kernel_desc> g_kernels = {
    {"fill_pattern", fill_pattern, 0, 0, {4, 1, 1}, {64, 1, 1}, 0, {}},
    {"grid_3d", grid_3d, 32, 128, {3, 2, 2}, {4, 2, 2}, 64, {}},
    {"reduce_wg", reduce_wg, 0, 256, {5, 1, 1}, {32, 1, 1}, 0, {}},
};

using context_getter_t = uint64_t (*)();

struct thread_result
{
    uint64_t                 tid        = 0;
    rocprofiler_host_queue_t queue      = {};
    json                     dispatches = json::array();
    int                      failures   = 0;
};

uint64_t
this_thread()
{
    auto tid = rocprofiler_thread_id_t{0};
    rocprofiler_get_thread_id(&tid);
    return tid;
}

// Which dispatch indices of a thread get a program-pushed external id, and which.
uint64_t
pushed_value(int thread_index, int dispatch_index)
{
    if(thread_index == 0) return (dispatch_index == 4 || dispatch_index == 5) ? 7001 : 0;
    return (dispatch_index % 3 == 0) ? 9000 + static_cast<uint64_t>(dispatch_index) : 0;
}

void
run_thread(int thread_index, int count, rocprofiler_context_id_t tool_ctx, thread_result& out)
{
    out.tid               = this_thread();
    const uint64_t n      = 256;
    uint64_t*      buffer = nullptr;
    CHECK_HOST(rocprofiler_host_malloc(n * sizeof(uint64_t), reinterpret_cast<void**>(&buffer)));

    for(int i = 0; i < count; ++i)
    {
        auto& k    = g_kernels[static_cast<size_t>(i) % g_kernels.size()];
        auto  args = fill_args{buffer, n, static_cast<uint64_t>(thread_index * 1000 + i)};
        CHECK_HOST(rocprofiler_host_memset(buffer, 0, n * sizeof(uint64_t)));

        const auto push = tool_ctx.handle != 0 ? pushed_value(thread_index, i) : 0;
        // Thread 0 keeps 7001 pushed across dispatches 4 and 5; thread 1 pushes around one.
        const bool do_push = push != 0 && (thread_index != 0 || i == 4);
        const bool do_pop  = push != 0 && (thread_index != 0 || i == 5);
        if(do_push && rocprofiler_push_external_correlation_id(
                          tool_ctx, out.tid, {.value = push}) != ROCPROFILER_STATUS_SUCCESS)
        {
            std::fprintf(stderr, "two-thread-program: push failed\n");
            ++out.failures;
        }

        auto signal = rocprofiler_host_signal_t{};
        CHECK_HOST(rocprofiler_host_create_signal(1, &signal));
        auto params                       = rocprofiler_host_dispatch_params_t{};
        params.size                       = sizeof(params);
        params.kernel                     = k.handle;
        params.grid                       = k.grid;
        params.workgroup_size             = k.workgroup_size;
        params.args                       = &args;
        params.args_size                  = sizeof(args);
        params.dynamic_group_segment_size = k.dynamic_group_segment_size;
        params.completion_signal          = signal;
        CHECK_HOST(rocprofiler_host_dispatch(out.queue, &params));

        if(do_pop)
        {
            auto popped = rocprofiler_user_data_t{.value = 0};
            if(rocprofiler_pop_external_correlation_id(tool_ctx, out.tid, &popped) !=
                   ROCPROFILER_STATUS_SUCCESS ||
               popped.value != push)
            {
                std::fprintf(stderr,
                             "two-thread-program: pop returned %llu, pushed %llu\n",
                             static_cast<unsigned long long>(popped.value),
                             static_cast<unsigned long long>(push));
                ++out.failures;
            }
        }

        CHECK_HOST(rocprofiler_host_signal_wait(
            signal, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 10ull * 1000 * 1000 * 1000, nullptr));
        CHECK_HOST(rocprofiler_host_destroy_signal(signal));

        // Results of the kernel.
        const uint64_t wg_items =
            uint64_t{k.workgroup_size.x} * k.workgroup_size.y * k.workgroup_size.z;
        const uint64_t items = wg_items * k.grid.x * k.grid.y * k.grid.z;
        auto           ok    = true;
        if(k.fn == fill_pattern)
        {
            for(uint64_t j = 0; j < n && j < items; ++j)
                ok = ok && buffer[j] == j + args.seed;
        }
        else if(k.fn == grid_3d)
        {
            ok = buffer[0] == (items < n ? items : n);
        }
        else
        {
            for(uint64_t wg = 0; wg < k.grid.x; ++wg)
            {
                auto want = uint64_t{0};
                for(uint64_t j = 0; j < wg_items; ++j)
                    want += wg * wg_items + j;
                ok = ok && buffer[wg] == want;
            }
        }
        if(!ok)
        {
            std::fprintf(stderr,
                         "two-thread-program: wrong result of %s (thread %d, dispatch %d)\n",
                         k.name,
                         thread_index,
                         i);
            ++out.failures;
        }

        out.dispatches.push_back(json{
            {"kernel", k.name},
            {"kernel_id", k.handle.handle},
            {"grid", {{"x", k.grid.x}, {"y", k.grid.y}, {"z", k.grid.z}}},
            {"workgroup_size",
             {{"x", k.workgroup_size.x}, {"y", k.workgroup_size.y}, {"z", k.workgroup_size.z}}},
            {"dynamic_group_segment_size", k.dynamic_group_segment_size},
            {"program_pushed", push}});
    }
    CHECK_HOST(rocprofiler_host_free(buffer));
}
} // namespace

int
main(int argc, char** argv)
{
    int count = 12;
    for(int i = 1; i < argc; ++i)
    {
        if(std::strcmp(argv[i], "--dispatches") == 0 && i + 1 < argc)
            count = std::atoi(argv[++i]);
        else
        {
            std::fprintf(stderr, "usage: two-thread-program [--dispatches N]\n");
            return 2;
        }
    }
    if(count < 1 || count > 10000)
    {
        std::fprintf(stderr, "two-thread-program: --dispatches must be in 1..10000\n");
        return 2;
    }

    auto t_begin = rocprofiler_timestamp_t{0};
    rocprofiler_get_timestamp(&t_begin);

    // First use of the device, on the main thread: tools are configured and initialized here.
    for(auto& k : g_kernels)
        CHECK_HOST(rocprofiler_host_register_kernel(
            k.name, k.fn, k.private_segment_size, k.group_segment_size, &k.handle));

    auto tool_ctx = rocprofiler_context_id_t{0};
    if(auto* getter =
           reinterpret_cast<context_getter_t>(dlsym(RTLD_DEFAULT, "test_tool_cxx_context")))
        tool_ctx.handle = getter();

    auto results = std::vector<thread_result>(2);
    CHECK_HOST(rocprofiler_host_create_queue(&results[0].queue));
    CHECK_HOST(rocprofiler_host_create_queue(&results[1].queue));

    auto worker = std::thread{[&] { run_thread(1, count, tool_ctx, results[1]); }};
    run_thread(0, count, tool_ctx, results[0]);
    worker.join();

    CHECK_HOST(rocprofiler_host_device_synchronize());
    auto t_end = rocprofiler_timestamp_t{0};
    rocprofiler_get_timestamp(&t_end);

    auto doc            = json::object();
    doc["t_begin"]      = t_begin;
    doc["t_end"]        = t_end;
    doc["tool_context"] = tool_ctx.handle;
    doc["kernels"]      = json::object();
    for(const auto& k : g_kernels)
        doc["kernels"][k.name] = json{{"id", k.handle.handle},
                                      {"private_segment_size", k.private_segment_size},
                                      {"group_segment_size", k.group_segment_size}};
    doc["threads"] = json::array();
    auto failures  = 0;
    for(const auto& r : results)
    {
        doc["threads"].push_back(
            json{{"tid", r.tid}, {"queue", r.queue.handle}, {"dispatches", r.dispatches}});
        failures += r.failures;
    }
    for(auto& r : results)
        CHECK_HOST(rocprofiler_host_destroy_queue(r.queue));

    if(const char* path = std::getenv("TEST_PROGRAM_OUTPUT"); path != nullptr && *path != '\0')
    {
        auto out = std::ofstream{path};
        out << doc.dump(1) << "\n";
    }
    if(failures != 0)
    {
        std::fprintf(stderr, "two-thread-program: %d checks failed\n", failures);
        return 1;
    }
    std::printf("two-thread-program: OK: %d dispatches on each of 2 threads\n", count);
    return 0;
}
