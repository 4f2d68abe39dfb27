// SPM around one execution on a CUDA agent (cuda/sampling/pm_sampling_session.hpp), without a GPU:
// a fake CUPTI PM sampling table records the calls in order, decodes a fake image of three
// completed samples, and returns CUPTI's error codes where a test asks; the samples are checked on
// the SDK clock, whether CUPTI's timestamps were on it or not.
#include "cuda/sampling/pm_sampling_session.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace pm = rocprofiler::cuda::pm_sampling;

namespace
{
struct fake_state
{
    std::vector<std::string>          calls         = {};
    CUpti_PmSampling_SetConfig_Params config        = {};
    CUptiResult                       enable_result = CUPTI_SUCCESS;
    CUptiResult                       config_result = CUPTI_SUCCESS;
    uint8_t                           overflow      = 0;
    uint64_t                          gpu_base      = 0; // sample i spans [base + 1000 i, +1000)
};

fake_state state        = {};
auto*      fake_sampler = reinterpret_cast<CUpti_PmSampling_Object*>(0x10);

CUptiResult CUPTIAPI
fake_result_string(CUptiResult, const char** text)
{
    *text = "fake CUPTI error";
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_enable(CUpti_PmSampling_Enable_Params* p)
{
    state.calls.emplace_back("Enable");
    if(state.enable_result != CUPTI_SUCCESS) return state.enable_result;
    p->pPmSamplingObject = fake_sampler;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_set_config(CUpti_PmSampling_SetConfig_Params* p)
{
    state.calls.emplace_back("SetConfig");
    state.config = *p;
    return state.config_result;
}

CUptiResult CUPTIAPI
fake_data_size(CUpti_PmSampling_GetCounterDataSize_Params* p)
{
    state.calls.emplace_back("GetCounterDataSize");
    EXPECT_EQ(p->numMetrics, 2u);
    p->counterDataSize = 64;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_init(CUpti_PmSampling_CounterDataImage_Initialize_Params* p)
{
    state.calls.emplace_back("CounterDataImageInitialize");
    EXPECT_EQ(p->counterDataSize, 64u);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_start(CUpti_PmSampling_Start_Params* p)
{
    state.calls.emplace_back("Start");
    EXPECT_EQ(p->pPmSamplingObject, fake_sampler);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_stop(CUpti_PmSampling_Stop_Params*)
{
    state.calls.emplace_back("Stop");
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_decode(CUpti_PmSampling_DecodeData_Params* p)
{
    state.calls.emplace_back("DecodeData");
    p->decodeStopReason = CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS;
    p->overflow         = state.overflow;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_disable(CUpti_PmSampling_Disable_Params* p)
{
    state.calls.emplace_back("Disable");
    EXPECT_EQ(p->pPmSamplingObject, fake_sampler);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_info(CUpti_PmSampling_GetCounterDataInfo_Params* p)
{
    p->numTotalSamples     = 4096;
    p->numPopulatedSamples = 3;
    p->numCompletedSamples = 3;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_sample_info(CUpti_PmSampling_CounterData_GetSampleInfo_Params* p)
{
    if(p->sampleIndex >= 3) return CUPTI_ERROR_INVALID_PARAMETER;
    p->startTimestamp = state.gpu_base + 1000 * p->sampleIndex;
    p->endTimestamp   = state.gpu_base + 1000 * p->sampleIndex + 1000;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p)
{
    for(size_t m = 0; m < p->numMetrics; ++m)
        p->pMetricValues[m] =
            100.0 * static_cast<double>(p->rangeIndex + 1) + static_cast<double>(m);
    return CUPTI_SUCCESS;
}

pm::cupti_pm_sampling_table
fake_table()
{
    state                                       = fake_state{};
    auto t                                      = pm::cupti_pm_sampling_table{};
    t.cuptiGetResultString                      = fake_result_string;
    t.cuptiPmSamplingSetConfig                  = fake_set_config;
    t.cuptiPmSamplingEnable                     = fake_enable;
    t.cuptiPmSamplingDisable                    = fake_disable;
    t.cuptiPmSamplingStart                      = fake_start;
    t.cuptiPmSamplingStop                       = fake_stop;
    t.cuptiPmSamplingDecodeData                 = fake_decode;
    t.cuptiPmSamplingGetCounterDataSize         = fake_data_size;
    t.cuptiPmSamplingCounterDataImageInitialize = fake_init;
    t.cuptiPmSamplingGetCounterDataInfo         = fake_info;
    t.cuptiPmSamplingCounterDataGetSampleInfo   = fake_sample_info;
    t.cuptiProfilerHostEvaluateToGpuValues      = fake_evaluate;
    return t;
}

const auto metrics = std::vector<std::string>{"smsp__inst_executed.sum", "dram__bytes_read.sum"};

pm::session
make(const pm::cupti_pm_sampling_table& table)
{
    return pm::session{table, 0, std::vector<uint8_t>(16, 1), metrics, nullptr, 20000};
}
} // namespace

TEST(cuda_pm_sampling_session, calls_cupti_in_order_and_places_samples_on_the_sdk_clock)
{
    const auto table = fake_table();
    state.gpu_base   = 5'000'000'000; // the GPU's clock, far from the SDK's
    auto s           = make(table);
    ASSERT_TRUE(s.start(10'000)) << s.error();
    EXPECT_EQ(state.config.samplingInterval, 20000u);
    EXPECT_EQ(state.config.configSize, 16u);
    EXPECT_EQ(state.config.triggerMode, CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL);
    const auto batch    = s.finish(14'000);
    const auto expected = std::vector<std::string>{"Enable",
                                                   "SetConfig",
                                                   "GetCounterDataSize",
                                                   "CounterDataImageInitialize",
                                                   "Start",
                                                   "Stop",
                                                   "DecodeData",
                                                   "Disable"};
    EXPECT_EQ(state.calls, expected);
    EXPECT_TRUE(batch.error.empty()) << batch.error;
    ASSERT_EQ(batch.samples.size(), 3u);
    EXPECT_EQ(batch.samples[0].timestamp_ns, 11'000u); // first sample's end, range start 10'000
    EXPECT_EQ(batch.samples[2].timestamp_ns, 13'000u);
    ASSERT_EQ(batch.samples[1].values.size(), 2u);
    EXPECT_EQ(batch.samples[1].values[0], 200.0);
    EXPECT_EQ(batch.samples[1].values[1], 201.0);
    EXPECT_EQ(batch.dropped, 0u);
}

TEST(cuda_pm_sampling_session, timestamps_already_on_the_sdk_clock_are_kept)
{
    const auto table = fake_table();
    state.gpu_base   = 10'200;
    auto s           = make(table);
    ASSERT_TRUE(s.start(10'000));
    const auto batch = s.finish(14'000);
    ASSERT_EQ(batch.samples.size(), 3u);
    EXPECT_EQ(batch.samples[0].timestamp_ns, 11'200u);
}

TEST(cuda_pm_sampling_session, unsupported_device_reports_cupti_error)
{
    const auto table    = fake_table();
    state.enable_result = CUPTI_ERROR_NOT_SUPPORTED;
    auto s              = make(table);
    EXPECT_FALSE(s.start(1));
    const auto batch = s.finish(2);
    EXPECT_EQ(state.calls, std::vector<std::string>{"Enable"});
    EXPECT_EQ(batch.error, "cuptiPmSamplingEnable failed: fake CUPTI error");
}

TEST(cuda_pm_sampling_session, failed_configuration_disables_again)
{
    const auto table    = fake_table();
    state.config_result = CUPTI_ERROR_INVALID_PARAMETER;
    auto s              = make(table);
    EXPECT_FALSE(s.start(1));
    EXPECT_EQ(state.calls, (std::vector<std::string>{"Enable", "SetConfig", "Disable"}));
    EXPECT_NE(s.finish(2).error.find("cuptiPmSamplingSetConfig"), std::string::npos);
}

TEST(cuda_pm_sampling_session, overflow_flags_dropped_samples)
{
    const auto table = fake_table();
    state.overflow   = 1;
    auto s           = make(table);
    ASSERT_TRUE(s.start(10'000));
    const auto batch = s.finish(14'000);
    EXPECT_EQ(batch.samples.size(), 3u);
    EXPECT_GE(batch.dropped, 1u);
}

TEST(cuda_pm_sampling_session, no_configuration_image_calls_nothing)
{
    const auto table = fake_table();
    auto       s     = pm::session{table, 0, {}, metrics, nullptr, 20000};
    EXPECT_FALSE(s.start(1));
    EXPECT_TRUE(state.calls.empty());
}
