// rocprofv3: parses the command line, checks what it can before the application runs (counters
// through the tool library's helper mode), then runs the application with the tool library
// preloaded, once per application-replay pass, and exits with the application's code.
#include "contract/environment.hpp"
#include "options.hpp"
#include "output_directory.hpp"
#include "parse.hpp"
#include "run_end.hpp"

#include <nlohmann/json.hpp>

#include <dlfcn.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace fs       = std::filesystem;
namespace contract = rocprofiler::tool::contract;
namespace planner  = rocprofiler::tool::planner;

namespace rocprofv3
{
namespace
{
struct libraries
{
    std::string tool = {};
    std::string sdk  = {};
};

// Next to the executable (<prefix>/bin/rocprofv3 -> <prefix>/lib/), unless overridden.
std::optional<libraries>
find_libraries(std::string& error)
{
    auto exe     = std::error_code{};
    auto self    = fs::read_symlink("/proc/self/exe", exe);
    auto lib_dir = exe ? fs::path{} : self.parent_path().parent_path() / "lib";
    auto pick    = [&](const char* variable, const char* file) -> std::string
    {
        if(const auto* value = std::getenv(variable); value != nullptr && *value != '\0')
            return value;
        return (lib_dir / file).string();
    };
    auto libs = libraries{pick("ROCPROF_TOOL_LIBRARY", "librocprofiler-sdk-tool.so"),
                          pick("ROCPROF_SDK_LIBRARY", "librocprofiler-sdk.so")};
    for(const auto& [path, variable] :
        {std::pair{libs.tool, "ROCPROF_TOOL_LIBRARY"}, std::pair{libs.sdk, "ROCPROF_SDK_LIBRARY"}})
    {
        if(!fs::exists(path))
        {
            error = "library '" + path + "' not found (set " + variable + " to override)";
            return std::nullopt;
        }
    }
    libs.tool = fs::absolute(libs.tool).string();
    libs.sdk  = fs::absolute(libs.sdk).string();
    return libs;
}

// Runs the tool library's helper mode in a child process (the SDK never loads into rocprofv3
// itself) and returns its JSON.
std::optional<nlohmann::json>
query_agents(const libraries&                             libs,
             const std::vector<std::vector<std::string>>& groups,
             std::string&                                 error)
{
    int fds[2];
    if(pipe(fds) != 0)
    {
        error = std::string{"pipe: "} + std::strerror(errno);
        return std::nullopt;
    }
    auto pid = fork();
    if(pid < 0)
    {
        error = std::string{"fork: "} + std::strerror(errno);
        return std::nullopt;
    }
    if(pid == 0)
    {
        close(fds[0]);
        // The SDK may initialize itself while enumerating agents: in helper mode the tool declines.
        // The helper checks that each group fits in one pass of each agent.
        for(const auto& [name, value] : contract::encode(contract::helper_request{true, groups}))
            setenv(name.c_str(), value.c_str(), 1);
        // CUDA devices are listed even though rocprofv3 itself never loaded the driver.
        setenv(contract::cuda_agents, "1", 0);
        auto* handle = dlopen(libs.tool.c_str(), RTLD_NOW | RTLD_LOCAL);
        if(handle == nullptr)
        {
            std::fprintf(
                stderr, "rocprofv3: error: cannot load '%s': %s\n", libs.tool.c_str(), dlerror());
            _exit(3);
        }
        using query_fn = int (*)(int);
        auto fn        = reinterpret_cast<query_fn>(dlsym(handle, "rocprofv3_tool_query_agents"));
        if(fn == nullptr)
        {
            std::fprintf(stderr,
                         "rocprofv3: error: '%s' has no rocprofv3_tool_query_agents\n",
                         libs.tool.c_str());
            _exit(3);
        }
        auto rc = fn(fds[1]);
        close(fds[1]);
        _exit(rc == 0 ? 0 : 4);
    }
    close(fds[1]);
    auto text = std::string{};
    char buf[4096];
    for(;;)
    {
        auto n = read(fds[0], buf, sizeof(buf));
        if(n < 0 && errno == EINTR) continue;
        if(n <= 0) break;
        text.append(buf, static_cast<size_t>(n));
    }
    close(fds[0]);
    int status = 0;
    while(waitpid(pid, &status, 0) < 0 && errno == EINTR)
    {
    }
    if(text.empty())
    {
        error = "the agent query of the tool library failed";
        return std::nullopt;
    }
    try
    {
        return nlohmann::json::parse(text);
    }
    catch(const std::exception& e)
    {
        error = std::string{"the agent query returned invalid JSON: "} + e.what();
        return std::nullopt;
    }
}

std::vector<planner::agent_description>
gpu_agents(const nlohmann::json& query)
{
    auto out = std::vector<planner::agent_description>{};
    for(const auto& a : query.at("agents"))
    {
        if(a.value("type", "") != "GPU") continue;
        auto entry         = planner::agent_description{};
        entry.name         = a.value("name", "");
        entry.logical_id   = std::to_string(a.value("logical_node_id", 0));
        entry.product_name = a.value("product_name", "");
        if(a.contains("counters_error")) entry.error = a.at("counters_error").get<std::string>();
        for(const auto& c : a.at("counters"))
            entry.counters.emplace_back(c.value("name", ""));
        if(a.contains("counters_per_pass"))
            entry.counters_per_pass = a.at("counters_per_pass").get<size_t>();
        if(a.contains("groups_exceeding"))
            for(const auto& g : a.at("groups_exceeding"))
                entry.groups_exceeding.push_back(g.get<size_t>());
        if(a.contains("group_splits"))
            for(const auto& split : a.at("group_splits"))
                entry.group_splits[split.at("group").get<size_t>()] =
                    split.at("passes").get<std::vector<std::vector<std::string>>>();
        if(a.contains("counters_exceeding_alone"))
            entry.exceeding_alone =
                a.at("counters_exceeding_alone").get<std::vector<std::string>>();
        if(a.contains("counters_multi_pass"))
            for(const auto& c : a.at("counters_multi_pass"))
                entry.multi_pass.emplace_back(c.at("name").get<std::string>(),
                                              c.at("passes").get<uint64_t>());
        out.emplace_back(std::move(entry));
    }
    return out;
}

// After an agent's counters: the metric sets defined for it, each with its description and
// metrics, or what the agent lacks for it.
void
list_sets(const nlohmann::json& agent, const rocprofiler::tool::metric_sets::catalog& sets)
{
    namespace metric_sets = rocprofiler::tool::metric_sets;
    auto counters         = std::set<std::string>{};
    for(const auto& c : agent.at("counters"))
        counters.insert(c.value("name", ""));
    auto has  = [&counters](const std::string& name) { return counters.count(name) != 0; };
    auto join = [](const std::vector<std::string>& items, const char* separator)
    {
        auto out = std::string{};
        for(const auto& item : items)
            out += (out.empty() ? "" : separator) + item;
        return out;
    };
    auto any = false;
    for(const auto& name : metric_sets::names(sets))
    {
        const auto* set = metric_sets::find(sets, name, agent.value("name", ""));
        if(set == nullptr) continue;
        if(!any) std::cout << "  metric sets (--pmc <set>):\n";
        any = true;
        if(has(name))
        {
            std::cout << "  " << name << "\tnot used on this agent: a counter has its name\n";
            continue;
        }
        if(auto lacks = metric_sets::missing(*set, has); !lacks.empty())
        {
            std::cout << "  " << name << "\tnot available on this agent: it lacks "
                      << join(lacks, ", ") << "\n";
            continue;
        }
        std::cout << "  " << name << "\t" << set->description << "\n"
                  << "    " << join(set->metrics, " ") << "\n";
    }
}

int
list_available(const nlohmann::json& query, const rocprofiler::tool::metric_sets::catalog& sets)
{
    for(const auto& a : query.at("agents"))
    {
        std::cout << "Agent " << a.value("logical_node_id", 0) << ": " << a.value("type", "") << " "
                  << a.value("name", "") << " (" << a.value("product_name", "") << ")\n";
        if(a.value("type", "") != "GPU") continue;
        if(a.contains("counters_error"))
        {
            std::cout << "  no counters available on this agent ("
                      << a.at("counters_error").get<std::string>() << ")\n";
            continue;
        }
        if(a.at("counters").empty())
        {
            std::cout << "  no counters available on this agent\n";
            continue;
        }
        if(a.contains("counters_per_pass"))
            std::cout << "  at most " << a.at("counters_per_pass").get<size_t>()
                      << " counters per pass (per --pmc group)\n";
        for(const auto& c : a.at("counters"))
            std::cout << "  " << c.value("name", "") << "\t" << c.value("description", "") << "\n";
        list_sets(a, sets);
    }
    return exit_ok;
}

std::string
prepend(const char* variable, const std::string& value)
{
    const auto* old = std::getenv(variable);
    if(old == nullptr || *old == '\0') return value;
    return value + ":" + old;
}

// rocprofv3's own code when the application ran but writing its outputs failed at the end (disk
// full, the output directory removed during the run): the message names the file and the OS
// reason. Listed in docs/rocprofv3.md and --help.
constexpr int exit_output_at_end = 4;

// SIGXFSZ as rocprofv3 found it: rocprofv3 ignores it (its own writes past the file size limit
// fail with EFBIG and are reported), the application gets it back.
struct sigaction inherited_sigxfsz = {};

// The application being waited for, for the signal handler.
volatile sig_atomic_t child_pid   = 0;
volatile sig_atomic_t sigint_seen = 0;

// SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to rocprofv3 are forwarded to the application, which
// then writes its outputs and ends; rocprofv3 waits for it. A signal the terminal sent (Ctrl-C,
// Ctrl-\, a hangup) reached the application's process group already and is not sent twice. A
// second SIGINT ends the application with SIGKILL (rocprofv3 still completes its outputs).
void
forward_signal(int sig, siginfo_t* info, void*)
{
    const auto saved = errno;
    const auto pid   = static_cast<pid_t>(child_pid);
    if(pid > 0)
    {
        if(sig == SIGINT && sigint_seen != 0)
            kill(pid, SIGKILL);
        else if(info == nullptr || info->si_code != SI_KERNEL)
            kill(pid, sig);
    }
    if(sig == SIGINT) sigint_seen = 1;
    errno = saved;
}

constexpr int forwarded_signals[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};

std::string
describe_status(int status)
{
    if(WIFEXITED(status)) return "exit code " + std::to_string(WEXITSTATUS(status));
    if(WIFSIGNALED(status))
    {
        const auto* name = sigabbrev_np(WTERMSIG(status));
        return "signal " + std::to_string(WTERMSIG(status)) +
               (name != nullptr ? std::string{" (SIG"} + name + ")" : std::string{});
    }
    return {};
}

void
drain(int fd, run_reports& reports)
{
    char buf[4096];
    for(;;)
    {
        auto n = read(fd, buf, sizeof(buf));
        if(n < 0 && errno == EINTR) continue;
        if(n <= 0) return;
        reports.add(buf, static_cast<size_t>(n));
    }
}

// The tool's report files in the run directory (report.<pid>, one per profiled process).
void
read_report_files(const std::string& run_dir, run_reports& reports)
{
    auto ec = std::error_code{};
    for(const auto& entry : fs::directory_iterator{run_dir, ec})
    {
        if(entry.path().filename().string().rfind("report.", 0) != 0) continue;
        auto fd = open(entry.path().c_str(), O_RDONLY | O_CLOEXEC);
        if(fd < 0) continue;
        drain(fd, reports);
        close(fd);
        reports.add("\n", 1); // a line cut by the process's end is not joined to the next file's
    }
}

// ROCP_TOOL_LIBRARIES for the application: the user's own tools first, as given, then rocprofv3's
// (appended, as upstream rocprofv3 does), so that a tool the user set is still loaded.
std::string
with_user_tools(const std::string& tool)
{
    const auto* user = std::getenv("ROCP_TOOL_LIBRARIES");
    if(user == nullptr || *user == '\0') return tool;
    auto text = std::string{user};
    for(size_t start = 0; start <= text.size();)
    {
        auto end = text.find(':', start);
        if(end == std::string::npos) end = text.size();
        if(text.compare(start, end - start, tool) == 0) return text; // already there
        start = end + 1;
    }
    return text + ":" + tool;
}

// Runs the application once with @p env added; returns rocprofv3's exit code for that run.
int
run_application(const options&                            opts,
                const libraries&                          libs,
                const std::map<std::string, std::string>& env)
{
    auto argv = std::vector<char*>{};
    for(const auto& arg : opts.command)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);

