// Test program for rocprofv3: runs named kernels on two queues of the host reference device.
//
//   host_kernels [--marker FILE] [--exit-code N] [--exit-in-flight] [--exit-from-kernel]
//                [--iterations N] [--copies]
//                [--accumulate] [--hidden-write] [--nested] [--truth FILE] [--long-name N]
//                [--pid-file FILE] [--ignore-sigint] [--remove-dir DIR] [--close-fds]
//                [--linger MS] [--end HOW] [--hot-spin MS]
//
// --marker FILE     creates FILE first thing (tests prove "the application was not run" by its
//                   absence)
// --exit-code N     returns N from main after the work
// --exit-in-flight  submits slow kernels and calls exit(0) without waiting for them
// --exit-from-kernel  submits slow kernels on queue B, then a kernel on queue A that calls exit(0)
//                   (exit on a device thread)
// --iterations N    rounds of dispatches (default 3)
// --copies          also copies with rocprofiler_host_memcpy: the inputs a and b from host memory
//                   before the rounds (two HOST_TO_DEVICE copies of 16384 bytes), half of a to c
//                   (DEVICE_TO_DEVICE, 8192 bytes), after the rounds c to host memory
//                   (DEVICE_TO_HOST, 16384 bytes) and 1024 bytes of that to another host buffer
//                   (HOST_TO_HOST); with --truth, each copy is in the ground truth's "copies"
// --accumulate      also dispatches "accumulate" (a[i] += b[i], not idempotent) each round, and
//                   checks the final contents of a against a sequential computation: exit 92 and
//                   "result check: FAILED" when they differ (e.g. a replay that did not restore
//                   memory), "result check: ok" otherwise
// --hidden-write    also dispatches "hidden_write" each round: it adds 1 to every element of a
//                   device buffer that it reaches through a global variable, not through its
//                   arguments, so kernel replay cannot predict that write on first sight (a pass
//                   writes outside the snapshot); checks that each element was incremented once
//                   per round, with the same "result check" lines and exit 92
// --nested          also dispatches "spawner" each round, whose first work-item dispatches
//                   "child" on queue B from the device thread (a launch the SDK never replays;
//                   it repeats with every replay pass of spawner)
// --truth FILE      writes the ground truth of every dispatch, in submission order, to FILE:
//                   {"dispatches": [{"kernel", "grid": [x,y,z] work-items, "workgroup": [x,y,z],
//                   "workgroups": [x,y,z]}], "copies": [{"direction", "bytes", "src", "dst",
//                   "thread"}]} (copies in the order made; src and dst are the addresses)
// --long-name N     registers "vector_add" as "vector_add" followed by N 'x' characters (name
//                   filters against very long names)
// --add-name NAME   registers "vector_add" as NAME (a mangled name, for -T and -M)
// --pid-file FILE   writes the process id to FILE (after the work; tests of signals wait for it)
// --ignore-sigint   ignores SIGINT (set first thing)
// --close-fds       closes every descriptor above 2 after the work (as daemons and some job
//                   launchers do), the profiler's included
// --remove-dir DIR  removes DIR and everything in it after the work (an output directory that
//                   disappears during the run)
// --hot-spin MS     after the rounds, dispatches "hot_spin" once (one work-item) on queue A: a loop
//                   that runs until its thread has used MS ms of CPU time (PC sampling's hot
//                   kernel); it prints "hot_spin: done" and counts in "dispatches"
// --linger MS       sleeps MS milliseconds after the work (and after --pid-file), before the end
// --end HOW         how the process ends after the work, instead of returning from main:
//                   exit, exit-thread (exit(0) from another thread while main waits), _exit,
//                   abort, segv (a null pointer write), fpe (integer division by zero), ill (a
//                   trap instruction), bus (raise(SIGBUS)), sigterm, sigint, sighup, sigquit,
//                   sigkill (kill(getpid(), ...)), sigterm-exit (SIGTERM to itself, then
//                   exit(0) at once: the two finalizations race), wait (sleeps until a signal
//                   ends it), quick_exit (quick_exit(0)), terminate (an exception escaping main:
//                   std::terminate, abort), terminate-own-handler (the same with a terminate
//                   handler of the program's own, which prints a line and calls _Exit(7)),
//                   exit-thread-launching (two threads launch
//                   slow_kernel in a loop on queues of their own; a third calls exit(0) while
//                   they do)
//
// Each round dispatches "vector_add" (a 3-D grid) and "scale,with_comma" (then "accumulate") on
// queue A and "reduce_sum" on queue B, so a run of R rounds has 3R dispatches (4R with
// --accumulate, one more with --hidden-write, one more with --nested, not counting the children): R
// of each kernel. It prints that count.
#include <rocprofiler-sdk-host/host.h>

