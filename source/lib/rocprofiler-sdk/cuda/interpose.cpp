// Interposition: how launches and allocations of the application reach the adapter.
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
#include "agent/agent.hpp"
#include "buffer/callback_thread.hpp"
#include "common/logging.hpp"
#include "cuda/allocation_tracker.hpp"
#include "cuda/driver.hpp"
#include "cuda/launch.hpp"
#include "cuda/memory.hpp"
#include "cuda/shadow_pool.hpp"
#include "kernel_replay/engine.hpp"

#include <dlfcn.h>

#include <array>
#include <atomic>
#include <cstring>
#include <mutex>
#include <optional>
#include <string_view>

#define ROCP_EXPORT extern "C" __attribute__((visibility("default")))

namespace rocprofiler::cuda
{
namespace
{
const driver_table*
drv()
{
    return driver();
}

int
current_device()
{
    auto dev = CUdevice{0};
    if(drv()->cuCtxGetDevice(&dev) != CUDA_SUCCESS) return 0;
    return static_cast<int>(dev);
}

// Whether an allocation the application just made is tracked.
bool
track_now()
{
    return tracking_enabled() && !internal_call_scope::active();
}

// An application allocation failed for lack of device memory: when the idle shadow memory that
// kernel replay keeps for the current context was freed, the allocation is tried once more.
bool
retry_out_of_memory(CUresult result)
{
    return result == CUDA_ERROR_OUT_OF_MEMORY && !internal_call_scope::active() &&
           release_idle_shadow_memory();
}

// --- launch wrappers for pointers the driver hands out
// --------------------------------------------

constexpr size_t slots_per_api = 8;

struct launch_slot
{
    std::atomic<void*> real       = nullptr;
    bool               per_thread = false;
};

std::array<std::array<launch_slot, slots_per_api>, 3> slots = {};

launch_request
kernel_request(launch_slot& slot, launch_api api)
{
    auto r       = launch_request{};
    r.api        = api;
    r.real       = slot.real.load(std::memory_order_acquire);
    r.per_thread = slot.per_thread;
    return r;
}

template <size_t S>
CUresult CUDAAPI
slot_launch_kernel(CUfunction f,
                   unsigned   gx,
                   unsigned   gy,
                   unsigned   gz,
                   unsigned   bx,
                   unsigned   by,
                   unsigned   bz,
                   unsigned   shared,
                   CUstream   stream,
                   void**     params,
                   void**     extra)
{
    auto r     = kernel_request(slots[0][S], launch_api::kernel);
    r.function = f;
    r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = gz;
    r.block[0] = bx, r.block[1] = by, r.block[2] = bz;
    r.shared = shared, r.stream = stream, r.params = params, r.extra = extra;
    return handle_launch(r);
}

template <size_t S>
CUresult CUDAAPI
slot_launch_kernel_ex(const CUlaunchConfig* config, CUfunction f, void** params, void** extra)
{
    auto r     = kernel_request(slots[1][S], launch_api::kernel_ex);
    r.function = f, r.config = config, r.params = params, r.extra = extra;
    return handle_launch(r);
}

template <size_t S>
CUresult CUDAAPI
slot_launch_cooperative(CUfunction f,
                        unsigned   gx,
                        unsigned   gy,
                        unsigned   gz,
                        unsigned   bx,
                        unsigned   by,
                        unsigned   bz,
                        unsigned   shared,
                        CUstream   stream,
                        void**     params)
{
    auto r     = kernel_request(slots[2][S], launch_api::cooperative);
    r.function = f;
    r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = gz;
    r.block[0] = bx, r.block[1] = by, r.block[2] = bz;
    r.shared = shared, r.stream = stream, r.params = params;
    return handle_launch(r);
}

template <size_t... S>
constexpr std::array<std::array<void*, slots_per_api>, 3>
make_slot_wrappers(std::index_sequence<S...>)
{
    return {{{reinterpret_cast<void*>(&slot_launch_kernel<S>)...},
             {reinterpret_cast<void*>(&slot_launch_kernel_ex<S>)...},
             {reinterpret_cast<void*>(&slot_launch_cooperative<S>)...}}};
}

const auto slot_wrappers = make_slot_wrappers(std::make_index_sequence<slots_per_api>{});

// The wrapper of a launch function the driver returned for `api`.
void*
launch_wrapper(launch_api api, void* real, bool per_thread)
{
    static std::mutex mutex;
    auto              lock  = std::lock_guard{mutex};
    auto&             table = slots[static_cast<size_t>(api)];
    for(size_t i = 0; i < slots_per_api; ++i)
        if(table[i].real.load() == real) return slot_wrappers[static_cast<size_t>(api)][i];
    for(size_t i = 0; i < slots_per_api; ++i)
        if(table[i].real.load() == nullptr)
        {
            table[i].per_thread = per_thread;
            table[i].real.store(real, std::memory_order_release);
            return slot_wrappers[static_cast<size_t>(api)][i];
        }
    common::log::warn_once("cuda-slots",
                           "cuda: too many distinct launch functions; some launches "
                           "are not intercepted");
    return real;
}

bool
ends_with(std::string_view text, std::string_view suffix)
{
    return text.size() >= suffix.size() && text.substr(text.size() - suffix.size()) == suffix;
}

std::optional<launch_api>
launch_api_of(std::string_view name)
{
    if(ends_with(name, "_ptsz")) name.remove_suffix(5);
    if(name == "cuLaunchKernel") return launch_api::kernel;
    if(name == "cuLaunchKernelEx") return launch_api::kernel_ex;
    if(name == "cuLaunchCooperativeKernel") return launch_api::cooperative;
    return std::nullopt;
}
} // namespace

// Declared here, defined below with the exported wrappers.
void* substitute(const char* name, void* real, bool per_thread_flag);
} // namespace rocprofiler::cuda