    auto temp_error = std::error_code{};

    // The tool's report pipe: the read end stays here, non-blocking; the write end is
    // non-blocking too, so that a process never waits for rocprofv3.
    int report[2] = {-1, -1};
    if(pipe2(report, O_CLOEXEC | O_NONBLOCK) != 0)
    {
        std::fprintf(stderr, "rocprofv3: error: pipe failed: %s\n", std::strerror(errno));
        return exit_configuration;
    }

    // The forwarded signals are blocked until the child's pid is known (parent) or their default
    // action is back (child): one that arrives meanwhile waits, and is forwarded, never lost.
    auto blocked = sigset_t{};
    auto mask    = sigset_t{};
    sigemptyset(&blocked);
    for(auto sig : forwarded_signals)
        sigaddset(&blocked, sig);
    sigprocmask(SIG_BLOCK, &blocked, &mask);
    struct sigaction forward = {};
    forward.sa_sigaction     = forward_signal;
    forward.sa_flags         = SA_SIGINFO; // no SA_RESTART: waiting wakes up
    sigemptyset(&forward.sa_mask);
    struct sigaction old_actions[std::size(forwarded_signals)] = {};
    sigint_seen                                                = 0;
    child_pid                                                  = 0;
    for(size_t i = 0; i < std::size(forwarded_signals); ++i)
        sigaction(forwarded_signals[i], &forward, &old_actions[i]);
    auto restore = [&]
    {
        sigprocmask(SIG_SETMASK, &mask, nullptr);
        for(size_t i = 0; i < std::size(forwarded_signals); ++i)
            sigaction(forwarded_signals[i], &old_actions[i], nullptr);
        close(report[0]);
    };

