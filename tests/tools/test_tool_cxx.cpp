// test-tool-cxx: a tool that uses every service of the API short of kernel replay and counters,
// records everything it receives, and writes it as JSON at finalization to the file named by the
// environment variable TEST_TOOL_OUTPUT. The integration tests validate that file field by field.
//
// What it configures, in initialize (on the thread that first used the device):
// - callback kernel dispatch tracing (ENQUEUE ENTER/EXIT, COMPLETE) into `callback_records`;
// - buffer kernel dispatch tracing into a LOSSLESS buffer, delivered on a callback thread it
//   creates, into `buffer_records` and `buffer_deliveries`. The buffer is small (kBufferBytes) so
//   that a run fills it many times;
// - the external correlation request service for kernel dispatches: it supplies
//   `external_id_for(internal)` for even internal correlation ids and declines (returns 1) for odd
//   ones, which then carry the top of the thread's pushed stack;
// - on the initializing thread it pushes kPushedBase and kPushedBase+1, pops the latter (checking
//   the popped value), so kPushedBase stays on that thread's stack for the whole run.
// The context id is exported as `test_tool_cxx_context()` so that a test program can push and pop
// external ids itself around chosen dispatches.
//
// It also records the queries (agents, kind and operation names, statuses), lifecycle states
// (is_initialized / is_finalized at each step, the statuses of configuration calls made after the
// lock and of start_context at finalize) and its timestamps.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <mutex>
#include <string>
#include <vector>

namespace
{
using json = nlohmann::json;

constexpr uint64_t kPushedBase   = 4242;
constexpr size_t   kBufferBytes  = 1024;
constexpr size_t   kWatermark    = 512;
constexpr uint64_t kUserDataBase = 1000000;

uint64_t
external_id_for(uint64_t internal)
{
    return 100000 + internal;
}

struct tool_state
{
    std::mutex mutex = {};

    rocprofiler_client_id_t*      client_id   = nullptr;
    rocprofiler_client_finalize_t fini_func   = nullptr;
    rocprofiler_context_id_t      context     = {};
    rocprofiler_buffer_id_t       buffer      = {};
    rocprofiler_callback_thread_t cb_thread   = {};
    std::atomic<bool>             lock_tested = false;

