#include "dispatch/pc_sampling.hpp"

#include "buffer/buffer.hpp"
#include "code_object/code_object.hpp"
#include "common/logging.hpp"

#include <cstdint>
#include <string>

namespace rocprofiler::dispatch
{
namespace
{
// hw_id's compute unit field is 4 bits wide: an execution unit beyond it is not named rather
// than named wrongly.
constexpr uint32_t cu_field_limit = 16;

void
report(const pc_sample_batch& batch, uint64_t dispatch_id)
{
    if(!batch.error.empty())
        common::log::warn_once(
            "pc_sampling.not_sampled",
            "PC sampling: dispatch " + std::to_string(dispatch_id) +
                " was not sampled (later ones may not be either): " + batch.error);
    // Every lost sample is reported, per dispatch: a profile missing samples must say so.
    if(batch.dropped != 0)
        ROCP_LOG(warning) << "PC sampling: " << batch.dropped << " sample(s) of dispatch "
                          << dispatch_id
                          << " were dropped (the backend lost them: a full sample ring or hardware "
                             "buffer); the dispatch's "
                             "profile under-counts them";
}
} // namespace

rocprofiler_pc_sampling_record_host_trap_v0_t
make_host_trap_record(const pc_sample& sample, const pc_sample_origin& origin)
{
    auto record = rocprofiler_pc_sampling_record_host_trap_v0_t{};
    record.size = sizeof(record);
    if(sample.worker < cu_field_limit) record.hw_id.cu_or_wgp_id = sample.worker;
    if(sample.in_kernel && origin.code_object_id != ROCPROFILER_CODE_OBJECT_ID_NONE)
        record.pc = {origin.code_object_id, sample.offset};
    else
        record.pc = {ROCPROFILER_CODE_OBJECT_ID_NONE, sample.pc};
    // One work-item runs per execution unit at a time (wave_front_size 1): its one lane is active.
    record.exec_mask      = 1;
    record.timestamp      = sample.timestamp_ns;
    record.dispatch_id    = origin.dispatch_id;
    record.correlation_id = origin.correlation_id;
    return record;
}

rocprofiler_pc_sampling_record_stochastic_v0_t
make_stochastic_record(const pc_sample& sample, const pc_sample_origin& origin)
{
    const auto trap   = make_host_trap_record(sample, origin);
    auto       record = rocprofiler_pc_sampling_record_stochastic_v0_t{};
    record.size       = sizeof(record);
    record.hw_id      = trap.hw_id;
    record.pc         = trap.pc;
    // A stochastic sample names one wave, not its lanes: the backends that sample this way (CUPTI)
    // give no lane mask, so none is claimed.
    record.exec_mask      = 0;
    record.timestamp      = trap.timestamp;
    record.dispatch_id    = trap.dispatch_id;
    record.correlation_id = trap.correlation_id;
    record.wave_issued    = sample.wave_issued ? 1 : 0;
    record.inst_type      = ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE;
    record.snapshot.reason_not_issued =
        sample.wave_issued ? uint32_t{ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE}
                           : uint32_t{sample.not_issued_reason} & 0xfu;
    return record;
}

std::shared_ptr<const pc_sampling_request>
pc_sampling_request_for(const logical_dispatch&                                          dispatch,
                        const std::function<rocprofiler_user_data_t(context::context&)>& external)
{
    auto request = std::shared_ptr<pc_sampling_request>{};
    context::for_each(
        [&](context::context& ctx)
        {
            // Global state only: agent-wide services ignore the replay engine's local mask.
            if(request || !ctx.active.load(std::memory_order_acquire) ||
               ctx.tool_threw.load(std::memory_order_acquire))
                return;
            for(const auto& svc : ctx.pc_sampling)
            {
                if(svc.agent.handle != dispatch.info.agent_id.handle) continue;
                auto origin = pc_sample_origin{};
                origin.code_object_id =
                    code_object::code_object_of(dispatch.info.agent_id, dispatch.info.kernel_id);
                origin.dispatch_id    = dispatch.info.dispatch_id;
                origin.correlation_id = {dispatch.internal_id, external(ctx)};
                request               = std::make_shared<pc_sampling_request>();
                request->method       = svc.method;
                request->unit         = svc.unit;
                request->interval     = svc.interval;
                // The record kind follows the method: host-trap samples carry no stall state,
                // stochastic ones do.
                const bool stochastic = svc.method == ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
                request->deliver =
                    [buffer = svc.buffer, origin, stochastic](const pc_sample_batch& batch)
                {
                    report(batch, origin.dispatch_id);
                    // Samples the backend lost reach the tool as its buffer's drop_count, so a
                    // tool's own tally of lost samples is complete.
                    if(batch.dropped != 0) buffer::count_lost(buffer, batch.dropped);
                    for(const auto& sample : batch.samples)
                    {
                        if(stochastic)
                            buffer::emplace(buffer,
                                            ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING,
                                            ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE,
                                            make_stochastic_record(sample, origin));
                        else
                            buffer::emplace(buffer,
                                            ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING,
                                            ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE,
                                            make_host_trap_record(sample, origin));
                    }
                };
                return;
            }
        });
    return request;
}
} // namespace rocprofiler::dispatch