    // A directory private to this run, where the tool claims output prefixes (two processes with
    // the same -o prefix never overwrite each other); removed when the run ends.
    auto run_dir      = std::string{};
    auto run_template = (fs::temp_directory_path(temp_error) / "rocprofv3-run-XXXXXX").string();
    if(!temp_error && mkdtemp(run_template.data()) != nullptr)
        run_dir = run_template;
    else
        std::fprintf(stderr,
                     "rocprofv3: warning: cannot create a run directory (%s); processes that use "
                     "the same -o prefix will overwrite each other's files\n",
                     temp_error ? temp_error.message().c_str() : std::strerror(errno));

    auto pid = fork();
    if(pid < 0)
    {
        std::fprintf(stderr, "rocprofv3: error: fork failed: %s\n", std::strerror(errno));
        close(report[1]);
        if(!run_dir.empty()) rmdir(run_dir.c_str());
        restore();
        return exit_configuration;
    }
    if(pid == 0)
    {
        for(auto sig : forwarded_signals)
            signal(sig, SIG_DFL);
        sigaction(SIGXFSZ, &inherited_sigxfsz, nullptr);
        sigprocmask(SIG_SETMASK, &mask, nullptr);
        for(const auto& [name, value] : env)
            setenv(name.c_str(), value.c_str(), 1);
        // --preload libraries come first (a sanitizer must be the first library loaded).
        auto preload = std::string{};
        for(const auto& lib : opts.preload)
            if(!lib.empty()) preload += lib + ":";
        setenv(
            "LD_PRELOAD", prepend("LD_PRELOAD", preload + libs.tool + ":" + libs.sdk).c_str(), 1);
        setenv("ROCP_TOOL_LIBRARIES", with_user_tools(libs.tool).c_str(), 1);
        // NVTX calls (CUDA programs, PyTorch) reach the SDK through NVTX's injection interface,
        // which the SDK library implements; a user's own injection library is left in place.
        if((opts.marker_trace || opts.selected_regions) &&
           getenv("NVTX_INJECTION64_PATH") == nullptr)
            setenv("NVTX_INJECTION64_PATH", libs.sdk.c_str(), 1);
        // Inherited by the application (and the processes it starts), not by rocprofv3's others.
        fcntl(report[1], F_SETFD, 0);
        for(const auto& [name, value] :
            contract::encode(contract::report_channel{run_dir, report[1]}))
            setenv(name.c_str(), value.c_str(), 1);
        execvp(argv[0], argv.data());
        auto err = errno;
        std::fprintf(
            stderr, "rocprofv3: error: cannot execute '%s': %s\n", argv[0], std::strerror(err));
        _exit(err == ENOENT ? exit_not_found : exit_not_executable);
    }
    child_pid = pid;
    sigprocmask(SIG_SETMASK, &mask, nullptr);
    close(report[1]);

