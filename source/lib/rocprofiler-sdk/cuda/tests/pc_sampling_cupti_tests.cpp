// PC sampling on CUDA agents (cuda/sampling/pc_sampling_cupti.hpp), without a GPU: the
// configuration in rocprofiler's units, CUPTI's sampling period, and hand-made CUpti_PCSamplingData
// (parsed format: PCs with their stall reasons and correlation ids) decoded and attributed to
// dispatches.
#include "cuda/sampling/pc_sampling_cupti.hpp"
#include "cuda/sampling/pc_sampling_stalls.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <gtest/gtest.h>

#include <array>
#include <string>
#include <unordered_map>
#include <utility>

namespace ps = rocprofiler::cuda::pc_sampling;

namespace
{
// Two dispatches (CUPTI correlation ids 10 and 11): a hot loop PC of 10 with two stall reasons,
// a cold PC of 10, a PC of 11, an entry without stall reasons, and one past totalNumPcs.
struct hand_made
{
    std::array<CUpti_PCSamplingStallReason, 2> hot   = {{{3, 90}, {7, 6}}};
    std::array<CUpti_PCSamplingStallReason, 1> cold  = {{{3, 4}}};
    std::array<CUpti_PCSamplingStallReason, 1> other = {{{5, 20}}};
    std::array<CUpti_PCSamplingStallReason, 1> late  = {{{5, 1000}}};
    std::array<CUpti_PCSamplingPCData, 5>      pcs   = {};
    CUpti_PCSamplingData                       data  = {};

    hand_made()
    {
        auto pc = [](uint64_t offset, uint32_t corr, auto& reasons)
        {
            auto p             = CUpti_PCSamplingPCData{};
            p.size             = sizeof(p);
            p.cubinCrc         = 0xc0ffee;
            p.pcOffset         = offset;
            p.functionIndex    = 1;
            p.functionName     = const_cast<char*>("_Z8hot_loopPfi");
            p.stallReasonCount = reasons.size();
            p.stallReason      = reasons.data();
            p.correlationId    = corr;
            return p;
        };
        pcs[0]                         = pc(0x80, 10, hot);
        pcs[1]                         = pc(0x200, 10, cold);
        pcs[2]                         = pc(0x40, 11, other);
        pcs[3]                         = pc(0x10, 11, other);
        pcs[3].stallReason             = nullptr;
        pcs[4]                         = pc(0x300, 12, late);
        data.size                      = sizeof(data);
        data.collectNumPcs             = pcs.size();
        data.totalNumPcs               = 4; // the last entry was not filled
        data.remainingNumPcs           = 2;
        data.totalSamples              = 125;
        data.droppedSamples            = 17;
        data.nonUsrKernelsTotalSamples = 5;
        data.hardwareBufferFull        = 1;
        data.pPcData                   = pcs.data();
    }
};
} // namespace

TEST(cuda_pc_sampling, the_offer_is_cuptis_power_of_two_cycle_periods)
{
    const auto c = ps::offered_configuration();
    EXPECT_EQ(c.method, ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC);
    EXPECT_EQ(c.unit, ROCPROFILER_PC_SAMPLING_UNIT_CYCLES);
    EXPECT_EQ(c.min_interval, 32u);
    EXPECT_EQ(c.max_interval, uint64_t{1} << 31);
    EXPECT_EQ(c.flags, uint64_t{ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2});
}

TEST(cuda_pc_sampling, intervals_map_to_cuptis_period_exponent)
{
    EXPECT_EQ(ps::period_exponent(32), 5u);
    EXPECT_EQ(ps::period_exponent(4096), 12u);
    EXPECT_EQ(ps::period_exponent(uint64_t{1} << 31), 31u);
    EXPECT_FALSE(ps::period_exponent(16));
    EXPECT_FALSE(ps::period_exponent(uint64_t{1} << 32));
    EXPECT_FALSE(ps::period_exponent(100));
    EXPECT_FALSE(ps::period_exponent(0));
}

TEST(cuda_pc_sampling, parsed_data_decodes_into_pcs_with_stall_reasons)
{
    auto       made = hand_made{};
    const auto d    = ps::decode(made.data);
    ASSERT_EQ(d.pcs.size(), 4u); // hot x2 reasons, cold, other; the entry without reasons skipped
    EXPECT_EQ(d.pcs[0].pc_offset, 0x80u);
    EXPECT_EQ(d.pcs[0].stall_reason, 3u);
    EXPECT_EQ(d.pcs[0].samples, 90u);
    EXPECT_EQ(d.pcs[1].stall_reason, 7u);
    EXPECT_EQ(d.pcs[0].function, "_Z8hot_loopPfi");
    EXPECT_EQ(d.pcs[0].cubin_crc, 0xc0ffeeu);
    EXPECT_EQ(d.pcs[3].correlation_id, 11u);
    EXPECT_EQ(d.total_samples, 125u);
    EXPECT_EQ(d.dropped_samples, 17u);
    EXPECT_EQ(d.non_user_samples, 5u);
    EXPECT_TRUE(d.hardware_buffer_full);
    EXPECT_EQ(d.remaining_pcs, 2u);
}

// CUPTI's names of the hand-made reasons: 3 stalls on memory, 7 issued, 5 waits on a barrier.
const std::unordered_map<uint32_t, std::string> reason_names = {
    {3, "smsp__pcsamp_warps_issue_stalled_long_scoreboard"},
    {7, "smsp__pcsamp_warps_issue_stalled_selected"},
    {5, "smsp__pcsamp_warps_issue_stalled_barrier"}};

