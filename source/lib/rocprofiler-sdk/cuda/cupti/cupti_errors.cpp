#include "cuda/cupti/cupti_errors.hpp"

#include "cuda/cupti/cupti_loader.hpp"

namespace rocprofiler::cuda::metrics
{
std::string
explain(std::string_view call, CUptiResult result)
{
    const auto what = std::string{call} + " failed: " + result_text(result);
    switch(result)
    {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_INSUFFICIENT_PRIVILEGES:
        return "no permission to read the GPU's performance counters (ERR_NVGPUCTRPERM): run as "
               "root, or load the NVIDIA driver with NVreg_RestrictProfilingToAdminUsers=0 (see "
               "https://developer.nvidia.com/ERR_NVGPUCTRPERM); " +
               what;
    case CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED:
    case CUPTI_ERROR_OLD_PROFILER_API_INITIALIZED:
    case CUPTI_ERROR_HARDWARE_BUSY:
        return "another profiler (Nsight Compute, Nsight Systems, DCGM or another CUPTI client) "
               "holds the GPU's performance counters; run without it to collect counters; " +
               what;
    case CUPTI_ERROR_INVALID_METRIC_NAME:
        return "a metric name is not known to CUPTI on this chip (rocprofv3 -L lists them); " +
               what;
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_MIG_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_SLI_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_WSL_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CONFIDENTIAL_COMPUTING_NOT_SUPPORTED:
        return "this device or configuration does not support CUPTI's range profiler; " + what;
    default:
        return what;
    }
}

bool
succeeded(CUptiResult result, std::string_view call, std::string& error)
{
    if(result == CUPTI_SUCCESS) return true;
    error = explain(call, result);
    return false;
}
} // namespace rocprofiler::cuda::metrics
