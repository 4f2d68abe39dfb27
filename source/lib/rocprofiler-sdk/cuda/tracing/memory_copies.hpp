// Memory copy tracing on CUDA devices (memory_copy/memory_copy.hpp): CUPTI's memcpy activity
// records (CUPTI_ACTIVITY_KIND_MEMCPY and MEMCPY2, peer to peer), on the SDK clock, become
// MEMORY_COPY records. A record is reported when CUPTI's API callbacks saw the application enter a
// copy entry point (driver cuMemcpy*, runtime cudaMemcpy*) with its correlation id: that call gives
// the copying thread and the correlation id, reserved at issue. The SDK's own copies (kernel
// replay's snapshots and restores, its hash descriptors) make no such call and are left out; so
// are the copies of CUDA graphs (their launch is not a copy call). CUPTI's records carry no
// addresses: both stay 0.
//
// Only files of the CUDA backend (cuda/) include this header.
#pragma once

#include "cuda/cupti/cupti_loader.hpp"

#include <vector>

namespace rocprofiler::cuda::memory_copies
{
// Starts copy tracing once, when some context traces memory copies (later calls return at once):
// routes the driver's and the runtime's copy entry points to the correlation bookkeeping and
// enables CUPTI's memcpy activity. Called after the SDK's initialization, at the application's
// first allocation or launch.
void start();

// True when copy tracing runs.
bool on();

// The activity kinds it enables.
const std::vector<CUpti_ActivityKind>& activity_kinds();

// One memcpy activity record, from CUPTI's buffer callback; the record is reported to the tools
// (memory_copy::report) unless it is one of the SDK's own copies. Call without holding locks a
// tool's buffer could wait on.
void on_record(const CUpti_Activity* record);
} // namespace rocprofiler::cuda::memory_copies
