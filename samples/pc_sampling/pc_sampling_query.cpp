// pc_sampling_query: a tool written for rocprofiler-sdk's PC sampling API that falls back cleanly
// when no agent offers PC sampling. It uses only the rocprofiler-sdk API, so it builds unchanged
// against either SDK's headers.
//
// At initialization it asks every GPU agent for its PC sampling configurations. For an agent
// that offers one, it configures the first (host-trap preferred) at its shortest interval into a
// buffer, counts the samples by record kind, and attributes host-trap samples to kernels: a
// sample's PC names a code object (each kernel's, learned from CODE_OBJECT tracing) and an offset
// into it, or no code object when the PC lay outside every kernel (the runtime around it). When
// no agent offers one, or configuring is refused, it traces kernel dispatches instead and counts
// their completions, so the run still yields something. It never treats "no configuration" as an
// error.
//
// At finalization it writes a line-based report to $PC_SAMPLING_QUERY_OUTPUT (default
// pc_sampling_query.txt):
//   agent id=<handle> name=<name> configurations=<n>[ method=<m> unit=<u> min=<i> max=<i>]
//   configure agent=<handle> status=<status name>          (only when a configuration was tried)
//   mode=pc_sampling samples=<n> invalid=<n> outside_kernels=<n>   or
//   mode=dispatch_tracing completed_dispatches=<n>
//   kernel name=<name> samples=<n> max_offset=<bytes>      (sampling: one per sampled kernel)
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <vector>

namespace
{
// Fails the tool's initialization with the failing call named; for calls that must succeed.
#define SAMPLE_CALL(call)                                                                          \
    do                                                                                             \
    {                                                                                              \
        rocprofiler_status_t sample_status_ = (call);                                              \
        if(sample_status_ != ROCPROFILER_STATUS_SUCCESS)                                           \
        {                                                                                          \
            std::fprintf(stderr,                                                                   \
                         "pc_sampling_query: %s failed: %s\n",                                     \
                         #call,                                                                    \
                         rocprofiler_get_status_string(sample_status_));                           \
            return -1;                                                                             \
        }                                                                                          \
    } while(0)

struct gpu_agent
{
    rocprofiler_agent_id_t id   = {};
    std::string            name = {};
};

std::vector<gpu_agent> agents          = {};
std::ostringstream     report          = {};
std::atomic<uint64_t>  samples         = 0;
std::atomic<uint64_t>  invalid_samples = 0;
std::atomic<uint64_t>  completions     = 0;
std::atomic<uint64_t>  outside_kernels = 0;
bool                   sampling        = false;

// Kernel names by code object id, and per code object the samples and the largest offset.
struct kernel_samples
{
    uint64_t samples    = 0;
    uint64_t max_offset = 0;
};
std::mutex                         kernels_mutex = {};
std::map<uint64_t, std::string>    kernel_names  = {};
std::map<uint64_t, kernel_samples> by_kernel     = {};
rocprofiler_context_id_t           context       = {};
rocprofiler_buffer_id_t            sample_buffer = {};

rocprofiler_status_t
collect_agents(rocprofiler_agent_version_t, const void** list, size_t count, void*)
{
    for(size_t i = 0; i < count; ++i)
    {
        const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(list[i]);
        if(agent->type == ROCPROFILER_AGENT_TYPE_GPU)
            agents.push_back({agent->id, agent->name != nullptr ? agent->name : "?"});
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

// The query's callback: copies the configurations, which are valid only during the call.
rocprofiler_status_t
copy_configurations(const rocprofiler_pc_sampling_configuration_t* configs,
                    size_t                                         count,
                    void*                                          user_data)
{
    auto* out = static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(user_data);
    for(size_t i = 0; i < count; ++i)
        out->push_back(configs[i]);
    return ROCPROFILER_STATUS_SUCCESS;
}

void
count_samples(rocprofiler_context_id_t,
              rocprofiler_buffer_id_t,
              rocprofiler_record_header_t** headers,
              size_t                        count,
              void*,
              uint64_t)
{
    for(size_t i = 0; i < count; ++i)
    {
        if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING) continue;
        if(headers[i]->kind == ROCPROFILER_PC_SAMPLING_RECORD_INVALID_SAMPLE)
        {
            ++invalid_samples;
            continue;
        }
        ++samples;
        if(headers[i]->kind != ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE) continue;
        const auto* sample =
            static_cast<const rocprofiler_pc_sampling_record_host_trap_v0_t*>(headers[i]->payload);
        if(sample->pc.code_object_id == ROCPROFILER_CODE_OBJECT_ID_NONE)
        {
            ++outside_kernels;
            continue;
        }
        auto  lock  = std::lock_guard{kernels_mutex};
        auto& entry = by_kernel[sample->pc.code_object_id];
        ++entry.samples;
        if(sample->pc.code_object_offset > entry.max_offset)
            entry.max_offset = sample->pc.code_object_offset;
    }
}

void
learn_kernel(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.operation != ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER) return;
    const auto* symbol =
        static_cast<const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
            record.payload);
    auto lock = std::lock_guard{kernels_mutex};
    kernel_names[symbol->code_object_id] =
        symbol->kernel_name != nullptr ? symbol->kernel_name : "?";
}

