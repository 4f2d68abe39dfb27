// multi-gpu-tool: kernel replay with a fixed pass count that records, per replayed dispatch, its
// agent, its thread and the times of its replay callbacks (CONFIG ENTER/EXIT, every PASS
// ENTER/EXIT), plus every KERNEL_DISPATCH COMPLETE record with the pass it belongs to. Public
// rocprofiler-sdk headers only. Writes JSON to $MULTI_GPU_TOOL_OUTPUT at finalization.
//   MULTI_GPU_PASSES  passes per replayed dispatch (default 3)
//   MULTI_GPU_SKIP    kernels whose name contains this get 1 pass, i.e. run once (default "scale")
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace
{
using json = nlohmann::json;

struct pass_times
{
    uint64_t pass  = 0;
    uint64_t total = 0;
    uint64_t enter = 0;
    uint64_t exit  = 0;
};

// One CONFIG callback sequence (one candidate dispatch).
struct window
{
    uint64_t                dispatch_id  = 0;
    uint64_t                agent        = 0;
    uint64_t                queue        = 0;
    uint64_t                kernel_id    = 0;
    uint64_t                thread       = 0;
    uint64_t                config_enter = 0;
    uint64_t                config_exit  = 0;
    uint64_t                requested    = 0; // what replay_pass_count returned
    std::vector<pass_times> passes       = {};
};

struct tool_state
{
    std::mutex                                mutex   = {};
    rocprofiler_context_id_t                  context = {};
    uint64_t                                  passes  = 3;
    std::string                               skip    = "scale";
    json                                      agents  = json::array();
    json                                      records = json::array(); // COMPLETE records
    json                                      errors  = json::array();
    std::deque<window>                        windows = {};
    std::unordered_map<uint64_t, std::string> names   = {}; // kernel_id -> name
};

tool_state&
state()
{
    static auto* value = new tool_state{}; // never destroyed: callbacks may run at exit
    return *value;
}

uint64_t
now()
{
    auto ts = rocprofiler_timestamp_t{0};
    rocprofiler_get_timestamp(&ts);
    return ts;
}

uint64_t
this_thread()
{
    auto tid = rocprofiler_thread_id_t{0};
    rocprofiler_get_thread_id(&tid);
    return tid;
}

void
check(rocprofiler_status_t status, const char* what)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return;
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    st.errors.push_back(std::string{what} + ": " + rocprofiler_get_status_name(status));
}

std::string
name_of(uint64_t kernel_id)
{
    auto& st  = state();
    auto  lk  = std::lock_guard{st.mutex};
    auto  itr = st.names.find(kernel_id);
    return itr == st.names.end() ? std::string{} : itr->second;
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
}