// --- exported entry points
// -------------------------------------------------------------------------- Named through asm
// labels: cuda.h maps several of these names to others with macros.

using namespace rocprofiler::cuda;

#define ROCP_LAUNCH_KERNEL_BODY(REAL, PER_THREAD)                                                  \
    {                                                                                              \
        auto r       = launch_request{};                                                           \
        r.api        = launch_api::kernel;                                                         \
        r.real       = reinterpret_cast<void*>(drv()->REAL);                                       \
        r.per_thread = PER_THREAD;                                                                 \
        r.function   = f;                                                                          \
        r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = gz;                                            \
        r.block[0] = bx, r.block[1] = by, r.block[2] = bz;                                         \
        r.shared = shared, r.stream = stream, r.params = params, r.extra = extra;                  \
        return handle_launch(r);                                                                   \
    }

ROCP_EXPORT CUresult CUDAAPI rocp_cuLaunchKernel(CUfunction f,
                                                 unsigned   gx,
                                                 unsigned   gy,
                                                 unsigned   gz,
                                                 unsigned   bx,
                                                 unsigned   by,
                                                 unsigned   bz,
                                                 unsigned   shared,
                                                 CUstream   stream,
                                                 void**     params,
                                                 void**     extra) __asm__("cuLaunchKernel");
ROCP_EXPORT CUresult CUDAAPI rocp_cuLaunchKernel(CUfunction f,
                                                 unsigned   gx,
                                                 unsigned   gy,
                                                 unsigned   gz,
                                                 unsigned   bx,
                                                 unsigned   by,
                                                 unsigned   bz,
                                                 unsigned   shared,
                                                 CUstream   stream,
                                                 void**     params,
                                                 void**     extra)
    ROCP_LAUNCH_KERNEL_BODY(cuLaunchKernel, false)

        ROCP_EXPORT CUresult CUDAAPI
    rocp_cuLaunchKernel_ptsz(CUfunction f,
                             unsigned   gx,
                             unsigned   gy,
                             unsigned   gz,
                             unsigned   bx,
                             unsigned   by,
                             unsigned   bz,
                             unsigned   shared,
                             CUstream   stream,
                             void**     params,
                             void**     extra) __asm__("cuLaunchKernel_ptsz");
