#include "session/signal_end.hpp"

#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <thread>

namespace rocprofiler::tool::signal_end
{
namespace
{
constexpr int caught_signals[] = {
    SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGSEGV, SIGABRT, SIGBUS, SIGFPE, SIGILL};

int               wake_fds[2] = {-1, -1}; // handler -> watcher: a signal arrived
int               done_fds[2] = {-1, -1}; // watcher -> faulting threads: outputs written
ino_t             wake_ino    = 0;        // the pipes' inodes: see ours()
ino_t             done_ino    = 0;
std::atomic<int>  first_signal{0};
std::atomic<bool> finalized{false}; // the watcher wrote the outputs
std::atomic<long> watcher_tid{0};
pid_t             owner      = 0;
int               timeout_ms = 0;
finalize_fn       on_signal  = nullptr;

// An application may close every descriptor it did not open (closefrom(3)) and reuse the numbers:
// a pipe end is used only while its number still names the pipe, else the watcher and the faulting
// threads fall back to polling first_signal and finalized. fstat is async-signal-safe.
bool
ours(int fd, ino_t ino)
{
    struct stat info = {};
    return fd >= 0 && fstat(fd, &info) == 0 && S_ISFIFO(info.st_mode) && info.st_ino == ino;
}

// Sleeps in a signal handler or on the watcher (nanosleep is async-signal-safe).
void
nap(long ms)
{
    auto time = timespec{0, ms * 1000000L};
    while(nanosleep(&time, &time) < 0 && errno == EINTR)
    {
    }
}

bool
synchronous(int sig)
{
    return sig == SIGSEGV || sig == SIGBUS || sig == SIGFPE || sig == SIGILL || sig == SIGABRT;
}

// In a handler: the signal is blocked until the handler returns, so the raised one is delivered
// then, with the default action (a fault re-executes its instruction, with the same effect).
void
die_in_handler(int sig)
{
    signal(sig, SIG_DFL);
    raise(sig);
}

// On the watcher thread, which blocks every signal: another thread receives it; should all block
// it, this thread unblocks it; the exit code is the last resort.
void
die_from_thread(int sig)
{
    signal(sig, SIG_DFL);
    kill(getpid(), sig);
    auto set = sigset_t{};
    sigemptyset(&set);
    sigaddset(&set, sig);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
    std::this_thread::sleep_for(std::chrono::seconds{1});
    _exit(128 + sig);
}

void
handler(int sig, siginfo_t*, void*)
{
    const auto saved = errno;
    // A child forked by the application has no watcher; a signal on the watcher itself (its
    // finalization failed) cannot wait for it.
    if(getpid() != owner || syscall(SYS_gettid) == watcher_tid.load())
    {
        die_in_handler(sig);
        errno = saved;
        return;
    }
    auto expected = 0;
    if(first_signal.compare_exchange_strong(expected, sig) && ours(wake_fds[1], wake_ino))
    {
        const char byte = 1;
        while(write(wake_fds[1], &byte, 1) < 0 && errno == EINTR)
        {
        }
    }
    if(synchronous(sig))
    {
        if(ours(done_fds[0], done_ino))
        {
            auto done = pollfd{done_fds[0], POLLIN, 0};
            while(poll(&done, 1, timeout_ms) < 0 && errno == EINTR)
            {
            }
        }
        else
            for(int waited = 0; waited < timeout_ms && !finalized.load(); waited += 10)
                nap(10);
        die_in_handler(sig);
    }
    // A termination signal returns: the application runs on until the watcher re-raises the first
    // one (a second termination signal meanwhile changes nothing).
    errno = saved;
}

void
watch()
{
    auto all = sigset_t{};
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, nullptr);
    watcher_tid.store(syscall(SYS_gettid));
    // Woken by the handler's byte; the timeout only notices a signal whose handler found the pipe
    // gone, and never makes a signal of a pipe that failed.
    while(first_signal.load() == 0)
    {
        if(!ours(wake_fds[0], wake_ino))
        {
            nap(200);
            continue;
        }
        auto wake = pollfd{wake_fds[0], POLLIN, 0};
        if(poll(&wake, 1, 200) > 0 && (wake.revents & POLLIN) != 0)
        {
            char byte = 0;
            if(read(wake_fds[0], &byte, 1) < 0)
            {
                // Nothing to do: first_signal decides.
            }
        }
    }
    const auto sig = first_signal.load();
    // Finalization that hangs (a lock held by the thread that faulted) must not keep the process
    // alive.
    std::thread{[sig]
                {
                    std::this_thread::sleep_for(std::chrono::milliseconds{timeout_ms});
                    die_from_thread(sig);
                }}
        .detach();
    on_signal(sig);
    finalized.store(true);
    const char done = 1;
    while(ours(done_fds[1], done_ino) && write(done_fds[1], &done, 1) < 0 && errno == EINTR)
    {
    }
    // A faulting thread re-raises its own signal when it sees the byte.
    if(!synchronous(sig)) die_from_thread(sig);
}
} // namespace

bool
install(finalize_fn finalize, std::chrono::milliseconds timeout, std::string& error)
{
    if(pipe2(wake_fds, O_CLOEXEC) != 0 || pipe2(done_fds, O_CLOEXEC) != 0)
    {
        error = std::string{"cannot create the signal pipe: "} + std::strerror(errno);
        return false;
    }
    struct stat info = {};
    wake_ino         = fstat(wake_fds[0], &info) == 0 ? info.st_ino : 0;
    done_ino         = fstat(done_fds[0], &info) == 0 ? info.st_ino : 0;
    owner            = getpid();
    timeout_ms       = static_cast<int>(timeout.count());
    on_signal        = finalize;
    try
    {
        std::thread{watch}.detach();
    }
    catch(const std::exception& e)
    {
        error = std::string{"cannot start the signal watcher: "} + e.what();
        return false;
    }
    for(auto sig : caught_signals)
    {
        struct sigaction old = {};
        if(sigaction(sig, nullptr, &old) != 0) continue;
        if((old.sa_flags & SA_SIGINFO) != 0 || old.sa_handler != SIG_DFL) continue;
        struct sigaction action = {};
        action.sa_sigaction     = handler;
        action.sa_flags         = SA_SIGINFO | SA_RESTART;
        sigemptyset(&action.sa_mask);
        sigaction(sig, &action, nullptr);
    }
    return true;
}
} // namespace rocprofiler::tool::signal_end
