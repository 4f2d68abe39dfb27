// librocprofiler-sdk-tool.so: the tool behind rocprofv3. The SDK finds it through
// ROCP_TOOL_LIBRARIES (rocprofv3 also preloads it), calls rocprofiler_configure, then
// tool_initialize once the runtime starts, and tool_finalize at exit after it drained the device
// and flushed the buffers. A LOSSLESS buffer guarantees no record is dropped.
//
// What survives the application's end (docs/rocprofv3.md, "What survives the application's end"):
// a flusher thread flushes the SDK buffer every 200 ms and writes the rows of kernel_trace.csv,
// memory_copy_trace.csv and counter_collection.csv as they arrive (csv_stream); the other files are
// rewritten atomically at checkpoints. Fatal and termination signals are caught (signal_end.hpp)
// and the outputs are finalized on a watcher thread, with a note, before the process dies by the
// same signal. _exit and SIGKILL skip all of this: rocprofv3, told through the report pipe
// (run_report.hpp) that the process started but never finalized, trims and marks what is on disk.
//
// Kernel names come from CODE_OBJECT tracing (kernel symbol records), through the public API only,
// so the tool works on any agent; it never includes or calls a device's own API.
//
// Layout (docs/architecture.md, "The tool library"): capture/ holds the SDK callbacks, which turn
// SDK records into the plain records of output.hpp; sinks/ the one interface every output format
// implements and the fan-out that feeds them; csv/, json/, rocpd/, pftrace/ one sink each;
// session/ the life of the outputs (prefix claim, flusher, finalization). Threading:
// capture/tool_state.hpp. Every function the SDK calls catches all exceptions
// (callback_guard.hpp).
#include "capture/callback_guard.hpp"
#include "capture/tool_state.hpp"
#include "config/config.hpp"
#include "log.hpp"
#include "session/run_report.hpp"

#include <rocprofiler-sdk/rocprofiler.h>

#include <unistd.h>

#include <cstdlib>
#include <exception>
#include <string>

namespace rocprofiler::tool
{
tool_state*                          state               = nullptr;
thread_local std::optional<uint64_t> current_replay_pass = std::nullopt;

namespace
{
int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    return guarded("tool_initialize", 1, [] { return initialize(); });
}

void
tool_finalize(void*)
{
    guarded("tool_finalize", [] { finalize_outputs(run_end{run_end::exit, 0}); });
}
} // namespace
} // namespace rocprofiler::tool

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id)
{
    using namespace rocprofiler::tool;
    try
    {
        if(client_id != nullptr) client_id->name = "rocprofv3";
        // rocprofv3's pre-run agent query (query.cpp) loads this library without profiling.
        auto parsed = read_config([](const char* name) { return std::getenv(name); });
        if(parsed.cfg.helper_mode) return nullptr;
        // --target-processes application-only: a process the application started runs
        // unprofiled.
        if(!target_process()) return nullptr;
        run_report::open_from_environment();
        for(const auto& note : parsed.notes)
            log::warning(note);
        if(!parsed.errors.empty())
        {
            // A bad configuration deactivates the tool; the application still runs, and
            // rocprofv3 learns that its outputs will be missing.
            for(const auto& e : parsed.errors)
                log::error(e);
            log::error("profiling is disabled for this process");
            run_report::send("disabled", parsed.errors.front());
            return nullptr;
        }
        state              = new tool_state{std::move(parsed.cfg)};
        state->progress    = state->cfg.progress || isatty(STDERR_FILENO) != 0;
        static auto result = rocprofiler_tool_configure_result_t{
            sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, nullptr};
        return &result;
    }
    catch(const std::exception& e)
    {
        log::error(std::string{e.what()} + "; profiling is disabled");
        run_report::send("disabled", e.what());
        return nullptr;
    }
    catch(...)
    {
        log::error("unknown exception; profiling is disabled");
        return nullptr;
    }
}