ROCP_EXPORT CUresult CUDAAPI rocp_cuLaunchKernel_ptsz(CUfunction f,
                                                      unsigned   gx,
                                                      unsigned   gy,
                                                      unsigned   gz,
                                                      unsigned   bx,
                                                      unsigned   by,
                                                      unsigned   bz,
                                                      unsigned   shared,
                                                      CUstream   stream,
                                                      void**     params,
                                                      void**     extra)
    ROCP_LAUNCH_KERNEL_BODY(cuLaunchKernel_ptsz, true)

#define ROCP_LAUNCH_EX_BODY(REAL, PER_THREAD)                                                      \
    {                                                                                              \
        auto r       = launch_request{};                                                           \
        r.api        = launch_api::kernel_ex;                                                      \
        r.real       = reinterpret_cast<void*>(drv()->REAL);                                       \
        r.per_thread = PER_THREAD;                                                                 \
        r.function = f, r.config = config, r.params = params, r.extra = extra;                     \
        return handle_launch(r);                                                                   \
    }

        ROCP_EXPORT CUresult CUDAAPI
    rocp_cuLaunchKernelEx(const CUlaunchConfig* config,
                          CUfunction            f,
                          void**                params,
                          void**                extra) __asm__("cuLaunchKernelEx");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** params, void** extra)
    ROCP_LAUNCH_EX_BODY(cuLaunchKernelEx, false)

        ROCP_EXPORT CUresult CUDAAPI
    rocp_cuLaunchKernelEx_ptsz(const CUlaunchConfig* config,
                               CUfunction            f,
                               void**                params,
                               void**                extra) __asm__("cuLaunchKernelEx_ptsz");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuLaunchKernelEx_ptsz(const CUlaunchConfig* config, CUfunction f, void** params, void** extra)
    ROCP_LAUNCH_EX_BODY(cuLaunchKernelEx_ptsz, true)

#define ROCP_LAUNCH_COOP_BODY(REAL, PER_THREAD)                                                    \
    {                                                                                              \
        auto r       = launch_request{};                                                           \
        r.api        = launch_api::cooperative;                                                    \
        r.real       = reinterpret_cast<void*>(drv()->REAL);                                       \
        r.per_thread = PER_THREAD;                                                                 \
        r.function   = f;                                                                          \
        r.grid[0] = gx, r.grid[1] = gy, r.grid[2] = gz;                                            \
        r.block[0] = bx, r.block[1] = by, r.block[2] = bz;                                         \
        r.shared = shared, r.stream = stream, r.params = params;                                   \
        return handle_launch(r);                                                                   \
    }

        ROCP_EXPORT CUresult CUDAAPI
    rocp_cuLaunchCooperativeKernel(CUfunction f,
                                   unsigned   gx,
                                   unsigned   gy,
                                   unsigned   gz,
                                   unsigned   bx,
                                   unsigned   by,
                                   unsigned   bz,
                                   unsigned   shared,
                                   CUstream   stream,
                                   void**     params) __asm__("cuLaunchCooperativeKernel");
ROCP_EXPORT CUresult CUDAAPI rocp_cuLaunchCooperativeKernel(CUfunction f,
                                                            unsigned   gx,
                                                            unsigned   gy,
                                                            unsigned   gz,
                                                            unsigned   bx,
                                                            unsigned   by,
                                                            unsigned   bz,
                                                            unsigned   shared,
                                                            CUstream   stream,
                                                            void**     params)
    ROCP_LAUNCH_COOP_BODY(cuLaunchCooperativeKernel, false)

        ROCP_EXPORT CUresult CUDAAPI
    rocp_cuLaunchCooperativeKernel_ptsz(CUfunction f,
                                        unsigned   gx,
                                        unsigned   gy,
                                        unsigned   gz,
                                        unsigned   bx,
                                        unsigned   by,
                                        unsigned   bz,
                                        unsigned   shared,
                                        CUstream   stream,
                                        void** params) __asm__("cuLaunchCooperativeKernel_ptsz");