#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

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
        bufs->c[item->global_linear_id] =
            bufs->a[item->global_linear_id] + bufs->b[item->global_linear_id];
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
accumulate(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* bufs = static_cast<buffers*>(args);
    if(item->global_linear_id < bufs->n)
        bufs->a[item->global_linear_id] += bufs->b[item->global_linear_id];
}

// The buffer hidden_write writes: device memory the kernel's arguments do not point to.
float* hidden_buffer = nullptr;

void
hidden_write(const rocprofiler_host_work_item_t* item, void* args)
{
    const auto n = *static_cast<const uint64_t*>(args);
    if(item->global_linear_id < n) hidden_buffer[item->global_linear_id] += 1.0f;
}

struct spawn_args
{
    rocprofiler_host_queue_t  queue;
    rocprofiler_host_kernel_t child;
};

void
child(const rocprofiler_host_work_item_t*, void*)
{
}

void check(rocprofiler_host_status_t status, const char* what);

void
spawner(const rocprofiler_host_work_item_t* item, void* args)
{
    if(item->global_linear_id != 0) return;
    const auto* spawn     = static_cast<const spawn_args*>(args);
    auto        params    = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = spawn->child;
    params.grid           = {1, 1, 1};
    params.workgroup_size = {1, 1, 1};
    params.args           = spawn;
    params.args_size      = sizeof(*spawn);
    check(rocprofiler_host_dispatch(spawn->queue, &params), "dispatch from a kernel");
}

void
slow_kernel(const rocprofiler_host_work_item_t*, void*)
{
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

// Spins until the calling thread has used *args nanoseconds of CPU time (a hot loop). The clock is
// read once per million steps, so that the time goes to the loop, not to the clock's system call.
void
hot_spin(const rocprofiler_host_work_item_t*, void* args)
{
    const auto cpu_ns = []
    {
        auto ts = timespec{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
    };
    const auto        until = cpu_ns() + *static_cast<const uint64_t*>(args);
    volatile uint64_t spins = 0;
    while(cpu_ns() < until)
        for(int i = 0; i < 1000000; ++i)
            spins = spins + 1;
}

// Calls exit(0) from a device thread (a kernel that ends the process).
void
exit_kernel(const rocprofiler_host_work_item_t*, void*)
{
    std::fflush(stdout);
    std::exit(0);
}

void
check(rocprofiler_host_status_t status, const char* what)
{
    if(status != ROCPROFILER_HOST_STATUS_SUCCESS)
    {
        std::fprintf(
            stderr, "host_kernels: %s failed: %s\n", what, rocprofiler_host_status_string(status));
        std::exit(90);
    }
}

struct dim3
{
    uint32_t x = 1, y = 1, z = 1;
};

// Ground truth of the dispatches, as JSON objects (no JSON library: the program only needs the
// host device API).
std::string truth_json = {};

void
dispatch(rocprofiler_host_queue_t  queue,
         rocprofiler_host_kernel_t kernel,
         const char*               name,
         const void*               args,
         size_t                    args_size,
         dim3                      workgroups,
         dim3                      workgroup_size)
{
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = kernel;
    params.grid           = {workgroups.x, workgroups.y, workgroups.z};
    params.workgroup_size = {workgroup_size.x, workgroup_size.y, workgroup_size.z};
    auto triple           = [](uint64_t x, uint64_t y, uint64_t z)
    { return "[" + std::to_string(x) + "," + std::to_string(y) + "," + std::to_string(z) + "]"; };
    truth_json += std::string{truth_json.empty() ? "" : ",\n"} + "{\"kernel\":\"" + name +
                  "\",\"grid\":" +
                  triple(uint64_t{workgroups.x} * workgroup_size.x,
                         uint64_t{workgroups.y} * workgroup_size.y,
                         uint64_t{workgroups.z} * workgroup_size.z) +
                  ",\"workgroup\":" + triple(workgroup_size.x, workgroup_size.y, workgroup_size.z) +
                  ",\"workgroups\":" + triple(workgroups.x, workgroups.y, workgroups.z) + "}";
    params.args      = args;
    params.args_size = args_size;
    check(rocprofiler_host_dispatch(queue, &params), "dispatch");
}

// Ground truth of the copies, as JSON objects.
std::string copies_json = {};

void
copy(void* dst, const void* src, size_t bytes, const char* direction)
{
    check(rocprofiler_host_memcpy(dst, src, bytes), "memcpy");
    char line[256];
    std::snprintf(line,
                  sizeof(line),
                  "{\"direction\":\"%s\",\"bytes\":%zu,\"src\":%llu,\"dst\":%llu,\"thread\":%ld}",
                  direction,
                  bytes,
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(src)),
                  static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(dst)),
                  static_cast<long>(syscall(SYS_gettid)));
    copies_json += std::string{copies_json.empty() ? "" : ",\n"} + line;
}

