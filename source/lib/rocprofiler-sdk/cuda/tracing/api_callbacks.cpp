#include "cuda/tracing/api_callbacks.hpp"

#include "common/guard.hpp"
#include "common/logging.hpp"
#include "cuda/cupti/cupti_callbacks.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/timing/cupti_activity.hpp"
#include "runtime_api/runtime_api.hpp"
#include "tracing/names.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <mutex>
#include <vector>

namespace rocprofiler::cuda::api_callbacks
{
namespace
{
using runtime_api::domain;

// The driver's launch entry points, reported by the launch interposer (see the header).
constexpr auto launch_ids = std::array<CUpti_CallbackId, 6>{
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
    CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
};

static_assert(sizeof(cuLaunchKernel_params) <= 96 && sizeof(cuLaunchKernelEx_params) <= 96 &&
                  sizeof(cuLaunchCooperativeKernel_params) <= 96,
              "launch_call::m_params holds every launch parameter structure");

const char*
operation_name(domain d, int32_t op)
{
    const auto name = tracing::callback_operation_name(runtime_api::callback_kind(d), op);
    return name ? name->data() : nullptr;
}

// Every callback of the routed ids: the application's calls only.
void
on_api_call(CUpti_CallbackDomain      cupti_domain,
            CUpti_CallbackId          cbid,
            const CUpti_CallbackData* info)
{
    if(info == nullptr || internal_call_scope::active()) return;
    const auto d =
        cupti_domain == CUPTI_CB_DOMAIN_RUNTIME_API ? domain::cuda_runtime : domain::cuda_driver;
    const auto op = static_cast<int32_t>(cbid);
    if(info->callbackSite == CUPTI_API_ENTER)
    {
        auto call          = runtime_api::call_info{};
        call.function_name = operation_name(d, op);
        call.symbol_name   = info->symbolName;
        call.args          = info->functionParams;
        runtime_api::enter(d, op, info->correlationId, call);
    }
    else if(info->callbackSite == CUPTI_API_EXIT)
        runtime_api::exit(d, op, info->correlationId, info->functionReturnValue);
}

// Callback ids 1 .. size-1 of a domain, less `skipped`.
std::vector<CUpti_CallbackId>
all_ids(uint32_t size, const std::vector<CUpti_CallbackId>& skipped)
{
    auto out = std::vector<CUpti_CallbackId>{};
    for(CUpti_CallbackId cbid = 1; cbid < size; ++cbid)
        if(std::find(skipped.begin(), skipped.end(), cbid) == skipped.end()) out.push_back(cbid);
    return out;
}

int32_t
launch_operation(const launch_request& r)
{
    switch(r.api)
    {
    case launch_api::kernel:
        return r.per_thread ? CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz
                            : CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
    case launch_api::kernel_ex:
        return r.per_thread ? CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz
                            : CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx;
    case launch_api::cooperative:
        return r.per_thread ? CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz
                            : CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel;
    }
    return CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel;
}

// Keys of the interposer's launch calls: CUPTI's correlation ids never have the top bit set.
thread_local uint64_t launch_calls = 0;
} // namespace

void
start()
{
    static std::once_flag once;
    std::call_once(
        once,
        []
        {
            const auto runtime = runtime_api::configured(domain::cuda_runtime);
            const auto drv     = runtime_api::configured(domain::cuda_driver);
            if(!runtime && !drv) return;
            auto scope = internal_call_scope{};
            if(!settings::read_cupti_activity_enabled())
            {
                ROCP_LOG(warning) << "CUDA API tracing: ROCPROFILER_CUDA_CUPTI=0: CUDA runtime "
                                     "and driver calls are not traced";
                return;
            }
            const auto* table = timing::activity_table();
            if(table == nullptr)
            {
                ROCP_LOG(warning) << "CUDA API tracing: CUPTI is not available (set "
                                     "ROCPROFILER_CUPTI_LIBRARY); CUDA runtime and driver calls "
                                     "are not traced";
                return;
            }
            auto ok = true;
            if(runtime)
                ok = cupti_callbacks::route(*table,
                                            CUPTI_CB_DOMAIN_RUNTIME_API,
                                            all_ids(CUPTI_RUNTIME_TRACE_CBID_SIZE, {}),
                                            on_api_call) &&
                     ok;
            if(drv)
                ok = cupti_callbacks::route(*table,
                                            CUPTI_CB_DOMAIN_DRIVER_API,
                                            all_ids(CUPTI_DRIVER_TRACE_CBID_SIZE,
                                                    std::vector<CUpti_CallbackId>(
                                                        launch_ids.begin(), launch_ids.end())),
                                            on_api_call) &&
                     ok;
            if(!ok)
                ROCP_LOG(warning) << "CUDA API tracing: CUPTI refused some API callbacks (another "
                                     "CUPTI subscriber?); calls of those entry points are not "
                                     "traced";
            else
                ROCP_LOG(debug) << "CUDA API tracing: on (runtime " << runtime << ", driver " << drv
                                << ")";
        });
}

launch_call::launch_call(const launch_request& r) noexcept
{
    if(internal_call_scope::active()) return;
    common::guarded("cuLaunch (CUDA API trace)", [&] { begin(r); });
}

void
launch_call::begin(const launch_request& r)
{
    if(!runtime_api::configured(domain::cuda_driver)) return;
    m_traced = true;
    m_op     = launch_operation(r);
    m_key    = (uint64_t{1} << 63U) | ++launch_calls;
    auto* p  = static_cast<void*>(m_params);
    if(r.api == launch_api::kernel_ex)
    {
        auto ex = cuLaunchKernelEx_params{r.config, r.function, r.params, r.extra};
        std::memcpy(p, &ex, sizeof(ex));
    }
    else
    {
        // cuLaunchCooperativeKernel_params is cuLaunchKernel_params without `extra`.
        auto grid = cuLaunchKernel_params{r.function,
                                          r.grid[0],
                                          r.grid[1],
                                          r.grid[2],
                                          r.block[0],
                                          r.block[1],
                                          r.block[2],
                                          r.shared,
                                          r.stream,
                                          r.params,
                                          r.extra};
        std::memcpy(p, &grid, sizeof(grid));
    }
    auto call          = runtime_api::call_info{};
    call.function_name = operation_name(domain::cuda_driver, m_op);
    call.args          = p;
    runtime_api::enter(domain::cuda_driver, m_op, m_key, call);
}

CUresult
launch_call::returned(CUresult result) noexcept
{
    if(m_traced)
        common::guarded("cuLaunch (CUDA API trace)",
                        [&] { runtime_api::exit(domain::cuda_driver, m_op, m_key, &result); });
    return result;
}
} // namespace rocprofiler::cuda::api_callbacks