ROCP_EXPORT CUresult CUDAAPI rocp_cuLaunchCooperativeKernel_ptsz(CUfunction f,
                                                                 unsigned   gx,
                                                                 unsigned   gy,
                                                                 unsigned   gz,
                                                                 unsigned   bx,
                                                                 unsigned   by,
                                                                 unsigned   bz,
                                                                 unsigned   shared,
                                                                 CUstream   stream,
                                                                 void**     params)
    ROCP_LAUNCH_COOP_BODY(cuLaunchCooperativeKernel_ptsz, true)

// --- allocations
// ---------------------------------------------------------------------------------------- Each
// wrapper runs the SDK's initialization first, so that a tool configures replay (and the tracker)
// before the application's first allocation.

#define ROCP_ALLOC_PROLOGUE(REAL)                                                                  \
    const auto* d = drv();                                                                         \
    if(d == nullptr || d->REAL == nullptr) return CUDA_ERROR_NOT_INITIALIZED;                      \
    if(!internal_call_scope::active()) ensure_initialized();

        ROCP_EXPORT CUresult CUDAAPI
    rocp_cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes) __asm__("cuMemAlloc_v2");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemAlloc_v2(CUdeviceptr* ptr, size_t bytes)
{
    ROCP_ALLOC_PROLOGUE(cuMemAlloc_v2)
    auto result = d->cuMemAlloc_v2(ptr, bytes);
    if(retry_out_of_memory(result)) result = d->cuMemAlloc_v2(ptr, bytes);
    if(result == CUDA_SUCCESS && track_now()) track_allocation(*ptr, bytes, current_device());
    return result;
}

ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemAllocPitch_v2(CUdeviceptr* ptr,
                        size_t*      pitch,
                        size_t       width,
                        size_t       height,
                        unsigned int element) __asm__("cuMemAllocPitch_v2");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemAllocPitch_v2(
    CUdeviceptr* ptr, size_t* pitch, size_t width, size_t height, unsigned int element)
{
    ROCP_ALLOC_PROLOGUE(cuMemAllocPitch_v2)
    auto result = d->cuMemAllocPitch_v2(ptr, pitch, width, height, element);
    if(retry_out_of_memory(result))
        result = d->cuMemAllocPitch_v2(ptr, pitch, width, height, element);
    if(result == CUDA_SUCCESS && track_now())
        track_allocation(*ptr, *pitch * height, current_device());
    return result;
}

#define ROCP_ALLOC_ASYNC(NAME)                                                                     \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME(                                                      \
        CUdeviceptr* ptr, size_t bytes, CUstream stream) __asm__(#NAME);                           \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME(CUdeviceptr* ptr, size_t bytes, CUstream stream)      \
    {                                                                                              \
        ROCP_ALLOC_PROLOGUE(NAME)                                                                  \
        auto result = d->NAME(ptr, bytes, stream);                                                 \
        if(retry_out_of_memory(result)) result = d->NAME(ptr, bytes, stream);                      \
        if(result == CUDA_SUCCESS && track_now()) track_allocation(*ptr, bytes, current_device()); \
        return result;                                                                             \
    }
ROCP_ALLOC_ASYNC(cuMemAllocAsync)
ROCP_ALLOC_ASYNC(cuMemAllocAsync_ptsz)

#define ROCP_ALLOC_POOL(NAME)                                                                      \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME(                                                      \
        CUdeviceptr* ptr, size_t bytes, CUmemoryPool pool, CUstream stream) __asm__(#NAME);        \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME(                                                      \
        CUdeviceptr* ptr, size_t bytes, CUmemoryPool pool, CUstream stream)                        \
    {                                                                                              \
        ROCP_ALLOC_PROLOGUE(NAME)                                                                  \
        auto result = d->NAME(ptr, bytes, pool, stream);                                           \
        if(retry_out_of_memory(result)) result = d->NAME(ptr, bytes, pool, stream);                \
        if(result == CUDA_SUCCESS && track_now()) track_allocation(*ptr, bytes, current_device()); \
        return result;                                                                             \
    }
