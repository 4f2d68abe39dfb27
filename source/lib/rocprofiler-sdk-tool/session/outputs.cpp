// The outputs of a run over its life: opened once the tool initialized (the prefix claimed, the
// sinks of the configured formats, config.json), flushed and checkpointed by the flusher thread,
// and finalized at exit or on a fatal or termination signal (signal_end.hpp), whichever comes
// first. What survives the application's end: docs/rocprofv3.md.
#include "capture/callback_guard.hpp"
#include "capture/tool_state.hpp"
#include "files/atomic_file.hpp"
#include "log.hpp"
#include "model/domain_stats.hpp"
#include "model/names.hpp"
#include "model/results.hpp"
#include "session/config_file.hpp"
#include "session/prefix_claim.hpp"
#include "session/prefix_lock.hpp"
#include "session/run_report.hpp"
#include "session/signal_end.hpp"
#include "sinks/factory.hpp"
#include "sinks/whole_files.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <regex>
#include <string>
#include <thread>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
// <prefix>_incomplete.txt: present only while a run's outputs may miss records (docs).
std::string
incomplete_note_path()
{
    return output_file(state->cfg, state->data.pid, "incomplete.txt");
}

// On the flusher thread, every flush_interval: the SDK buffer is flushed (records reach the
// buffer callback, which appends their rows), the streams are written, and the whole-file outputs
// are checkpointed when they changed.
void
flush_once()
{
    if(state->buffer.handle != 0) rocprofiler_flush_buffer(state->buffer);
    if(state->cfg.pc_sampling() && state->pc_buffer.handle != 0)
        rocprofiler_flush_buffer(state->pc_buffer);
    auto lock = std::lock_guard{state->mutex};
    state->outputs.checkpoint();
    const auto& cfg = state->cfg;
    // Whole files: results.json, kernel_stats.csv, the replay summaries, and agent_info.csv.
    if(!state->changed || !(cfg.json || cfg.stats || cfg.kernel_replay || cfg.csv)) return;
    const auto start = std::chrono::steady_clock::now();
    if(!state->pacing.due(start)) return;
    state->changed  = false;
    state->data.end = run_end{run_end::running, 0};
    // Errors show again, and are reported, when finalization writes the same files.
    auto errors  = std::vector<std::string>{};
    auto written = write_outputs(cfg, state->data, errors, true, &state->replay.report());
    state->outputs.write_whole(state->data, state->replay.report(), written, errors);
    state->pacing.done(start, std::chrono::steady_clock::now());
}
} // namespace

// After initialization succeeded: rocprofv3 learns the outputs' names, the streamed files start
// with their headers, the flusher and the signal handlers start.
void
start_outputs()
{
    if(auto warning = claim_prefix(state->cfg, state->data.pid); !warning.empty())
        log::warning(warning);
    const auto& cfg = state->cfg;
    const auto  prefix =
        cfg.output_file_name.empty() ? std::to_string(state->data.pid) : cfg.output_file_name;
    run_report::send("init", {cfg.output_path, prefix});
    auto errors = std::vector<std::string>{};
    auto ec     = std::error_code{};
    std::filesystem::create_directories(cfg.output_path, ec);
    if(ec)
        errors.emplace_back("could not create the output directory '" + cfg.output_path +
                            "': " + ec.message());
    // A note left by an earlier run with the same prefix is not about this one.
    ::unlink(incomplete_note_path().c_str());
    if(!ec)
    {
        auto lock      = std::lock_guard{state->mutex};
        state->outputs = open_sinks(cfg, state->data, errors);
    }
    if(!ec && cfg.output_config) write_config_file(cfg, state->data.pid, errors);
    // Said now, not only at the end; finalization reports them again, to rocprofv3 too.
    for(const auto& e : errors)
        log::error(e + "; this output will be missing");
    state->flush.start(flush_once, std::chrono::milliseconds{200});
    auto error = std::string{};
    if(!signal_end::install(finalize_on_signal, std::chrono::seconds{30}, error))
        log::warning(error);
}