    auto reports = run_reports{};
    int  status  = 0;
    for(;;)
    {
        auto waiting = pollfd{report[0], POLLIN, 0};
        if(poll(&waiting, 1, 100) > 0) drain(report[0], reports);
        auto done = waitpid(pid, &status, WNOHANG);
        if(done == pid) break;
        if(done < 0 && errno != EINTR)
        {
            std::fprintf(stderr, "rocprofv3: error: waitpid failed: %s\n", std::strerror(errno));
            status = -1;
            break;
        }
    }
    child_pid = 0;
    drain(report[0], reports); // what the process wrote before it ended
    restore();
    if(!run_dir.empty())
    {
        read_report_files(run_dir, reports);
        auto ec = std::error_code{};
        fs::remove_all(run_dir, ec);
    }

    auto rc = int{exit_configuration};
    if(status != -1 && WIFEXITED(status)) rc = WEXITSTATUS(status);
    if(status != -1 && WIFSIGNALED(status)) rc = 128 + WTERMSIG(status);

    // A process that started profiling and never finalized: its outputs are completed here.
    auto errors = reports.errors();
    for(const auto& [process_pid, process] : reports.processes())
    {
        if(process.ended || process.directory.empty()) continue;
        // A process the application started that outlives it writes its outputs when it ends.
        if(process_pid != pid && kill(static_cast<pid_t>(process_pid), 0) == 0)
        {
            std::fprintf(stderr,
                         "rocprofv3: warning: process %lld still runs after the application "
                         "ended; it writes its outputs ('%s_*') when it ends, unobserved\n",
                         static_cast<long long>(process_pid),
                         process.prefix.c_str());
            continue;
        }
        auto how  = process_pid == pid ? describe_status(status) : std::string{};
        auto note = complete_outputs(process_pid, process, how, errors);
        std::fprintf(stderr, "rocprofv3: warning: %s", note.c_str() + 11);
    }
    // The user asked for outputs and a process wrote none: the tool said why already.
    for(const auto& line : reports.disabled())
        std::fprintf(stderr,
                     "rocprofv3: error: the application ran, but profiling was disabled in %s\n",
                     line.c_str());
    if(!reports.disabled().empty() && rc == exit_ok) rc = exit_output_at_end;
    // The tool printed each error already; one line here says what it means for the run.
    if(!errors.empty())
    {
        std::fprintf(stderr,
                     "rocprofv3: error: the application ran, but %zu output error%s occurred, "
                     "the first: %s\n",
                     errors.size(),
                     errors.size() == 1 ? "" : "s",
                     errors.front().c_str());
        if(rc == exit_ok) rc = exit_output_at_end;
    }
    return rc;
}
} // namespace
} // namespace rocprofv3