ROCP_ALLOC_POOL(cuMemAllocFromPoolAsync)
ROCP_ALLOC_POOL(cuMemAllocFromPoolAsync_ptsz)

ROCP_EXPORT CUresult CUDAAPI rocp_cuMemAllocManaged(
    CUdeviceptr* ptr, size_t bytes, unsigned int flags) __asm__("cuMemAllocManaged");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemAllocManaged(CUdeviceptr* ptr, size_t bytes, unsigned int flags)
{
    ROCP_ALLOC_PROLOGUE(cuMemAllocManaged)
    auto result = d->cuMemAllocManaged(ptr, bytes, flags);
    if(retry_out_of_memory(result)) result = d->cuMemAllocManaged(ptr, bytes, flags);
    if(result == CUDA_SUCCESS && track_now()) track_allocation(*ptr, bytes, any_device);
    return result;
}

// Frees, unmaps and module unloads of tracked memory wait until no replay window that may cover
// it is open on another thread: the window's restores would write into the freed memory (a fault
// of the application's context). Not on the SDK's own threads: a buffer callback thread may be
// what a replaying thread waits for (a full lossless buffer), so a free there does not wait.
namespace
{
class release_guard
{
public:
    explicit release_guard(const std::vector<int>& devices)
    {
        if(devices.empty() || internal_call_scope::active() ||
           ::rocprofiler::internal_threading::current_thread() >= 0)
            return;
        auto agents = std::vector<rocprofiler_agent_id_t>{};
        for(auto device : devices)
        {
            if(device != any_device)
            {
                if(auto id = ::rocprofiler::agent::id_of(::rocprofiler::agent::backend::cuda,
                                                         static_cast<uint32_t>(device)))
                    agents.emplace_back(*id);
                continue;
            }
            for(uint32_t i = 0;; ++i)
            {
                auto id = ::rocprofiler::agent::id_of(::rocprofiler::agent::backend::cuda, i);
                if(!id) break;
                agents.emplace_back(*id);
            }
        }
        if(!agents.empty()) m_guard.emplace(std::move(agents));
    }

private:
    std::optional<::rocprofiler::kernel_replay::memory_release_guard> m_guard = {};
};

std::vector<int>
tracked_devices(CUdeviceptr ptr, size_t bytes = 0)
{
    return tracking_enabled() ? devices_covering(ptr, bytes) : std::vector<int>{};
}
} // namespace

ROCP_EXPORT CUresult CUDAAPI rocp_cuMemFree_v2(CUdeviceptr ptr) __asm__("cuMemFree_v2");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemFree_v2(CUdeviceptr ptr)
{
    ROCP_ALLOC_PROLOGUE(cuMemFree_v2)
    auto guard  = release_guard{tracked_devices(ptr)};
    auto result = d->cuMemFree_v2(ptr);
    if(result == CUDA_SUCCESS && tracking_enabled()) track_free(ptr);
    return result;
}

#define ROCP_FREE_ASYNC(NAME)                                                                      \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME(CUdeviceptr ptr, CUstream stream) __asm__(#NAME);     \
    ROCP_EXPORT CUresult CUDAAPI rocp_##NAME(CUdeviceptr ptr, CUstream stream)                     \
    {                                                                                              \
        ROCP_ALLOC_PROLOGUE(NAME)                                                                  \
        auto guard  = release_guard{tracked_devices(ptr)};                                         \
        auto result = d->NAME(ptr, stream);                                                        \
        if(result == CUDA_SUCCESS && tracking_enabled()) track_free(ptr);                          \
        return result;                                                                             \
    }
ROCP_FREE_ASYNC(cuMemFreeAsync)
ROCP_FREE_ASYNC(cuMemFreeAsync_ptsz)