    json doc               = json::object();
    json callback_records  = json::array();
    json buffer_records    = json::array();
    json buffer_deliveries = json::array();
    json external_requests = json::array();
    json errors            = json::array();
    int  finalize_calls    = 0;
    int  initialize_calls  = 0;
    int  configure_calls   = 0;
};

tool_state&
state()
{
    // Never destroyed: the SDK may call in during process exit.
    static auto* value = new tool_state{};
    return *value;
}

uint64_t
this_thread()
{
    auto tid = rocprofiler_thread_id_t{0};
    rocprofiler_get_thread_id(&tid);
    return tid;
}

uint64_t
now()
{
    auto ts = rocprofiler_timestamp_t{0};
    rocprofiler_get_timestamp(&ts);
    return ts;
}

int
is_initialized()
{
    int value = -1;
    rocprofiler_is_initialized(&value);
    return value;
}

int
is_finalized()
{
    int value = -1;
    rocprofiler_is_finalized(&value);
    return value;
}

// Records a failed call; the tests require `errors` to be empty.
void
check(rocprofiler_status_t status, const char* what)
{
    if(status == ROCPROFILER_STATUS_SUCCESS) return;
    auto& st = state();
    auto  lk = std::lock_guard{st.mutex};
    st.errors.push_back(std::string{what} + ": " + rocprofiler_get_status_name(status));
}

json
dim3_json(rocprofiler_dim3_t d)
{
    return json{{"x", d.x}, {"y", d.y}, {"z", d.z}};
}

json
dispatch_info_json(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto        name  = std::string{};
    const char* cname = nullptr;
    // On this platform the kernel id is the host device's kernel handle.
    if(rocprofiler_host_kernel_name(rocprofiler_host_kernel_t{info.kernel_id}, &cname) ==
           ROCPROFILER_HOST_STATUS_SUCCESS &&
       cname != nullptr)
        name = cname;
    auto padding_zero = true;
    for(auto byte : info.reserved_padding)
        if(byte != 0) padding_zero = false;
    return json{{"size", info.size},
                {"agent_id", info.agent_id.handle},
                {"queue_id", info.queue_id.handle},
                {"kernel_id", info.kernel_id},
                {"kernel_name", name},
                {"dispatch_id", info.dispatch_id},
                {"private_segment_size", info.private_segment_size},
                {"group_segment_size", info.group_segment_size},
                {"workgroup_size", dim3_json(info.workgroup_size)},
                {"grid_size", dim3_json(info.grid_size)},
                {"reserved_padding_zero", padding_zero}};
}

// ---- callback tracing ---------------------------------------------------------------------------

void
dispatch_callback(rocprofiler_callback_tracing_record_t record,
                  rocprofiler_user_data_t*              user_data,
                  void*                                 callback_data)
{
    auto& st = state();
    // Configuration is locked once every initialize has run: check it once from a real callback.
    if(!st.lock_tested.exchange(true))
    {
        auto ctx                 = rocprofiler_context_id_t{0};
        auto thread              = rocprofiler_callback_thread_t{};
        auto locked              = json::object();
        locked["create_context"] = rocprofiler_get_status_name(rocprofiler_create_context(&ctx));
        locked["configure_callback_tracing"] =
            rocprofiler_get_status_name(rocprofiler_configure_callback_tracing_service(
                st.context,
                ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                nullptr,
                0,
                dispatch_callback,
                nullptr));
        locked["create_callback_thread"] =
            rocprofiler_get_status_name(rocprofiler_create_callback_thread(&thread));
        auto lk                     = std::lock_guard{st.mutex};
        st.doc["after_lock_status"] = locked;
    }

    auto entry                    = json::object();
    entry["callback_data_ok"]     = (callback_data == &st);
    entry["context_id"]           = record.context_id.handle;
    entry["thread_id"]            = record.thread_id;
    entry["callback_thread"]      = this_thread();
    entry["correlation_internal"] = record.correlation_id.internal;
    entry["correlation_external"] = record.correlation_id.external.value;
    entry["correlation_ancestor"] = record.correlation_id.ancestor;
    entry["kind"]                 = record.kind;
    entry["operation"]            = record.operation;
    entry["phase"]                = record.phase;
    entry["user_data_in"]         = user_data->value;
    entry["received_at"]          = now();
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH && record.payload != nullptr)
    {
        const auto* payload =
            static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
        entry["payload_size"]    = payload->size;
        entry["start_timestamp"] = payload->start_timestamp;
        entry["end_timestamp"]   = payload->end_timestamp;
        entry["dispatch_info"]   = dispatch_info_json(payload->dispatch_info);
        // ENTER writes a value derived from the dispatch id; EXIT must see it unchanged.
        if(record.operation == ROCPROFILER_KERNEL_DISPATCH_ENQUEUE &&
           record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
            user_data->value = kUserDataBase + payload->dispatch_info.dispatch_id;
    }
    auto lk = std::lock_guard{st.mutex};
    st.callback_records.push_back(std::move(entry));
}

// ---- buffer tracing -----------------------------------------------------------------------------

void
buffer_callback(rocprofiler_context_id_t      context,
                rocprofiler_buffer_id_t       buffer_id,
                rocprofiler_record_header_t** headers,
                size_t                        num_headers,
                void*                         data,
                uint64_t                      drop_count)
{
    auto& st      = state();
    auto  records = json::array();
    for(size_t i = 0; i < num_headers; ++i)
    {
        const auto* header = headers[i];
        auto        entry  = json::object();
        entry["category"]  = header->category;
        entry["kind"]      = header->kind;
        if(header->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
           header->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
        {
            const auto* rec =
                static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                    header->payload);
            entry["size"]                 = rec->size;
            entry["record_kind"]          = rec->kind;
            entry["operation"]            = rec->operation;
            entry["correlation_internal"] = rec->correlation_id.internal;
            entry["correlation_external"] = rec->correlation_id.external.value;
            entry["thread_id"]            = rec->thread_id;
            entry["start_timestamp"]      = rec->start_timestamp;
            entry["end_timestamp"]        = rec->end_timestamp;
            entry["dispatch_info"]        = dispatch_info_json(rec->dispatch_info);
        }
        records.push_back(std::move(entry));
    }
    auto lk = std::lock_guard{st.mutex};
    st.buffer_deliveries.push_back(json{{"context_id", context.handle},
                                        {"buffer_id", buffer_id.handle},
                                        {"num_headers", num_headers},
                                        {"drop_count", drop_count},
                                        {"data_ok", data == &st},
                                        {"thread", this_thread()}});
    for(auto& itr : records)
        st.buffer_records.push_back(std::move(itr));
}

// ---- external correlation -----------------------------------------------------------------------

int
external_request(rocprofiler_thread_id_t                            thread_id,
                 rocprofiler_context_id_t                           context_id,
                 rocprofiler_external_correlation_id_request_kind_t kind,
                 rocprofiler_tracing_operation_t                    operation,
                 uint64_t                                           internal_corr_id_value,
                 rocprofiler_user_data_t*                           external_corr_id_value,
                 void*                                              data)
{
    auto&      st      = state();
    const bool provide = (internal_corr_id_value % 2) == 0;
    if(provide) external_corr_id_value->value = external_id_for(internal_corr_id_value);
    auto lk = std::lock_guard{st.mutex};
    st.external_requests.push_back(json{{"thread_id", thread_id},
                                        {"calling_thread", this_thread()},
                                        {"context_id", context_id.handle},
                                        {"kind", kind},
                                        {"operation", operation},
                                        {"internal", internal_corr_id_value},
                                        {"provided", provide},
                                        {"data_ok", data == &st}});
    return provide ? 0 : 1;
}

// ---- queries ------------------------------------------------------------------------------------

rocprofiler_status_t
agents_callback(rocprofiler_agent_version_t version,
                const void**                agents,
                size_t                      num_agents,
                void*                       user_data)
{
    auto* out = static_cast<json*>(user_data);
    if(version != ROCPROFILER_AGENT_INFO_VERSION_0) return ROCPROFILER_STATUS_ERROR;
    for(size_t i = 0; i < num_agents; ++i)
    {
        const auto* agent = static_cast<const rocprofiler_agent_v0_t*>(agents[i]);
        auto        str   = [](const char* s) { return std::string{s != nullptr ? s : ""}; };
        out->push_back(json{{"size", agent->size},
                            {"id", agent->id.handle},
                            {"type", agent->type},
                            {"name", str(agent->name)},
                            {"vendor_name", str(agent->vendor_name)},
                            {"product_name", str(agent->product_name)},
                            {"model_name", str(agent->model_name)},
                            {"cu_count", agent->cu_count},
                            {"simd_per_cu", agent->simd_per_cu},
                            {"wave_front_size", agent->wave_front_size},
                            {"workgroup_max_size", agent->workgroup_max_size},
                            {"grid_max_size", agent->grid_max_size},
                            {"local_mem_size", agent->local_mem_size},
                            {"node_id", agent->node_id},
                            {"logical_node_id", agent->logical_node_id}});
    }
    return ROCPROFILER_STATUS_SUCCESS;
}

struct name_walk
{
    json kinds = json::array();
};

int
callback_operation_cb(rocprofiler_callback_tracing_kind_t kind,
                      rocprofiler_tracing_operation_t     operation,
                      void*                               data)
{
    auto*       ops  = static_cast<json*>(data);
    const char* name = nullptr;
    uint64_t    len  = 0;
    auto        status =
        rocprofiler_query_callback_tracing_kind_operation_name(kind, operation, &name, &len);
    ops->push_back(json{{"operation", operation},
                        {"status", rocprofiler_get_status_name(status)},
                        {"name", name != nullptr ? name : ""},
                        {"length", len}});
    return 0;
}

int
callback_kind_cb(rocprofiler_callback_tracing_kind_t kind, void* data)
{
    auto*       walk   = static_cast<name_walk*>(data);
    const char* name   = nullptr;
    uint64_t    len    = 0;
    auto        status = rocprofiler_query_callback_tracing_kind_name(kind, &name, &len);
    auto        ops    = json::array();
    auto        iter_status =
        rocprofiler_iterate_callback_tracing_kind_operations(kind, callback_operation_cb, &ops);
    walk->kinds.push_back(json{{"kind", kind},
                               {"status", rocprofiler_get_status_name(status)},
                               {"name", name != nullptr ? name : ""},
                               {"length", len},
                               {"iterate_status", rocprofiler_get_status_name(iter_status)},
                               {"operations", ops}});
    return 0;
}

int
buffer_operation_cb(rocprofiler_buffer_tracing_kind_t kind,
                    rocprofiler_tracing_operation_t   operation,
                    void*                             data)
{
    auto*       ops  = static_cast<json*>(data);
    const char* name = nullptr;
    uint64_t    len  = 0;
    auto        status =
        rocprofiler_query_buffer_tracing_kind_operation_name(kind, operation, &name, &len);
    ops->push_back(json{{"operation", operation},
                        {"status", rocprofiler_get_status_name(status)},
                        {"name", name != nullptr ? name : ""},
                        {"length", len}});
    return 0;
}

int
buffer_kind_cb(rocprofiler_buffer_tracing_kind_t kind, void* data)
{
    auto*       walk   = static_cast<name_walk*>(data);
    const char* name   = nullptr;
    uint64_t    len    = 0;
    auto        status = rocprofiler_query_buffer_tracing_kind_name(kind, &name, &len);
    auto        ops    = json::array();
    auto        iter_status =
        rocprofiler_iterate_buffer_tracing_kind_operations(kind, buffer_operation_cb, &ops);
    walk->kinds.push_back(json{{"kind", kind},
                               {"status", rocprofiler_get_status_name(status)},
                               {"name", name != nullptr ? name : ""},
                               {"length", len},
                               {"iterate_status", rocprofiler_get_status_name(iter_status)},
                               {"operations", ops}});
    return 0;
}

json
query_everything()
{
    auto out = json::object();

    auto agents = json::array();
    check(rocprofiler_query_available_agents(ROCPROFILER_AGENT_INFO_VERSION_0,
                                             agents_callback,
                                             sizeof(rocprofiler_agent_v0_t),
                                             &agents),
          "rocprofiler_query_available_agents");
    out["agents"] = agents;

    auto cb_walk = name_walk{};
    check(rocprofiler_iterate_callback_tracing_kinds(callback_kind_cb, &cb_walk),
          "rocprofiler_iterate_callback_tracing_kinds");
    out["callback_kinds"] = cb_walk.kinds;

    auto buf_walk = name_walk{};
    check(rocprofiler_iterate_buffer_tracing_kinds(buffer_kind_cb, &buf_walk),
          "rocprofiler_iterate_buffer_tracing_kinds");
    out["buffer_kinds"] = buf_walk.kinds;

    auto statuses = json::array();
    for(int code = ROCPROFILER_STATUS_SUCCESS; code < ROCPROFILER_STATUS_LAST; ++code)
    {
        const char* name = rocprofiler_get_status_name(static_cast<rocprofiler_status_t>(code));
        const char* text = rocprofiler_get_status_string(static_cast<rocprofiler_status_t>(code));
        statuses.push_back(json{{"code", code},
                                {"name", name != nullptr ? name : ""},
                                {"string", text != nullptr ? text : ""}});
    }
    out["statuses"] = statuses;

    uint32_t major = 0, minor = 0, patch = 0;
    check(rocprofiler_get_version(&major, &minor, &patch), "rocprofiler_get_version");
    out["library_version"] = json{{"major", major}, {"minor", minor}, {"patch", patch}};
    return out;
}

// ---- lifecycle ----------------------------------------------------------------------------------

int
tool_initialize(rocprofiler_client_finalize_t fini_func, void* tool_data)
{
    auto& st = state();
    auto  lk = std::unique_lock{st.mutex};
    ++st.initialize_calls;
    st.fini_func                           = fini_func;
    st.doc["initialize"]                   = json::object();
    st.doc["initialize"]["thread"]         = this_thread();
    st.doc["initialize"]["timestamp"]      = now();
    st.doc["initialize"]["tool_data_ok"]   = (tool_data == &st);
    st.doc["initialize"]["is_initialized"] = is_initialized();
    st.doc["initialize"]["is_finalized"]   = is_finalized();
    lk.unlock();

    check(rocprofiler_create_context(&st.context), "rocprofiler_create_context");
    check(
        rocprofiler_configure_callback_tracing_service(st.context,
                                                       ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                       nullptr,
                                                       0,
                                                       dispatch_callback,
                                                       &st),
        "rocprofiler_configure_callback_tracing_service");
    check(rocprofiler_create_buffer(st.context,
                                    kBufferBytes,
                                    kWatermark,
                                    ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                    buffer_callback,
                                    &st,
                                    &st.buffer),
          "rocprofiler_create_buffer");
    check(rocprofiler_configure_buffer_tracing_service(
              st.context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, st.buffer),
          "rocprofiler_configure_buffer_tracing_service");
    check(rocprofiler_create_callback_thread(&st.cb_thread), "rocprofiler_create_callback_thread");
    check(rocprofiler_assign_callback_thread(st.buffer, st.cb_thread),
          "rocprofiler_assign_callback_thread");
    const auto kinds = std::vector<rocprofiler_external_correlation_id_request_kind_t>{
        ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH};
    check(rocprofiler_configure_external_correlation_id_request_service(
              st.context, kinds.data(), kinds.size(), external_request, &st),
          "rocprofiler_configure_external_correlation_id_request_service");

    // External ids pushed on this thread: kPushedBase stays for the whole run.
    const auto tid = this_thread();
    check(rocprofiler_push_external_correlation_id(st.context, tid, {.value = kPushedBase}),
          "rocprofiler_push_external_correlation_id");
    check(rocprofiler_push_external_correlation_id(st.context, tid, {.value = kPushedBase + 1}),
          "rocprofiler_push_external_correlation_id");
    auto popped = rocprofiler_user_data_t{.value = 0};
    check(rocprofiler_pop_external_correlation_id(st.context, tid, &popped),
          "rocprofiler_pop_external_correlation_id");

    auto queries = query_everything();

    int valid = -1, active_before = -1, active_after = -1;
    check(rocprofiler_context_is_valid(st.context, &valid), "rocprofiler_context_is_valid");
    check(rocprofiler_context_is_active(st.context, &active_before),
          "rocprofiler_context_is_active");
    check(rocprofiler_start_context(st.context), "rocprofiler_start_context");
    // Starting an active context again is not an error.
    auto second_start = rocprofiler_start_context(st.context);
    check(rocprofiler_context_is_active(st.context, &active_after),
          "rocprofiler_context_is_active");

    lk.lock();
    st.doc["context_id"]                  = st.context.handle;
    st.doc["buffer_id"]                   = st.buffer.handle;
    st.doc["callback_thread_handle"]      = st.cb_thread.handle;
    st.doc["pushed_external_id"]          = kPushedBase;
    st.doc["popped_external_id"]          = popped.value;
    st.doc["initialize"]["context_valid"] = valid;
    st.doc["initialize"]["active_before"] = active_before;
    st.doc["initialize"]["active_after"]  = active_after;
    st.doc["initialize"]["second_start"]  = rocprofiler_get_status_name(second_start);
    for(auto& [key, value] : queries.items())
        st.doc[key] = value;
    return 0;
}

void
tool_finalize(void* tool_data)
{
    auto& st = state();
    // Records still buffered are delivered before the tool is finalized; flushing is harmless.
    auto flush_status = rocprofiler_flush_buffer(st.buffer);
    auto start_status = rocprofiler_start_context(st.context);
    int  active       = -1;
    rocprofiler_context_is_active(st.context, &active);

    auto lk = std::lock_guard{st.mutex};
    ++st.finalize_calls;
    st.doc["finalize"]          = json{{"thread", this_thread()},
                              {"timestamp", now()},
                              {"tool_data_ok", tool_data == &st},
                              {"is_initialized", is_initialized()},
                              {"is_finalized", is_finalized()},
                              {"flush_status", rocprofiler_get_status_name(flush_status)},
                              {"start_context_status", rocprofiler_get_status_name(start_status)},
                              {"active_after_start", active}};
    st.doc["configure_calls"]   = st.configure_calls;
    st.doc["initialize_calls"]  = st.initialize_calls;
    st.doc["finalize_calls"]    = st.finalize_calls;
    st.doc["callback_records"]  = st.callback_records;
    st.doc["buffer_records"]    = st.buffer_records;
    st.doc["buffer_deliveries"] = st.buffer_deliveries;
    st.doc["external_requests"] = st.external_requests;
    st.doc["errors"]            = st.errors;

    const char* path = std::getenv("TEST_TOOL_OUTPUT");
    if(path == nullptr || *path == '\0')
    {
        std::fprintf(stderr, "test-tool-cxx: TEST_TOOL_OUTPUT is not set; nothing written\n");
        return;
    }
    auto out = std::ofstream{path};
    out << st.doc.dump(1) << "\n";
    if(!out) std::fprintf(stderr, "test-tool-cxx: cannot write %s\n", path);
}
} // namespace

extern "C"
{
    // For test programs (found with dlsym): the context this tool traces with, 0 before initialize.
    __attribute__((visibility("default"))) uint64_t test_tool_cxx_context()
    {
        return state().context.handle;
    }

    rocprofiler_tool_configure_result_t* rocprofiler_configure(uint32_t    version,
                                                               const char* runtime_version,
                                                               uint32_t    priority,
                                                               rocprofiler_client_id_t* client_id)
    {
        auto& st = state();
        auto  lk = std::lock_guard{st.mutex};
        ++st.configure_calls;
        client_id->name = "test-tool-cxx";
        st.client_id    = client_id;
        st.doc["configure"] =
            json{{"version", version},
                 {"runtime_version", runtime_version != nullptr ? runtime_version : ""},
                 {"priority", priority},
                 {"client_handle", client_id->handle},
                 {"client_size", client_id->size},
                 {"thread", this_thread()},
                 {"timestamp", now()},
                 {"is_initialized", is_initialized()},
                 {"is_finalized", is_finalized()}};
        static auto result = rocprofiler_tool_configure_result_t{
            sizeof(rocprofiler_tool_configure_result_t), tool_initialize, tool_finalize, &st};
        return &result;
    }
}
