// The launch path of the CUDA adapter: what an intercepted launch is, and how it becomes an SDK
// dispatch (launch.cpp; the dispatch::launch_backend it hands the pipeline is in
// launch_backend.hpp). Called by the launch interposers on the application's
// launching thread.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <string>

namespace rocprofiler::cuda
{
enum class launch_api
{
    kernel,      // cuLaunchKernel(_ptsz)
    kernel_ex,   // cuLaunchKernelEx(_ptsz)
    cooperative, // cuLaunchCooperativeKernel(_ptsz)
};

// One launch as the application made it. Pointers are the application's and valid for the call.
struct launch_request
{
    launch_api            api        = launch_api::kernel;
    void*                 real       = nullptr; // the driver function the wrapper stands for
    bool                  per_thread = false;   // a _ptsz variant: stream 0 is per-thread
    CUfunction            function   = nullptr; // a CUfunction or a CUkernel
    unsigned int          grid[3]    = {1, 1, 1};
    unsigned int          block[3]   = {1, 1, 1};
    unsigned int          shared     = 0; // dynamic shared memory, bytes
    CUstream              stream     = nullptr;
    void**                params     = nullptr;
    void**                extra      = nullptr;
    const CUlaunchConfig* config     = nullptr; // kernel_ex only
};

// Runs the launch through the SDK (or straight to the driver when nothing listens) and returns
// what the application's call returns. The exception guard of every launch interposer: when the
// SDK throws before the driver was called, the launch goes to the driver directly; after, the
// driver's result stands (interposer_guard.hpp).
CUresult handle_launch(const launch_request& request) noexcept;

// Calls the driver function of the request with the request's arguments.
CUresult call_driver(const launch_request& request);

// Registers the adapter with the SDK (allocation tracker switch, shutdown hook) and runs the
// SDK's initialization (tool discovery) once. Cheap after the first call.
void ensure_initialized();

// Queue id of a stream as dispatches report it (see docs/cuda.md).
uint64_t queue_handle(CUstream effective_stream, int device, bool per_thread_default);
// The same for a launch made by thread `thread_id` (a per-thread stream names its thread).
uint64_t
queue_handle(CUstream effective_stream, int device, bool per_thread_default, uint64_t thread_id);
} // namespace rocprofiler::cuda