ROCP_EXPORT CUresult CUDAAPI rocp_cuMemCreate(CUmemGenericAllocationHandle* handle,
                                              size_t                        bytes,
                                              const CUmemAllocationProp*    prop,
                                              unsigned long long flags) __asm__("cuMemCreate");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemCreate(CUmemGenericAllocationHandle* handle,
                 size_t                        bytes,
                 const CUmemAllocationProp*    prop,
                 unsigned long long            flags)
{
    ROCP_ALLOC_PROLOGUE(cuMemCreate)
    auto result = d->cuMemCreate(handle, bytes, prop, flags);
    if(retry_out_of_memory(result)) result = d->cuMemCreate(handle, bytes, prop, flags);
    if(result == CUDA_SUCCESS && track_now() && prop != nullptr &&
       prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE)
        track_vmm_create(*handle, bytes, prop->location.id);
    return result;
}

ROCP_EXPORT CUresult CUDAAPI rocp_cuMemMap(CUdeviceptr                  ptr,
                                           size_t                       bytes,
                                           size_t                       offset,
                                           CUmemGenericAllocationHandle handle,
                                           unsigned long long           flags) __asm__("cuMemMap");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemMap(CUdeviceptr                  ptr,
              size_t                       bytes,
              size_t                       offset,
              CUmemGenericAllocationHandle handle,
              unsigned long long           flags)
{
    ROCP_ALLOC_PROLOGUE(cuMemMap)
    auto result = d->cuMemMap(ptr, bytes, offset, handle, flags);
    if(result == CUDA_SUCCESS && track_now()) track_vmm_map(ptr, bytes, handle);
    return result;
}

ROCP_EXPORT CUresult CUDAAPI rocp_cuMemUnmap(CUdeviceptr ptr, size_t bytes) __asm__("cuMemUnmap");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemUnmap(CUdeviceptr ptr, size_t bytes)
{
    ROCP_ALLOC_PROLOGUE(cuMemUnmap)
    auto guard  = release_guard{tracked_devices(ptr, bytes)};
    auto result = d->cuMemUnmap(ptr, bytes);
    if(result == CUDA_SUCCESS && tracking_enabled()) track_vmm_unmap(ptr, bytes);
    return result;
}

ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemRelease(CUmemGenericAllocationHandle handle) __asm__("cuMemRelease");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuMemRelease(CUmemGenericAllocationHandle handle)
{
    ROCP_ALLOC_PROLOGUE(cuMemRelease)
    auto result = d->cuMemRelease(handle);
    if(result == CUDA_SUCCESS && tracking_enabled()) track_vmm_release(handle);
    return result;
}

// --- module globals -----------------------------------------------------------------------------
// The runtime resolves the __device__ variables of a module through these; kernel replay snapshots
// what they return. No SDK initialization here: the runtime loads modules before the first
// allocation, and the tracker remembers globals resolved before it starts.

