#include "cuda/sampling/pm_sampling_cupti.hpp"

#include "cuda/cupti/cupti_call.hpp"
#include "cuda/interpose/driver.hpp"

namespace rocprofiler::cuda::pm_sampling
{
std::optional<cupti_pm_sampling_table>
load_table(void* handle)
{
    if(handle == nullptr) return std::nullopt;
    auto table = cupti_pm_sampling_table{};
#define ROCP_CUPTI_LOAD(NAME)                                                                      \
    table.NAME = reinterpret_cast<decltype(table.NAME)>(real_dlsym(handle, #NAME));                \
    if(table.NAME == nullptr) return std::nullopt;
    ROCP_CUPTI_PM_SAMPLING_FUNCTIONS(ROCP_CUPTI_LOAD)
#undef ROCP_CUPTI_LOAD
    return table;
}

decode_status
status_of(const CUpti_PmSampling_DecodeData_Params& params)
{
    auto status     = decode_status{};
    status.overflow = params.overflow != 0;
    status.image_full =
        params.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    return status;
}

dispatch::spm_sample_batch
read_samples(const cupti_pm_sampling_table&  table,
             CUpti_PmSampling_Object*        sampler,
             CUpti_Profiler_Host_Object*     host,
             const std::vector<uint8_t>&     image,
             const std::vector<std::string>& metrics,
             uint64_t                        window_start,
             uint64_t                        window_end,
             const decode_status&            decoded)
{
    auto batch                = dispatch::spm_sample_batch{};
    auto info                 = CUpti_PmSampling_GetCounterDataInfo_Params{};
    info.structSize           = sizeof(info);
    info.pCounterDataImage    = image.data();
    info.counterDataImageSize = image.size();
    if(auto result = table.cuptiPmSamplingGetCounterDataInfo(&info); result != CUPTI_SUCCESS)
    {
        batch.error =
            cupti_failure("cuptiPmSamplingGetCounterDataInfo", result, table.cuptiGetResultString);
        return batch;
    }
    // Populated but not completed samples were cut off by the stop: lost, not hidden.
    batch.dropped = info.numPopulatedSamples > info.numCompletedSamples
                        ? info.numPopulatedSamples - info.numCompletedSamples
                        : 0;
    if(decoded.overflow || decoded.image_full) batch.dropped += 1;
    auto names = std::vector<const char*>{};
    for(const auto& m : metrics)
        names.push_back(m.c_str());
    for(size_t index = 0; index < info.numCompletedSamples; ++index)
    {
        auto sample                 = CUpti_PmSampling_CounterData_GetSampleInfo_Params{};
        sample.structSize           = sizeof(sample);
        sample.pPmSamplingObject    = sampler;
        sample.pCounterDataImage    = image.data();
        sample.counterDataImageSize = image.size();
        sample.sampleIndex          = index;
        if(auto result = table.cuptiPmSamplingCounterDataGetSampleInfo(&sample);
           result != CUPTI_SUCCESS)
        {
            batch.error = cupti_failure(
                "cuptiPmSamplingCounterDataGetSampleInfo", result, table.cuptiGetResultString);
            return batch;
        }
        if(sample.endTimestamp < window_start || sample.startTimestamp > window_end) continue;
        auto out         = dispatch::spm_sample{};
        out.timestamp_ns = sample.endTimestamp;
        out.values.assign(metrics.size(), 0.0);
        auto eval                 = CUpti_Profiler_Host_EvaluateToGpuValues_Params{};
        eval.structSize           = sizeof(eval);
        eval.pHostObject          = host;
        eval.pCounterDataImage    = image.data();
        eval.counterDataImageSize = image.size();
        eval.rangeIndex           = index;
        eval.ppMetricNames        = names.data();
        eval.numMetrics           = names.size();
        eval.pMetricValues        = out.values.data();
        if(auto result = table.cuptiProfilerHostEvaluateToGpuValues(&eval); result != CUPTI_SUCCESS)
        {
            batch.error = cupti_failure(
                "cuptiProfilerHostEvaluateToGpuValues", result, table.cuptiGetResultString);
            return batch;
        }
        batch.samples.push_back(std::move(out));
    }
    return batch;
}
} // namespace rocprofiler::cuda::pm_sampling