void
dispatch(rocprofiler_host_queue_t  queue,
         rocprofiler_host_kernel_t kernel,
         const char*               name,
         const buffers&            bufs,
         dim3                      workgroups,
         dim3                      workgroup_size)
{
    dispatch(queue, kernel, name, &bufs, sizeof(bufs), workgroups, workgroup_size);
}

// Each element of the buffer must have been incremented once per round.
bool
check_hidden(uint64_t n, int iterations)
{
    for(uint64_t i = 0; i < n; ++i)
        if(hidden_buffer[i] != static_cast<float>(iterations))
        {
            std::printf("result check: FAILED (hidden[%llu] = %g, expected %d)\n",
                        static_cast<unsigned long long>(i),
                        hidden_buffer[i],
                        iterations);
            return false;
        }
    std::printf("result check: ok\n");
    return true;
}
volatile int  zero         = 0;
volatile int* null_pointer = nullptr;
// --end exit-thread-launching: the kernel the launching threads dispatch (set by main).
rocprofiler_host_kernel_t launching_kernel = {};

// Ends the process as @p how says; returns only for an unknown word. The faults are meant: the
// undefined behaviour sanitizer must not turn them into its own report.
__attribute__((no_sanitize("undefined"))) void
end_process(const std::string& how)
{
    std::fflush(stdout);
    if(how == "exit") std::exit(0);
    if(how == "exit-thread")
    {
        std::thread{[] { std::exit(0); }}.detach();
        for(;;)
            std::this_thread::sleep_for(std::chrono::seconds{1});
    }
    if(how == "_exit") _exit(0);
    if(how == "quick_exit") std::quick_exit(0);
    if(how == "terminate-own-handler")
        std::set_terminate(
            []
            {
                std::fprintf(stderr, "host_kernels: own terminate handler\n");
                std::_Exit(7);
            });
    if(how == "terminate" || how == "terminate-own-handler")
        throw std::runtime_error{"host_kernels: --end " + how};
    if(how == "exit-thread-launching")
    {
        // Statuses are not checked: a launch that fails while the process exits must not change
        // its exit code.
        for(int t = 0; t < 2; ++t)
            std::thread{
                []
                {
                    auto queue = rocprofiler_host_queue_t{};
                    if(rocprofiler_host_create_queue(&queue) != ROCPROFILER_HOST_STATUS_SUCCESS)
                        return;
                    for(;;)
                    {
                        auto params           = rocprofiler_host_dispatch_params_t{};
                        params.size           = sizeof(params);
                        params.kernel         = launching_kernel;
                        params.grid           = {1, 1, 1};
                        params.workgroup_size = {1, 1, 1};
                        (void)rocprofiler_host_dispatch(queue, &params);
                        (void)rocprofiler_host_queue_synchronize(queue);
                    }
                }}
                .detach();
        std::thread{[]
                    {
                        std::this_thread::sleep_for(std::chrono::milliseconds{300});
                        std::exit(0);
                    }}
            .detach();
        for(;;)
            std::this_thread::sleep_for(std::chrono::seconds{1});
    }
    if(how == "abort") std::abort();
    if(how == "segv") *null_pointer = 1;
    if(how == "fpe") std::printf("%d\n", 7 / zero);
    if(how == "ill") __builtin_trap();
    if(how == "bus") raise(SIGBUS);
    if(how == "sigterm") kill(getpid(), SIGTERM);
    if(how == "sigint") kill(getpid(), SIGINT);
    if(how == "sighup") kill(getpid(), SIGHUP);
    if(how == "sigquit") kill(getpid(), SIGQUIT);
    if(how == "sigkill") kill(getpid(), SIGKILL);
    if(how == "sigterm-exit")
    {
        kill(getpid(), SIGTERM);
        std::exit(0);
    }
    if(how == "wait" || how == "sigterm" || how == "sigint" || how == "sighup" ||
       how == "sigquit" || how == "sigkill")
        for(;;)
            pause();
    std::fprintf(stderr, "host_kernels: unknown --end '%s'\n", how.c_str());
    std::exit(91);
}
} // namespace

