#include "cuda/sampling/pc_sampling_cupti.hpp"
#include "cuda/sampling/pc_sampling_stalls.hpp"

#include "cuda/interpose/driver.hpp"

#include <rocprofiler-sdk/pc_sampling.h>

#include <algorithm>

namespace rocprofiler::cuda::pc_sampling
{
std::optional<cupti_pc_sampling_table>
load_table(void* handle)
{
    if(handle == nullptr) return std::nullopt;
    auto table = cupti_pc_sampling_table{};
#define ROCP_CUPTI_LOAD(NAME)                                                                      \
    table.NAME = reinterpret_cast<decltype(table.NAME)>(real_dlsym(handle, #NAME));                \
    if(table.NAME == nullptr) return std::nullopt;
    ROCP_CUPTI_PC_SAMPLING_FUNCTIONS(ROCP_CUPTI_LOAD)
#undef ROCP_CUPTI_LOAD
    return table;
}

backend::pc_sampling_configuration
offered_configuration()
{
    auto config         = backend::pc_sampling_configuration{};
    config.method       = ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC;
    config.unit         = ROCPROFILER_PC_SAMPLING_UNIT_CYCLES;
    config.min_interval = uint64_t{1} << min_period_exponent;
    config.max_interval = uint64_t{1} << max_period_exponent;
    config.flags        = ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2;
    return config;
}

std::optional<uint32_t>
period_exponent(uint64_t interval_cycles)
{
    if(interval_cycles == 0 || (interval_cycles & (interval_cycles - 1)) != 0) return std::nullopt;
    auto exponent = uint32_t{0};
    while((uint64_t{1} << exponent) < interval_cycles)
        ++exponent;
    if(exponent < min_period_exponent || exponent > max_period_exponent) return std::nullopt;
    return exponent;
}

decoded_data
decode(const CUpti_PCSamplingData& data)
{
    auto out                 = decoded_data{};
    out.total_samples        = data.totalSamples;
    out.dropped_samples      = data.droppedSamples;
    out.non_user_samples     = data.nonUsrKernelsTotalSamples;
    out.hardware_buffer_full = data.hardwareBufferFull != 0;
    out.remaining_pcs        = data.remainingNumPcs;
    if(data.pPcData == nullptr) return out;
    const auto count = std::min(data.totalNumPcs, data.collectNumPcs);
    for(size_t i = 0; i < count; ++i)
    {
        const auto& pc = data.pPcData[i];
        if(pc.stallReason == nullptr) continue;
        for(size_t r = 0; r < pc.stallReasonCount; ++r)
        {
            auto entry           = decoded_pc{};
            entry.correlation_id = pc.correlationId;
            entry.cubin_crc      = pc.cubinCrc;
            entry.pc_offset      = pc.pcOffset;
            entry.function_index = pc.functionIndex;
            entry.function       = pc.functionName != nullptr ? pc.functionName : "";
            entry.stall_reason   = pc.stallReason[r].pcSamplingStallReasonIndex;
            entry.samples        = pc.stallReason[r].samples;
            if(entry.samples != 0) out.pcs.push_back(std::move(entry));
        }
    }
    return out;
}

std::unordered_map<uint32_t, std::string>
stall_reason_names(const uint32_t* indices, const char* const* names, size_t count)
{
    auto out = std::unordered_map<uint32_t, std::string>{};
    if(indices == nullptr || names == nullptr) return out;
    for(size_t i = 0; i < count; ++i)
        out[indices[i]] = names[i] != nullptr ? names[i] : "";
    return out;
}

uint64_t
append_samples(const decoded_pc& pc, std::string_view stall_name, dispatch::pc_sample_batch& batch)
{
    const auto stall = classify_stall(stall_name);
    if(!stall.is_sample) return 0;
    auto sample              = dispatch::pc_sample{};
    sample.pc                = pc.pc_offset;
    sample.offset            = pc.pc_offset;
    sample.in_kernel         = true;
    sample.wave_issued       = stall.issued;
    sample.not_issued_reason = static_cast<uint8_t>(stall.reason);
    batch.samples.insert(batch.samples.end(), pc.samples, sample);
    return pc.samples;
}

dispatch::pc_sample_batch
to_batch(const decoded_data&                              data,
         const std::unordered_map<uint32_t, std::string>& stall_names,
         uint32_t                                         correlation_id,
         uint64_t                                         timestamp_ns,
         bool                                             owns_drops)
{
    auto batch = dispatch::pc_sample_batch{};
    for(const auto& pc : data.pcs)
    {
        if(pc.correlation_id != correlation_id) continue;
        const auto name = stall_names.find(pc.stall_reason);
        append_samples(pc, name != stall_names.end() ? name->second : std::string_view{}, batch);
    }
    for(auto& sample : batch.samples)
        sample.timestamp_ns = timestamp_ns;
    batch.dropped = owns_drops ? data.dropped_samples : 0;
    return batch;
}

std::unordered_map<uint32_t, uint64_t>
stall_histogram(const decoded_data& data, uint32_t correlation_id)
{
    auto out = std::unordered_map<uint32_t, uint64_t>{};
    for(const auto& pc : data.pcs)
        if(pc.correlation_id == correlation_id) out[pc.stall_reason] += pc.samples;
    return out;
}
} // namespace rocprofiler::cuda::pc_sampling
