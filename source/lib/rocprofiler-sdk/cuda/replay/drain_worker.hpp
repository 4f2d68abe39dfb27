// The drain of kernel replay: cuCtxSynchronize of a context, bounded by a timeout. The call cannot
// time out by itself, so it runs on a worker thread of the context (one per context, for the
// process) that the caller stops waiting for.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <optional>

namespace rocprofiler::cuda
{
// The result of a cuCtxSynchronize of `ctx` that started after this call, or nothing on timeout
// or when no worker thread can be started. The caller polls for the first
// ROCPROFILER_REPLAY_DRAIN_SPIN_US, then sleeps. Any thread.
std::optional<CUresult> synchronize_context(CUcontext ctx, uint64_t timeout_ns);
} // namespace rocprofiler::cuda
