// One output format as the capture side sees it: the records arrive one by one, in the order the
// tool received them, with the collected data (results) for what a record refers to (agents,
// kernel names, counter names). A sink writes its files as records arrive (streaming, memory
// bounded), makes them durable at each checkpoint, and completes them at finish; what makes its
// files survive an abrupt end (append-only rows, atomic rewrites, committed transactions) is its
// own business. Every call is made under the tool's lock, from whichever thread delivered the
// record. A sink implements the records it writes; the others default to nothing.
#pragma once

#include "model/results.hpp"

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <cstdint>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
struct replay_report;

class sink
{
public:
    virtual ~sink() = default;

    virtual void dispatch(const results&,
                          const rocprofiler_buffer_tracing_kernel_dispatch_record_t&)
    {
    }
    virtual void counters(const results&, const counter_dispatch&) {}
    virtual void memory_copy(const results&, const rocprofiler_buffer_tracing_memory_copy_record_t&)
    {
    }
    virtual void marker(const results&, const marker_event&) {}
    // --pc-sampling-*: one sample, as the SDK's PC sampling buffer delivered it.
    virtual void pc_sample(const results&, const rocprofiler_pc_sampling_record_host_trap_v0_t&) {}
    virtual void pc_sample(const results&, const rocprofiler_pc_sampling_record_stochastic_v0_t&) {}
    virtual void api_call(const results&, const marker_event&) {}
    // Under kernel replay: a dispatch rocprofv3 asked to replay, with the counter groups it misses.
    virtual void
    replay_outcome(const results&, const replay_outcome&, const std::vector<uint64_t>& /*missing*/)
    {
    }
    virtual void code_object(const code_object_entry&) {}
    virtual void kernel_symbol(const rocprofiler::tool::kernel_symbol&) {}
    // The end of a batch of records (one buffer callback): a sink that encodes records in memory
    // moves them towards its file.
    virtual void batch_end() {}
    // On the flusher thread, every flush interval: what is buffered reaches the file.
    virtual void checkpoint() {}
    // Completes the files. Appends the paths written to @p written and each error (naming the file
    // and the reason) to @p errors.
    virtual void
    finish(const results&, std::vector<std::string>& written, std::vector<std::string>& errors)
    {
        (void)written;
        (void)errors;
    }
    // At a checkpoint and at the end, after the streams: the files the sink writes whole (each
    // atomically, as write_outputs does), with the paths written appended to @p written.
    virtual void write_whole(const results&,
                             const replay_report&,
                             std::vector<std::string>& written,
                             std::vector<std::string>& errors)
    {
        (void)written;
        (void)errors;
    }
    // After the whole-file outputs were written (write_outputs, write_whole): parts the sink kept
    // on disk for them are removed; their errors are appended to @p errors.
    virtual void discard_parts(std::vector<std::string>& errors) { (void)errors; }
};
} // namespace rocprofiler::tool
