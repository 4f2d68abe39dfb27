// The CUDA driver as the adapter calls it: libcuda is opened with dlopen at run time (the SDK
// links nothing of CUDA), and every function the adapter needs is looked up once by its exported,
// versioned name. Calls through this table never come back into the adapter's wrappers.
//
// Only files of the CUDA backend (cuda/) include this header (it includes cuda.h).
#pragma once

#include <cuda.h>
#include <cudaProfiler.h>

#include <string>

namespace rocprofiler::cuda
{
// X(name): every driver function the adapter calls, by its exported symbol (versioned names
// spelled out, so that cuda.h's macros such as cuMemAlloc -> cuMemAlloc_v2 cannot pick another
// ABI).
#define ROCP_CUDA_DRIVER_FUNCTIONS(X)                                                              \
    X(cuInit)                                                                                      \
    X(cuDriverGetVersion)                                                                          \
    X(cuGetErrorName)                                                                              \
    X(cuDeviceGetCount)                                                                            \
    X(cuDeviceGet)                                                                                 \
    X(cuDeviceGetName)                                                                             \
    X(cuDeviceGetAttribute)                                                                        \
    X(cuDeviceGetUuid_v2)                                                                          \
    X(cuDeviceTotalMem_v2)                                                                         \
    X(cuCtxGetCurrent)                                                                             \
    X(cuCtxSetCurrent)                                                                             \
    X(cuCtxGetDevice)                                                                              \
    X(cuCtxSynchronize)                                                                            \
    X(cuCtxSynchronize_v2)                                                                         \
    X(cuModuleLoadData)                                                                            \
    X(cuModuleGetFunction)                                                                         \
    X(cuMemsetD8_v2)                                                                               \
    X(cuFuncGetName)                                                                               \
    X(cuFuncGetAttribute)                                                                          \
    X(cuFuncGetParamInfo)                                                                          \
    X(cuKernelGetFunction)                                                                         \
    X(cuKernelGetLibrary)                                                                          \
    X(cuFuncGetModule)                                                                             \
    X(cuStreamIsCapturing)                                                                         \
    X(cuThreadExchangeStreamCaptureMode)                                                           \
    X(cuStreamCreate)                                                                              \
    X(cuStreamSynchronize)                                                                         \
    X(cuEventCreate)                                                                               \
    X(cuEventDestroy_v2)                                                                           \
    X(cuEventRecord)                                                                               \
    X(cuEventSynchronize)                                                                          \
    X(cuEventQuery)                                                                                \
    X(cuEventElapsedTime_v2)                                                                       \
    X(cuPointerGetAttribute)                                                                       \
    X(cuMemGetInfo_v2)                                                                             \
    X(cuMemAlloc_v2)                                                                               \
    X(cuMemFree_v2)                                                                                \
    X(cuMemHostAlloc)                                                                              \
    X(cuMemFreeHost)                                                                               \
    X(cuMemcpyDtoDAsync_v2)                                                                        \
    X(cuMemcpyDtoHAsync_v2)                                                                        \
    X(cuMemcpyHtoDAsync_v2)                                                                        \
    X(cuMemcpyBatchAsync_v2)                                                                       \
    X(cuModuleGetGlobal_v2)                                                                        \
    X(cuModuleUnload)                                                                              \
    X(cuLibraryGetGlobal)                                                                          \
    X(cuLibraryUnload)                                                                             \
    X(cuGetProcAddress_v2)                                                                         \
    X(cuLaunchKernel)                                                                              \
    X(cuLaunchKernelEx)                                                                            \
    X(cuLaunchCooperativeKernel)                                                                   \
    X(cuMemAllocPitch_v2)                                                                          \
    X(cuMemAllocAsync)                                                                             \
    X(cuMemAllocFromPoolAsync)                                                                     \
    X(cuMemAllocManaged)                                                                           \
    X(cuMemFreeAsync)                                                                              \
    X(cuMemCreate)                                                                                 \
    X(cuMemMap)                                                                                    \
    X(cuMemGetAccess)                                                                              \
    X(cuOccupancyMaxActiveBlocksPerMultiprocessor)                                                 \
    X(cuMemUnmap)                                                                                  \
    X(cuMemRelease)                                                                                \
    X(cuProfilerStart)                                                                             \
    X(cuProfilerStop)

// The per-thread-default-stream variants, which cuda.h declares only for the driver's own build:
// Y(name, function of the same signature).
#define ROCP_CUDA_DRIVER_PTSZ_FUNCTIONS(Y)                                                         \
    Y(cuLaunchKernel_ptsz, cuLaunchKernel)                                                         \
    Y(cuLaunchKernelEx_ptsz, cuLaunchKernelEx)                                                     \
    Y(cuLaunchCooperativeKernel_ptsz, cuLaunchCooperativeKernel)                                   \
    Y(cuMemAllocAsync_ptsz, cuMemAllocAsync)                                                       \
    Y(cuMemAllocFromPoolAsync_ptsz, cuMemAllocFromPoolAsync)                                       \
    Y(cuMemFreeAsync_ptsz, cuMemFreeAsync)                                                         \
    Y(cuStreamSynchronize_ptsz, cuStreamSynchronize)

// cuGetProcAddress (the 4-argument form of CUDA 11.3..12.x) is not declared by CUDA 13's cuda.h.
using cuGetProcAddress_v1_fn = CUresult (*)(const char*, void**, int, cuuint64_t);

struct driver_table
{
#define ROCP_CUDA_DECLARE_FN(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUDA_DRIVER_FUNCTIONS(ROCP_CUDA_DECLARE_FN)
#undef ROCP_CUDA_DECLARE_FN
#define ROCP_CUDA_DECLARE_PTSZ(NAME, BASE) decltype(&::BASE) NAME = nullptr;
    ROCP_CUDA_DRIVER_PTSZ_FUNCTIONS(ROCP_CUDA_DECLARE_PTSZ)
#undef ROCP_CUDA_DECLARE_PTSZ
    cuGetProcAddress_v1_fn cuGetProcAddress_v1 = nullptr;