TEST(cuda_pc_sampling, samples_are_attributed_to_their_dispatch_and_drops_counted)
{
    auto       made = hand_made{};
    const auto d    = ps::decode(made.data);
    const auto a    = ps::to_batch(d, reason_names, 10, 5000, true);
    ASSERT_EQ(a.samples.size(), 100u); // 90 + 6 + 4
    auto at_hot = 0;
    for(const auto& s : a.samples)
    {
        EXPECT_TRUE(s.in_kernel);
        EXPECT_EQ(s.pc, s.offset);
        EXPECT_EQ(s.timestamp_ns, 5000u);
        at_hot += s.offset == 0x80;
    }
    EXPECT_EQ(at_hot, 96); // the hot loop dominates
    EXPECT_EQ(a.dropped, 17u);
    const auto b = ps::to_batch(d, reason_names, 11, 5000, false);
    EXPECT_EQ(b.samples.size(), 20u);
    EXPECT_EQ(b.dropped, 0u);
    EXPECT_TRUE(ps::to_batch(d, reason_names, 12, 5000, true).samples.empty()); // past totalNumPcs
    const auto h = ps::stall_histogram(d, 10);
    EXPECT_EQ(h.at(3), 94u);
    EXPECT_EQ(h.at(7), 6u);
}

TEST(cuda_pc_sampling, stall_reason_names_come_from_cuptis_parallel_arrays)
{
    const uint32_t    indices[] = {3, 7};
    const char* const names[]   = {"smsp__pcsamp_warps_issue_stalled_long_scoreboard",
                                   "smsp__pcsamp_warps_issue_stalled_selected"};
    const auto        map       = ps::stall_reason_names(indices, names, 2);
    EXPECT_EQ(map.at(7), "smsp__pcsamp_warps_issue_stalled_selected");
    EXPECT_TRUE(ps::stall_reason_names(nullptr, names, 2).empty());
}

TEST(cuda_pc_sampling, a_table_without_libcupti_is_not_loaded)
{
    EXPECT_FALSE(ps::load_table(nullptr).has_value());
}

TEST(cuda_pc_sampling, samples_carry_whether_the_warp_issued_and_why_not)
{
    auto       made   = hand_made{};
    const auto d      = ps::decode(made.data);
    const auto a      = ps::to_batch(d, reason_names, 10, 5000, true);
    auto       issued = 0;
    auto       memory = 0;
    for(const auto& s : a.samples)
    {
        if(s.wave_issued)
        {
            ++issued;
            EXPECT_EQ(s.not_issued_reason,
                      ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE);
        }
        else
        {
            EXPECT_EQ(s.not_issued_reason,
                      ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT);
            ++memory;
        }
    }
    EXPECT_EQ(issued, 6);  // reason 7, "selected"
    EXPECT_EQ(memory, 94); // reason 3 at the hot and the cold PC
    for(const auto& s : ps::to_batch(d, reason_names, 11, 5000, false).samples)
        EXPECT_EQ(s.not_issued_reason,
                  ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT);
}

TEST(cuda_pc_sampling, not_issued_twins_are_subsets_not_samples_of_their_own)
{
    // 90 samples stalled on memory, 60 of them while the scheduler issued nothing: 90 samples.
    auto twin_reasons   = std::array<CUpti_PCSamplingStallReason, 2>{{{3, 90}, {4, 60}}};
    auto pc             = CUpti_PCSamplingPCData{};
    pc.size             = sizeof(pc);
    pc.pcOffset         = 0x80;
    pc.correlationId    = 10;
    pc.stallReasonCount = twin_reasons.size();
    pc.stallReason      = twin_reasons.data();
    auto data           = CUpti_PCSamplingData{};
    data.size           = sizeof(data);
    data.collectNumPcs  = 1;
    data.totalNumPcs    = 1;
    data.totalSamples   = 90;
    data.pPcData        = &pc;
    auto names          = reason_names;
    names[4]            = "smsp__pcsamp_warps_issue_stalled_long_scoreboard_not_issued";
    const auto batch    = ps::to_batch(ps::decode(data), names, 10, 1, true);
    EXPECT_EQ(batch.samples.size(), 90u);
}

TEST(cuda_pc_sampling, every_cupti_stall_reason_has_a_class)
{
    using ps::classify_stall;
    EXPECT_TRUE(classify_stall("smsp__pcsamp_warps_issue_stalled_selected").issued);
    EXPECT_TRUE(classify_stall("selected").issued);
    EXPECT_FALSE(classify_stall("smsp__pcsamp_warps_issue_stalled_selected_not_issued").is_sample);
    const std::pair<const char*, rocprofiler_pc_sampling_instruction_not_issued_reason_t> cases[] =
        {
            {"not_selected", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN},
            {"long_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
            {"short_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
            {"wait", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY},
            {"math_pipe_throttle",
             ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
            {"barrier", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT},
            {"sleeping", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT},
            {"no_instructions",
             ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE},
            {"branch_resolving",
             ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE},
            {"a_reason_of_a_later_chip",
             ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
            {"", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
        };
    for(const auto& [name, reason] : cases)
    {
        const auto full = std::string{"smsp__pcsamp_warps_issue_stalled_"} + name;
        EXPECT_EQ(classify_stall(full).reason, reason) << full;
        EXPECT_TRUE(classify_stall(full).is_sample) << full;
        EXPECT_FALSE(classify_stall(full).issued) << full;
        EXPECT_EQ(classify_stall(full + "_not_issued").reason, reason) << full;
        EXPECT_FALSE(classify_stall(full + "_not_issued").is_sample) << full;
    }
}