void
count_completions(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE) ++completions;
}

// Host-trap first: it needs no sampling hardware, so it is the likelier one to work.
const rocprofiler_pc_sampling_configuration_t*
preferred(const std::vector<rocprofiler_pc_sampling_configuration_t>& configs)
{
    for(const auto& config : configs)
        if(config.method == ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP) return &config;
    return configs.empty() ? nullptr : &configs.front();
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    SAMPLE_CALL(rocprofiler_create_context(&context));
    SAMPLE_CALL(rocprofiler_query_available_agents(
        ROCPROFILER_AGENT_INFO_VERSION_0, collect_agents, sizeof(rocprofiler_agent_v0_t), nullptr));
    auto buffer = rocprofiler_buffer_id_t{};
    for(const auto& agent : agents)
    {
        auto configs = std::vector<rocprofiler_pc_sampling_configuration_t>{};
        auto status  = rocprofiler_query_pc_sampling_agent_configurations(
            agent.id, copy_configurations, &configs);
        report << "agent id=" << agent.id.handle << " name=" << agent.name
               << " configurations=" << (status == ROCPROFILER_STATUS_SUCCESS ? configs.size() : 0);
        const auto* config = preferred(configs);
        if(config != nullptr)
            report << " method=" << config->method << " unit=" << config->unit
                   << " min=" << config->min_interval << " max=" << config->max_interval;
        report << "\n";
        if(config == nullptr) continue;

        if(buffer.handle == 0)
        {
            SAMPLE_CALL(rocprofiler_create_buffer(context,
                                                  1 << 20,
                                                  1 << 19,
                                                  ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                  count_samples,
                                                  nullptr,
                                                  &buffer));
            sample_buffer = buffer;
        }
        status = rocprofiler_configure_pc_sampling_service(
            context, agent.id, config->method, config->unit, config->min_interval, buffer, 0);
        report << "configure agent=" << agent.id.handle
               << " status=" << rocprofiler_get_status_name(status) << "\n";
        if(status == ROCPROFILER_STATUS_SUCCESS) sampling = true;
    }

    // Samples name code objects: learn which kernel each one is.
    if(sampling)
        SAMPLE_CALL(rocprofiler_configure_callback_tracing_service(
            context, ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT, nullptr, 0, learn_kernel, nullptr));
    // The fallback: no agent samples, so trace dispatches instead.
    if(!sampling)
        SAMPLE_CALL(rocprofiler_configure_callback_tracing_service(
            context,
            ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
            nullptr,
            0,
            count_completions,
            nullptr));
    SAMPLE_CALL(rocprofiler_start_context(context));
    return 0;
}

void
tool_fini(void*)
{
    rocprofiler_stop_context(context);
    if(sampling) rocprofiler_flush_buffer(sample_buffer);
    const char* path = std::getenv("PC_SAMPLING_QUERY_OUTPUT");
    auto out = std::ofstream{path != nullptr && *path != '\0' ? path : "pc_sampling_query.txt"};
    out << report.str();
    if(sampling)
    {
        out << "mode=pc_sampling samples=" << samples.load()
            << " invalid=" << invalid_samples.load()
            << " outside_kernels=" << outside_kernels.load() << "\n";
        auto lock = std::lock_guard{kernels_mutex};
        for(const auto& [code_object, entry] : by_kernel)
        {
            auto name = kernel_names.find(code_object);
            out << "kernel name=" << (name != kernel_names.end() ? name->second : "?")
                << " samples=" << entry.samples << " max_offset=" << entry.max_offset << "\n";
        }
    }
    else
        out << "mode=dispatch_tracing completed_dispatches=" << completions.load() << "\n";
}
} // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t priority, rocprofiler_client_id_t* id)
{
    if(priority > 0) return nullptr;
    id->name           = "pc_sampling_query";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}
