// The allocation and module interposers: every driver entry point that allocates, frees or maps
// device memory, and those through which the runtime resolves and unloads module globals,
// exported under the driver's names. They feed the allocation tracker of kernel replay and make
// frees wait for the replay windows that may cover the memory. Each runs through
// guarded_interposer (interposer_guard.hpp): an exception in the SDK's part never stops the
// application's call.
#include "agent/agent.hpp"
#include "buffer/callback_thread.hpp"
#include "cuda/backend.hpp"
#include "cuda/interpose/interpose.hpp"
#include "cuda/launch/launch.hpp"
#include "cuda/replay/allocation_tracker.hpp"
#include "cuda/replay/shadow_pool.hpp"
#include "dispatch/interception.hpp"

#include <optional>
#include <vector>

namespace rocprofiler::cuda
{
namespace
{
int
current_device()
{
    auto dev   = CUdevice{0};
    auto scope = internal_call_scope{}; // the SDK's question, not the application's call
    if(driver()->cuCtxGetDevice(&dev) != CUDA_SUCCESS) return 0;
    return static_cast<int>(dev);
}

// The calling thread's current context: the one whose kernels can reach what it allocates.
CUcontext
current_context()
{
    auto ctx   = CUcontext{};
    auto scope = internal_call_scope{}; // the SDK's question, not the application's call
    if(driver()->cuCtxGetCurrent(&ctx) != CUDA_SUCCESS) return nullptr;
    return ctx;
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

// Frees, unmaps and module unloads of tracked memory wait until no replay window that may cover
// it is open on another thread: the window's restores would write into the freed memory (a fault
// of the application's context). Not on the SDK's own threads: a buffer callback thread may be
// what a replaying thread waits for (a full lossless buffer), so a free there does not wait.
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
                if(auto id = ::rocprofiler::agent::id_of(get_device_backend(),
                                                         static_cast<uint32_t>(device)))
                    agents.emplace_back(*id);
                continue;
            }
            for(uint32_t i = 0;; ++i)
            {
                auto id = ::rocprofiler::agent::id_of(get_device_backend(), i);
                if(!id) break;
                agents.emplace_back(*id);
            }
        }
        if(!agents.empty()) m_guard.emplace(std::move(agents));
    }

private:
    std::optional<::rocprofiler::dispatch::memory_release_scope> m_guard = {};
};

std::vector<int>
tracked_devices(CUdeviceptr ptr, size_t bytes = 0)
{
    return tracking_enabled() ? devices_covering(ptr, bytes) : std::vector<int>{};
}

// An allocation: the SDK's initialization first (so that a tool configures replay, and the
// tracker, before the application's first allocation), the driver call `call(real)` (retried once
// when idle shadow memory could be freed for it), then `track()` when it succeeded and the
// allocation is the application's.
template <typename Fn, typename Call, typename Track>
CUresult
interpose_allocation(const char* where, Fn driver_table::*real, Call call, Track track) noexcept
{
    const auto body = [&](Fn fn, driver_call<CUresult>& made)
    {
        if(!internal_call_scope::active()) ensure_initialized();
        auto result = made.record(call(fn));
        if(retry_out_of_memory(result)) result = made.record(call(fn));
        if(result == CUDA_SUCCESS && track_now()) track();
        return result;
    };
    return interpose_driver_call(where, real, call, body);
}

// A release (free, unmap, release of physical memory): waits for the replay windows of
// `devices()` (release_guard), calls `call(real)`, then `untrack()` when it succeeded and tracking
// is on.
template <typename Fn, typename Devices, typename Call, typename Untrack>
CUresult
interpose_release(
    const char* where, Fn driver_table::*real, Devices devices, Call call, Untrack untrack) noexcept
{
    const auto body = [&](Fn fn, driver_call<CUresult>& made)
    {
        if(!internal_call_scope::active()) ensure_initialized();
        auto guard  = release_guard{devices()};
        auto result = made.record(call(fn));
        if(result == CUDA_SUCCESS && tracking_enabled()) untrack();
        return result;
    };
    return interpose_driver_call(where, real, call, body);
}

// cuModuleGetGlobal_v2 and cuLibraryGetGlobal: the global is remembered for snapshots. No SDK
// initialization here: the runtime loads modules before the first allocation, and the tracker
// remembers globals resolved before it starts.
template <typename Fn, typename Module>
CUresult
get_global(const char* where,
           Fn driver_table::*real,
           CUdeviceptr*      dptr,
           size_t*           bytes,
           Module            module,
           const char*       name) noexcept
{
    auto ptr  = CUdeviceptr{};
    auto size = size_t{0};
    auto call = [&](Fn fn)
    {
        const auto result = fn(&ptr, &size, module, name);
        if(result == CUDA_SUCCESS && dptr != nullptr) *dptr = ptr;
        if(result == CUDA_SUCCESS && bytes != nullptr) *bytes = size;
        return result;
    };
    const auto body = [&](Fn fn, driver_call<CUresult>& made)
    {
        const auto result = made.record(call(fn));
        if(result == CUDA_SUCCESS && !internal_call_scope::active())
            track_module_global(ptr, size, current_device(), module, current_context());
        return result;
    };
    return interpose_driver_call(where, real, call, body);
}