int
main(int argc, char** argv)
{
    int  exit_code      = 0;
    int  iterations     = 3;
    bool exit_in_flight = false;
    bool exit_in_kernel = false;
    bool accumulate_too = false;
    bool hidden_too     = false;
    bool nested_too     = false;
    bool copies_too     = false;
    auto truth_file     = std::string{};
    auto add_name       = std::string{"vector_add"};
    auto pid_file       = std::string{};
    auto remove_dir     = std::string{};
    auto close_fds      = false;
    auto end_how        = std::string{};
    int  linger_ms      = 0;
    int  hot_spin_ms    = 0;
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
        else if(arg == "--exit-from-kernel")
            exit_in_kernel = true;
        else if(arg == "--accumulate")
            accumulate_too = true;
        else if(arg == "--hidden-write")
            hidden_too = true;
        else if(arg == "--copies")
            copies_too = true;
        else if(arg == "--nested")
            nested_too = true;
        else if(arg == "--truth" && i + 1 < argc)
            truth_file = argv[++i];
        else if(arg == "--long-name" && i + 1 < argc)
            add_name += std::string(std::strtoul(argv[++i], nullptr, 10), 'x');
        else if(arg == "--add-name" && i + 1 < argc)
            add_name = argv[++i];
        else if(arg == "--pid-file" && i + 1 < argc)
            pid_file = argv[++i];
        else if(arg == "--ignore-sigint")
            signal(SIGINT, SIG_IGN);
        else if(arg == "--remove-dir" && i + 1 < argc)
            remove_dir = argv[++i];
        else if(arg == "--close-fds")
            close_fds = true;
        else if(arg == "--linger" && i + 1 < argc)
            linger_ms = std::atoi(argv[++i]);
        else if(arg == "--hot-spin" && i + 1 < argc)
            hot_spin_ms = std::atoi(argv[++i]);
        else if(arg == "--end" && i + 1 < argc)
            end_how = argv[++i];
        else
        {
            std::fprintf(stderr, "host_kernels: unknown argument '%s'\n", argv[i]);
            return 91;
        }
    }

    constexpr uint64_t n    = 4096;
    auto               bufs = buffers{nullptr, nullptr, nullptr, n};
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&bufs.a)), "malloc");
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&bufs.b)), "malloc");
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&bufs.c)), "malloc");
    check(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&hidden_buffer)),
          "malloc");
    for(uint64_t i = 0; i < n; ++i)
    {
        bufs.a[i]        = 1.0f;
        bufs.b[i]        = 2.0f;
        hidden_buffer[i] = 0.0f;
    }

    rocprofiler_host_kernel_t k_add{}, k_scale{}, k_reduce{}, k_slow{}, k_acc{}, k_hidden{};
    rocprofiler_host_kernel_t k_spawner{}, k_child{};
    check(rocprofiler_host_register_kernel(add_name.c_str(), vector_add, 0, 0, &k_add), "register");
    check(rocprofiler_host_register_kernel("scale,with_comma", scale, 0, 0, &k_scale), "register");
    check(rocprofiler_host_register_kernel("reduce_sum", reduce_sum, 16, 256, &k_reduce),
          "register");
    check(rocprofiler_host_register_kernel("slow_kernel", slow_kernel, 0, 0, &k_slow), "register");
    check(rocprofiler_host_register_kernel("accumulate", accumulate, 0, 0, &k_acc), "register");
    check(rocprofiler_host_register_kernel("hidden_write", hidden_write, 0, 0, &k_hidden),
          "register");
    check(rocprofiler_host_register_kernel("spawner", spawner, 0, 0, &k_spawner), "register");
    check(rocprofiler_host_register_kernel("child", child, 0, 0, &k_child), "register");

    rocprofiler_host_queue_t qa{}, qb{};
    check(rocprofiler_host_create_queue(&qa), "create_queue");
    check(rocprofiler_host_create_queue(&qb), "create_queue");

    if(exit_in_kernel)
    {
        rocprofiler_host_kernel_t k_exit{};
        check(rocprofiler_host_register_kernel("exit_kernel", exit_kernel, 0, 0, &k_exit),
              "register");
        for(int i = 0; i < 4; ++i)
            dispatch(qb, k_slow, "slow_kernel", bufs, {1, 1, 1}, {1, 1, 1});
        std::printf("dispatches: 5\n");
        dispatch(qa, k_exit, "exit_kernel", bufs, {1, 1, 1}, {1, 1, 1});
        check(rocprofiler_host_queue_synchronize(qa), "synchronize");
        return 93; // not reached: the kernel exits
    }
    if(exit_in_flight)
    {
        // Four slow kernels per queue, then exit() while they are queued or running.
        for(int i = 0; i < 4; ++i)
        {
            dispatch(qa, k_slow, "slow_kernel", bufs, {1, 1, 1}, {1, 1, 1});
            dispatch(qb, k_slow, "slow_kernel", bufs, {1, 1, 1}, {1, 1, 1});
        }
        std::printf("dispatches: 8\n");
        std::fflush(stdout);
        std::exit(0);
    }

    // Host memory for --copies: the inputs' values (those set above), and the results.
    auto host_a = std::vector<float>(n, 1.0f), host_b = std::vector<float>(n, 2.0f);
    auto host_c = std::vector<float>(n), host_d = std::vector<float>(n);
    if(copies_too)
    {
        copy(bufs.a, host_a.data(), n * sizeof(float), "MEMORY_COPY_HOST_TO_DEVICE");
        copy(bufs.b, host_b.data(), n * sizeof(float), "MEMORY_COPY_HOST_TO_DEVICE");
        copy(bufs.c, bufs.a, n * sizeof(float) / 2, "MEMORY_COPY_DEVICE_TO_DEVICE");
    }

    for(int round = 0; round < iterations; ++round)
    {
        // 4 x 2 x 2 workgroups of 64 x 2 x 2: 4096 work-items, one per element.
        dispatch(qa, k_add, add_name.c_str(), bufs, {4, 2, 2}, {64, 2, 2});
        dispatch(qa, k_scale, "scale,with_comma", bufs, {8, 1, 1}, {512, 1, 1});
        if(accumulate_too) dispatch(qa, k_acc, "accumulate", bufs, {16, 1, 1}, {256, 1, 1});
        if(hidden_too)
            dispatch(qa, k_hidden, "hidden_write", &n, sizeof(n), {16, 1, 1}, {256, 1, 1});
        if(nested_too)
        {
            const auto spawn = spawn_args{qb, k_child};
            dispatch(qa, k_spawner, "spawner", &spawn, sizeof(spawn), {1, 1, 1}, {1, 1, 1});
        }
        dispatch(qb, k_reduce, "reduce_sum", bufs, {2, 1, 1}, {64, 1, 1});
    }
    check(rocprofiler_host_queue_synchronize(qa), "synchronize");
    check(rocprofiler_host_queue_synchronize(qb), "synchronize");
    if(hot_spin_ms > 0)
    {
        rocprofiler_host_kernel_t k_hot{};
        check(rocprofiler_host_register_kernel("hot_spin", hot_spin, 0, 0, &k_hot), "register");
        const auto ns = static_cast<uint64_t>(hot_spin_ms) * 1000000ULL;
        dispatch(qa, k_hot, "hot_spin", &ns, sizeof(ns), {1, 1, 1}, {1, 1, 1});
        check(rocprofiler_host_queue_synchronize(qa), "synchronize");
        std::printf("hot_spin: done\n");
    }
    if(copies_too)
    {
        copy(host_c.data(), bufs.c, n * sizeof(float), "MEMORY_COPY_DEVICE_TO_HOST");
        copy(host_d.data(), host_c.data(), 1024, "MEMORY_COPY_HOST_TO_HOST");
    }
    std::printf("dispatches: %d\n",
                (3 + (accumulate_too ? 1 : 0) + (hidden_too ? 1 : 0) + (nested_too ? 1 : 0)) *
                        iterations +
                    (hot_spin_ms > 0 ? 1 : 0));

    if(!truth_file.empty())
    {
        auto* f = std::fopen(truth_file.c_str(), "w");
        if(f == nullptr ||
           std::fprintf(f,
                        "{\"dispatches\": [\n%s\n],\n\"copies\": [\n%s\n]}\n",
                        truth_json.c_str(),
                        copies_json.c_str()) < 0 ||
           std::fclose(f) != 0)
        {
            std::fprintf(stderr, "host_kernels: cannot write '%s'\n", truth_file.c_str());
            return 93;
        }
    }
    if(accumulate_too)
    {
        // Queue A runs in order and is the only writer of a; queue B only reads b.
        auto expected = 1.0f;
        for(int round = 0; round < iterations; ++round)
            expected = expected * 1.5f + 2.0f;
        for(uint64_t i = 0; i < n; ++i)
            if(bufs.a[i] != expected)
            {
                std::printf("result check: FAILED (a[%llu] = %g, expected %g)\n",
                            static_cast<unsigned long long>(i),
                            bufs.a[i],
                            expected);
                return 92;
            }
        std::printf("result check: ok\n");
    }
    if(hidden_too && !check_hidden(n, iterations)) return 92;
    if(close_fds)
        for(int fd = 3; fd < 4096; ++fd)
            close(fd);
    if(!remove_dir.empty())
    {
        auto ec = std::error_code{};
        std::filesystem::remove_all(remove_dir, ec);
    }
    if(!pid_file.empty())
    {
        // Written to a temporary name and renamed: a test that sees the file sees the whole pid.
        auto temporary = pid_file + ".tmp";
        if(auto* f = std::fopen(temporary.c_str(), "w"))
        {
            std::fprintf(f, "%d\n", static_cast<int>(getpid()));
            std::fclose(f);
            std::rename(temporary.c_str(), pid_file.c_str());
        }
    }
    if(linger_ms > 0) std::this_thread::sleep_for(std::chrono::milliseconds{linger_ms});
    launching_kernel = k_slow;
    if(!end_how.empty()) end_process(end_how);
    check(rocprofiler_host_destroy_queue(qa), "destroy_queue");
    check(rocprofiler_host_destroy_queue(qb), "destroy_queue");
    return exit_code;
}