ROCP_EXPORT CUresult CUDAAPI
rocp_cuModuleGetGlobal_v2(CUdeviceptr* dptr,
                          size_t*      bytes,
                          CUmodule     hmod,
                          const char*  name) __asm__("cuModuleGetGlobal_v2");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name)
{
    const auto* d = drv();
    if(d == nullptr || d->cuModuleGetGlobal_v2 == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    auto ptr    = CUdeviceptr{};
    auto size   = size_t{0};
    auto result = d->cuModuleGetGlobal_v2(&ptr, &size, hmod, name);
    if(result != CUDA_SUCCESS) return result;
    if(dptr != nullptr) *dptr = ptr;
    if(bytes != nullptr) *bytes = size;
    if(!internal_call_scope::active()) track_module_global(ptr, size, current_device(), hmod);
    return result;
}

ROCP_EXPORT CUresult CUDAAPI
rocp_cuLibraryGetGlobal(CUdeviceptr* dptr,
                        size_t*      bytes,
                        CUlibrary    library,
                        const char*  name) __asm__("cuLibraryGetGlobal");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name)
{
    const auto* d = drv();
    if(d == nullptr || d->cuLibraryGetGlobal == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    auto ptr    = CUdeviceptr{};
    auto size   = size_t{0};
    auto result = d->cuLibraryGetGlobal(&ptr, &size, library, name);
    if(result != CUDA_SUCCESS) return result;
    if(dptr != nullptr) *dptr = ptr;
    if(bytes != nullptr) *bytes = size;
    if(!internal_call_scope::active()) track_module_global(ptr, size, current_device(), library);
    return result;
}

// A module's globals leave the tracker before it unloads (a snapshot must never copy memory the
// driver freed), and come back when the unload fails.
ROCP_EXPORT CUresult CUDAAPI rocp_cuModuleUnload(CUmodule hmod) __asm__("cuModuleUnload");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuModuleUnload(CUmodule hmod)
{
    const auto* d = drv();
    if(d == nullptr || d->cuModuleUnload == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    auto guard   = release_guard{tracking_enabled() ? module_devices(hmod) : std::vector<int>{}};
    auto globals = untrack_module(hmod);
    auto result  = d->cuModuleUnload(hmod);
    if(result != CUDA_SUCCESS) track_module_globals(hmod, globals);
    return result;
}

ROCP_EXPORT CUresult CUDAAPI rocp_cuLibraryUnload(CUlibrary library) __asm__("cuLibraryUnload");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuLibraryUnload(CUlibrary library)
{
    const auto* d = drv();
    if(d == nullptr || d->cuLibraryUnload == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    auto guard   = release_guard{tracking_enabled() ? module_devices(library) : std::vector<int>{}};
    auto globals = untrack_module(library);
    auto result  = d->cuLibraryUnload(library);
    if(result != CUDA_SUCCESS) track_module_globals(library, globals);
    return result;
}

// --- cuGetProcAddress
// ---------------------------------------------------------------------------------

ROCP_EXPORT CUresult CUDAAPI
rocp_cuGetProcAddress_v2(const char*                     symbol,
                         void**                          pfn,
                         int                             version,
                         cuuint64_t                      flags,
                         CUdriverProcAddressQueryResult* status) __asm__("cuGetProcAddress_v2");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuGetProcAddress_v2(const char*                     symbol,
                         void**                          pfn,
                         int                             version,
                         cuuint64_t                      flags,
                         CUdriverProcAddressQueryResult* status)
{
    const auto* d = drv();
    if(d == nullptr || d->cuGetProcAddress_v2 == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    auto result = d->cuGetProcAddress_v2(symbol, pfn, version, flags, status);
    if(result == CUDA_SUCCESS && pfn != nullptr && *pfn != nullptr && symbol != nullptr)
        *pfn =
            substitute(symbol, *pfn, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0);
    return result;
}

ROCP_EXPORT CUresult CUDAAPI rocp_cuGetProcAddress_v1(const char* symbol,
                                                      void**      pfn,
                                                      int         version,
                                                      cuuint64_t flags) __asm__("cuGetProcAddress");
ROCP_EXPORT CUresult CUDAAPI
rocp_cuGetProcAddress_v1(const char* symbol, void** pfn, int version, cuuint64_t flags)
{
    const auto* d = drv();
    if(d == nullptr || d->cuGetProcAddress_v1 == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    auto result = d->cuGetProcAddress_v1(symbol, pfn, version, flags);
    if(result == CUDA_SUCCESS && pfn != nullptr && *pfn != nullptr && symbol != nullptr)
        *pfn =
            substitute(symbol, *pfn, (flags & CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM) != 0);
    return result;
}

namespace rocprofiler::cuda
{
void*
substitute(const char* name, void* real, bool per_thread_flag)
{
    const auto* d = drv();
    if(d == nullptr) return real;
        // Table of the functions exported above, by the driver function each stands for.
#define ROCP_SUBSTITUTE(REAL, WRAPPER)                                                             \
    if(real == reinterpret_cast<void*>(d->REAL)) return reinterpret_cast<void*>(&WRAPPER);
    ROCP_SUBSTITUTE(cuGetProcAddress_v2, rocp_cuGetProcAddress_v2)
    ROCP_SUBSTITUTE(cuGetProcAddress_v1, rocp_cuGetProcAddress_v1)
    ROCP_SUBSTITUTE(cuLaunchKernel, rocp_cuLaunchKernel)
    ROCP_SUBSTITUTE(cuLaunchKernel_ptsz, rocp_cuLaunchKernel_ptsz)
    ROCP_SUBSTITUTE(cuLaunchKernelEx, rocp_cuLaunchKernelEx)
    ROCP_SUBSTITUTE(cuLaunchKernelEx_ptsz, rocp_cuLaunchKernelEx_ptsz)
    ROCP_SUBSTITUTE(cuLaunchCooperativeKernel, rocp_cuLaunchCooperativeKernel)
    ROCP_SUBSTITUTE(cuLaunchCooperativeKernel_ptsz, rocp_cuLaunchCooperativeKernel_ptsz)
    ROCP_SUBSTITUTE(cuMemAlloc_v2, rocp_cuMemAlloc_v2)
    ROCP_SUBSTITUTE(cuMemAllocPitch_v2, rocp_cuMemAllocPitch_v2)
    ROCP_SUBSTITUTE(cuMemAllocAsync, rocp_cuMemAllocAsync)
    ROCP_SUBSTITUTE(cuMemAllocAsync_ptsz, rocp_cuMemAllocAsync_ptsz)
    ROCP_SUBSTITUTE(cuMemAllocFromPoolAsync, rocp_cuMemAllocFromPoolAsync)
    ROCP_SUBSTITUTE(cuMemAllocFromPoolAsync_ptsz, rocp_cuMemAllocFromPoolAsync_ptsz)
    ROCP_SUBSTITUTE(cuMemAllocManaged, rocp_cuMemAllocManaged)
    ROCP_SUBSTITUTE(cuMemFree_v2, rocp_cuMemFree_v2)
    ROCP_SUBSTITUTE(cuMemFreeAsync, rocp_cuMemFreeAsync)
    ROCP_SUBSTITUTE(cuMemFreeAsync_ptsz, rocp_cuMemFreeAsync_ptsz)
    ROCP_SUBSTITUTE(cuMemCreate, rocp_cuMemCreate)
    ROCP_SUBSTITUTE(cuMemMap, rocp_cuMemMap)
    ROCP_SUBSTITUTE(cuMemUnmap, rocp_cuMemUnmap)
    ROCP_SUBSTITUTE(cuMemRelease, rocp_cuMemRelease)
    ROCP_SUBSTITUTE(cuModuleGetGlobal_v2, rocp_cuModuleGetGlobal_v2)
    ROCP_SUBSTITUTE(cuLibraryGetGlobal, rocp_cuLibraryGetGlobal)
    ROCP_SUBSTITUTE(cuModuleUnload, rocp_cuModuleUnload)
    ROCP_SUBSTITUTE(cuLibraryUnload, rocp_cuLibraryUnload)
#undef ROCP_SUBSTITUTE
    // A launch function that is not an exported one (an internal variant the driver hands out):
    // launch functions have one signature per name, so it gets a wrapper of its own.
    if(auto api = launch_api_of(name))
        return launch_wrapper(*api, real, per_thread_flag || ends_with(name, "_ptsz"));
    return real;
}

} // namespace rocprofiler::cuda

// The part of dlsym that is ours: names starting with "cu".
extern "C" __attribute__((visibility("hidden"), used)) void*
rocp_cuda_dlsym(void* handle, const char* name)
{
    using namespace rocprofiler::cuda;
    void* real = real_dlsym(handle, name);
    if(real == nullptr || internal_call_scope::active()) return real;
    // A lookup of a driver function comes after dlopen("libcuda.so.1"): the table loads now.
    if(driver(false) == nullptr) return real;
    return substitute(name, real, false);
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
