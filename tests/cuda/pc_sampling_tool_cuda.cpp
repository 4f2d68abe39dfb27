// pc-sampling-tool-cuda: the PC sampling GPU test's tool. Configures the buffered PC sampling
// service on every agent that offers METHOD_STOCHASTIC (CUDA agents: CUPTI's PC sampling), at
// 2^PC_SAMPLING_EXPONENT cycles (default 12), and prints at finalization:
//   RESULT pc_sampling agents=<sampled agents> samples=<n> dispatches=<n> top8_fraction=<f>
//          issued=<n> not_issued=<n> reasons=<n> not_issued_without_reason=<n>
//          other_record_kinds=<n>
// where top8_fraction is the share of samples on the 8 most sampled PCs (code object, offset),
// issued/not_issued split the stochastic records by wave_issued, and reasons counts the distinct
// not-issued reasons seen.
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

namespace
{
struct tool_state
{
    std::mutex                                        mutex       = {};
    rocprofiler_context_id_t                          context     = {};
    rocprofiler_buffer_id_t                           buffer      = {};
    std::vector<rocprofiler_agent_id_t>               agents      = {};
    std::map<std::pair<uint64_t, uint64_t>, uint64_t> pcs         = {};
    std::set<uint64_t>                                dispatches  = {};
    uint64_t                                          samples     = 0;
    uint32_t                                          sampled     = 0;
    uint64_t                                          issued      = 0;
    uint64_t                                          other_kinds = 0;
    std::map<uint32_t, uint64_t>                      reasons     = {}; // not issued, by reason
};

tool_state&
state()
{
    static auto* value = new tool_state{};
    return *value;
}

rocprofiler_status_t
agents_callback(rocprofiler_agent_version_t, const void** agents, size_t count, void*)
{
    for(size_t i = 0; i < count; ++i)
        state().agents.push_back(static_cast<const rocprofiler_agent_v0_t*>(agents[i])->id);
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
configs_callback(const rocprofiler_pc_sampling_configuration_t* configs, size_t count, void* found)
{
    for(size_t i = 0; i < count; ++i)
        if(configs[i].method == ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC)
            *static_cast<bool*>(found) = true;
    return ROCPROFILER_STATUS_SUCCESS;
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        count,
                void*,
                uint64_t)
{
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    for(size_t i = 0; i < count; ++i)
    {
        if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING) continue;
        // The method is stochastic: every sample must come as a stochastic record.
        if(headers[i]->kind != ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE)
        {
            ++st.other_kinds;
            continue;
        }
        const auto* r =
            static_cast<const rocprofiler_pc_sampling_record_stochastic_v0_t*>(headers[i]->payload);
        ++st.pcs[{r->pc.code_object_id, r->pc.code_object_offset}];
        st.dispatches.insert(r->dispatch_id);
        ++st.samples;
        if(r->wave_issued != 0)
            ++st.issued;
        else
            ++st.reasons[r->snapshot.reason_not_issued];
    }
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    auto& st       = state();
    auto  exponent = 12u;
    if(const char* env = std::getenv("PC_SAMPLING_EXPONENT"))
        exponent = static_cast<unsigned>(std::strtoul(env, nullptr, 10));
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0, agents_callback, sizeof(rocprofiler_agent_v0_t), nullptr);
    rocprofiler_create_context(&st.context);
    rocprofiler_create_buffer(st.context,
                              1 << 20,
                              1 << 19,
                              ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                              buffer_callback,
                              nullptr,
                              &st.buffer);
    for(auto agent : st.agents)
    {
        auto found = false;
        rocprofiler_query_pc_sampling_agent_configurations(agent, configs_callback, &found);
        if(!found) continue;
        const auto status =
            rocprofiler_configure_pc_sampling_service(st.context,
                                                      agent,
                                                      ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC,
                                                      ROCPROFILER_PC_SAMPLING_UNIT_CYCLES,
                                                      uint64_t{1} << exponent,
                                                      st.buffer,
                                                      0);
        if(status == ROCPROFILER_STATUS_SUCCESS)
            ++st.sampled;
        else
            std::fprintf(stderr, "pc-sampling-tool-cuda: configure failed: %d\n", status);
    }
    rocprofiler_start_context(st.context);
    return 0;
}

void
tool_fini(void*)
{
    auto& st = state();
    rocprofiler_flush_buffer(st.buffer);
    auto lk     = std::lock_guard{st.mutex};
    auto counts = std::vector<uint64_t>{};
    auto by_pc  = std::vector<std::pair<uint64_t, uint64_t>>{}; // (samples, offset)
    for(const auto& [pc, n] : st.pcs)
    {
        counts.push_back(n);
        by_pc.emplace_back(n, pc.second);
    }
    std::sort(counts.begin(), counts.end(), std::greater<>{});
    // The most sampled PCs, for reading a failure against the kernel's SASS.
    std::sort(by_pc.begin(), by_pc.end(), std::greater<>{});
    std::printf("pc-sampling-tool-cuda: top PCs (offset:samples)");
    for(size_t i = 0; i < by_pc.size() && i < 16; ++i)
        std::printf(" 0x%llx:%llu",
                    static_cast<unsigned long long>(by_pc[i].second),
                    static_cast<unsigned long long>(by_pc[i].first));
    std::printf("\n");
    uint64_t top = 0;
    for(size_t i = 0; i < counts.size() && i < 8; ++i)
        top += counts[i];
    const double fraction =
        st.samples != 0 ? static_cast<double>(top) / static_cast<double>(st.samples) : 0.0;
    // Samples per not-issued reason (AMD's enumeration, as the SDK maps CUPTI's stall reasons).
    std::printf("pc-sampling-tool-cuda: not issued by reason");
    auto unnamed = uint64_t{0};
    for(const auto& [reason, n] : st.reasons)
    {
        const char* name = rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
            static_cast<rocprofiler_pc_sampling_instruction_not_issued_reason_t>(reason));
        if(name == nullptr || reason == ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE)
            unnamed += n;
        std::printf(" %s:%llu", name != nullptr ? name : "?", static_cast<unsigned long long>(n));
    }
    std::printf("\n");
    std::printf("RESULT pc_sampling agents=%u samples=%llu pcs=%zu dispatches=%zu "
                "top8_fraction=%.3f issued=%llu not_issued=%llu reasons=%zu "
                "not_issued_without_reason=%llu other_record_kinds=%llu\n",
                st.sampled,
                static_cast<unsigned long long>(st.samples),
                st.pcs.size(),
                st.dispatches.size(),
                fraction,
                static_cast<unsigned long long>(st.issued),
                static_cast<unsigned long long>(st.samples - st.issued),
                st.reasons.size(),
                static_cast<unsigned long long>(unnamed),
                static_cast<unsigned long long>(st.other_kinds));
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "pc-sampling-tool-cuda";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}
