// test-tool-cuda: kernel dispatch tracing plus kernel replay with a fixed pass count, for the GPU
// tests. Writes everything it saw as JSON to $TEST_TOOL_OUTPUT at finalization.
//   TEST_REPLAY_PASSES   passes per replayed dispatch (default 3); 0: replay not configured
//   TEST_REPLAY_SKIP     kernels whose name contains this are given 1 pass (not replayed)
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_map>

namespace
{
using json = nlohmann::json;

struct tool_state
{
    std::mutex                                mutex    = {};
    rocprofiler_context_id_t                  context  = {};
    uint64_t                                  passes   = 3;
    std::string                               skip     = {};
    json                                      agents   = json::array();
    json                                      dispatch = json::array();
    json                                      replay   = json::array();
    json                                      errors   = json::array();
    json                                      kernels = json::array(); // CODE_OBJECT kernel symbols
    std::unordered_map<uint64_t, std::string> names   = {};            // kernel_id -> name
    uint64_t                                  symbols_before_dispatch_missing = 0;
};

tool_state&
state()
{
    static auto* value = new tool_state{};
    return *value;
}

void
check(rocprofiler_status_t status, const char* what)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return;
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    st.errors.push_back(std::string{what} + ": " + rocprofiler_get_status_name(status));
}

// Kernel names come from CODE_OBJECT tracing (kernel symbol registrations), as in rocprofv3.
std::string
name_of(uint64_t kernel_id)
{
    auto& st  = state();
    auto  lk  = std::lock_guard{st.mutex};
    auto  itr = st.names.find(kernel_id);
    if(itr == st.names.end())
    {
        ++st.symbols_before_dispatch_missing;
        return "";
    }
    return itr->second;
}

void
code_object_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT ||
       record.operation != ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
        return;
    const auto* sym =
        static_cast<const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
            record.payload);
    auto& st                 = state();
    auto  lk                 = std::lock_guard{st.mutex};
    st.names[sym->kernel_id] = sym->kernel_name != nullptr ? sym->kernel_name : "";
    st.kernels.push_back(json{{"kernel_id", sym->kernel_id},
                              {"name", st.names[sym->kernel_id]},
                              {"code_object_id", sym->code_object_id},
                              {"registers", sym->arch_vgpr_count},
                              {"group_segment_size", sym->group_segment_size},
                              {"private_segment_size", sym->private_segment_size}});
}

json
info_json(const rocprofiler_kernel_dispatch_info_t& info)
{
    return json{
        {"agent", info.agent_id.handle},
        {"queue", info.queue_id.handle},
        {"kernel_id", info.kernel_id},
        {"kernel", name_of(info.kernel_id)},
        {"dispatch_id", info.dispatch_id},
        {"private_segment_size", info.private_segment_size},
        {"group_segment_size", info.group_segment_size},
        {"workgroup", {info.workgroup_size.x, info.workgroup_size.y, info.workgroup_size.z}},
        {"grid", {info.grid_size.x, info.grid_size.y, info.grid_size.z}}};
}

thread_local int64_t this_thread_pass = -1;

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
       record.operation != ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
        return;
    auto ts = rocprofiler_timestamp_t{0};
    rocprofiler_get_timestamp(&ts);
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    auto entry           = info_json(payload->dispatch_info);
    entry["start"]       = payload->start_timestamp;
    entry["end"]         = payload->end_timestamp;
    entry["received_at"] = ts;
    entry["pass"]        = this_thread_pass;
    entry["correlation"] = record.correlation_id.internal;
    auto& st             = state();
    auto  lk             = std::lock_guard{st.mutex};
    st.dispatch.push_back(entry);
}

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    auto& st = state();
    if(!st.skip.empty() && name_of(info.kernel_id).find(st.skip) != std::string::npos) return 1;
    return st.passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    auto* payload = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
       record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        payload->replay_pass_count = pass_count;
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
        this_thread_pass = (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                               ? static_cast<int64_t>(payload->current_pass)
                               : -1;
    auto  entry = json{{"operation", record.operation},
                      {"phase", record.phase},
                      {"dispatch_id", payload->dispatch_info.dispatch_id},
                      {"kernel", name_of(payload->dispatch_info.kernel_id)},
                      {"current_pass", payload->current_pass},
                      {"total_passes", payload->total_passes}};
    auto& st    = state();
    auto  lk    = std::lock_guard{st.mutex};
    st.replay.push_back(entry);
}

// The first eight bytes of the id as one word, in memory order (the layout of the former union).
uint64_t
uuid_word0(const rocprofiler_uuid_t& uuid)
{
    uint64_t word = 0;
    std::memcpy(&word, uuid.bytes, sizeof(word));
    return word;
}

rocprofiler_status_t
agent_callback(rocprofiler_agent_version_t, const void** agents, size_t count, void*)
{
    auto& st = state();
    for(size_t i = 0; i < count; ++i)
    {
        const auto* a = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
        st.agents.push_back(json{{"id", a->id.handle},
                                 {"name", a->name ? a->name : ""},
                                 {"product", a->product_name ? a->product_name : ""},
                                 {"vendor", a->vendor_name ? a->vendor_name : ""},
                                 {"cu_count", a->cu_count},
                                 {"wave_front_size", a->wave_front_size},
                                 {"workgroup_max_size", a->workgroup_max_size},
                                 {"local_mem_size", a->local_mem_size},
                                 {"vendor_id", a->vendor_id},
                                 {"device_id", a->device_id},
                                 {"uuid0", uuid_word0(a->uuid)}});
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    auto& st = state();
    if(const char* env = std::getenv("TEST_REPLAY_PASSES"))
        st.passes = std::strtoull(env, nullptr, 10);
    if(const char* env = std::getenv("TEST_REPLAY_SKIP")) st.skip = env;
    check(rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0,
                                             agent_callback,
                                             sizeof(rocprofiler_agent_v0_t),
                                             nullptr),
          "query_available_agents");
    check(rocprofiler_create_context(&st.context), "create_context");
    check(rocprofiler_configure_callback_tracing_service(st.context,
                                                         ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                         nullptr,
                                                         0,
                                                         code_object_callback,
                                                         nullptr),
          "configure code object tracing");
    check(
        rocprofiler_configure_callback_tracing_service(st.context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       nullptr,
                                                       0,
                                                       dispatch_callback,
                                                       nullptr),
        "configure dispatch tracing");
    if(st.passes > 0)
        check(rocprofiler_configure_callback_tracing_service(
                  st.context,
                  ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                  nullptr,
                  0,
                  replay_callback,
                  nullptr),
              "configure kernel replay");
    check(rocprofiler_start_context(st.context), "start_context");
    return 0;
}

void
tool_fini(void*)
{
    auto& st  = state();
    auto  lk  = std::lock_guard{st.mutex};
    auto  doc = json{{"passes", st.passes},
                    {"agents", st.agents},
                    {"dispatch", st.dispatch},
                    {"replay", st.replay},
                    {"errors", st.errors},
                    {"kernels", st.kernels},
                    {"names_missing", st.symbols_before_dispatch_missing}};
    if(const char* path = std::getenv("TEST_TOOL_OUTPUT"))
        std::ofstream{path} << doc.dump(1) << "\n";
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "test-tool-cuda";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}
