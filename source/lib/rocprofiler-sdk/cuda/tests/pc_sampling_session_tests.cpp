// PC sampling around one execution on a CUDA agent (cuda/sampling/pc_sampling_session.hpp), without
// a GPU: a fake CUPTI PC Sampling table records the calls in order and fills the caller's buffers
// by hand, so that the order of CUPTI's calls, the configuration, the samples of several reads, the
// drops and CUPTI's error codes are checked.
#include "cuda/sampling/pc_sampling_session.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace ps = rocprofiler::cuda::pc_sampling;

namespace
{
struct fake_state
{
    std::vector<std::string>                       calls         = {};
    std::vector<CUpti_PCSamplingConfigurationInfo> attributes    = {};
    CUptiResult                                    enable_result = CUPTI_SUCCESS;
    CUptiResult                                    config_result = CUPTI_SUCCESS;
    CUptiResult                                    get_result    = CUPTI_SUCCESS;
    int                                            reads         = 0;
    CUcontext                                      ctx           = nullptr;
};

fake_state state = {};

CUptiResult
fake_result_string(CUptiResult, const char** str)
{
    *str = "fake CUPTI error";
    return CUPTI_SUCCESS;
}

CUptiResult
fake_num(CUpti_PCSamplingGetNumStallReasonsParams* p)
{
    state.calls.emplace_back("GetNumStallReasons");
    *p->numStallReasons = 2;
    return CUPTI_SUCCESS;
}

CUptiResult
fake_reasons(CUpti_PCSamplingGetStallReasonsParams* p)
{
    state.calls.emplace_back("GetStallReasons");
    const char* names[] = {"smsp__pcsamp_warps_issue_stalled_barrier",
                           "smsp__pcsamp_warps_issue_stalled_long_scoreboard"};
    for(size_t i = 0; i < p->numStallReasons; ++i)
    {
        p->stallReasonIndex[i] = static_cast<uint32_t>(10 + i);
        std::strncpy(p->stallReasons[i], names[i], CUPTI_STALL_REASON_STRING_SIZE - 1);
    }
    return CUPTI_SUCCESS;
}

CUptiResult
fake_config(CUpti_PCSamplingConfigurationInfoParams* p)
{
    state.calls.emplace_back("SetConfigurationAttribute");
    state.ctx = p->ctx;
    state.attributes.assign(p->pPCSamplingConfigurationInfo,
                            p->pPCSamplingConfigurationInfo + p->numAttributes);
    return state.config_result;
}

CUptiResult
fake_enable(CUpti_PCSamplingEnableParams* p)
{
    state.calls.emplace_back("Enable");
    EXPECT_EQ(p->size, CUpti_PCSamplingEnableParamsSize);
    return state.enable_result;
}

CUptiResult
fake_disable(CUpti_PCSamplingDisableParams*)
{
    state.calls.emplace_back("Disable");
    return CUPTI_SUCCESS;
}

CUptiResult
fake_start(CUpti_PCSamplingStartParams*)
{
    state.calls.emplace_back("Start");
    return CUPTI_SUCCESS;
}

CUptiResult
fake_stop(CUpti_PCSamplingStopParams*)
{
    state.calls.emplace_back("Stop");
    return CUPTI_SUCCESS;
}

// Two reads: the first with a hot PC (offset 0x80: 90 samples at reason 10, 6 at reason 11) and
// one more PC left in CUPTI; the second with a cold PC (offset 0x40: 4 samples) and 3 dropped.
CUptiResult
fake_get(CUpti_PCSamplingGetDataParams* p)
{
    state.calls.emplace_back("GetData");
    if(state.get_result != CUPTI_SUCCESS) return state.get_result;
    auto* data = static_cast<CUpti_PCSamplingData*>(p->pcSamplingData);
    EXPECT_GE(data->collectNumPcs, 1u);
    auto& pc         = data->pPcData[0];
    pc.correlationId = 77;
    pc.functionName  = const_cast<char*>("_Z8hot_loopPfi");
    if(state.reads++ == 0)
    {
        pc.pcOffset           = 0x80;
        pc.stallReasonCount   = 2;
        pc.stallReason[0]     = {10, 90};
        pc.stallReason[1]     = {11, 6};
        data->totalNumPcs     = 1;
        data->remainingNumPcs = 1;
        data->totalSamples    = 96;
    }
    else
    {
        pc.pcOffset           = 0x40;
        pc.stallReasonCount   = 1;
        pc.stallReason[0]     = {10, 4};
        data->totalNumPcs     = 1;
        data->remainingNumPcs = 0;
        data->droppedSamples  = 3;
        data->totalSamples    = 7;
    }
    return CUPTI_SUCCESS;
}

ps::cupti_pc_sampling_table
fake_table()
{
    state                                      = fake_state{};
    auto t                                     = ps::cupti_pc_sampling_table{};
    t.cuptiGetResultString                     = fake_result_string;
    t.cuptiPCSamplingGetNumStallReasons        = fake_num;
    t.cuptiPCSamplingGetStallReasons           = fake_reasons;
    t.cuptiPCSamplingSetConfigurationAttribute = fake_config;
    t.cuptiPCSamplingEnable                    = fake_enable;
    t.cuptiPCSamplingDisable                   = fake_disable;
    t.cuptiPCSamplingStart                     = fake_start;
    t.cuptiPCSamplingStop                      = fake_stop;
    t.cuptiPCSamplingGetData                   = fake_get;
    return t;
}

const CUpti_PCSamplingConfigurationInfo*
find(CUpti_PCSamplingConfigurationAttributeType type)
{
    for(const auto& a : state.attributes)
        if(a.attributeType == type) return &a;
    return nullptr;
}
} // namespace

