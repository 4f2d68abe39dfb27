// Interposition of symbol lookups: how the application's launches and allocations reach the
// adapter's interposers (interpose_launch.cpp, interpose_memory.cpp).
//
// - dlsym is exported: the CUDA runtime finds the driver with dlopen + dlsym("cuGetProcAddress*"),
//   and any library may look up a driver entry point by name. Whatever libc's dlsym returns, a
//   pointer that is one of the driver functions we wrap is swapped for its wrapper.
// - cuGetProcAddress / cuGetProcAddress_v2 are wrapped (and exported, for programs that call
//   them directly): the runtime takes every entry point from them.
// - The launch and allocation entry points are exported under their driver names, so that a
//   program linked against libcuda calls ours when the SDK is preloaded.
// A wrapper belongs to one real pointer: the driver returns a function for a (name, version,
// flags) request, and we hand out the wrapper made for exactly that function.
#include "cuda/interpose/interpose.hpp"

#include <dlfcn.h>

namespace rocprofiler::cuda
{
// The wrapper to hand out for `real`, the driver's function for `name`, or `real` itself.
void* substitute(const char* name, void* real, bool per_thread_flag);

namespace
{
// cuGetProcAddress_v2 and cuGetProcAddress: the driver's answer `call(real)`, with the wrapper in
// place of a function we interpose. A failing substitution leaves the driver's pointer.
template <typename Fn, typename Call>
CUresult
get_proc_address(const char* where,
                 Fn driver_table::*real,
                 const char*       symbol,
                 void**            pfn,
                 cuuint64_t        flags,
                 Call              call) noexcept
{
    const auto body = [&](Fn fn, driver_call<CUresult>& made)
    {
        const auto result = made.record(call(fn));
        if(result == CUDA_SUCCESS && pfn != nullptr && *pfn != nullptr && symbol != nullptr)
            *pfn = substitute(
                symbol, *pfn, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0);
        return result;
    };
    return interpose_driver_call(where, real, call, body);
}
} // namespace
} // namespace rocprofiler::cuda

using namespace rocprofiler::cuda;

ROCP_INTERPOSER(cuGetProcAddress_v2,
                (const char*                     symbol,
                 void**                          pfn,
                 int                             version,
                 cuuint64_t                      flags,
                 CUdriverProcAddressQueryResult* status))
{
    return get_proc_address("cuGetProcAddress_v2",
                            &driver_table::cuGetProcAddress_v2,
                            symbol,
                            pfn,
                            flags,
                            [=](auto fn) { return fn(symbol, pfn, version, flags, status); });
}

// The 4-argument form of CUDA 11.3..12.x, exported as "cuGetProcAddress".
ROCP_EXPORT CUresult CUDAAPI rocp_cuGetProcAddress_v1(const char* symbol,
                                                      void**      pfn,
                                                      int         version,
                                                      cuuint64_t flags) __asm__("cuGetProcAddress");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuGetProcAddress_v1(const char* symbol, void** pfn, int version, cuuint64_t flags)
{
    return get_proc_address("cuGetProcAddress",
                            &driver_table::cuGetProcAddress_v1,
                            symbol,
                            pfn,
                            flags,
                            [=](auto fn) { return fn(symbol, pfn, version, flags); });
}

namespace rocprofiler::cuda
{
void*
substitute(const char* name, void* real, bool per_thread_flag)
{
    const auto* d = driver();
    if(d == nullptr) return real;
    if(real == reinterpret_cast<void*>(d->cuGetProcAddress_v2))
        return reinterpret_cast<void*>(&rocp_cuGetProcAddress_v2);
    if(real == reinterpret_cast<void*>(d->cuGetProcAddress_v1))
        return reinterpret_cast<void*>(&rocp_cuGetProcAddress_v1);
    if(auto* wrapper = exported_launch_wrapper(*d, real)) return wrapper;
    if(auto* wrapper = memory_wrapper(*d, real)) return wrapper;
    if(auto* wrapper = profiler_wrapper(*d, real)) return wrapper;
    if(auto* wrapper = sync_wrapper(*d, real)) return wrapper;
    if(auto* wrapper = launch_wrapper_by_name(name, real, per_thread_flag)) return wrapper;
    return real;
}
} // namespace rocprofiler::cuda

