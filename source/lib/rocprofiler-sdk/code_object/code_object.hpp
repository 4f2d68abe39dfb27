// Code objects and kernel symbols: how tools learn the names behind the kernel ids of dispatch
// records. Backends report each kernel once (the host device when a kernel is registered, CUDA
// when a function is first seen); the SDK keeps every symbol for the life of the process and
// delivers CODE_OBJECT callbacks to contexts that trace them, including, when a context starts,
// the symbols reported before.
#pragma once

#include "context/context.hpp"

#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <string>

namespace rocprofiler::code_object
{
struct kernel_symbol
{
    rocprofiler_kernel_id_t kernel_id            = 0;
    rocprofiler_agent_id_t  agent                = {};
    std::string             name                 = {};
    std::string             uri                  = {}; // of its code object
    uint64_t                code_object_id       = 0; // 0: the SDK makes one code object per kernel
    uint64_t                kernel_object        = 0;
    uint32_t                kernarg_size         = 0;
    uint32_t                kernarg_alignment    = 0;
    uint32_t                group_segment_size   = 0;
    uint32_t                private_segment_size = 0;
    uint32_t                registers            = 0; // arch_vgpr_count
    uint64_t                kernel_address       = 0; // of its code; 0 when not known
    // Where the code object's image lies, when the backend knows (else storage NONE).
    rocprofiler_code_object_storage_type_t storage_type = ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_NONE;
    uint64_t                               memory_base  = 0;
    uint64_t                               memory_size  = 0;
};

// Reports a kernel. Repeated reports of the same (agent, kernel_id) are ignored. Any thread.
void register_kernel(kernel_symbol symbol);

// The name of a kernel, or nullptr when it was never reported.
const char* kernel_name(rocprofiler_agent_id_t agent, rocprofiler_kernel_id_t kernel_id);

// The code object id of a kernel, or 0 (ROCPROFILER_CODE_OBJECT_ID_NONE) when it was never
// reported.
uint64_t code_object_of(rocprofiler_agent_id_t agent, rocprofiler_kernel_id_t kernel_id);

// Called when a context starts: delivers the symbols reported so far to it, if it traces them.
void on_context_start(context::context& ctx);
} // namespace rocprofiler::code_object
