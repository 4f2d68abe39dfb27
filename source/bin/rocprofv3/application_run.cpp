#include "application_run.hpp"

#include "contract/environment.hpp"
#include "exec_limits.hpp"
#include "run_end.hpp"

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
#include <iterator>
#include <optional>
#include <vector>

namespace fs       = std::filesystem;
namespace contract = rocprofiler::tool::contract;

namespace rocprofv3
{
namespace
{
std::string
prepend(const char* variable, const std::string& value)
{
    const auto* old = std::getenv(variable);
    if(old == nullptr || *old == '\0') return value;
    return value + ":" + old;
}

// SIGXFSZ as rocprofv3 found it (ignore_sigxfsz), for the application.
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

// LD_PRELOAD and ROCP_TOOL_LIBRARIES of the application. --preload libraries come first (a
// sanitizer must be the first library loaded).
std::map<std::string, std::string>
library_variables(const options& opts, const libraries& libs)
{
    auto preload = std::string{};
    for(const auto& lib : opts.preload)
        if(!lib.empty()) preload += lib + ":";
    return {{"LD_PRELOAD", prepend("LD_PRELOAD", preload + libs.tool + ":" + libs.sdk)},
            {"ROCP_TOOL_LIBRARIES", with_user_tools(libs.tool)}};
}

// LD_PRELOAD and ROCP_TOOL_LIBRARIES split their lists at spaces and colons (the latter at
// colons): rocprofv3 installed under a path with one is preloaded through symbolic links in the
// run directory, which mkdtemp made private to this run. Nothing, with @p error, when the links
// cannot be made there.
std::optional<libraries>
preloadable(const libraries& libs, const std::string& run_dir, std::string& error)
{
    const auto splits = [](const std::string& path)
    { return path.find_first_of(" :") != std::string::npos; };
    if(!splits(libs.tool) && !splits(libs.sdk)) return libs;
    const auto& bad = splits(libs.tool) ? libs.tool : libs.sdk;
    if(run_dir.empty() || splits(run_dir))
    {
        error = "the library '" + bad +
                "' has a space or ':' in its path, which LD_PRELOAD cannot carry, and no run "
                "directory without one was made to link it from (" +
                (run_dir.empty() ? std::string{"none was made"} : "'" + run_dir + "'") +
                "); set TMPDIR to a directory whose path has no space or ':', or install "
                "rocprofv3 under such a path";
        return std::nullopt;
    }
    auto linked = libs;
    for(auto* path : {&linked.tool, &linked.sdk})
    {
        if(!splits(*path)) continue;
        auto link = run_dir + "/" + fs::path{*path}.filename().string();
        if(splits(link)) link = run_dir + (path == &linked.tool ? "/tool.so" : "/sdk.so");
        if(symlink(path->c_str(), link.c_str()) != 0)
        {
            error = "cannot link '" + link + "' to '" + *path +
                    "' (its path has a space or ':', "
                    "which LD_PRELOAD cannot carry): " +
                    std::strerror(errno);
            return std::nullopt;
        }
        *path = link;
    }
    return linked;
}

// The forwarded signals are blocked until the child's pid is known (parent) or their default
// action is back (child): one that arrives meanwhile waits, and is forwarded, never lost.
struct forwarding
{
    sigset_t         mask                                      = {}; // rocprofv3's own
    struct sigaction old_actions[std::size(forwarded_signals)] = {};

    void install()
    {
        auto blocked = sigset_t{};
        sigemptyset(&blocked);
        for(auto sig : forwarded_signals)
            sigaddset(&blocked, sig);
        sigprocmask(SIG_BLOCK, &blocked, &mask);
        struct sigaction forward = {};
        forward.sa_sigaction     = forward_signal;
        forward.sa_flags         = SA_SIGINFO; // no SA_RESTART: waiting wakes up
        sigemptyset(&forward.sa_mask);
        sigint_seen = 0;
        child_pid   = 0;
        for(size_t i = 0; i < std::size(forwarded_signals); ++i)
            sigaction(forwarded_signals[i], &forward, &old_actions[i]);
    }

