// --pc-sampling-*: the buffered PC sampling service on every agent that offers the requested
// method, unit and interval, in a context of its own, and its buffer's callback, which hands each
// sample to the outputs (sinks/sink.hpp, pc_sample) and counts what the buffer dropped.
#include "capture/agents.hpp"
#include "capture/callback_guard.hpp"
#include "capture/tool_state.hpp"
#include "log.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <mutex>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
rocprofiler_pc_sampling_method_t
method_of(const std::string& name)
{
    if(name == "host_trap") return ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP;
    if(name == "stochastic") return ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
    return ROCPROFILER_PC_SAMPLING_METHOD_NONE;
}

rocprofiler_pc_sampling_unit_t
unit_of(const std::string& name)
{
    if(name == "instructions") return ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS;
    if(name == "cycles") return ROCPROFILER_PC_SAMPLING_UNIT_CYCLES;
    if(name == "time") return ROCPROFILER_PC_SAMPLING_UNIT_TIME;
    return ROCPROFILER_PC_SAMPLING_UNIT_NONE;
}

// Whether @p agent offers @p cfg's configuration; false when the query fails.
bool
offers(rocprofiler_agent_id_t agent, const config& cfg)
{
    auto offered = std::vector<rocprofiler_pc_sampling_configuration_t>{};
    if(pc_sampling_configurations(agent, offered) != ROCPROFILER_STATUS_SUCCESS) return false;
    const auto interval = cfg.pc_sampling_interval;
    for(const auto& c : offered)
    {
        if(c.method != method_of(cfg.pc_sampling_method) ||
           c.unit != unit_of(cfg.pc_sampling_unit) || interval < c.min_interval ||
           interval > c.max_interval)
            continue;
        const auto pow2 =
            (c.flags & ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2) != 0;
        if(!pow2 || (interval & (interval - 1)) == 0) return true;
    }
    return false;
}

void
pc_buffer_callback(rocprofiler_context_id_t,
                   rocprofiler_buffer_id_t,
                   rocprofiler_record_header_t** headers,
                   size_t                        num_headers,
                   void*,
                   uint64_t drop_count)
{
    guarded("the PC sampling buffer callback",
            [&]
            {
                auto  lock = std::lock_guard{state->mutex};
                auto& data = state->data;
                for(size_t i = 0; i < num_headers; ++i)
                {
                    const auto* header = headers[i];
                    if(header->category != ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING) continue;
                    if(header->kind == ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE)
                    {
                        state->outputs.pc_sample(
                            data,
                            *static_cast<const rocprofiler_pc_sampling_record_host_trap_v0_t*>(
                                header->payload));
                        ++data.pc_samples_host_trap;
                    }
                    else if(header->kind == ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE)
                    {
                        state->outputs.pc_sample(
                            data,
                            *static_cast<const rocprofiler_pc_sampling_record_stochastic_v0_t*>(
                                header->payload));
                        ++data.pc_samples_stochastic;
                    }
                    else
                    {
                        // An invalid sample (or a kind this tool does not know): not a sample
                        // any output can show, so it counts as dropped.
                        ++data.pc_samples_dropped;
                    }
                }
                state->outputs.batch_end();
                data.pc_samples_dropped += drop_count;
                state->changed = state->changed || num_headers > 0 || drop_count > 0;
            });
}
} // namespace

bool
setup_pc_sampling(const config& cfg, std::vector<std::string>& errors)
{
    {
        auto lock                            = std::lock_guard{state->mutex};
        state->data.pc_instruction_type_name = [](uint32_t value)
        {
            return rocprofiler_get_pc_sampling_instruction_type_name(
                static_cast<rocprofiler_pc_sampling_instruction_type_t>(value));
        };
        state->data.pc_not_issued_reason_name = [](uint32_t value)
        {
            return rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
                static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(value));
        };
    }
    auto all = std::vector<rocprofiler_agent_id_t>{};
    {
        auto lock = std::lock_guard{state->mutex};
        for(const auto& a : state->data.agents)
            all.push_back(a.info.id);
    }
    auto agents = std::vector<rocprofiler_agent_id_t>{};
    for(auto agent : all)
        if(offers(agent, cfg)) agents.push_back(agent);
    if(agents.empty())
    {
        // rocprofv3 checked the agents before the run; this process may see others.
        errors.emplace_back("PC sampling " + cfg.pc_sampling_method + " in " +
                            cfg.pc_sampling_unit + " with interval " +
                            std::to_string(cfg.pc_sampling_interval) +
                            " is not supported on any agent of this process");
        return false;
    }
    auto ok = ROCPROFV3_CALL(rocprofiler_create_context(&state->pc_context)) &&
              ROCPROFV3_CALL(rocprofiler_create_buffer(state->pc_context,
                                                       1U << 20U,
                                                       (1U << 20U) - (1U << 16U),
                                                       ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                       pc_buffer_callback,
                                                       nullptr,
                                                       &state->pc_buffer));
    for(auto agent : agents)
        ok = ok && ROCPROFV3_CALL(
                       rocprofiler_configure_pc_sampling_service(state->pc_context,
                                                                 agent,
                                                                 method_of(cfg.pc_sampling_method),
                                                                 unit_of(cfg.pc_sampling_unit),
                                                                 cfg.pc_sampling_interval,
                                                                 state->pc_buffer,
                                                                 0));
    return ok;
}
} // namespace rocprofiler::tool
