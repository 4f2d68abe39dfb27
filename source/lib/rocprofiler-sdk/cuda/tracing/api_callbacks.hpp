// CUDA runtime and driver API tracing (runtime_api/runtime_api.hpp) on CUDA: CUPTI's API
// callbacks of every runtime and driver entry point (routed through cupti_callbacks.hpp) become
// CUDA_RUNTIME_API / CUDA_DRIVER_API calls, with CUPTI's callback id as the operation and its
// parameter structure as the arguments. Only the application's calls: a callback inside the
// SDK's own driver calls (internal_call_scope) is dropped.
//
// The launch entry points of the driver (cuLaunchKernel, cuLaunchKernelEx,
// cuLaunchCooperativeKernel and their _ptsz forms) are the exception: the SDK calls the driver's
// launch inside its internal scope, once per replay pass, so CUPTI's callbacks of those ids are
// not used; the launch interposer reports the application's call instead, from its entry to its
// return (replay passes included), with a parameter structure of CUPTI's layout.
//
// Only files of the CUDA backend (cuda/) include this header.
#pragma once

#include "cuda/launch/launch.hpp"

#include <cuda.h>

#include <cstdint>

namespace rocprofiler::cuda::api_callbacks
{
// Starts API tracing once, when some context traces CUDA_RUNTIME_API or CUDA_DRIVER_API (later
// calls return at once). Called at the SDK's initialization in a CUDA process (the application's
// first allocation or launch, or NVTX's injection): calls made before are not traced.
void start();

// The application's call of a launch entry point, traced as a CUDA_DRIVER_API call from the
// object's construction to returned(). Does nothing when no context traces the driver API or
// inside the SDK's own calls.
class launch_call
{
public:
    explicit launch_call(const launch_request& request) noexcept;
    ~launch_call() = default;

    launch_call(const launch_call&)            = delete;
    launch_call& operator=(const launch_call&) = delete;

    // The call returns `result`.
    CUresult returned(CUresult result) noexcept;

private:
    void begin(const launch_request& request);

    bool     m_traced = false;
    int32_t  m_op     = 0;
    uint64_t m_key    = 0;
    // The parameters in CUPTI's cuLaunchKernel_params / cuLaunchKernelEx_params /
    // cuLaunchCooperativeKernel_params layouts (the _ptsz structures are the same).
    alignas(8) unsigned char m_params[96] = {};
};
} // namespace rocprofiler::cuda::api_callbacks
