// The profiler's adapter for the host reference device: it turns the device's dispatch
// interception and allocation observation into the SDK's dispatch pipeline and kernel replay
// memory backend. The device runtime itself (host/runtime/) knows nothing of the profiler.
#pragma once

namespace rocprofiler::host
{
class device;

// Connects the profiler to the process's device: installs the dispatch interceptor, registers
// the finalization hook, then initializes the SDK (tool discovery). The runtime's first-use hook
// (set_first_use_hook, set by this file at library load): called by get_device() after the device
// exists, on every first use from any thread; cheap after the first call.
void attach_profiler(device& dev);
} // namespace rocprofiler::host
