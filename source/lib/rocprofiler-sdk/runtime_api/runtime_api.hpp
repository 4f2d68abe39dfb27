// Runtime API tracing (ROCPROFILER_*_TRACING_CUDA_RUNTIME_API, _CUDA_DRIVER_API), backend-neutral:
// a backend that sees the application enter and leave its runtime's entry points (the CUDA
// backend, through CUPTI's API callbacks) reports each call with enter() and exit(); this layer
// delivers the callback records (ENTER with the arguments, EXIT with the return value) and one
// buffer record (timestamps around the call) to every active context that traces the call's kind
// and operation, all with one internal correlation id, as marker/marker.hpp does for markers.
//
// Calls nest (a runtime call makes driver calls): the calls in progress are a per-thread stack.
// An exit() that matches no enter() of its thread (tracing started while the call was in
// progress, or no context took part) is ignored.
#pragma once

#include <rocprofiler-sdk/fwd.h>

#include <cstdint>

namespace rocprofiler::runtime_api
{
enum class domain
{
    cuda_runtime, // CUDA_RUNTIME_API
    cuda_driver,  // CUDA_DRIVER_API
};

rocprofiler_callback_tracing_kind_t                callback_kind(domain d);
rocprofiler_buffer_tracing_kind_t                  buffer_kind(domain d);
rocprofiler_external_correlation_id_request_kind_t request_kind(domain d);

// Whether some context is configured (started or not) to trace `d`, in either form. Constant
// once the configuration is locked; a backend may skip enter()/exit() when false.
bool configured(domain d);

// What the callback payload shows of a call (rocprofiler_callback_tracing_cuda_api_data_t);
// pointers valid until the matching exit() returned.
struct call_info
{
    const char* function_name = nullptr;
    const char* symbol_name   = nullptr;
    const void* args          = nullptr;
};

// The application entered operation `op` of `d` on this thread; `key` identifies the call
// (the same value is given to its exit(), e.g. the runtime's own correlation id).
void enter(domain d, int32_t op, uint64_t key, const call_info& info);

// The call `key` of operation `op` of `d` returned `retval` (a pointer to the return value,
// valid during the call).
void exit(domain d, int32_t op, uint64_t key, const void* retval);
} // namespace rocprofiler::runtime_api
