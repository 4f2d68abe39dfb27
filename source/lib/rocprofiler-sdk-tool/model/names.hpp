// The names outputs give to SDK values: memory copy directions, signals.
#pragma once

#include <rocprofiler-sdk/buffer_tracing.h>

#include <string>

namespace rocprofiler::tool
{
// "MEMORY_COPY_HOST_TO_DEVICE", as upstream's Direction column names a copy's direction.
std::string memory_copy_direction_name(rocprofiler_memory_copy_operation_t operation);

// "SIGSEGV" for SIGSEGV; "signal N" for a signal without a name here.
std::string signal_name(int number);

} // namespace rocprofiler::tool
