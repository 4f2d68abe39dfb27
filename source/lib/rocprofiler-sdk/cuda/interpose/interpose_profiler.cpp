// cuProfilerStart / cuProfilerStop (what cudaProfilerStart/Stop and PyTorch's
// torch.cuda.profiler.start()/stop() call) as the marker domain's profiler controls: Start is
// roctxProfilerResume(0), Stop is roctxProfilerPause(0), traced as MARKER_CONTROL_API operations
// (marker/marker.hpp), so that a tool honouring ROCTx's pause and resume (rocprofv3's
// --selected-regions) honours CUDA's profiler range too, as Nsight tools do with their
// "profile from start off" modes. The driver's own function runs first; the control record is
// delivered whatever it returned (the driver answers CUDA_ERROR_PROFILER_DISABLED and the like
// for its own profiler, which is not ours). Without a context that traces markers the calls only
// pass through.
#include "cuda/interpose/interpose.hpp"
#include "marker/marker.hpp"

#include <rocprofiler-sdk/marker/api_args.h>
#include <rocprofiler-sdk/marker/api_id.h>

namespace rocprofiler::cuda
{
namespace
{
rocprofiler_marker_api_retval_t
control_result(const rocprofiler_marker_api_args_t&, void*)
{
    auto ret           = rocprofiler_marker_api_retval_t{};
    ret.int32_t_retval = 0;
    return ret;
}

void
trace_control(int32_t operation)
{
    if(!marker::configured()) return;
    auto args = rocprofiler_marker_api_args_t{};
    if(operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause)
        args.roctxProfilerPause.tid = 0;
    else
        args.roctxProfilerResume.tid = 0;
    marker::traced(marker::domain::control, operation, args, control_result, nullptr);
}

// The driver's function `real`, then the control record (guarded: an exception in the SDK's part
// is logged and the driver's result returned).
CUresult
profiler_control(const char* where, CUresult (*driver_table::*real)(), int32_t operation) noexcept
{
    const auto* drv = interposer_driver(where);
    const auto  result =
        drv != nullptr && drv->*real != nullptr ? (drv->*real)() : CUDA_ERROR_NOT_INITIALIZED;
    common::guarded(where, [&] { trace_control(operation); });
    return result;
}
} // namespace
} // namespace rocprofiler::cuda

ROCP_INTERPOSER(cuProfilerStart, ())
{
    return rocprofiler::cuda::profiler_control(
        "cuProfilerStart",
        &rocprofiler::cuda::driver_table::cuProfilerStart,
        ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume);
}

ROCP_INTERPOSER(cuProfilerStop, ())
{
    return rocprofiler::cuda::profiler_control(
        "cuProfilerStop",
        &rocprofiler::cuda::driver_table::cuProfilerStop,
        ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause);
}

namespace rocprofiler::cuda
{
void*
profiler_wrapper(const driver_table& drv, void* real)
{
    if(real == nullptr) return nullptr;
    if(real == reinterpret_cast<void*>(drv.cuProfilerStart))
        return reinterpret_cast<void*>(&rocp_cuProfilerStart);
    if(real == reinterpret_cast<void*>(drv.cuProfilerStop))
        return reinterpret_cast<void*>(&rocp_cuProfilerStop);
    return nullptr;
}
} // namespace rocprofiler::cuda
