// Test program: a process that forks without exec while it uses the host reference device.
//
//   fork_kernels [--kernels N] [--children N] [--rounds N] [--child idle|work|exit-code]
//                [--exit-via exit|_exit]
//
// Each round (default 1) launches N kernels (default 100), forks the children (default 2),
// launches N more, waits for every child, and checks all results. Each child does, after the fork:
//   idle       no device work, then ends (the default)
//   work       N kernels of its own on a queue it creates, with their results checked
//   exit-code  no device work, ends with code 7 (the parent expects 7 from it)
// and ends through exit() (the default: atexit handlers and static destructors run, as in a
// program that returns from a forked function) or _exit().
// Prints "fork_kernels: ok" and exits 0 when the parent's and every child's results are right;
// otherwise names what failed and exits 1. A child that hangs is killed after 60 s (exit 1).
#include <rocprofiler-sdk-host/host.h>

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

namespace
{
struct add_args
{
    int*     data;
    uint32_t n;
};

void
add_one(const rocprofiler_host_work_item_t* item, void* raw)
{
    const auto* a = static_cast<const add_args*>(raw);
    if(item->global_linear_id < a->n) a->data[item->global_linear_id] += 1;
}

bool
ok(rocprofiler_host_status_t status, const char* what)
{
    if(status == ROCPROFILER_HOST_STATUS_SUCCESS) return true;
    std::fprintf(stderr,
                 "fork_kernels[%d]: %s failed: %s\n",
                 static_cast<int>(getpid()),
                 what,
                 rocprofiler_host_status_string(status));
    return false;
}

// Launches `count` dispatches of add_one over `n` ints on `queue` (made by the parent before it
// forked, in a child) and checks that each element ends incremented `count` times. False on any
// failure.
bool
launch_and_check(rocprofiler_host_kernel_t kernel, rocprofiler_host_queue_t queue, uint32_t count)
{
    constexpr uint32_t n    = 256;
    void*              raw  = nullptr;
    auto               done = rocprofiler_host_signal_t{};
    if(!ok(rocprofiler_host_malloc(n * sizeof(int), &raw), "malloc") ||
       !ok(rocprofiler_host_memset(raw, 0, n * sizeof(int)), "memset") ||
       !ok(rocprofiler_host_create_signal(count, &done), "create_signal"))
        return false;
    auto* data = static_cast<int*>(raw);
    auto  args = add_args{data, n};
    for(uint32_t k = 0; k < count; ++k)
    {
        auto params              = rocprofiler_host_dispatch_params_t{};
        params.size              = sizeof(params);
        params.kernel            = kernel;
        params.grid              = {n / 64, 1, 1};
        params.workgroup_size    = {64, 1, 1};
        params.args              = &args;
        params.args_size         = sizeof(args);
        params.completion_signal = done;
        if(!ok(rocprofiler_host_dispatch(queue, &params), "dispatch")) return false;
    }
    auto value = int64_t{0};
    if(!ok(rocprofiler_host_signal_wait(
               done, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 30'000'000'000ULL, &value),
           "signal_wait") ||
       value != 0)
        return false;
    for(uint32_t i = 0; i < n; ++i)
    {
        if(data[i] != static_cast<int>(count))
        {
            std::fprintf(stderr,
                         "fork_kernels[%d]: element %u is %d, expected %u\n",
                         static_cast<int>(getpid()),
                         i,
                         data[i],
                         count);
            return false;
        }
    }
    rocprofiler_host_destroy_signal(done);
    rocprofiler_host_free(raw);
    return true;
}

// Waits for `pid` at most 60 s; its exit status, or -1 (killed, or did not exit normally).
int
wait_child(pid_t pid)
{
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds{60};
    while(true)
    {
        auto status = 0;
        auto got    = waitpid(pid, &status, WNOHANG);
        if(got == pid)
        {
            if(WIFEXITED(status)) return WEXITSTATUS(status);
            std::fprintf(stderr,
                         "fork_kernels: child %d ended by signal %d\n",
                         static_cast<int>(pid),
                         WIFSIGNALED(status) ? WTERMSIG(status) : 0);
            return -1;
        }
        if(got < 0) return -1;
        if(std::chrono::steady_clock::now() > deadline)
        {
            std::fprintf(stderr, "fork_kernels: child %d hung; killed\n", static_cast<int>(pid));
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            return -1;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds{5});
    }
}
} // namespace

int
main(int argc, char** argv)
{
    auto kernels  = uint32_t{100};
    auto children = uint32_t{2};
    auto rounds   = uint32_t{1};
    auto mode     = std::string{"idle"};
    auto exit_via = std::string{"exit"};
    for(int i = 1; i + 1 < argc; i += 2)
    {
        const auto flag = std::string{argv[i]};
        if(flag == "--kernels")
            kernels = static_cast<uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
        else if(flag == "--children")
            children = static_cast<uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
        else if(flag == "--rounds")
            rounds = static_cast<uint32_t>(std::strtoul(argv[i + 1], nullptr, 10));
        else if(flag == "--child")
            mode = argv[i + 1];
        else if(flag == "--exit-via")
            exit_via = argv[i + 1];
        else
        {
            std::fprintf(stderr, "fork_kernels: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    auto kernel = rocprofiler_host_kernel_t{};
    auto queue  = rocprofiler_host_queue_t{};
    if(!ok(rocprofiler_host_register_kernel("add_one", add_one, 0, 0, &kernel), "register") ||
       !ok(rocprofiler_host_create_queue(&queue), "create_queue"))
        return 1;
    auto good = true;
    for(uint32_t round = 0; round < rounds && good; ++round)
    {
        if(!launch_and_check(kernel, queue, kernels)) return 1;
        std::fflush(nullptr);
        auto pids = std::vector<pid_t>{};
        for(uint32_t c = 0; c < children; ++c)
        {
            const auto pid = fork();
            if(pid < 0)
            {
                std::perror("fork_kernels: fork");
                return 1;
            }
            if(pid == 0)
            {
                auto code = 0;
                if(mode == "work")
                    code = launch_and_check(kernel, queue, kernels) ? 0 : 1;
                else if(mode == "exit-code")
                    code = 7;
                if(exit_via == "_exit") _exit(code);
                std::exit(code);
            }
            pids.push_back(pid);
        }
        good = launch_and_check(kernel, queue, kernels);
        for(auto pid : pids)
        {
            const auto expected = mode == "exit-code" ? 7 : 0;
            const auto status   = wait_child(pid);
            if(status != expected)
            {
                std::fprintf(stderr,
                             "fork_kernels: child %d exited with %d, expected %d\n",
                             static_cast<int>(pid),
                             status,
                             expected);
                good = false;
            }
        }
    }
    std::printf("fork_kernels: %s\n", good ? "ok" : "FAILED");
    return good ? 0 : 1;
}
