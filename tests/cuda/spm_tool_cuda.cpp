// spm-tool-cuda: the SPM GPU test's tool (docs/cuda.md, *SPM*). On every agent that offers SPM
// (CUDA agents: CUPTI's PM sampling API) it picks one counter the agent samples (SPM_COUNTER, else
// the first of a list of instruction counts, else the first `.sum` counter), and then, per
// dispatch of the program's identical launches, either samples it over time (even dispatch ids:
// the callback SPM dispatch service) or counts it once (odd ids: the dispatch counting service).
// A `.sum` counter's samples are the counts of their intervals, so each sampled dispatch's samples
// add up to what counting gives for the same launch. At finalization it prints:
//   RESULT spm agents=<n> counter=<name> sampled=<dispatches> samples=<n> data_loss=<batches>
//          ends=<DISPATCH_END calls> counted=<dispatches> spm_sum=<median> counted_sum=<median>
//          ratio=<spm_sum / counted_sum>
#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace
{
struct tool_state
{
    std::mutex                          mutex        = {};
    rocprofiler_context_id_t            context      = {};
    std::vector<rocprofiler_agent_id_t> agents       = {};
    rocprofiler_counter_config_id_t     spm_config   = {};
    rocprofiler_counter_config_id_t     count_config = {};
    uint64_t                            spm_agent    = 0;
    std::string                         counter      = {};
    std::map<uint64_t, double>          spm_sums     = {};
    std::map<uint64_t, double>          counted_sums = {};
    uint64_t                            samples      = 0;
    uint64_t                            loss_batches = 0;
    uint64_t                            ends         = 0;
    uint32_t                            spm_agents   = 0;
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

struct interval_range
{
    bool     found = false;
    uint64_t min   = 0;
    uint64_t max   = 0;
};

rocprofiler_status_t
configs_callback(const rocprofiler_spm_available_configuration_t** configs, size_t count, void* out)
{
    auto* range = static_cast<interval_range*>(out);
    for(size_t i = 0; i < count; ++i)
        if(configs[i]->type == ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES)
            *range = {true, configs[i]->interval.min_interval, configs[i]->interval.max_interval};
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
counters_callback(rocprofiler_agent_id_t,
                  rocprofiler_counter_id_t* counters,
                  size_t                    count,
                  void*                     out)
{
    auto* list = static_cast<std::vector<std::pair<std::string, rocprofiler_counter_id_t>>*>(out);
    for(size_t i = 0; i < count; ++i)
    {
        auto info = rocprofiler_counter_info_v0_t{};
        if(rocprofiler_query_counter_info(counters[i], ROCPROFILER_COUNTER_INFO_VERSION_0, &info) ==
               ROCPROFILER_STATUS_SUCCESS &&
           info.name != nullptr)
            list->emplace_back(info.name, counters[i]);
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

bool
ends_with(const std::string& s, const char* tail)
{
    const auto n = std::strlen(tail);
    return s.size() >= n && s.compare(s.size() - n, n, tail) == 0;
}

// The counter the test compares: SPM_COUNTER if set and offered, else a deterministic count.
const std::pair<std::string, rocprofiler_counter_id_t>*
pick(const std::vector<std::pair<std::string, rocprofiler_counter_id_t>>& offered)
{
    auto find = [&](const std::string& name) -> decltype(&offered[0])
    {
        for(const auto& entry : offered)
            if(entry.first == name) return &entry;
        return nullptr;
    };
    if(const char* env = std::getenv("SPM_COUNTER")) return find(env);
    for(const char* name : {"smsp__inst_executed.sum",
                            "sm__inst_executed.sum",
                            "sm__inst_executed_realtime.sum",
                            "smsp__warps_launched.sum"})
        if(const auto* entry = find(name)) return entry;
    for(const auto& entry : offered)
        if(entry.first.find("inst_executed") != std::string::npos && ends_with(entry.first, ".sum"))
            return &entry;
    for(const auto& entry : offered)
        if(ends_with(entry.first, ".sum")) return &entry;
    return nullptr;
}

void
choose_spm(const rocprofiler_spm_dispatch_counting_service_data_t* data,
           rocprofiler_counter_config_id_t*                        config,
           rocprofiler_user_data_t*,
           void*)
{
    auto& st = state();
    if(data->dispatch_info.agent_id.handle == st.spm_agent &&
       data->dispatch_info.dispatch_id % 2 == 0)
        *config = st.spm_config;
}

void
on_spm_records(const rocprofiler_spm_dispatch_counting_service_data_t* data,
               const rocprofiler_spm_counter_record_t**                records,
               size_t                                                  count,
               rocprofiler_spm_record_flag_t                           flags,
               rocprofiler_user_data_t,
               void*)
{
    auto& st   = state();
    auto  lock = std::lock_guard{st.mutex};
    auto& sum  = st.spm_sums[data->dispatch_info.dispatch_id];
    for(size_t i = 0; i < count; ++i)
        sum += records[i]->value;
    st.samples += count;
    if((flags & ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS) != 0) ++st.loss_batches;
    if((flags & ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END) != 0) ++st.ends;
}

void
choose_counters(rocprofiler_dispatch_counting_service_data_t data,
                rocprofiler_counter_config_id_t*             config,
                rocprofiler_user_data_t*,
                void*)
{
    auto& st = state();
    if(data.dispatch_info.agent_id.handle == st.spm_agent &&
       data.dispatch_info.dispatch_id % 2 == 1)
        *config = st.count_config;
}

void
on_counters(rocprofiler_dispatch_counting_service_data_t data,
            rocprofiler_counter_record_t*                records,
            size_t                                       count,
            rocprofiler_user_data_t,
            void*)
{
    auto& st   = state();
    auto  lock = std::lock_guard{st.mutex};
    auto& sum  = st.counted_sums[data.dispatch_info.dispatch_id];
    for(size_t i = 0; i < count; ++i)
        sum += records[i].counter_value;
}

// Sets up SPM and counting of one counter on `agent`; false when the agent offers no SPM.
bool
set_up(rocprofiler_agent_id_t agent)
{
    auto& st    = state();
    auto  range = interval_range{};
    rocprofiler_spm_query_agent_configurations(agent, configs_callback, &range);
    if(!range.found)
    {
        std::printf("spm-tool-cuda: agent %llu offers no SPM\n",
                    static_cast<unsigned long long>(agent.handle));
        return false;
    }
    auto offered = std::vector<std::pair<std::string, rocprofiler_counter_id_t>>{};
    rocprofiler_spm_iterate_agent_supported_counters(agent, counters_callback, &offered);
    std::printf("spm-tool-cuda: agent %llu offers %zu counter(s), interval %llu-%llu cycles:",
                static_cast<unsigned long long>(agent.handle),
                offered.size(),
                static_cast<unsigned long long>(range.min),
                static_cast<unsigned long long>(range.max));
    for(size_t i = 0; i < offered.size() && i < 24; ++i)
        std::printf(" %s", offered[i].first.c_str());
    std::printf("\n");
    const auto* chosen = pick(offered);
    if(chosen == nullptr) return false;
    auto interval = std::max<uint64_t>(range.min, 20000);
    if(const char* env = std::getenv("SPM_INTERVAL")) interval = std::strtoull(env, nullptr, 10);
    auto parameter =
        rocprofiler_spm_parameters_t{sizeof(rocprofiler_spm_parameters_t),
                                     ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES,
                                     interval};
    auto* parameters = &parameter;
    auto  id         = chosen->second;
    auto  status =
        rocprofiler_spm_create_counter_config(agent, &id, 1, &parameters, 1, &st.spm_config);
    if(status != ROCPROFILER_STATUS_SUCCESS)
    {
        std::fprintf(stderr, "spm-tool-cuda: SPM configuration failed: %d\n", status);
        return false;
    }
    status = rocprofiler_create_counter_config(agent, &id, 1, &st.count_config);
    if(status != ROCPROFILER_STATUS_SUCCESS)
        std::fprintf(stderr, "spm-tool-cuda: counting configuration failed: %d\n", status);
    st.counter   = chosen->first;
    st.spm_agent = agent.handle;
    return true;
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    auto& st = state();
    rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0, agents_callback, sizeof(rocprofiler_agent_v0_t), nullptr);
    rocprofiler_create_context(&st.context);
    for(auto agent : st.agents)
    {
        if(!set_up(agent)) continue;
        ++st.spm_agents;
        break; // one agent is enough: the program runs on device 0
    }
    if(st.spm_agents != 0)
    {
        auto status = rocprofiler_spm_configure_callback_dispatch_service(
            st.context, choose_spm, nullptr, on_spm_records, nullptr);
        if(status != ROCPROFILER_STATUS_SUCCESS)
            std::fprintf(stderr, "spm-tool-cuda: SPM service failed: %d\n", status);
        status = rocprofiler_configure_callback_dispatch_counting_service(
            st.context, choose_counters, nullptr, on_counters, nullptr);
        if(status != ROCPROFILER_STATUS_SUCCESS)
            std::fprintf(stderr, "spm-tool-cuda: counting service failed: %d\n", status);
    }
    rocprofiler_start_context(st.context);
    return 0;
}

double
median(const std::map<uint64_t, double>& sums)
{
    auto values = std::vector<double>{};
    for(const auto& entry : sums)
        values.push_back(entry.second);
    if(values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

void
tool_fini(void*)
{
    auto& st   = state();
    auto  lock = std::lock_guard{st.mutex};
    for(const auto& [id, sum] : st.spm_sums)
        std::printf("spm-tool-cuda: dispatch %llu sampled sum %.0f\n",
                    static_cast<unsigned long long>(id),
                    sum);
    for(const auto& [id, sum] : st.counted_sums)
        std::printf("spm-tool-cuda: dispatch %llu counted %.0f\n",
                    static_cast<unsigned long long>(id),
                    sum);
    const auto spm     = median(st.spm_sums);
    const auto counted = median(st.counted_sums);
    std::printf("RESULT spm agents=%u counter=%s sampled=%zu samples=%llu data_loss=%llu ends=%llu "
                "counted=%zu spm_sum=%.0f counted_sum=%.0f ratio=%.4f\n",
                st.spm_agents,
                st.counter.empty() ? "none" : st.counter.c_str(),
                st.spm_sums.size(),
                static_cast<unsigned long long>(st.samples),
                static_cast<unsigned long long>(st.loss_batches),
                static_cast<unsigned long long>(st.ends),
                st.counted_sums.size(),
                spm,
                counted,
                counted != 0.0 ? spm / counted : 0.0);
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "spm-tool-cuda";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}