// The pass the calling thread is in (PASS ENTER .. EXIT), -1 outside.
thread_local int64_t this_thread_pass = -1;

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
       record.operation != ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
        return;
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    auto  entry = json{{"dispatch_id", payload->dispatch_info.dispatch_id},
                      {"agent", payload->dispatch_info.agent_id.handle},
                      {"kernel_id", payload->dispatch_info.kernel_id},
                      {"start", payload->start_timestamp},
                      {"end", payload->end_timestamp},
                      {"received_at", now()},
                      {"thread", this_thread()},
                      {"pass", this_thread_pass}};
    auto& st    = state();
    auto  lk    = std::lock_guard{st.mutex};
    st.records.push_back(std::move(entry));
}

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t user_data)
{
    auto& st     = state();
    auto  name   = name_of(info.kernel_id);
    auto  passes = (!st.skip.empty() && name.find(st.skip) != std::string::npos) ? 1 : st.passes;
    auto  lk     = std::lock_guard{st.mutex};
    if(user_data.value > 0 && user_data.value <= st.windows.size())
        st.windows[user_data.value - 1].requested = passes;
    return passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record,
                rocprofiler_user_data_t*              user_data,
                void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    const auto t  = now();
    auto* payload = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    auto& st      = state();
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            payload->replay_pass_count = pass_count;
            auto w                     = window{};
            w.dispatch_id              = payload->dispatch_info.dispatch_id;
            w.agent                    = payload->dispatch_info.agent_id.handle;
            w.queue                    = payload->dispatch_info.queue_id.handle;
            w.kernel_id                = payload->dispatch_info.kernel_id;
            w.thread                   = this_thread();
            w.config_enter             = t;
            auto lk                    = std::lock_guard{st.mutex};
            st.windows.push_back(std::move(w));
            user_data->value = st.windows.size(); // index + 1, the same for every PASS
        }
        else
        {
            auto lk = std::lock_guard{st.mutex};
            if(user_data->value > 0 && user_data->value <= st.windows.size())
                st.windows[user_data->value - 1].config_exit = t;
        }
        return;
    }
    if(record.operation != ROCPROFILER_KERNEL_REPLAY_PASS) return;
    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        this_thread_pass = static_cast<int64_t>(payload->current_pass);
    else
        this_thread_pass = -1;
    auto lk = std::lock_guard{st.mutex};
    if(user_data->value == 0 || user_data->value > st.windows.size())
    {
        st.errors.push_back("PASS callback without a CONFIG of its sequence (dispatch " +
                            std::to_string(payload->dispatch_info.dispatch_id) + ")");
        return;
    }
    auto& w = st.windows[user_data->value - 1];
    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        w.passes.push_back(pass_times{payload->current_pass, payload->total_passes, t, 0});
    else if(!w.passes.empty())
        w.passes.back().exit = t;
}

rocprofiler_status_t
agent_callback(rocprofiler_agent_version_t, const void** agents, size_t count, void*)
{
    auto& st = state();
    for(size_t i = 0; i < count; ++i)
    {
        const auto* a       = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
        char        hex[33] = {};
        for(size_t b = 0; b < 16; ++b)
            std::snprintf(hex + 2 * b, 3, "%02x", a->uuid.bytes[b]);
        st.agents.push_back(json{{"id", a->id.handle},
                                 {"type", a->type == ROCPROFILER_AGENT_TYPE_GPU ? "GPU" : "other"},
                                 {"logical_node_type_id", a->logical_node_type_id},
                                 {"uuid", hex},
                                 {"name", a->name ? a->name : ""},
                                 {"product", a->product_name ? a->product_name : ""}});
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    auto& st = state();
    if(const char* env = std::getenv("MULTI_GPU_PASSES"))
        st.passes = std::strtoull(env, nullptr, 10);
    if(const char* env = std::getenv("MULTI_GPU_SKIP")) st.skip = env;
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
    check(rocprofiler_configure_callback_tracing_service(st.context,
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
    auto& st      = state();
    auto  lk      = std::lock_guard{st.mutex};
    auto  windows = json::array();
    for(const auto& w : st.windows)
    {
        auto passes = json::array();
        for(const auto& p : w.passes)
            passes.push_back(
                json{{"pass", p.pass}, {"total", p.total}, {"enter", p.enter}, {"exit", p.exit}});
        auto name = st.names.find(w.kernel_id);
        windows.push_back(json{{"dispatch_id", w.dispatch_id},
                               {"agent", w.agent},
                               {"queue", w.queue},
                               {"kernel_id", w.kernel_id},
                               {"kernel", name != st.names.end() ? name->second : ""},
                               {"thread", w.thread},
                               {"config_enter", w.config_enter},
                               {"config_exit", w.config_exit},
                               {"requested", w.requested},
                               {"passes", passes}});
    }
    auto names = json::object();
    for(const auto& [id, name] : st.names)
        names[std::to_string(id)] = name;
    auto doc = json{{"passes", st.passes},
                    {"skip", st.skip},
                    {"agents", st.agents},
                    {"windows", windows},
                    {"records", st.records},
                    {"kernel_names", names},
                    {"errors", st.errors}};
    if(const char* path = std::getenv("MULTI_GPU_TOOL_OUTPUT"))
        std::ofstream{path} << doc.dump(1) << "\n";
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "multi-gpu-tool";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}
