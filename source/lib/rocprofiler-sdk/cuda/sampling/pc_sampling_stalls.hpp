// CUPTI's stall reasons (cuptiPCSamplingGetStallReasons: names such as
// "smsp__pcsamp_warps_issue_stalled_long_scoreboard") in rocprofiler's stochastic PC sampling
// record: whether the sampled warp issued, and AMD's not-issued reason that comes closest.
//
// CUPTI counts each sample once under its reason, and counts again, under the reason's
// "_not_issued" twin, the samples of that reason in which the warp scheduler issued nothing (the
// latency samples: a subset, as CUpti_ActivityPCSampling3 documents for `latencySamples`). The
// twins are therefore not samples of their own. The table is in docs/pc_sampling.md.
#pragma once

#include <rocprofiler-sdk/pc_sampling.h>

#include <string_view>

namespace rocprofiler::cuda::pc_sampling
{
struct stall_class
{
    bool is_sample = true;  // false for a "_not_issued" twin: its samples are counted elsewhere
    bool issued    = false; // the warp issued the sampled instruction ("selected")
    rocprofiler_pc_sampling_instruction_not_issued_reason_t reason =
        ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE;
};

// The class of a CUPTI stall reason name, with or without CUPTI's prefix. A name this table does
// not know is a sample that did not issue, for an OTHER_WAIT reason: never dropped.
stall_class classify_stall(std::string_view cupti_name);
} // namespace rocprofiler::cuda::pc_sampling
