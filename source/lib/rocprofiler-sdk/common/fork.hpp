// A process forked without exec from the one the SDK started in. Only the forking thread exists
// there: the SDK's threads (buffer callbacks, samplers, the tools' own) are gone, and locks they
// held stay held. The SDK turns profiling off in such a child: its device work runs unprofiled
// (one warning at its first dispatch), and nothing is finalized, flushed or joined at its exit.
#pragma once

#include <sys/types.h>

namespace rocprofiler::common
{
// True in a child forked (without exec) from the process the SDK was loaded in, or from one of
// its children. One relaxed load: callable on the launch path.
bool forked_child() noexcept;

// The process the SDK was loaded in.
pid_t profiled_process() noexcept;
} // namespace rocprofiler::common
