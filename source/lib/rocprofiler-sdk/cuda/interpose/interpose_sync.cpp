// The application's waits for the device: cuCtxSynchronize (and CUDA 13's cuCtxSynchronize_v2,
// which a CUDA 13 runtime asks cuGetProcAddress for), cuStreamSynchronize (and its
// per-thread-stream variant) and cuEventSynchronize, what cudaDeviceSynchronize,
// cudaStreamSynchronize and cudaEventSynchronize end in. The driver's call runs as it would alone;
// around it the thread counts as waiting (counters/counter_batch.hpp: a batch whose last kernel
// finishes meanwhile is decoded at once), and after it the batches of counting whose executions
// have all finished are decoded, so that one range-profiler session serves the launches between
// two waits. The SDK's own waits go through the driver table and never come here.
#include "cuda/counters/counter_batch.hpp"
#include "cuda/interpose/interpose.hpp"

namespace rocprofiler::cuda
{
namespace
{
// What a wait covered: the whole context (cuCtxSynchronize: `ctx`, nullptr for the current one) or
// less (a stream or an event).
enum class wait_scope
{
    context,
    part,
};

template <typename Fn, typename Call>
CUresult
application_wait(
    const char* where, Fn driver_table::*real, wait_scope scope, CUcontext ctx, Call call) noexcept
{
    const auto* drv = interposer_driver(where);
    if(drv == nullptr || drv->*real == nullptr) return CUDA_ERROR_NOT_INITIALIZED;
    if(internal_call_scope::active()) return call(drv->*real);
    auto result = CUDA_SUCCESS;
    {
        auto waiting = metrics::application_wait_scope{};
        result       = call(drv->*real);
    }
    // A successful wait for a whole context: every kernel of it finished, so its batch is decoded
    // now, before the application launches again (a kernel that faults next cannot take the
    // batch's values with it).
    if(scope == wait_scope::context && result == CUDA_SUCCESS && ctx == nullptr &&
       drv->cuCtxGetCurrent != nullptr && drv->cuCtxGetCurrent(&ctx) != CUDA_SUCCESS)
        ctx = nullptr;
    const auto synchronized =
        scope == wait_scope::context && result == CUDA_SUCCESS ? ctx : nullptr;
    common::guarded(where, [synchronized] { metrics::close_batches_after_wait(synchronized); });
    return result;
}
} // namespace
} // namespace rocprofiler::cuda

ROCP_INTERPOSER(cuCtxSynchronize, ())
{
    return rocprofiler::cuda::application_wait("cuCtxSynchronize",
                                               &rocprofiler::cuda::driver_table::cuCtxSynchronize,
                                               rocprofiler::cuda::wait_scope::context,
                                               nullptr,
                                               [](auto fn) { return fn(); });
}

ROCP_INTERPOSER(cuCtxSynchronize_v2, (CUcontext ctx))
{
    return rocprofiler::cuda::application_wait(
        "cuCtxSynchronize_v2",
        &rocprofiler::cuda::driver_table::cuCtxSynchronize_v2,
        rocprofiler::cuda::wait_scope::context,
        ctx,
        [=](auto fn) { return fn(ctx); });
}

ROCP_INTERPOSER(cuStreamSynchronize, (CUstream stream))
{
    return rocprofiler::cuda::application_wait(
        "cuStreamSynchronize",
        &rocprofiler::cuda::driver_table::cuStreamSynchronize,
        rocprofiler::cuda::wait_scope::part,
        nullptr,
        [=](auto fn) { return fn(stream); });
}

ROCP_INTERPOSER(cuStreamSynchronize_ptsz, (CUstream stream))
{
    return rocprofiler::cuda::application_wait(
        "cuStreamSynchronize_ptsz",
        &rocprofiler::cuda::driver_table::cuStreamSynchronize_ptsz,
        rocprofiler::cuda::wait_scope::part,
        nullptr,
        [=](auto fn) { return fn(stream); });
}

ROCP_INTERPOSER(cuEventSynchronize, (CUevent event))
{
    return rocprofiler::cuda::application_wait("cuEventSynchronize",
                                               &rocprofiler::cuda::driver_table::cuEventSynchronize,
                                               rocprofiler::cuda::wait_scope::part,
                                               nullptr,
                                               [=](auto fn) { return fn(event); });
}

namespace rocprofiler::cuda
{
void*
sync_wrapper(const driver_table& drv, void* real)
{
    if(real == nullptr) return nullptr;
#define ROCP_SUBSTITUTE(NAME)                                                                      \
    if(real == reinterpret_cast<void*>(drv.NAME)) return reinterpret_cast<void*>(&rocp_##NAME);
    ROCP_SUBSTITUTE(cuCtxSynchronize)
    ROCP_SUBSTITUTE(cuCtxSynchronize_v2)
    ROCP_SUBSTITUTE(cuStreamSynchronize)
    ROCP_SUBSTITUTE(cuStreamSynchronize_ptsz)
    ROCP_SUBSTITUTE(cuEventSynchronize)
#undef ROCP_SUBSTITUTE
    return nullptr;
}
} // namespace rocprofiler::cuda
