// CUPTI's activity API as the timing layer uses it: kernel records (CONCURRENT_KERNEL) on the SDK
// clock (cuptiActivityRegisterTimestampCallback), delivered into the timing state's record
// matcher and calibration, and the correlation ids of the launch the calling thread is making,
// written by CUPTI's API callbacks (they run on the launching thread inside the driver call).
//
// Who flushes CUPTI's activity buffers (ROCPROFILER_CUDA_FLUSH, cupti mode):
//   owner (default): never a background thread while the application may launch. CUPTI's own
//     worker delivers buffers (a flush period, one record per buffer); a replay pass flushes on the
//     replaying thread, inside the application's launch call, after the pass's end event; drain()
//     flushes at exit.
//   loop (diagnostic, the former design): the completion thread flushes every 50 us until the
//     record arrives. Measured on the H200: its flushes hold a CUPTI lock the application's launch
//     needs (a launch call of 22 ms, a kernel started 582 us late).
#pragma once

#include "cuda/cupti/cupti_loader.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprofiler::cuda::timing
{
// Loads CUPTI's activity table and starts kernel activity collection, once (later calls return at
// once). Not started when ROCPROFILER_CUDA_CUPTI=0, when a context counts dispatches (CUPTI's
// records would change the counted values) or when CUPTI is missing.
void start_activity();

// True when kernel activity collection runs.
bool activity_on();

// Memcpy activity (memory_copies.hpp) shares the activity callbacks: the activity table with the
// timestamp and buffer callbacks registered (once), or nullptr when CUPTI is missing or refused;
// and the enabling of further kinds (false when one failed).
const cupti_activity_table* activity_table();
bool                        enable_activity_kinds(const std::vector<CUpti_ActivityKind>& kinds);

// Flushes CUPTI's activity buffers (nothing when no activity kind runs). A default flush delivers
// only buffers whose records are complete; CUPTI_ACTIVITY_FLAG_FLUSH_FORCED also delivers records
// whose timestamps are not written yet (they read 0 and are never updated), so it is kept for exit.
void flush_records(uint32_t flags = 0);

// The correlation ids of the calling thread's current launch (0 when unknown).
uint32_t launch_driver_id();
uint32_t launch_runtime_id();
// Before a launch: forgets the calling thread's last driver id.
void reset_launch_driver_id();

// CUPTI's worker flush period (ms, 0: CUPTI's heuristics) and the records per activity buffer (0:
// as many as fit); both read once.
uint32_t flush_period_ms();
size_t   buffer_records();
} // namespace rocprofiler::cuda::timing
