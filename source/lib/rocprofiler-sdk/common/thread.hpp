// Thread identity as records report it: the operating-system thread id.
#pragma once

#include <cstdint>
#include <sys/syscall.h>
#include <unistd.h>

namespace rocprofiler::common
{
inline uint64_t
thread_id()
{
    static thread_local const uint64_t tid = static_cast<uint64_t>(::syscall(SYS_gettid));
    return tid;
}
} // namespace rocprofiler::common
