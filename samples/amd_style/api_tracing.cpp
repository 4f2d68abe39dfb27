// api_tracing: a tool written as tools for AMD's rocprofiler-sdk are written, against the C API
// and its C++ helpers only (rocprofiler-sdk/cxx/): it names kinds and operations through
// get_buffer_tracing_names() / get_callback_tracing_names(), keys maps with the handles
// (cxx/hash.hpp, cxx/operators.hpp), traces kernel dispatches and memory copies into a buffer
// delivered on a callback thread of its own, and code objects and kernel symbols through the
// callback service. At exit it checks what it saw and prints one summary line, ending in PASS or
// FAIL. Output: stderr, or the file AMD_STYLE_OUTPUT names.
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/cxx/hash.hpp>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/cxx/operators.hpp>
#include <rocprofiler-sdk/cxx/utility.hpp>
#include <rocprofiler-sdk/cxx/version.hpp>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <unordered_set>

#define ROCPROFILER_CALL(result, msg)                                                              \
    {                                                                                              \
        rocprofiler_status_t CHECKSTATUS = result;                                                 \
        if(CHECKSTATUS != ROCPROFILER_STATUS_SUCCESS)                                              \
        {                                                                                          \
            std::cerr << "[api_tracing] " << msg << " failed with error code " << CHECKSTATUS      \
                      << ": " << rocprofiler_get_status_string(CHECKSTATUS) << std::endl;          \
            std::abort();                                                                          \
        }                                                                                          \
    }

namespace
{
struct tool_state
{
    std::mutex                                               mutex        = {};
    rocprofiler::sdk::buffer_name_info                       buffer_names = {};
    rocprofiler::sdk::callback_name_info                     cb_names     = {};
    std::unordered_map<rocprofiler_kernel_id_t, std::string> kernel_names = {};
    std::unordered_set<uint64_t>                             code_objects = {};
    std::map<std::string, size_t>                            per_kernel   = {};
    std::unordered_map<rocprofiler_agent_id_t, size_t>       per_agent    = {};
    std::ostringstream                                       log          = {};
    size_t                                                   dispatches   = 0;
    size_t                                                   copies       = 0;
    size_t                                                   copy_bytes   = 0;
    size_t                                                   bad_records  = 0;
    uint64_t                                                 dropped      = 0;
};

tool_state*              state         = nullptr;
rocprofiler_context_id_t client_ctx    = {};
rocprofiler_buffer_id_t  client_buffer = {};
rocprofiler_client_id_t* client_id     = nullptr;

void
code_object_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT) return;
    if(record.phase != ROCPROFILER_CALLBACK_PHASE_LOAD) return;
    auto lock = std::lock_guard{state->mutex};
    if(record.operation == ROCPROFILER_CODE_OBJECT_LOAD)
    {
        auto* data =
            static_cast<rocprofiler_callback_tracing_code_object_load_data_t*>(record.payload);
        state->code_objects.insert(data->code_object_id);
    }
    else if(record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
    {
        auto* data =
            static_cast<rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
                record.payload);
        state->kernel_names[data->kernel_id] = data->kernel_name;
    }
}

