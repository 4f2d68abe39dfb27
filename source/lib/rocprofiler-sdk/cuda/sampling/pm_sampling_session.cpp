#include "cuda/sampling/pm_sampling_session.hpp"

#include "common/logging.hpp"
#include "cuda/cupti/cupti_call.hpp"
#include "cuda/cupti/cupti_loader.hpp"

#include <atomic>
#include <limits>
#include <utility>

namespace rocprofiler::cuda::pm_sampling
{
namespace
{
std::atomic<const cupti_pm_sampling_table*> installed_table = nullptr;
} // namespace

int64_t
to_sdk_clock(dispatch::spm_sample_batch& batch,
             uint64_t                    first_start_gpu,
             uint64_t                    range_start_sdk,
             uint64_t                    range_end_sdk)
{
    if(batch.samples.empty()) return 0;
    // On the SDK clock already when the samples lie in the range, with the range's length as
    // slack on either side (CUPTI starts and stops sampling inside the range's bounds).
    const auto span   = range_end_sdk > range_start_sdk ? range_end_sdk - range_start_sdk : 1;
    const auto lowest = range_start_sdk > span ? range_start_sdk - span : 0;
    auto       inside = first_start_gpu >= lowest;
    for(const auto& sample : batch.samples)
        inside =
            inside && sample.timestamp_ns >= lowest && sample.timestamp_ns <= range_end_sdk + span;
    if(inside) return 0;
    const auto offset =
        static_cast<int64_t>(range_start_sdk) - static_cast<int64_t>(first_start_gpu);
    common::log::warn_once("cuda-pm-sampling-clock",
                           "cuda: PM sampling timestamps are not on the SDK clock; each range's "
                           "samples are placed by its start (exact to about one interval)");
    for(auto& sample : batch.samples)
        sample.timestamp_ns =
            static_cast<uint64_t>(static_cast<int64_t>(sample.timestamp_ns) + offset);
    return offset;
}

session::session(const cupti_pm_sampling_table& table,
                 size_t                         device_index,
                 std::vector<uint8_t>           config_image,
                 std::vector<std::string>       metrics,
                 CUpti_Profiler_Host_Object*    host,
                 uint64_t                       interval_cycles)
    : m_table{table}
    , m_device{device_index}
    , m_config{std::move(config_image)}
    , m_metrics{std::move(metrics)}
    , m_host{host}
    , m_interval{interval_cycles}
{
}

session::~session()
{
    disable();
}

bool
session::call(CUptiResult result, const char* what)
{
    if(result == CUPTI_SUCCESS) return true;
    if(m_error.empty()) m_error = cupti_failure(what, result, m_table.cuptiGetResultString);
    return false;
}

bool
session::start(uint64_t now_sdk)
{
    if(m_config.empty() || m_metrics.empty())
    {
        m_error = "no PM sampling configuration image";
        return false;
    }
    auto enable        = CUpti_PmSampling_Enable_Params{CUpti_PmSampling_Enable_Params_STRUCT_SIZE};
    enable.deviceIndex = m_device;
    if(!call(m_table.cuptiPmSamplingEnable(&enable), "cuptiPmSamplingEnable")) return false;
    m_sampler = enable.pPmSamplingObject;

    auto config = CUpti_PmSampling_SetConfig_Params{CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE};
    config.pPmSamplingObject  = m_sampler;
    config.configSize         = m_config.size();
    config.pConfig            = m_config.data();
    config.hardwareBufferSize = hardware_buffer_bytes;
    config.samplingInterval   = m_interval;
    config.triggerMode        = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL;
    config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    if(!call(m_table.cuptiPmSamplingSetConfig(&config), "cuptiPmSamplingSetConfig"))
    {
        disable();
        return false;
    }

    auto names = std::vector<const char*>{};
    for(const auto& name : m_metrics)
        names.push_back(name.c_str());
    auto size = CUpti_PmSampling_GetCounterDataSize_Params{
        CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE};
    size.pPmSamplingObject = m_sampler;
    size.pMetricNames      = names.data();
    size.numMetrics        = names.size();
    size.maxSamples        = max_samples;
    if(!call(m_table.cuptiPmSamplingGetCounterDataSize(&size), "cuptiPmSamplingGetCounterDataSize"))
    {
        disable();
        return false;
    }
    m_image.assign(size.counterDataSize, 0);
    auto init = CUpti_PmSampling_CounterDataImage_Initialize_Params{
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE};
    init.pPmSamplingObject = m_sampler;
    init.counterDataSize   = m_image.size();
    init.pCounterData      = m_image.data();
    if(!call(m_table.cuptiPmSamplingCounterDataImageInitialize(&init),
             "cuptiPmSamplingCounterDataImageInitialize"))
    {
        disable();
        return false;
    }

    auto start = CUpti_PmSampling_Start_Params{CUpti_PmSampling_Start_Params_STRUCT_SIZE};
    start.pPmSamplingObject = m_sampler;
    if(!call(m_table.cuptiPmSamplingStart(&start), "cuptiPmSamplingStart"))
    {
        disable();
        return false;
    }
    m_started   = true;
    m_start_sdk = now_sdk;
    return true;
}

dispatch::spm_sample_batch
session::finish(uint64_t now_sdk)
{
    auto batch = dispatch::spm_sample_batch{};
    if(!m_started)
    {
        disable();
        batch.error = m_error.empty() ? std::string{"PM sampling was not started"} : m_error;
        return batch;
    }
    m_started              = false;
    auto stop              = CUpti_PmSampling_Stop_Params{CUpti_PmSampling_Stop_Params_STRUCT_SIZE};
    stop.pPmSamplingObject = m_sampler;
    if(!call(m_table.cuptiPmSamplingStop(&stop), "cuptiPmSamplingStop"))
    {
        disable();
        batch.error = m_error;
        return batch;
    }
    auto decode =
        CUpti_PmSampling_DecodeData_Params{CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE};
    decode.pPmSamplingObject    = m_sampler;
    decode.pCounterDataImage    = m_image.data();
    decode.counterDataImageSize = m_image.size();
    if(!call(m_table.cuptiPmSamplingDecodeData(&decode), "cuptiPmSamplingDecodeData"))
    {
        disable();
        batch.error = m_error;
        return batch;
    }
    // The range holds only this execution: every completed sample is its own.
    batch = read_samples(m_table,
                         m_sampler,
                         m_host,
                         m_image,
                         m_metrics,
                         0,
                         std::numeric_limits<uint64_t>::max(),
                         status_of(decode));
    if(batch.error.empty() && !batch.samples.empty())
    {
        auto first = CUpti_PmSampling_CounterData_GetSampleInfo_Params{
            CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE};
        first.pPmSamplingObject    = m_sampler;
        first.pCounterDataImage    = m_image.data();
        first.counterDataImageSize = m_image.size();
        first.sampleIndex          = 0;
        if(call(m_table.cuptiPmSamplingCounterDataGetSampleInfo(&first),
                "cuptiPmSamplingCounterDataGetSampleInfo"))
            to_sdk_clock(batch, first.startTimestamp, m_start_sdk, now_sdk);
        else
            batch.error = m_error;
    }
    if(batch.dropped != 0)
        common::log::warn_once("cuda-pm-sampling-dropped",
                               "cuda: PM samples were lost (hardware buffer overflow or a full "
                               "counter data image); they are flagged as dropped");
    disable();
    return batch;
}

void
session::disable()
{
    if(m_sampler == nullptr) return;
    auto params = CUpti_PmSampling_Disable_Params{CUpti_PmSampling_Disable_Params_STRUCT_SIZE};
    params.pPmSamplingObject = m_sampler;
    m_sampler                = nullptr;
    call(m_table.cuptiPmSamplingDisable(&params), "cuptiPmSamplingDisable");
}

const cupti_pm_sampling_table*
table()
{
    if(const auto* t = installed_table.load(std::memory_order_acquire)) return t;
    static const auto loaded = load_table(cupti_library());
    return loaded ? &*loaded : nullptr;
}

void
use_table(const cupti_pm_sampling_table* t)
{
    installed_table.store(t, std::memory_order_release);
}
} // namespace rocprofiler::cuda::pm_sampling
