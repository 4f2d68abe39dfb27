#include "cuda/interpose/driver.hpp"

#include "common/logging.hpp"

#include <dlfcn.h>

#include <atomic>
#include <mutex>

namespace rocprofiler::cuda
{
namespace
{
using dlsym_fn = void* (*)(void*, const char*);

thread_local bool this_thread_internal = false;

dlsym_fn
libc_dlsym()
{
    // dlvsym is not interposed: it reaches libc's dlsym whatever the symbol search order is.
    static const auto value = []
    {
        for(const char* version : {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_2.0"})
            if(void* sym = dlvsym(RTLD_NEXT, "dlsym", version); sym != nullptr)
                return reinterpret_cast<dlsym_fn>(sym);
        return static_cast<dlsym_fn>(nullptr);
    }();
    return value;
}

driver_table*
open_driver(bool load_if_absent)
{
    auto* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL | RTLD_NOLOAD);
    if(handle == nullptr && load_if_absent) handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if(handle == nullptr) return nullptr;

    auto* table   = new driver_table{}; // never destroyed: used at exit
    table->handle = handle;
#define ROCP_CUDA_LOAD_FN(NAME)                                                                    \
    table->NAME = reinterpret_cast<decltype(table->NAME)>(real_dlsym(handle, #NAME));
    ROCP_CUDA_DRIVER_FUNCTIONS(ROCP_CUDA_LOAD_FN)
#undef ROCP_CUDA_LOAD_FN
#define ROCP_CUDA_LOAD_PTSZ(NAME, BASE)                                                            \
    table->NAME = reinterpret_cast<decltype(table->NAME)>(real_dlsym(handle, #NAME));
    ROCP_CUDA_DRIVER_PTSZ_FUNCTIONS(ROCP_CUDA_LOAD_PTSZ)
#undef ROCP_CUDA_LOAD_PTSZ
    table->cuGetProcAddress_v1 =
        reinterpret_cast<cuGetProcAddress_v1_fn>(real_dlsym(handle, "cuGetProcAddress"));
    if(table->cuInit == nullptr || table->cuLaunchKernel == nullptr)
    {
        ROCP_LOG(warning) << "cuda: libcuda.so.1 lacks cuInit or cuLaunchKernel; CUDA is not "
                             "profiled";
        return nullptr;
    }
    return table;
}
} // namespace

void*
real_dlsym(void* handle, const char* name)
{
    auto fn = libc_dlsym();
    return fn != nullptr ? fn(handle, name) : nullptr;
}

const driver_table*
driver(bool load_if_absent)
{
    // Once loaded, the table stays. An attempt that found no driver loaded (load_if_absent=false)
    // is retried on the next call.
    static std::mutex                 mutex;
    static driver_table*              table     = nullptr;
    static bool                       tried     = false;
    static std::atomic<driver_table*> published = nullptr;
    if(auto* value = published.load(std::memory_order_acquire)) return value;
    auto lock = std::lock_guard{mutex};
    if(table == nullptr && (!tried || load_if_absent))
    {
        auto scope = internal_call_scope{};
        table      = open_driver(load_if_absent);
        tried      = tried || load_if_absent;
    }
    published.store(table, std::memory_order_release);
    return table;
}

std::string
error_name(CUresult result)
{
    const char* name = nullptr;
    if(const auto* drv = driver(false); drv != nullptr && drv->cuGetErrorName != nullptr)
        drv->cuGetErrorName(result, &name);
    return name != nullptr ? std::string{name}
                           : "CUresult " + std::to_string(static_cast<int>(result));
}

void
relax_stream_capture_on_this_thread()
{
    const auto* drv = driver();
    if(drv == nullptr || drv->cuThreadExchangeStreamCaptureMode == nullptr) return;
    auto mode = CU_STREAM_CAPTURE_MODE_RELAXED;
    if(auto result = drv->cuThreadExchangeStreamCaptureMode(&mode); result != CUDA_SUCCESS)
        ROCP_LOG(warning) << "cuda: cuThreadExchangeStreamCaptureMode returned "
                          << error_name(result)
                          << "; an SDK thread may invalidate the application's stream captures";
}

internal_call_scope::internal_call_scope()
    : m_previous{this_thread_internal}
{
    this_thread_internal = true;
}

internal_call_scope::~internal_call_scope()
{
    this_thread_internal = m_previous;
}

bool
internal_call_scope::active()
{
    return this_thread_internal;
}
} // namespace rocprofiler::cuda
