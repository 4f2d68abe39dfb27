// Kernel replay's write epoch on CUDA (dispatch::memory_backend::write_epoch): a count of the
// driver calls that may write device memory without a kernel dispatch of the SDK's pipeline —
// copies and memsets (whatever their direction but device-to-host), graph launches, stream memory
// operations, batch decompression and discards, and launches that reach the driver without the
// SDK — plus the changes of the tracked memory (allocation_tracker.hpp). The calls are seen
// through CUPTI's API callbacks, inside the driver, whichever way the application reached it
// (runtime, driver, a pointer from cuGetProcAddress). Calls the SDK makes itself
// (internal_call_scope) do not count.
//
// The callback ids are chosen by name, from CUPTI's own table of names, so that the driver's
// newer variants of these entry points count without a change here.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rocprofiler::cuda
{
// Subscribes (idempotent; with the allocation tracker). Without CUPTI, or when its subscription is
// refused, there is no epoch: replay verification then hashes afresh before every window.
void start_write_observer();

// The epoch, or nothing when the writers cannot be observed.
std::optional<uint64_t> write_epoch();

// Whether the driver entry point `name` (as CUPTI names it) may write device memory without a
// kernel dispatch of the SDK's pipeline (exposed for tests).
bool may_write_device_memory(std::string_view name);
} // namespace rocprofiler::cuda