namespace rocprofv3
{
namespace
{
// --log-level info/trace/config and info/trace/env: what rocprofv3 runs with, on stderr, before
// each run (as upstream).
void
log_configuration(const options& opts, const std::map<std::string, std::string>& env, size_t pass)
{
    const auto& level = opts.log_level;
    const auto  which = pass > 0 ? " (pass " + std::to_string(pass) + ")" : std::string{};
    if(level == "info" || level == "trace" || level == "config")
    {
        auto join = [](const std::vector<std::string>& items)
        {
            auto out = std::string{};
            for(const auto& i : items)
                out += (out.empty() ? "" : " ") + i;
            return out;
        };
        auto groups = std::string{};
        for(const auto& g : opts.pmc_groups)
            groups += "[" + join(g) + "]";
        std::cerr << "\n- rocprofv3 configuration" << which << ":\n"
                  << "    - command          = " << join(opts.command) << "\n"
                  << "    - kernel_trace     = " << opts.kernel_trace << "\n"
                  << "    - memory_copy_trace = " << opts.memory_copy_trace << "\n"
                  << "    - marker_trace     = " << opts.marker_trace << "\n"
                  << "    - cuda_runtime_trace = " << opts.cuda_runtime_trace << "\n"
                  << "    - cuda_driver_trace = " << opts.cuda_driver_trace << "\n"
                  << "    - selected_regions = " << opts.selected_regions << "\n"
                  << "    - stats            = " << opts.stats << "\n"
                  << "    - summary          = " << opts.summary << "\n"
                  << "    - pmc              = " << groups << "\n"
                  << "    - replay_mode      = " << opts.replay_mode << "\n"
                  << "    - output_directory = " << opts.output_directory << "\n"
                  << "    - output_file      = " << opts.output_file << "\n"
                  << "    - output_format    = " << join(opts.output_formats) << "\n";
    }
    if(level == "info" || level == "trace" || level == "env")
    {
        std::cerr << "\n- rocprofv3 environment" << which << ":\n";
        for(const auto& [name, value] : env)
            std::cerr << "    - " << name << "=" << value << "\n";
    }
}

// One set of options (the command line's, or one job of an input file): the counters checked,
// the output directory prepared, and the application run once per application-replay pass. The
// codes and groups of its runs are appended. Returns rocprofv3's own code when nothing could run.
std::optional<int>
run_job(options                                opts,
        const libraries&                       libs,
        std::vector<int>&                      codes,
        std::vector<std::vector<std::string>>& groups)
{
    auto error = std::string{};
    if(opts.list_avail || !opts.pmc_groups.empty())
    {
        // The shipped sets next to rocprofv3 (<prefix>/share/rocprofiler-sdk/metrics.json) and
        // ROCPROFILER_METRICS_PATH's; the tool library reads the same files next to itself.
        namespace metric_sets = rocprofiler::tool::metric_sets;
        auto sets = metric_sets::load(metric_sets::shipped_file(metric_sets::executable_path()),
                                      std::getenv(metric_sets::path_variable),
                                      error);
        if(!sets)
        {
            std::cerr << "rocprofv3: error: metric sets: " << error
                      << "; the application was not run\n";
            return exit_configuration;
        }
        auto query = query_agents(libs, opts.pmc_groups, error);
        if(!query)
        {
            std::cerr << "rocprofv3: error: " << error << "\n";
            return exit_configuration;
        }
        if(opts.list_avail) return list_available(*query, *sets);
        const auto agents   = gpu_agents(*query);
        auto       warnings = std::vector<std::string>{};
        auto       errors =
            planner::validate(opts.pmc_groups, agents, &warnings, *sets, opts.kernel_replay());
        for(const auto& w : warnings)
            std::cerr << "rocprofv3: warning: " << w << "\n";
        if(!errors.empty())
        {
            for(const auto& e : errors)
                std::cerr << "rocprofv3: error: " << e << "\n";
            std::cerr << "rocprofv3: error: the application was not run\n";
            return exit_configuration;
        }
        auto notes      = std::vector<std::string>{};
        opts.pmc_groups = planner::expand_groups(opts.pmc_groups, agents, notes, *sets);
        for(const auto& n : notes)
            std::cerr << "rocprofv3: " << n << "\n";
    }

    // Checked before anything runs, so that no run's outputs are lost at its end. Placeholders
    // (%pid%, ...) are expanded by the tool in each process: the directory up to the first one is
    // what can be checked here.
    const auto fixed            = fixed_directory_part(opts.output_directory);
    auto       output_directory = prepare_output_directory(fixed, error);
    if(!output_directory)
    {
        std::cerr << "rocprofv3: error: " << error << "; the application was not run\n";
        return exit_output;
    }
    if(fixed == opts.output_directory) opts.output_directory = *output_directory;

    auto runs = run_count(opts);
    for(size_t run = 1; run <= runs; ++run)
    {
        auto pass = pass_of_run(opts, run, runs);
        if(runs > 1)
            std::cerr << "rocprofv3: application replay pass " << run << " of " << runs << "\n";
        auto env = tool_environment(opts, pass);
        log_configuration(opts, env, pass);
        codes.push_back(run_application(opts, libs, env));
        groups.push_back(runs > 1 ? opts.pmc_groups.at(run - 1) : std::vector<std::string>{});
    }
    return std::nullopt;
}
} // namespace
} // namespace rocprofv3

