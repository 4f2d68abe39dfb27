// The marker tracing domains (ROCTx markers and ranges, and on CUDA the NVTX calls mapped onto
// them), backend-neutral. A source of markers (librocprofiler-sdk-roctx through
// rocprofiler_set_api_table, the CUDA backend's NVTX injection) runs each call through traced(),
// which delivers the callback records (ENTER with the arguments, EXIT with the return value) and
// one buffer record (timestamps around the call) to every active context that traces the call's
// kind and operation, all with one internal correlation id.
#pragma once

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/marker.h>

#include <cstdint>

namespace rocprofiler::marker
{
enum class domain
{
    core,    // MARKER_CORE_API: marks, push/pop ranges, start/stop ranges
    control, // MARKER_CONTROL_API: profiler pause/resume
    name,    // MARKER_NAME_API: names of threads, devices, streams
};

rocprofiler_callback_tracing_kind_t callback_kind(domain d);
rocprofiler_buffer_tracing_kind_t   buffer_kind(domain d);

// The call itself: does the operation's work and returns its return value.
using call_fn = rocprofiler_marker_api_retval_t (*)(const rocprofiler_marker_api_args_t& args,
                                                    void*                                data);

// Whether some context is configured (started or not) to trace a marker kind, in either form.
// Constant once the configuration is locked; a source may skip traced() when false.
bool configured();

// Runs `call(args, data)` as operation `op` of `d`, traced as the header describes. Any thread.
// Returns what `call` returned.
rocprofiler_marker_api_retval_t
traced(domain d, int32_t op, const rocprofiler_marker_api_args_t& args, call_fn call, void* data);

// The results ROCTx documents, for a source that has no implementation of its own (NVTX): the
// depth a push opens at (0 for an outermost range) and the depth a pop closes (negative when the
// thread has none open), per thread; process range ids, from 1.
int32_t          push_depth();
int32_t          pop_depth();
roctx_range_id_t next_range_id();

// rocprofiler_set_api_table("roctx", ...): wraps the entries of the library's tables with
// tracing when configured(). Returns 0 when the tables were taken.
int take_roctx_tables(uint64_t lib_version, uint64_t lib_instance, void** tables, uint64_t count);
} // namespace rocprofiler::marker
