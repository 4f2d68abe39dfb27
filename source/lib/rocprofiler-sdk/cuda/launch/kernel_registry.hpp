// The kernels the CUDA adapter has seen: name, resources and parameter layout of each kernel
// handle, resolved through the driver on first use, and their report to CODE_OBJECT tracing.
// Thread-safe.
#pragma once

#include <rocprofiler-sdk/fwd.h>

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rocprofiler::cuda
{
// What the adapter knows of one kernel handle (a CUfunction, or a CUkernel the runtime passes in
// its place). Entries live for the process: handles of unloaded modules keep their id.
struct kernel_entry
{
    uint64_t                               id            = 0;
    std::string                            name          = {};
    CUfunction                             function      = nullptr; // resolved CUfunction
    uint32_t                               local_bytes   = 0;       // per thread
    uint32_t                               static_shared = 0;       // per block
    uint32_t                               registers     = 0;       // per thread
    void*                                  module        = nullptr; // CUmodule or CUlibrary
    bool                                   params_known  = false;
    std::vector<std::pair<size_t, size_t>> params        = {}; // offset, size
    size_t                                 args_size     = 0;
    mutable bool                           reported      = false; // to CODE_OBJECT tracing
};

// The entry of a kernel handle (a CUfunction or a CUkernel), resolved through the driver on first
// use. Entries are never destroyed: the reference stays valid.
const kernel_entry& lookup_kernel(CUfunction handle);

// The entry of a kernel known only by its name (a CUDA graph's kernel node, from CUPTI's activity
// record: the mangled name): the entry of a launched kernel of that name when there is one, else a
// new entry without handle or module. Never destroyed.
const kernel_entry& lookup_kernel_by_name(const char* mangled);

// Reports the kernel to CODE_OBJECT tracing once, before its first dispatch record.
void report_kernel_once(const kernel_entry& entry, CUfunction handle, rocprofiler_agent_id_t agent);
} // namespace rocprofiler::cuda
