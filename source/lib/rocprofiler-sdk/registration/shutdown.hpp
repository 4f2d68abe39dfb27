// Runtime adapters register a hook that finalization runs first, before any buffer is flushed:
// it lets work in flight on a device complete so that its records reach the tools.
#pragma once

namespace rocprofiler::registration
{
using shutdown_hook = void (*)();

// Hooks run in registration order, once, on the finalizing thread.
void add_shutdown_hook(shutdown_hook hook);
} // namespace rocprofiler::registration
