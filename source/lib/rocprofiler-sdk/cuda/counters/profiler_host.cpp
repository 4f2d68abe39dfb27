#include "cuda/counters/profiler_host.hpp"

#include "common/static_object.hpp"
#include "cuda/cupti/cupti_errors.hpp"
#include "cuda/interpose/driver.hpp"

namespace rocprofiler::cuda::metrics
{
std::mutex&
host_api_mutex()
{
    struct host_api_lock
    {
        std::mutex mutex = {};
    };
    return common::static_object<host_api_lock, common::reset_order::never>::get().mutex;
}

// The target side of CUPTI's profiler (device queries, the range profiler) needs
// cuptiProfilerInitialize, once; the host API (metric lists, configuration images) does not.
// Returns why it failed, or an empty string.
const std::string&
target_initialized()
{
    static const std::string* value = []
    {
        const auto& t = profiler_table();
        if(!t.error.empty()) return new std::string{t.error};
        auto scope = internal_call_scope{};
        auto params =
            CUpti_Profiler_Initialize_Params{CUpti_Profiler_Initialize_Params_STRUCT_SIZE};
        auto rc = t.cuptiProfilerInitialize(&params);
        return new std::string{rc == CUPTI_SUCCESS ? std::string{}
                                                   : explain("cuptiProfilerInitialize", rc)};
    }();
    return *value;
}

std::string
chip_name(uint32_t ordinal, std::string& error)
{
    if(const auto& why = target_initialized(); !why.empty())
    {
        error = why;
        return {};
    }
    auto params = CUpti_Device_GetChipName_Params{CUpti_Device_GetChipName_Params_STRUCT_SIZE};
    params.deviceIndex = ordinal;
    auto scope         = internal_call_scope{};
    if(auto rc = profiler_table().cuptiDeviceGetChipName(&params);
       rc != CUPTI_SUCCESS || !params.pChipName)
    {
        error = explain("cuptiDeviceGetChipName", rc);
        return {};
    }
    return params.pChipName;
}

host_object::host_object(std::string_view            chip,
                         const std::vector<uint8_t>* availability,
                         std::string&                error,
                         CUpti_ProfilerType          type)
    : m_chip{chip}
{
    const auto& t = profiler_table();
    auto        params =
        CUpti_Profiler_Host_Initialize_Params{CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE};
    params.profilerType = type;
    params.pChipName    = m_chip.c_str();
    params.pCounterAvailabilityImage =
        (availability != nullptr && !availability->empty()) ? availability->data() : nullptr;
    if(auto rc = t.cuptiProfilerHostInitialize(&params); rc != CUPTI_SUCCESS)
        error = explain("cuptiProfilerHostInitialize(" + m_chip + ")", rc);
    else
        m_object = params.pHostObject;
}

host_object::~host_object()
{
    if(m_object == nullptr) return;
    auto params = CUpti_Profiler_Host_Deinitialize_Params{
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE};
    params.pHostObject = m_object;
    profiler_table().cuptiProfilerHostDeinitialize(&params);
}

std::vector<uint8_t>
host_object::config_image(const std::vector<const char*>& names, std::string& error)
{
    const auto& t   = profiler_table();
    auto        add = CUpti_Profiler_Host_ConfigAddMetrics_Params{
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE};
    add.pHostObject   = m_object;
    add.ppMetricNames = const_cast<const char**>(names.data());
    add.numMetrics    = names.size();
    if(!succeeded(
           t.cuptiProfilerHostConfigAddMetrics(&add), "cuptiProfilerHostConfigAddMetrics", error))
        return {};
    auto size = CUpti_Profiler_Host_GetConfigImageSize_Params{
        CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE};
    size.pHostObject = m_object;
    if(!succeeded(t.cuptiProfilerHostGetConfigImageSize(&size),
                  "cuptiProfilerHostGetConfigImageSize",
                  error))
        return {};
    auto image = std::vector<uint8_t>(size.configImageSize);
    auto get   = CUpti_Profiler_Host_GetConfigImage_Params{
        CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE};
    get.pHostObject     = m_object;
    get.configImageSize = image.size();
    get.pConfigImage    = image.data();
    if(!succeeded(
           t.cuptiProfilerHostGetConfigImage(&get), "cuptiProfilerHostGetConfigImage", error))
        return {};
    return image;
}

uint32_t
passes_of(std::vector<uint8_t>& image, std::string& error)
{
    auto params = CUpti_Profiler_Host_GetNumOfPasses_Params{
        CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE};
    params.configImageSize = image.size();
    params.pConfigImage    = image.data();
    if(!succeeded(profiler_table().cuptiProfilerHostGetNumOfPasses(&params),
                  "cuptiProfilerHostGetNumOfPasses",
                  error))
        return 0;
    return static_cast<uint32_t>(params.numOfPasses);
}

std::vector<const char*>
c_names(const std::vector<std::string>& names)
{
    auto out = std::vector<const char*>{};
    out.reserve(names.size());
    for(const auto& n : names)
        out.emplace_back(n.c_str());
    return out;
}
} // namespace rocprofiler::cuda::metrics