// The part of dlsym that is ours: names starting with "cu". A failing substitution (logged) leaves
// libc's answer.
extern "C" __attribute__((visibility("hidden"), used)) void*
rocp_cuda_dlsym(void* handle, const char* name)
{
    using namespace rocprofiler::cuda;
    void* real = real_dlsym(handle, name);
    if(real == nullptr || internal_call_scope::active()) return real;
    return rocprofiler::common::guarded(
        "dlsym",
        [&]
        {
            // A lookup of a driver function comes after dlopen("libcuda.so.1"): the table loads
            // now.
            if(driver(false) == nullptr) return real;
            return substitute(name, real, false);
        },
        [&](rocprofiler::common::caught) { return real; });
}

// libc's dlsym, found once (dlvsym is not interposed).
extern "C"
{
    __attribute__((visibility("hidden"), used)) void* rocp_libc_dlsym = nullptr;
}

extern "C" __attribute__((visibility("hidden"), used)) void*
rocp_load_libc_dlsym()
{
    for(const char* version : {"GLIBC_2.34", "GLIBC_2.2.5", "GLIBC_2.17", "GLIBC_2.0"})
        if(void* sym = dlvsym(RTLD_NEXT, "dlsym", version); sym != nullptr)
        {
            __atomic_store_n(&rocp_libc_dlsym, sym, __ATOMIC_RELEASE);
            return sym;
        }
    return nullptr;
}

namespace
{
__attribute__((constructor)) void
load_libc_dlsym_at_load()
{
    rocp_load_libc_dlsym();
}
} // namespace

// dlsym resolves RTLD_NEXT relative to its caller's object, which libc finds from the return
// address. So every name but "cu*" must reach libc through a jump that leaves the caller's return
// address in place; on x86-64 dlsym is written in assembly to guarantee that.
#if defined(__x86_64__)
__asm__(R"(
    .text
    .globl  dlsym
    .type   dlsym, @function
    .p2align 4
dlsym:
    .cfi_startproc
    cmpb    $0x63, (%rsi)
    jne     1f
    cmpb    $0x75, 1(%rsi)
    je      rocp_cuda_dlsym
1:
    movq    rocp_libc_dlsym(%rip), %rax
    testq   %rax, %rax
    jz      2f
    jmp     *%rax
2:
    pushq   %rdi
    .cfi_adjust_cfa_offset 8
    pushq   %rsi
    .cfi_adjust_cfa_offset 8
    subq    $8, %rsp
    .cfi_adjust_cfa_offset 8
    call    rocp_load_libc_dlsym
    addq    $8, %rsp
    .cfi_adjust_cfa_offset -8
    popq    %rsi
    .cfi_adjust_cfa_offset -8
    popq    %rdi
    .cfi_adjust_cfa_offset -8
    testq   %rax, %rax
    jz      3f
    jmp     *%rax
3:
    ret
    .cfi_endproc
    .size   dlsym, .-dlsym
)");
#else
// Elsewhere: a plain call (RTLD_NEXT from callers then resolves relative to this library).
ROCP_EXPORT void*
dlsym(void* __restrict handle, const char* __restrict name) noexcept
{
    if(name[0] == 'c' && name[1] == 'u') return rocp_cuda_dlsym(handle, name);
    auto* fn = __atomic_load_n(&rocp_libc_dlsym, __ATOMIC_ACQUIRE);
    if(fn == nullptr) fn = rocp_load_libc_dlsym();
    return fn != nullptr ? reinterpret_cast<void* (*)(void*, const char*)>(fn)(handle, name)
                         : nullptr;
}
#endif