int
main(int argc, char** argv)
{
    using namespace rocprofv3;
    {
        struct sigaction ignore = {};
        ignore.sa_handler       = SIG_IGN;
        sigemptyset(&ignore.sa_mask);
        sigaction(SIGXFSZ, &ignore, &inherited_sigxfsz);
    }
    auto parsed = parse_command_line(argc, argv);
    if(!parsed.opts)
    {
        std::cout << parsed.output;
        std::cerr << parsed.error;
        return parsed.exit_code;
    }
    const auto& opts = *parsed.opts;

    auto error = std::string{};
    auto libs  = find_libraries(error);
    if(!libs)
    {
        std::cerr << "rocprofv3: error: " << error << "\n";
        return exit_configuration;
    }

    // The jobs of an input file run one after the other, like application replay passes.
    auto jobs   = opts.jobs.empty() ? std::vector<options>{opts} : opts.jobs;
    auto codes  = std::vector<int>{};
    auto groups = std::vector<std::vector<std::string>>{};
    for(size_t j = 0; j < jobs.size(); ++j)
    {
        if(jobs.size() > 1)
            std::cerr << "rocprofv3: input file job " << j + 1 << " of " << jobs.size() << "\n";
        if(auto stop = run_job(jobs[j], *libs, codes, groups)) return *stop;
    }
    auto failures = std::vector<std::string>{};
    auto result   = summarize_runs(codes, groups, failures);
    for(const auto& line : failures)
        std::cerr << "rocprofv3: error: " << line << "\n";
    return result;
}
