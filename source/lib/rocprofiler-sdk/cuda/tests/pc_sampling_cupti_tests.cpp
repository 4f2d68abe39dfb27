// PC sampling on CUDA agents (cuda/pc_sampling_cupti.hpp), without a GPU: the configuration in
// rocprofiler's units, CUPTI's sampling period, and hand-made CUpti_PCSamplingData (parsed
// format: PCs with their stall reasons and correlation ids) decoded and attributed to dispatches.
#include "cuda/pc_sampling_cupti.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <gtest/gtest.h>

#include <array>

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

TEST(cuda_pc_sampling, samples_are_attributed_to_their_dispatch_and_drops_counted)
{
    auto       made = hand_made{};
    const auto d    = ps::decode(made.data);
    const auto a    = ps::to_batch(d, 10, 5000, true);
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
    const auto b = ps::to_batch(d, 11, 5000, false);
    EXPECT_EQ(b.samples.size(), 20u);
    EXPECT_EQ(b.dropped, 0u);
    EXPECT_TRUE(ps::to_batch(d, 12, 5000, true).samples.empty()); // past totalNumPcs
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