TEST(cuda_pc_sampling_session, calls_cupti_in_order_and_delivers_every_read)
{
    const auto table = fake_table();
    auto*      ctx   = reinterpret_cast<CUcontext>(0x1234);
    auto       s     = ps::session{table, ctx, 1u << 10};
    ASSERT_TRUE(s.start()) << s.error();
    EXPECT_EQ(state.ctx, ctx);
    const auto batch    = s.finish(5000);
    const auto expected = std::vector<std::string>{"Enable",
                                                   "GetNumStallReasons",
                                                   "GetStallReasons",
                                                   "SetConfigurationAttribute",
                                                   "Start",
                                                   "Stop",
                                                   "GetData",
                                                   "GetData",
                                                   "Disable"};
    EXPECT_EQ(state.calls, expected);

    const auto* period = find(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD);
    ASSERT_NE(period, nullptr);
    EXPECT_EQ(period->attributeData.samplingPeriodData.samplingPeriod, 10u);
    const auto* mode = find(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_COLLECTION_MODE);
    ASSERT_NE(mode, nullptr);
    EXPECT_EQ(mode->attributeData.collectionModeData.collectionMode,
              CUPTI_PC_SAMPLING_COLLECTION_MODE_KERNEL_SERIALIZED);
    const auto* control = find(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_ENABLE_START_STOP_CONTROL);
    ASSERT_NE(control, nullptr);
    EXPECT_EQ(control->attributeData.enableStartStopControlData.enableStartStopControl, 1u);
    const auto* reasons = find(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_STALL_REASON);
    ASSERT_NE(reasons, nullptr);
    EXPECT_EQ(reasons->attributeData.stallReasonData.stallReasonCount, 2u);
    EXPECT_NE(find(CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_DATA_BUFFER), nullptr);

    EXPECT_TRUE(batch.error.empty()) << batch.error;
    ASSERT_EQ(batch.samples.size(), 100u);
    EXPECT_EQ(batch.dropped, 3u);
    auto hot     = size_t{0};
    auto barrier = size_t{0};
    for(const auto& sample : batch.samples)
    {
        EXPECT_TRUE(sample.in_kernel);
        EXPECT_EQ(sample.timestamp_ns, 5000u);
        EXPECT_FALSE(sample.wave_issued);
        if(sample.offset == 0x80) ++hot;
        // Each sample carries its reason's class: index 10 is the barrier, 11 memory.
        if(sample.not_issued_reason ==
           ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT)
            ++barrier;
        else
            EXPECT_EQ(sample.not_issued_reason,
                      ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT);
    }
    EXPECT_EQ(hot, 96u);
    EXPECT_EQ(barrier, 94u);
    EXPECT_EQ(s.stall_histogram().at(10), 94u);
    EXPECT_EQ(s.stall_histogram().at(11), 6u);
    EXPECT_EQ(s.stall_names().at(11), "smsp__pcsamp_warps_issue_stalled_long_scoreboard");
}

TEST(cuda_pc_sampling_session, unsupported_device_reports_cupti_error)
{
    const auto table    = fake_table();
    state.enable_result = CUPTI_ERROR_NOT_SUPPORTED;
    auto s              = ps::session{table, nullptr, 1u << 10};
    EXPECT_FALSE(s.start());
    const auto batch = s.finish(1);
    EXPECT_EQ(state.calls, std::vector<std::string>{"Enable"}); // nothing to disable
    EXPECT_TRUE(batch.samples.empty());
    EXPECT_NE(batch.error.find("cuptiPCSamplingEnable"), std::string::npos) << batch.error;
}

TEST(cuda_pc_sampling_session, failed_configuration_disables_again)
{
    const auto table    = fake_table();
    state.config_result = CUPTI_ERROR_INVALID_PARAMETER;
    auto s              = ps::session{table, nullptr, 1u << 10};
    EXPECT_FALSE(s.start());
    const auto expected = std::vector<std::string>{
        "Enable", "GetNumStallReasons", "GetStallReasons", "SetConfigurationAttribute", "Disable"};
    EXPECT_EQ(state.calls, expected);
    EXPECT_NE(s.finish(1).error.find("cuptiPCSamplingSetConfigurationAttribute"),
              std::string::npos);
}

TEST(cuda_pc_sampling_session, interval_not_a_power_of_two_calls_nothing)
{
    const auto table = fake_table();
    auto       s     = ps::session{table, nullptr, 1000};
    EXPECT_FALSE(s.start());
    EXPECT_TRUE(state.calls.empty());
    EXPECT_FALSE(s.finish(1).error.empty());
}

TEST(cuda_pc_sampling_session, full_hardware_buffer_is_reported_not_hidden)
{
    const auto table = fake_table();
    state.get_result = CUPTI_ERROR_OUT_OF_MEMORY;
    auto s           = ps::session{table, nullptr, 1u << 10};
    ASSERT_TRUE(s.start());
    const auto batch = s.finish(1);
    EXPECT_EQ(state.calls.back(), "Disable");
    EXPECT_TRUE(batch.samples.empty());
    EXPECT_TRUE(batch.error.empty()); // the range was sampled; its loss is logged
}