    void restore()
    {
        sigprocmask(SIG_SETMASK, &mask, nullptr);
        for(size_t i = 0; i < std::size(forwarded_signals); ++i)
            sigaction(forwarded_signals[i], &old_actions[i], nullptr);
    }
};

// A directory private to this run, where the tool claims output prefixes (two processes with the
// same -o prefix never overwrite each other); removed when the run ends. Empty, with a warning,
// when it cannot be created.
std::string
make_run_directory()
{
    auto temp_error   = std::error_code{};
    auto run_template = (fs::temp_directory_path(temp_error) / "rocprofv3-run-XXXXXX").string();
    if(!temp_error && mkdtemp(run_template.data()) != nullptr) return run_template;
    std::fprintf(stderr,
                 "rocprofv3: warning: cannot create a run directory (%s); processes that use "
                 "the same -o prefix will overwrite each other's files\n",
                 temp_error ? temp_error.message().c_str() : std::strerror(errno));
    return {};
}

// In the child: the application with the tool library preloaded and @p env set.
[[noreturn]] void
exec_application(const options&                            opts,
                 const libraries&                          libs,
                 const std::map<std::string, std::string>& env,
                 int                                       report_fd,
                 const std::string&                        run_dir,
                 const sigset_t&                           mask)
{
    auto argv = std::vector<char*>{};
    for(const auto& arg : opts.command)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    for(auto sig : forwarded_signals)
        signal(sig, SIG_DFL);
    sigaction(SIGXFSZ, &inherited_sigxfsz, nullptr);
    sigprocmask(SIG_SETMASK, &mask, nullptr);
    for(const auto& [name, value] : env)
        setenv(name.c_str(), value.c_str(), 1);
    for(const auto& [name, value] : library_variables(opts, libs))
        setenv(name.c_str(), value.c_str(), 1);
    // NVTX calls (CUDA programs, PyTorch) reach the SDK through NVTX's injection interface,
    // which the SDK library implements; a user's own injection library is left in place.
    if((opts.marker_trace || opts.selected_regions) && getenv("NVTX_INJECTION64_PATH") == nullptr)
        setenv("NVTX_INJECTION64_PATH", libs.sdk.c_str(), 1);
    // Inherited by the application (and the processes it starts), not by rocprofv3's others.
    fcntl(report_fd, F_SETFD, 0);
    for(const auto& [name, value] : contract::encode(contract::report_channel{run_dir, report_fd}))
        setenv(name.c_str(), value.c_str(), 1);
    execvp(argv[0], argv.data());
    auto err = errno;
    std::fprintf(
        stderr, "rocprofv3: error: cannot execute '%s': %s\n", argv[0], std::strerror(err));
    _exit(err == ENOENT ? exit_not_found : exit_not_executable);
}

// Waits for the application @p pid, reading the report pipe meanwhile; its wait status, or -1.
int
wait_for(pid_t pid, int report_fd, run_reports& reports)
{
    int status = 0;
    for(;;)
    {
        auto waiting = pollfd{report_fd, POLLIN, 0};
        if(poll(&waiting, 1, 100) > 0) drain(report_fd, reports);
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
    drain(report_fd, reports); // what the process wrote before it ended
    return status;
}

// rocprofv3's code for the run of @p pid that ended with @p status: the application's, or
// exit_output_at_end when its outputs failed; outputs of processes that never finalized are
// completed here.
int
end_of_run(pid_t pid, int status, run_reports& reports)
{
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

std::string
application_environment_error(const options&                            opts,
                              const libraries&                          libs,
                              const std::map<std::string, std::string>& env)
{
    auto added = env;
    added.merge(library_variables(opts, libs));
    const auto arg_max = sysconf(_SC_ARG_MAX);
    // What is left out: the report channel and NVTX_INJECTION64_PATH, well within the reserve.
    return exec_size_error(opts.command,
                           added,
                           environ,
                           arg_max > 0 ? static_cast<size_t>(arg_max) : size_t{2} << 20,
                           1024);
}

void
ignore_sigxfsz()
{
    struct sigaction ignore = {};
    ignore.sa_handler       = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    sigaction(SIGXFSZ, &ignore, &inherited_sigxfsz);
}

int
exec_unprofiled(const options& opts)
{
    auto argv = std::vector<char*>{};
    for(const auto& arg : opts.command)
        argv.push_back(const_cast<char*>(arg.c_str()));
    argv.push_back(nullptr);
    sigaction(SIGXFSZ, &inherited_sigxfsz, nullptr);
    std::fflush(nullptr);
    execvp(argv[0], argv.data());
    auto err = errno;
    std::fprintf(
        stderr, "rocprofv3: error: cannot execute '%s': %s\n", argv[0], std::strerror(err));
    return err == ENOENT ? exit_not_found : exit_not_executable;
}

int
run_application(const options&                            opts,
                const libraries&                          libs,
                const std::map<std::string, std::string>& env)
{
    // The tool's report pipe: the read end stays here, non-blocking; the write end is
    // non-blocking too, so that a process never waits for rocprofv3.
    int report[2] = {-1, -1};
    if(pipe2(report, O_CLOEXEC | O_NONBLOCK) != 0)
    {
        std::fprintf(stderr, "rocprofv3: error: pipe failed: %s\n", std::strerror(errno));
        return exit_configuration;
    }
    auto signals = forwarding{};
    signals.install();
    const auto run_dir = make_run_directory();
    auto       why     = std::string{};
    const auto linked  = preloadable(libs, run_dir, why);
    if(!linked)
    {
        std::fprintf(stderr, "rocprofv3: error: %s; the application was not run\n", why.c_str());
        close(report[1]);
        auto ec = std::error_code{};
        if(!run_dir.empty()) fs::remove_all(run_dir, ec);
        signals.restore();
        close(report[0]);
        return exit_configuration;
    }
    auto pid = fork();
    if(pid < 0)
    {
        std::fprintf(stderr, "rocprofv3: error: fork failed: %s\n", std::strerror(errno));
        close(report[1]);
        if(!run_dir.empty()) rmdir(run_dir.c_str());
        signals.restore();
        close(report[0]);
        return exit_configuration;
    }
    if(pid == 0) exec_application(opts, *linked, env, report[1], run_dir, signals.mask);
    child_pid = pid;
    sigprocmask(SIG_SETMASK, &signals.mask, nullptr);
    close(report[1]);

    auto reports = run_reports{};
    auto status  = wait_for(pid, report[0], reports);
    signals.restore();
    close(report[0]);
    if(!run_dir.empty())
    {
        read_report_files(run_dir, reports);
        auto ec = std::error_code{};
        fs::remove_all(run_dir, ec);
    }
    return end_of_run(pid, status, reports);
}
} // namespace rocprofv3
