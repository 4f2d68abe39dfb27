#include "cuda/sampling/pc_sampling_stalls.hpp"

#include <array>
#include <utility>

namespace rocprofiler::cuda::pc_sampling
{
namespace
{
constexpr std::string_view prefix          = "smsp__pcsamp_warps_issue_stalled_";
constexpr std::string_view not_issued_twin = "_not_issued";

using reason_t = rocprofiler_pc_sampling_instruction_not_issued_reason_t;

// CUPTI's reason (after the prefix) and the closest of AMD's not-issued reasons.
constexpr auto table = std::array<std::pair<std::string_view, reason_t>, 18>{{
    {"not_selected", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN},
    // Waiting on a memory result: L1TEX (global, local, texture), MIO (shared memory, special
    // math), the constant cache; AMD's waves wait on the same in a wait-count wait.
    {"long_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    {"short_scoreboard", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    {"imc_miss", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT},
    // A fixed-latency dependency on an earlier instruction.
    {"wait", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY},
    // Selected, but the pipe or its input queue was busy.
    {"math_pipe_throttle",
     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    {"mio_throttle", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    {"lg_throttle", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    {"tex_throttle", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    {"dispatch_stall", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL},
    {"barrier", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT},
    {"membar", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
    {"drain", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
    {"misc", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT},
    {"sleeping", ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT},
    // Nothing to issue: the instruction was not fetched yet, or a branch is being resolved.
    {"no_instructions",
     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE},
    {"no_instruction",
     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE},
    {"branch_resolving",
     ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE},
}};
} // namespace

stall_class
classify_stall(std::string_view name)
{
    if(name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    auto out = stall_class{};
    if(name.size() >= not_issued_twin.size() &&
       name.substr(name.size() - not_issued_twin.size()) == not_issued_twin)
    {
        out.is_sample = false;
        name.remove_suffix(not_issued_twin.size());
    }
    if(name == "selected")
    {
        out.issued = true;
        return out;
    }
    out.reason = ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT;
    for(const auto& [cupti, reason] : table)
        if(name == cupti) out.reason = reason;
    return out;
}
} // namespace rocprofiler::cuda::pc_sampling
