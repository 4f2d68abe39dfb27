// How long a profiled process spends loading derived-metric files (ROCPROFILER_METRICS_PATH): for
// each size N and shape, writes a metrics file of N definitions, then runs this program again as a
// child with the file set, where the first counter query loads it; prints the child's time to its
// first list of counters (wall clock, and the process's CPU time, which a busy machine disturbs
// less), and how many counters the agents offered.
//
//   build/bin/metrics-load [N ...]        (default 1000 10000 100000 1000000)
//
// Shapes: `flat`, each metric over base counters only (WORK_ITEMS * i); `chain`, each metric over
// the next one, the last over a base counter (the deepest dependency a file can have).
#include <rocprofiler-sdk/rocprofiler.h>

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

namespace
{
int
child()
{
    auto start  = std::chrono::steady_clock::now();
    auto agents = std::vector<rocprofiler_agent_id_t>{};
    auto cb     = [](rocprofiler_agent_version_t, const void** list, size_t count, void* data)
    {
        for(size_t i = 0; i < count; ++i)
            static_cast<std::vector<rocprofiler_agent_id_t>*>(data)->push_back(
                static_cast<const rocprofiler_agent_v0_t*>(list[i])->id);
        return ROCPROFILER_STATUS_SUCCESS;
    };
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0, cb, sizeof(rocprofiler_agent_v0_t), &agents);
    size_t offered = 0;
    for(auto agent : agents)
        rocprofiler_iterate_agent_supported_counters(
            agent,
            [](rocprofiler_agent_id_t, rocprofiler_counter_id_t*, size_t count, void* data)
            {
                *static_cast<size_t*>(data) += count;
                return ROCPROFILER_STATUS_SUCCESS;
            },
            &offered);
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start);
    auto usage = rusage{};
    getrusage(RUSAGE_SELF, &usage);
    auto cpu_ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
    std::printf(
        "%zu %.1f %.1f\n", offered, ms.count(), cpu_ms(usage.ru_utime) + cpu_ms(usage.ru_stime));
    return 0;
}

void
write_file(const std::string& path, size_t n, bool chain)
{
    auto out = std::ofstream{path};
    out << "{\"version\": 1, \"derived\": [\n";
    for(size_t i = 0; i < n; ++i)
    {
        auto expression = chain && i + 1 < n ? "M" + std::to_string(i + 1) + " + 1"
                                             : "WORK_ITEMS * " + std::to_string(i + 1);
        out << (i == 0 ? "" : ",\n") << "{\"name\": \"M" << i << "\", \"expression\": \""
            << expression << "\"}";
    }
    out << "\n]}\n";
}

// Runs the child; its output line, or a description of how it ended.
std::string
run_child(const char* self, const std::string& file)
{
    int fds[2];
    if(pipe(fds) != 0) return "pipe failed";
    auto pid = fork();
    if(pid == 0)
    {
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        setenv("ROCPROFILER_METRICS_PATH", file.c_str(), 1);
        execl(self, self, "--child", nullptr);
        _exit(127);
    }
    close(fds[1]);
    auto text = std::string{};
    char buffer[256];
    for(ssize_t n; (n = read(fds[0], buffer, sizeof(buffer))) > 0;)
        text.append(buffer, static_cast<size_t>(n));
    close(fds[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    if(WIFSIGNALED(status)) return std::string{"killed by signal "} + strsignal(WTERMSIG(status));
    if(!text.empty() && text.back() == '\n') text.pop_back();
    return text;
}
} // namespace

int
main(int argc, char** argv)
{
    if(argc == 2 && std::strcmp(argv[1], "--child") == 0) return child();
    auto sizes = std::vector<size_t>{};
    for(int i = 1; i < argc; ++i)
        sizes.push_back(std::strtoull(argv[i], nullptr, 10));
    if(sizes.empty()) sizes = {1000, 10000, 100000, 1000000};
    auto dir =
        std::filesystem::temp_directory_path() / ("metrics-load-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::printf("%-8s %10s %12s %16s %14s\n",
                "shape",
                "metrics",
                "offered",
                "first-query-ms",
                "process-cpu-ms");
    for(auto n : sizes)
        for(bool chain : {false, true})
        {
            auto file = (dir / "metrics.json").string();
            write_file(file, n, chain);
            auto line        = run_child("/proc/self/exe", file);
            char offered[32] = "", ms[32] = "", cpu[32] = "";
            if(std::sscanf(line.c_str(), "%31s %31s %31s", offered, ms, cpu) == 3)
                std::printf(
                    "%-8s %10zu %12s %16s %14s\n", chain ? "chain" : "flat", n, offered, ms, cpu);
            else // the child failed: say how
                std::printf("%-8s %10zu   %s\n", chain ? "chain" : "flat", n, line.c_str());
            std::fflush(stdout);
        }
    std::filesystem::remove_all(dir);
    return 0;
}
