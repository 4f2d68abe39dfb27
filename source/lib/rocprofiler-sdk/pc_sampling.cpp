// C entry points of pc_sampling.h. The policy is here and in dispatch/pc_sampling.cpp: which
// configurations an agent offers (its backend says, backend/device_backend.hpp), what a valid
// request is, and which context samples. Taking samples is the backend's. Agents whose backend
// offers no configuration (CUDA devices, for now) answer as before: an empty list, and
// ERROR_NOT_AVAILABLE with one warning per process.
#include "agent/agent.hpp"
#include "backend/device_backend.hpp"
#include "buffer/buffer.hpp"
#include "common/api_guard.hpp"
#include "common/logging.hpp"
#include "context/context.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <array>
#include <string>
#include <vector>

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

namespace rp = rocprofiler;

std::vector<rp::backend::pc_sampling_configuration>
offered_configurations(rocprofiler_agent_id_t agent_id)
{
    auto owner = rp::agent::backend_of(agent_id);
    if(!owner) return {};
    return owner->first->pc_sampling_configurations_of(owner->second);
}

// The service that samples an agent, in whichever context holds it, or nullptr.
const rp::context::pc_sampling_service*
configured_service(rocprofiler_agent_id_t agent_id)
{
    const rp::context::pc_sampling_service* found = nullptr;
    rp::context::for_each(
        [&](rp::context::context& ctx)
        {
            for(const auto& svc : ctx.pc_sampling)
                if(found == nullptr && svc.agent.handle == agent_id.handle) found = &svc;
        });
    return found;
}

bool
holds_pc_sampling(const rp::context::context& ctx)
{
    return !ctx.pc_sampling.empty();
}

bool
is_power_of_two(uint64_t value)
{
    return value != 0 && (value & (value - 1)) == 0;
}
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
        if(rp::agent::find(agent_id) == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        auto configs = std::vector<rocprofiler_pc_sampling_configuration_t>{};
        for(const auto& offered : offered_configurations(agent_id))
        {
            auto config         = rocprofiler_pc_sampling_configuration_t{};
            config.size         = sizeof(config);
            config.method       = offered.method;
            config.unit         = offered.unit;
            config.min_interval = offered.min_interval;
            config.max_interval = offered.max_interval;
            config.flags        = offered.flags;
            configs.emplace_back(config);
        }
        // Once the agent is sampled, only the configuration in use is offered, with its interval
        // as both bounds: a second tool sees what it may share rather than what it may not get.
        if(const auto* svc = configured_service(agent_id); svc != nullptr && !configs.empty())
        {
            auto config         = configs.front();
            config.method       = svc->method;
            config.unit         = svc->unit;
            config.min_interval = svc->interval;
            config.max_interval = svc->interval;
            configs             = {config};
        }
        // An agent that offers none gets the callback all the same, with no configuration: the
        // tool learns it there, as rocprofiler-sdk documents.
        return cb(configs.empty() ? nullptr : configs.data(), configs.size(), user_data);
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
        ROCP_API_GUARD_BEGIN(void) flags;
        auto* ctx = static_cast<rp::context::context*>(nullptr);
        ROCP_RETURN_IF_ERROR(rp::registration::configurable_context(context_id, &ctx));
        const auto* agent = rp::agent::find(agent_id);
        if(agent == nullptr) return ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND;
        if(!rp::buffer::exists(buffer_id)) return ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND;
        if(method <= ROCPROFILER_PC_SAMPLING_METHOD_NONE ||
           method >= ROCPROFILER_PC_SAMPLING_METHOD_LAST ||
           unit <= ROCPROFILER_PC_SAMPLING_UNIT_NONE || unit >= ROCPROFILER_PC_SAMPLING_UNIT_LAST)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        const auto offered    = offered_configurations(agent_id);
        const auto agent_name = std::string{agent->name != nullptr ? agent->name : "?"} +
                                " (agent " + std::to_string(agent_id.handle) + ")";
        if(offered.empty())
        {
            rp::common::log::warn_once(
                "pc_sampling.not_available",
                "PC sampling is not available on " + agent_name +
                    ": the agent offers no PC sampling configuration; "
                    "rocprofiler_configure_pc_sampling_service returns ERROR_NOT_AVAILABLE");
            return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        }
        const rp::backend::pc_sampling_configuration* match = nullptr;
        for(const auto& config : offered)
            if(config.method == method && config.unit == unit) match = &config;
        // A method or unit the agent does not offer is a missing feature, not a malformed value.
        if(match == nullptr) return ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE;
        if(interval < match->min_interval || interval > match->max_interval)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if((match->flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0 &&
           !is_power_of_two(interval))
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        // As in rocprofiler-sdk: PC sampling and counter collection (dispatch or device
        // counting) do not share a context.
        if(ctx->dispatch_counter || ctx->device_counter)
            return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;
        for(const auto& svc : ctx->pc_sampling)
            if(svc.agent.handle == agent_id.handle)
                return ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED;
        // One context of the process holds PC sampling (one service per agent).
        auto other_holder = false;
        rp::context::for_each(
            [&](rp::context::context& itr)
            { other_holder = other_holder || (&itr != ctx && holds_pc_sampling(itr)); });
        if(other_holder) return ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT;

        auto svc     = rp::context::pc_sampling_service{};
        svc.agent    = agent_id;
        svc.method   = method;
        svc.unit     = unit;
        svc.interval = interval;
        svc.buffer   = buffer_id;
        ctx->pc_sampling.emplace_back(svc);
        return ROCPROFILER_STATUS_SUCCESS;
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
