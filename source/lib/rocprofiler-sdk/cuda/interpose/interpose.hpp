// What the interposition files share (interpose.cpp: symbol lookups; interpose_launch.cpp: launch
// interposers; interpose_memory.cpp: allocation and module interposers). Only those include it.
#pragma once

#include "common/guard.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/interposer_guard.hpp"

#include <cuda.h>

#define ROCP_EXPORT extern "C" __attribute__((visibility("default")))

// Declares and begins the definition of the interposer of the driver function NAME, exported
// under the driver's symbol (an asm label: cuda.h maps several of these names to others with
// macros). PARAMS: the parenthesized parameter list.
#define ROCP_INTERPOSER(NAME, PARAMS)                                                              \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME PARAMS __asm__(#NAME);                                \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME PARAMS

namespace rocprofiler::cuda
{
// The driver table for an interposer, or nullptr when it cannot be had (no driver, or loading the
// table threw: logged under `where`).
inline const driver_table*
interposer_driver(const char* where) noexcept
{
    return common::guarded(
        where,
        [] { return driver(); },
        [](common::caught) -> const driver_table* { return nullptr; });
}

// Runs `body(fn, made)`, the SDK's part of one interposed call, with `fn` the driver's function
// `real` (CUDA_ERROR_NOT_INITIALIZED when the driver lacks it), under guarded_interposer: when body
// throws before the driver was called, the call is `call(fn)`, without the SDK.
template <typename Fn, typename Call, typename Body>
CUresult
interpose_driver_call(const char* where, Fn driver_table::*real, Call& call, Body&& body) noexcept
{
    const driver_table* drv = nullptr;
    return guarded_interposer<CUresult>(
        where,
        [&](driver_call<CUresult>& made)
        {
            drv = driver();
            if(drv == nullptr || drv->*real == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
            return body(drv->*real, made);
        },
        [&]
        {
            return drv != nullptr && drv->*real != nullptr ? call(drv->*real)
                                                           : CUDA_ERROR_NOT_INITIALIZED;
        });
}

// The wrapper of `real`, a driver function a lookup returned, or nullptr when it is not one that
// the file interposes. The launch interposers: the exported ones by address, the others (internal
// variants the driver hands out) by name.
void* exported_launch_wrapper(const driver_table& drv, void* real);
void* launch_wrapper_by_name(const char* name, void* real, bool per_thread);
// The allocation and module interposers, by address.
void* memory_wrapper(const driver_table& drv, void* real);
// cuProfilerStart/Stop as the marker domain's profiler controls (interpose_profiler.cpp).
void* profiler_wrapper(const driver_table& drv, void* real);
// The application's synchronizations, after which counting decodes its batches
// (interpose_sync.cpp).
void* sync_wrapper(const driver_table& drv, void* real);
} // namespace rocprofiler::cuda
