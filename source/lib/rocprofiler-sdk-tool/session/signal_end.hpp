// Fatal and termination signals end the run with its outputs written. The handler itself does
// only async-signal-safe work: it wakes a watcher thread (a byte on a pipe), which runs the
// tool's finalization in ordinary thread context, then the process dies by the same signal with
// its default action, so that its exit status stays the signal's. A thread that faulted (SIGSEGV,
// SIGBUS, SIGFPE, SIGILL, SIGABRT) waits in its handler until the watcher is done, or until the
// timeout, then re-raises; after SIGINT, SIGTERM, SIGHUP or SIGQUIT the application runs on while
// the outputs are written, and the watcher re-raises. Only signals whose disposition is the
// default when the tool starts are caught: an application's own handler is left alone.
#pragma once

#include <chrono>
#include <string>

namespace rocprofiler::tool::signal_end
{
// Runs on the watcher thread with the signal that ended the run.
using finalize_fn = void (*)(int signal);

// Installs the handlers and starts the watcher. Returns false, with @p error, when the pipe or the
// thread cannot be created (the run then goes on without them).
bool install(finalize_fn finalize, std::chrono::milliseconds timeout, std::string& error);
} // namespace rocprofiler::tool::signal_end
