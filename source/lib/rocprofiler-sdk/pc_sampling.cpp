// C entry points of pc_sampling.h. No agent offers PC sampling yet (CUPTI PC sampling on CUDA
// devices and sampling of the host device's worker threads are still to come), so the query
// reports an empty list and configuring answers ERROR_NOT_AVAILABLE once its arguments are
// checked, with one warning per process.
#include "agent/agent.hpp"
#include "buffer/buffer.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <array>
#include <string>

namespace
{
constexpr auto instruction_type_names =
    std::array<const char*, ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST>{
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MATRIX",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_SCALAR",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS_DIRECT",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_FLAT",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_EXPORT",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MESSAGE",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_TAKEN",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_JUMP",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_OTHER",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU",
    };

constexpr auto not_issued_reason_names =
    std::array<const char*, ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST>{
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_INTERNAL_INSTRUCTION",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT",
        "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT",
    };
} // namespace

extern "C"
{
    rocprofiler_status_t rocprofiler_query_pc_sampling_agent_configurations(
        rocprofiler_agent_id_t                                agent_id,
        rocprofiler_available_pc_sampling_configurations_cb_t cb,
        void*                                                 user_data)
    {
        ROCP_API_GUARD_BEGIN
        if(cb == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(rocprofiler::agent::find(agent_id) == nullptr)
            return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        // As the API documents for an agent without PC sampling: the callback is called once
        // with no configuration, and its status is the query's.
        return cb(nullptr, 0, user_data);
        ROCP_API_GUARD_END("rocprofiler_query_pc_sampling_agent_configurations")
    }

    rocprofiler_status_t
    rocprofiler_configure_pc_sampling_service(rocprofiler_context_id_t         context_id,
                                              rocprofiler_agent_id_t           agent_id,
                                              rocprofiler_pc_sampling_method_t method,
                                              rocprofiler_pc_sampling_unit_t   unit,
                                              uint64_t                         interval,
                                              rocprofiler_buffer_id_t          buffer_id,
                                              int                              flags)
    {
        ROCP_API_GUARD_BEGIN
        namespace rp = rocprofiler;
        (void)interval;
        (void)flags;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        if(method <= ROCPROFILER_PC_SAMPLING_METHOD_NONE ||
           method >= ROCPROFILER_PC_SAMPLING_METHOD_LAST ||
           unit <= ROCPROFILER_PC_SAMPLING_UNIT_NONE || unit >= ROCPROFILER_PC_SAMPLING_UNIT_LAST)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        rp::common::log::warn_once(
            "pc_sampling.not_available",
            std::string{"PC sampling is not available on "} +
                (agent->name != nullptr ? agent->name : "?") + " (agent " +
                std::to_string(agent_id.handle) +
                "): no agent offers a PC sampling configuration yet; "
                "rocprofiler_configure_pc_sampling_service returns ERROR_NOT_AVAILABLE");
        return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        ROCP_API_GUARD_END("rocprofiler_configure_pc_sampling_service")
    }

    const char* rocprofiler_get_pc_sampling_instruction_type_name(
        rocprofiler_pc_sampling_instruction_type_t instruction_type)
    {
        const auto index = static_cast<size_t>(instruction_type);
        return index < instruction_type_names.size() ? instruction_type_names[index] : nullptr;
    }

    const char* rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
        rocprofiler_pc_sampling_instruction_not_issued_reason_t not_issued_reason)
    {
        const auto index = static_cast<size_t>(not_issued_reason);
        return index < not_issued_reason_names.size() ? not_issued_reason_names[index] : nullptr;
    }
}