    void* handle = nullptr; // dlopen handle of libcuda, or nullptr when the driver is absent
};

// The driver table. Opens libcuda on first use (RTLD_NOLOAD first: a process that has not loaded
// the driver is only made to load it when `load_if_absent`). Entries the driver lacks are null.
// Thread-safe; never destroyed.
const driver_table* driver(bool load_if_absent = true);

// For a thread the SDK starts and owns for its life (the completion thread, replay's drain
// workers): sets its stream capture mode to relaxed. A CUDA stream capture in global mode (the
// default of cudaStreamBeginCapture, used by PyTorch's CUDA graphs) forbids "potentially unsafe"
// calls such as cuEventSynchronize or cuCtxSynchronize on every thread whose own mode is global,
// and such a call from any thread invalidates the capture: the application's cudaStreamEndCapture
// then fails. In relaxed mode the SDK's threads may wait on their own events while the
// application captures. No effect when the driver lacks the call.
void relax_stream_capture_on_this_thread();

// The libc dlsym, bypassing the interposer (see interpose.cpp).
void* real_dlsym(void* handle, const char* name);

// "CUDA_ERROR_..." for a result.
std::string error_name(CUresult result);

// Marks the calling thread as being inside a call the SDK makes into the driver or CUPTI: any
// allocation the driver makes through an exported entry point meanwhile is not the application's
// and is not tracked, and any launch is not intercepted.
class internal_call_scope
{
public:
    internal_call_scope();
    ~internal_call_scope();

    internal_call_scope(const internal_call_scope&)            = delete;
    internal_call_scope& operator=(const internal_call_scope&) = delete;

    static bool active();

private:
    bool m_previous = false;
};
} // namespace rocprofiler::cuda