// cuModuleUnload and cuLibraryUnload: a module's globals leave the tracker before it unloads (a
// snapshot must never copy memory the driver freed), and come back when the unload fails.
template <typename Fn, typename Module>
CUresult
unload_module(const char* where, Fn driver_table::*real, Module module) noexcept
{
    auto       call = [module](Fn fn) { return fn(module); };
    const auto body = [&](Fn fn, driver_call<CUresult>& made)
    {
        auto guard =
            release_guard{tracking_enabled() ? module_devices(module) : std::vector<int>{}};
        auto globals = untrack_module(module);
        auto result  = made.record(call(fn));
        if(result != CUDA_SUCCESS) track_module_globals(module, globals);
        return result;
    };
    return interpose_driver_call(where, real, call, body);
}
} // namespace
} // namespace rocprofiler::cuda

using namespace rocprofiler::cuda;

// --- allocations --------------------------------------------------------------------------------

ROCP_INTERPOSER(cuMemAlloc_v2, (CUdeviceptr * ptr, size_t bytes))
{
    return interpose_allocation(
        "cuMemAlloc_v2",
        &driver_table::cuMemAlloc_v2,
        [=](auto fn) { return fn(ptr, bytes); },
        [=] { track_allocation(*ptr, bytes, current_device(), current_context()); });
}

ROCP_INTERPOSER(cuMemAllocPitch_v2,
                (CUdeviceptr * ptr, size_t* pitch, size_t width, size_t height, unsigned element))
{
    return interpose_allocation(
        "cuMemAllocPitch_v2",
        &driver_table::cuMemAllocPitch_v2,
        [=](auto fn) { return fn(ptr, pitch, width, height, element); },
        [=] { track_allocation(*ptr, *pitch * height, current_device(), current_context()); });
}

#define ROCP_ALLOC_ASYNC(NAME)                                                                     \
    ROCP_INTERPOSER(NAME, (CUdeviceptr * ptr, size_t bytes, CUstream stream))                      \
    {                                                                                              \
        return interpose_allocation(                                                               \
            #NAME,                                                                                 \
            &driver_table::NAME,                                                                   \
            [=](auto fn) { return fn(ptr, bytes, stream); },                                       \
            [=] { track_allocation(*ptr, bytes, current_device(), current_context()); });          \
    }
ROCP_ALLOC_ASYNC(cuMemAllocAsync)
ROCP_ALLOC_ASYNC(cuMemAllocAsync_ptsz)
#undef ROCP_ALLOC_ASYNC

#define ROCP_ALLOC_POOL(NAME)                                                                      \
    ROCP_INTERPOSER(NAME, (CUdeviceptr * ptr, size_t bytes, CUmemoryPool pool, CUstream stream))   \
    {                                                                                              \
        return interpose_allocation(                                                               \
            #NAME,                                                                                 \
            &driver_table::NAME,                                                                   \
            [=](auto fn) { return fn(ptr, bytes, pool, stream); },                                 \
            [=] { track_allocation(*ptr, bytes, current_device(), current_context()); });          \
    }
ROCP_ALLOC_POOL(cuMemAllocFromPoolAsync)
ROCP_ALLOC_POOL(cuMemAllocFromPoolAsync_ptsz)
#undef ROCP_ALLOC_POOL

ROCP_INTERPOSER(cuMemAllocManaged, (CUdeviceptr * ptr, size_t bytes, unsigned int flags))
{
    return interpose_allocation(
        "cuMemAllocManaged",
        &driver_table::cuMemAllocManaged,
        [=](auto fn) { return fn(ptr, bytes, flags); },
        [=] { track_allocation(*ptr, bytes, any_device); });
}

ROCP_INTERPOSER(cuMemCreate,
                (CUmemGenericAllocationHandle * handle,
                 size_t                     bytes,
                 const CUmemAllocationProp* prop,
                 unsigned long long         flags))
{
    return interpose_allocation(
        "cuMemCreate",
        &driver_table::cuMemCreate,
        [=](auto fn) { return fn(handle, bytes, prop, flags); },
        [=]
        {
            if(prop != nullptr && prop->location.type == CU_MEM_LOCATION_TYPE_DEVICE)
                track_vmm_create(*handle, bytes, prop->location.id);
        });
}

// A mapping takes the release route with no devices to wait for: it allocates nothing, so it is
// not retried when memory runs out.
ROCP_INTERPOSER(cuMemMap,
                (CUdeviceptr                  ptr,
                 size_t                       bytes,
                 size_t                       offset,
                 CUmemGenericAllocationHandle handle,
                 unsigned long long           flags))
{
    return interpose_release(
        "cuMemMap",
        &driver_table::cuMemMap,
        [] { return std::vector<int>{}; },
        [=](auto fn) { return fn(ptr, bytes, offset, handle, flags); },
        [=]
        {
            if(!internal_call_scope::active()) track_vmm_map(ptr, bytes, handle);
        });
}

