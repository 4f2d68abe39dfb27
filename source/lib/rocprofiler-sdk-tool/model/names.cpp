#include "model/names.hpp"

#include <csignal>

namespace rocprofiler::tool
{
std::string
memory_copy_direction_name(rocprofiler_memory_copy_operation_t operation)
{
    switch(operation)
    {
    case ROCPROFILER_MEMORY_COPY_NONE:
        return "MEMORY_COPY_NONE";
    case ROCPROFILER_MEMORY_COPY_HOST_TO_HOST:
        return "MEMORY_COPY_HOST_TO_HOST";
    case ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE:
        return "MEMORY_COPY_HOST_TO_DEVICE";
    case ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST:
        return "MEMORY_COPY_DEVICE_TO_HOST";
    case ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE:
        return "MEMORY_COPY_DEVICE_TO_DEVICE";
    case ROCPROFILER_MEMORY_COPY_LAST:
        break;
    }
    return "MEMORY_COPY_" + std::to_string(static_cast<int>(operation));
}

std::string
signal_name(int number)
{
    switch(number)
    {
    case SIGHUP:
        return "SIGHUP";
    case SIGINT:
        return "SIGINT";
    case SIGQUIT:
        return "SIGQUIT";
    case SIGILL:
        return "SIGILL";
    case SIGTRAP:
        return "SIGTRAP";
    case SIGABRT:
        return "SIGABRT";
    case SIGBUS:
        return "SIGBUS";
    case SIGFPE:
        return "SIGFPE";
    case SIGKILL:
        return "SIGKILL";
    case SIGSEGV:
        return "SIGSEGV";
    case SIGPIPE:
        return "SIGPIPE";
    case SIGALRM:
        return "SIGALRM";
    case SIGTERM:
        return "SIGTERM";
    case SIGXCPU:
        return "SIGXCPU";
    case SIGXFSZ:
        return "SIGXFSZ";
    case SIGSYS:
        return "SIGSYS";
    default:
        return "signal " + std::to_string(number);
    }
}
} // namespace rocprofiler::tool
