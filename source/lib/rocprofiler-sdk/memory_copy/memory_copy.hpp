// Memory copy tracing (ROCPROFILER_BUFFER_TRACING_MEMORY_COPY), backend-neutral: a backend
// reports each finished copy of the application; this layer gives it a correlation id and writes
// one record into the buffer of every active context that traces the copy's direction.
#pragma once

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>

namespace rocprofiler::memory_copy
{
struct copy
{
    rocprofiler_memory_copy_operation_t direction   = ROCPROFILER_MEMORY_COPY_NONE;
    rocprofiler_agent_id_t              dst_agent   = {0}; // 0: host memory
    rocprofiler_agent_id_t              src_agent   = {0};
    uint64_t                            bytes       = 0;
    uint64_t                            dst_address = 0;
    uint64_t                            src_address = 0;
    uint64_t                            start_ns    = 0;
    uint64_t                            end_ns      = 0;
    uint64_t                            thread_id   = 0; // the thread that asked for the copy
    uint64_t internal_id = 0; // reserved when the copy was issued (next_correlation_id), or 0
};

// The direction of a copy whose sides are (or are not) device memory.
rocprofiler_memory_copy_operation_t direction_of(bool dst_device, bool src_device);

// True when some context is configured to trace memory copies (started or not): a backend may
// skip the work of describing copies otherwise.
bool configured();

// Records `c` for every active context that traces its direction. Callable from any thread.
void report(const copy& c);
} // namespace rocprofiler::memory_copy