namespace
{
// The files of the outputs, completed: the sinks' streams, then the whole files (write_outputs,
// then each sink's), then the parts the sinks kept for them removed, and the note of an end by a
// signal. Called with state->mutex held.
void
write_final_files(run_end end, std::vector<std::string>& written, std::vector<std::string>& errors)
{
    state->outputs.finish(state->data, written, errors);
    for(auto& path : write_outputs(state->cfg, state->data, errors, true, &state->replay.report()))
        written.emplace_back(std::move(path));
    state->outputs.write_whole(state->data, state->replay.report(), written, errors);
    // The spilled records are in results.json now (or its write failed, which is reported).
    state->outputs.discard_parts(errors);
    if(end.kind == run_end::signal)
    {
        const auto note =
            "rocprofv3: process " + std::to_string(state->data.pid) + " was ended by signal " +
            std::to_string(end.number) + " (" + signal_name(end.number) +
            "); its outputs were written when the signal arrived: every dispatch that completed "
            "before it is recorded, dispatches in flight may be missing.\n";
        // The note's text without its "rocprofv3: " and its newline.
        log::warning(note.substr(11, note.size() - 12));
        if(write_file_atomically(incomplete_note_path(), note, errors))
            written.emplace_back(incomplete_note_path());
    }
}

// -S, -D, --summary-groups: the tables, to stderr, stdout or the --summary-output-file file (an
// error on stderr when it cannot be written). Called with state->mutex held.
void
print_summary_tables()
{
    const auto& cfg     = state->cfg;
    auto        request = summary_request{};
    request.per_domain  = cfg.summary_per_domain;
    for(const auto& g : cfg.summary_groups)
        request.groups.emplace_back(g, std::regex{g}); // compiled when the config was read
    parse_summary_unit(cfg.summary_units, request.unit);
    const auto text = format_summary_tables(compute_domain_totals(state->data), request);
    if(cfg.summary_output == "stderr")
        log::text(text);
    else if(cfg.summary_output == "stdout")
    {
        std::fputs(text.c_str(), stdout);
        std::fflush(stdout);
    }
    else
    {
        auto errors = std::vector<std::string>{};
        if(!write_file_atomically(cfg.summary_output, text, errors))
            for(const auto& e : errors)
                log::error("the summary (--summary-output-file): " + e);
    }
}

// What the run ends with on stderr and in rocprofv3's report pipe. Called with state->mutex held.
void
report_end(const std::vector<std::string>& written, const std::vector<std::string>& errors)
{
    for(const auto& e : errors)
    {
        log::error(e);
        run_report::send("error", e);
    }
    if(state->data.dropped_records > 0)
        log::warning(std::to_string(state->data.dropped_records) + " records were dropped");
    // PC sampling: what was written and what was lost, always said.
    if(state->cfg.pc_sampling())
    {
        const auto& d = state->data;
        const auto  line =
            "PC sampling: " + std::to_string(d.pc_samples_host_trap + d.pc_samples_stochastic) +
            " samples written, " + std::to_string(d.pc_samples_dropped) +
            " lost (dropped by the sampler or the buffer)";
        if(d.pc_samples_dropped > 0)
            log::warning(line);
        else
            log::info(line);
    }
    if(state->cfg.summary) print_summary_tables();
    print_ncu_summary();
    report_kernel_replay();
    if(state->progress)
        for(const auto& path : written)
            log::info("wrote " + path);
    std::fflush(stderr);
}
} // namespace

// Writes what was collected, from finalize (end = exit) or from the signal watcher (end =
// signal). Whichever comes first writes; the other waits for it (a signal) or returns.
void
finalize_outputs(run_end end)
{
    // A process forked by the application without exec has the tool's state but neither its
    // threads nor its own files: writing would overwrite the parent's outputs.
    if(static_cast<uint64_t>(getpid()) != state->data.pid)
    {
        log::warning("process " + std::to_string(getpid()) + " was forked from " +
                     std::to_string(state->data.pid) +
                     " without exec; its records are not written");
        return;
    }
    auto expected = 0;
    if(!state->finalize_state.compare_exchange_strong(expected, 1))
    {
        // The other one is writing: the process must not end (exit) or die (the signal) before
        // it is done. The watcher's deadline bounds this wait.
        while(state->finalize_state.load() != 2)
            std::this_thread::sleep_for(std::chrono::milliseconds{10});
        return;
    }
    state->flush.stop();
    if(state->buffer.handle != 0) rocprofiler_flush_buffer(state->buffer);
    if(state->cfg.pc_sampling() && state->pc_buffer.handle != 0)
        rocprofiler_flush_buffer(state->pc_buffer);
    report_progress_total();

    auto lock = std::lock_guard{state->mutex};
    rocprofiler_get_timestamp(&state->data.fini_time);
    // Declined dispatches whose single run never reported close now, every group missing.
    if(state->cfg.kernel_replay) state->replay.finish(state->data, record_replay_outcome);
    state->data.end = end;
    // CUDA API calls come only from the CUDA backend: a run in which none arrived (no CUDA in the
    // process, as on the host reference device, or CUPTI unavailable) says so instead of leaving
    // an empty trace without a word.
    if(state->cfg.cuda_api_trace() && state->api_rows == 0)
        log::warning("CUDA API tracing (--runtime-trace, --sys-trace, --cuda-runtime-trace, "
                     "--cuda-driver-trace): no CUDA runtime or driver call was traced (the process "
                     "used no CUDA device, or CUPTI was unavailable: see the SDK's warnings); "
                     "cuda_api_trace.csv has no rows");
    auto errors  = std::vector<std::string>{};
    auto written = std::vector<std::string>{};
    write_final_files(end, written, errors);
    report_end(written, errors);
    run_report::send("end",
                     end.kind == run_end::signal ? "signal\t" + std::to_string(end.number)
                                                 : std::string{"exit"});
    prefix_lock::release();
    state->finalize_state.store(2);
}
void
finalize_on_signal(int number)
{
    guarded("the signal handler's finalization",
            [number] {
                finalize_outputs(run_end{run_end::signal, number});
            });
}
} // namespace rocprofiler::tool