// --- releases -----------------------------------------------------------------------------------

ROCP_INTERPOSER(cuMemFree_v2, (CUdeviceptr ptr))
{
    return interpose_release(
        "cuMemFree_v2",
        &driver_table::cuMemFree_v2,
        [=] { return tracked_devices(ptr); },
        [=](auto fn) { return fn(ptr); },
        [=] { track_free(ptr); });
}

#define ROCP_FREE_ASYNC(NAME)                                                                      \
    ROCP_INTERPOSER(NAME, (CUdeviceptr ptr, CUstream stream))                                      \
    {                                                                                              \
        return interpose_release(                                                                  \
            #NAME,                                                                                 \
            &driver_table::NAME,                                                                   \
            [=] { return tracked_devices(ptr); },                                                  \
            [=](auto fn) { return fn(ptr, stream); },                                              \
            [=] { track_free(ptr); });                                                             \
    }
ROCP_FREE_ASYNC(cuMemFreeAsync)
ROCP_FREE_ASYNC(cuMemFreeAsync_ptsz)
#undef ROCP_FREE_ASYNC

ROCP_INTERPOSER(cuMemUnmap, (CUdeviceptr ptr, size_t bytes))
{
    return interpose_release(
        "cuMemUnmap",
        &driver_table::cuMemUnmap,
        [=] { return tracked_devices(ptr, bytes); },
        [=](auto fn) { return fn(ptr, bytes); },
        [=] { track_vmm_unmap(ptr, bytes); });
}

ROCP_INTERPOSER(cuMemRelease, (CUmemGenericAllocationHandle handle))
{
    return interpose_release(
        "cuMemRelease",
        &driver_table::cuMemRelease,
        [] { return std::vector<int>{}; },
        [=](auto fn) { return fn(handle); },
        [=] { track_vmm_release(handle); });
}

// --- module globals -----------------------------------------------------------------------------

ROCP_INTERPOSER(cuModuleGetGlobal_v2,
                (CUdeviceptr * dptr, size_t* bytes, CUmodule hmod, const char* name))
{
    return get_global(
        "cuModuleGetGlobal_v2", &driver_table::cuModuleGetGlobal_v2, dptr, bytes, hmod, name);
}

ROCP_INTERPOSER(cuLibraryGetGlobal,
                (CUdeviceptr * dptr, size_t* bytes, CUlibrary library, const char* name))
{
    return get_global(
        "cuLibraryGetGlobal", &driver_table::cuLibraryGetGlobal, dptr, bytes, library, name);
}

ROCP_INTERPOSER(cuModuleUnload, (CUmodule hmod))
{
    return unload_module("cuModuleUnload", &driver_table::cuModuleUnload, hmod);
}

ROCP_INTERPOSER(cuLibraryUnload, (CUlibrary library))
{
    return unload_module("cuLibraryUnload", &driver_table::cuLibraryUnload, library);
}

namespace rocprofiler::cuda
{
void*
memory_wrapper(const driver_table& drv, void* real)
{
#define ROCP_SUBSTITUTE(NAME)                                                                      \
    if(real == reinterpret_cast<void*>(drv.NAME)) return reinterpret_cast<void*>(&rocp_##NAME);
    ROCP_SUBSTITUTE(cuMemAlloc_v2)
    ROCP_SUBSTITUTE(cuMemAllocPitch_v2)
    ROCP_SUBSTITUTE(cuMemAllocAsync)
    ROCP_SUBSTITUTE(cuMemAllocAsync_ptsz)
    ROCP_SUBSTITUTE(cuMemAllocFromPoolAsync)
    ROCP_SUBSTITUTE(cuMemAllocFromPoolAsync_ptsz)
    ROCP_SUBSTITUTE(cuMemAllocManaged)
    ROCP_SUBSTITUTE(cuMemFree_v2)
    ROCP_SUBSTITUTE(cuMemFreeAsync)
    ROCP_SUBSTITUTE(cuMemFreeAsync_ptsz)
    ROCP_SUBSTITUTE(cuMemCreate)
    ROCP_SUBSTITUTE(cuMemMap)
    ROCP_SUBSTITUTE(cuMemUnmap)
    ROCP_SUBSTITUTE(cuMemRelease)
    ROCP_SUBSTITUTE(cuModuleGetGlobal_v2)
    ROCP_SUBSTITUTE(cuLibraryGetGlobal)
    ROCP_SUBSTITUTE(cuModuleUnload)
    ROCP_SUBSTITUTE(cuLibraryUnload)
#undef ROCP_SUBSTITUTE
    return nullptr;
}
} // namespace rocprofiler::cuda