void
tracing_buffered(rocprofiler_context_id_t      context,
                 rocprofiler_buffer_id_t       buffer_id,
                 rocprofiler_record_header_t** headers,
                 size_t                        num_headers,
                 void*,
                 uint64_t drop_count)
{
    auto lock = std::lock_guard{state->mutex};
    state->dropped += drop_count;
    if(context != client_ctx || buffer_id != client_buffer) ++state->bad_records;
    for(size_t i = 0; i < num_headers; ++i)
    {
        auto* header = headers[i];
        if(header->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
        if(header->hash != rocprofiler_record_header_compute_hash(header->category, header->kind))
            ++state->bad_records;
        if(header->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
        {
            auto* record =
                static_cast<rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(header->payload);
            const auto& info = record->dispatch_info;
            auto        name = state->kernel_names.find(info.kernel_id);
            const auto  kernel =
                (name != state->kernel_names.end()) ? name->second : std::string{"<unknown>"};
            if(record->start_timestamp > record->end_timestamp || name == state->kernel_names.end())
                ++state->bad_records;
            ++state->dispatches;
            ++state->per_kernel[kernel];
            ++state->per_agent[info.agent_id];
            state->log << state->buffer_names.at(record->kind) << " "
                       << state->buffer_names.at(record->kind, record->operation)
                       << " kernel=" << kernel << " dispatch=" << info.dispatch_id
                       << " agent=" << info.agent_id.handle
                       << " correlation=" << record->correlation_id.internal
                       << " grid=" << info.grid_size.x << " workgroup=" << info.workgroup_size.x
                       << " duration_ns=" << (record->end_timestamp - record->start_timestamp)
                       << "\n";
        }
        else if(header->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY)
        {
            auto* record =
                static_cast<rocprofiler_buffer_tracing_memory_copy_record_t*>(header->payload);
            ++state->copies;
            state->copy_bytes += record->bytes;
            state->log << state->buffer_names.at(record->kind) << " "
                       << state->buffer_names.at(record->kind, record->operation)
                       << " bytes=" << record->bytes << " dst="
                       << rocprofiler::sdk::utility::as_hex(record->dst_address.value, 12)
                       << " src="
                       << rocprofiler::sdk::utility::as_hex(record->src_address.value, 12) << "\n";
        }
    }
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    state               = new tool_state{};
    state->buffer_names = rocprofiler::sdk::get_buffer_tracing_names();
    state->cb_names     = rocprofiler::sdk::get_callback_tracing_names();

    ROCPROFILER_CALL(rocprofiler_create_context(&client_ctx), "context creation");
    ROCPROFILER_CALL(
        rocprofiler_configure_callback_tracing_service(client_ctx,
                                                       ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                       nullptr,
                                                       0,
                                                       code_object_callback,
                                                       nullptr),
        "code object tracing service configure");

    constexpr auto buffer_size      = 8192;
    constexpr auto buffer_watermark = 7936;
    ROCPROFILER_CALL(rocprofiler_create_buffer(client_ctx,
                                               buffer_size,
                                               buffer_watermark,
                                               ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                               tracing_buffered,
                                               nullptr,
                                               &client_buffer),
                     "buffer creation");
    for(auto kind :
        {ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY})
        ROCPROFILER_CALL(rocprofiler_configure_buffer_tracing_service(
                             client_ctx, kind, nullptr, 0, client_buffer),
                         "buffer tracing service configure");

    auto client_thread = rocprofiler_callback_thread_t{};
    ROCPROFILER_CALL(rocprofiler_create_callback_thread(&client_thread),
                     "creating callback thread");
    ROCPROFILER_CALL(rocprofiler_assign_callback_thread(client_buffer, client_thread),
                     "assignment of thread for buffer");

    int valid_ctx = 0;
    ROCPROFILER_CALL(rocprofiler_context_is_valid(client_ctx, &valid_ctx),
                     "context validity check");
    if(valid_ctx == 0) return -1;
    ROCPROFILER_CALL(rocprofiler_start_context(client_ctx), "rocprofiler context start");
    return 0;
}

void
tool_fini(void*)
{
    rocprofiler_flush_buffer(client_buffer);
    rocprofiler_stop_context(client_ctx);

    auto lock = std::lock_guard{state->mutex};
    auto ok =
        state->bad_records == 0 && state->dropped == 0 && state->dispatches > 0 &&
        !state->kernel_names.empty() && !state->code_objects.empty() &&
        state->buffer_names.at(ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) == "KERNEL_DISPATCH" &&
        state->cb_names.at(ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT) == "CODE_OBJECT";
    for(const auto& [kernel, count] : state->per_kernel)
        state->log << "kernel " << kernel << " dispatches=" << count << "\n";
    state->log << "api_tracing: " << state->dispatches << " dispatches of "
               << state->per_kernel.size() << " kernels on " << state->per_agent.size()
               << " agent(s), " << state->copies << " copies (" << state->copy_bytes << " bytes), "
               << state->kernel_names.size() << " kernel symbols in " << state->code_objects.size()
               << " code objects: " << (ok ? "PASS" : "FAIL") << "\n";

    const char* path = std::getenv("AMD_STYLE_OUTPUT");
    if(path != nullptr && *path != '\0')
        std::ofstream{path} << state->log.str();
    else
        std::cerr << state->log.str() << std::flush;
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t                 version,
                      const char*              runtime_version,
                      uint32_t                 priority,
                      rocprofiler_client_id_t* id)
{
    id->name  = "amd-style-api-tracing";
    client_id = id;

    const auto triplet = rocprofiler::sdk::version::compute_version_triplet(version);
    std::clog << "[" << id->name << "] rocprofiler-sdk " << triplet.major << "." << triplet.minor
              << "." << triplet.patch << " (" << runtime_version << "), priority " << priority
              << "\n";

    static auto cfg = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), &tool_init, &tool_fini, nullptr};
    return &cfg;
}
