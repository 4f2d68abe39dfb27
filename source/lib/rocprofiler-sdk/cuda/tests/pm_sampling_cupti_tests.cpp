// SPM on CUDA agents (cuda/sampling/pm_sampling_cupti.hpp), without a GPU: a hand-written table
// stands in for CUPTI's PM sampling and profiler host calls, over a fake decoded counter data image
// of six samples (two of them not completed), and the samples of a dispatch's window are read with
// their evaluated values; overflow and a full image flag lost samples; CUPTI's errors end the
// reading.
#include "cuda/sampling/pm_sampling_cupti.hpp"

#include <gtest/gtest.h>

#include <cstring>

namespace pm = rocprofiler::cuda::pm_sampling;

namespace
{
// The fake image: 6 populated samples, 4 completed; sample i spans [1000 i, 1000 i + 1000) and
// its metric m evaluates to 10 i + m.
CUptiResult fake_evaluate_result = CUPTI_SUCCESS;

CUptiResult CUPTIAPI
fake_info(CUpti_PmSampling_GetCounterDataInfo_Params* p)
{
    if(p->pCounterDataImage == nullptr || p->counterDataImageSize != 64)
        return CUPTI_ERROR_INVALID_PARAMETER;
    p->numTotalSamples     = 8;
    p->numPopulatedSamples = 6;
    p->numCompletedSamples = 4;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_sample_info(CUpti_PmSampling_CounterData_GetSampleInfo_Params* p)
{
    if(p->sampleIndex >= 4) return CUPTI_ERROR_INVALID_PARAMETER;
    p->startTimestamp = 1000 * p->sampleIndex;
    p->endTimestamp   = 1000 * p->sampleIndex + 1000;
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_evaluate(CUpti_Profiler_Host_EvaluateToGpuValues_Params* p)
{
    if(fake_evaluate_result != CUPTI_SUCCESS) return fake_evaluate_result;
    for(size_t m = 0; m < p->numMetrics; ++m)
        p->pMetricValues[m] = 10.0 * static_cast<double>(p->rangeIndex) + static_cast<double>(m);
    return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI
fake_result_string(CUptiResult result, const char** text)
{
    *text = result == CUPTI_ERROR_NOT_SUPPORTED ? "not supported" : "invalid parameter";
    return CUPTI_SUCCESS;
}

pm::cupti_pm_sampling_table
fake_table()
{
    auto t                                    = pm::cupti_pm_sampling_table{};
    t.cuptiGetResultString                    = fake_result_string;
    t.cuptiPmSamplingGetCounterDataInfo       = fake_info;
    t.cuptiPmSamplingCounterDataGetSampleInfo = fake_sample_info;
    t.cuptiProfilerHostEvaluateToGpuValues    = fake_evaluate;
    return t;
}

const auto image   = std::vector<uint8_t>(64, 0);
const auto metrics = std::vector<std::string>{"smsp__inst_executed.sum", "dram__bytes_read.sum"};
} // namespace

TEST(cuda_pm_sampling, the_samples_of_the_window_with_their_values)
{
    fake_evaluate_result = CUPTI_SUCCESS;
    const auto b = pm::read_samples(fake_table(), nullptr, nullptr, image, metrics, 1500, 2500, {});
    EXPECT_TRUE(b.error.empty()) << b.error;
    // [1000,2000] and [2000,3000] overlap the window; [0,1000] and [3000,4000] do not.
    ASSERT_EQ(b.samples.size(), 2u);
    EXPECT_EQ(b.samples[0].timestamp_ns, 2000u);
    ASSERT_EQ(b.samples[0].values.size(), 2u);
    EXPECT_EQ(b.samples[0].values[0], 10.0);
    EXPECT_EQ(b.samples[0].values[1], 11.0);
    EXPECT_EQ(b.samples[1].values[0], 20.0);
    EXPECT_EQ(b.dropped, 2u); // populated, never completed
}

TEST(cuda_pm_sampling, overflow_or_a_full_image_flags_lost_samples)
{
    fake_evaluate_result    = CUPTI_SUCCESS;
    auto params             = CUpti_PmSampling_DecodeData_Params{};
    params.overflow         = 1;
    params.decodeStopReason = CUPTI_PM_SAMPLING_DECODE_STOP_REASON_END_OF_RECORDS;
    auto s                  = pm::status_of(params);
    EXPECT_TRUE(s.overflow);
    EXPECT_FALSE(s.image_full);
    params.overflow         = 0;
    params.decodeStopReason = CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;
    s                       = pm::status_of(params);
    EXPECT_FALSE(s.overflow);
    EXPECT_TRUE(s.image_full);
    const auto b = pm::read_samples(fake_table(), nullptr, nullptr, image, metrics, 0, 10000, s);
    EXPECT_EQ(b.samples.size(), 4u);
    EXPECT_EQ(b.dropped, 3u);
}

TEST(cuda_pm_sampling, a_cupti_error_ends_the_reading_and_names_the_call)
{
    fake_evaluate_result = CUPTI_ERROR_NOT_SUPPORTED;
    auto b = pm::read_samples(fake_table(), nullptr, nullptr, image, metrics, 0, 10000, {});
    EXPECT_TRUE(b.samples.empty());
    EXPECT_EQ(b.error, "cuptiProfilerHostEvaluateToGpuValues failed: not supported");
    fake_evaluate_result = CUPTI_SUCCESS;
    b                    = pm::read_samples(
        fake_table(), nullptr, nullptr, std::vector<uint8_t>(3), metrics, 0, 1, {});
    EXPECT_EQ(b.error, "cuptiPmSamplingGetCounterDataInfo failed: invalid parameter");
}

TEST(cuda_pm_sampling, a_table_without_libcupti_is_not_loaded)
{
    EXPECT_FALSE(pm::load_table(nullptr).has_value());
}
