// Test tool of the NVTX injection (nvtx_markers.cu): callback-traces MARKER_CORE_API,
// MARKER_CONTROL_API (cuProfilerStart/Stop) and MARKER_NAME_API and appends one line per EXIT
// record, "<operation name> <message> <retval>", to the file NVTX_MARKER_TOOL_OUTPUT names (the
// message is "-" for an operation without one, the retval "-" for one that returns nothing).
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/marker.h>
#include <rocprofiler-sdk/registration.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <string>

namespace
{
std::mutex file_mutex;
std::FILE* output = nullptr;

std::string
operation_name(rocprofiler_callback_tracing_kind_t kind, rocprofiler_tracing_operation_t op)
{
    const char* name = nullptr;
    uint64_t    len  = 0;
    if(rocprofiler_query_callback_tracing_kind_operation_name(kind, op, &name, &len) !=
           ROCPROFILER_STATUS_SUCCESS ||
       name == nullptr)
        return "op" + std::to_string(op);
    return std::string{name, len};
}

void
marker_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.phase != ROCPROFILER_CALLBACK_PHASE_EXIT || output == nullptr) return;
    const auto* data =
        static_cast<const rocprofiler_callback_tracing_marker_api_data_t*>(record.payload);
    auto message = std::string{"-"};
    auto retval  = std::string{"-"};
    if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API)
    {
        switch(record.operation)
        {
        case ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA:
            message = data->args.roctxMarkA.message;
            break;
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA:
            message = data->args.roctxRangePushA.message;
            retval  = std::to_string(data->retval.int32_t_retval);
            break;
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop:
            retval = std::to_string(data->retval.int32_t_retval);
            break;
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA:
            message = data->args.roctxRangeStartA.message;
            retval  = std::to_string(data->retval.roctx_range_id_t_retval);
            break;
        case ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop:
            retval = "id=" + std::to_string(data->args.roctxRangeStop.id);
            break;
        default:
            break;
        }
    }
    else if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API)
    {
        retval =
            "tid=" +
            std::to_string(record.operation == ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause
                               ? data->args.roctxProfilerPause.tid
                               : data->args.roctxProfilerResume.tid);
    }
    else if(record.kind == ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API &&
            record.operation == ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread)
    {
        message = data->args.roctxNameOsThread.name;
    }
    auto lock = std::lock_guard<std::mutex>{file_mutex};
    std::fprintf(output,
                 "%s %s %s\n",
                 operation_name(record.kind, record.operation).c_str(),
                 message.c_str(),
                 retval.c_str());
    std::fflush(output);
}

int
tool_init(rocprofiler_client_finalize_t, void*)
{
    if(const char* path = std::getenv("NVTX_MARKER_TOOL_OUTPUT")) output = std::fopen(path, "w");
    if(output == nullptr) return 1;
    auto ctx = rocprofiler_context_id_t{};
    if(rocprofiler_create_context(&ctx) != ROCPROFILER_STATUS_SUCCESS) return 1;
    for(auto kind : {ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
                     ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,
                     ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API})
        if(rocprofiler_configure_callback_tracing_service(
               ctx, kind, nullptr, 0, marker_callback, nullptr) != ROCPROFILER_STATUS_SUCCESS)
            return 1;
    return rocprofiler_start_context(ctx) == ROCPROFILER_STATUS_SUCCESS ? 0 : 1;
}

void
tool_fini(void*)
{
    auto lock = std::lock_guard<std::mutex>{file_mutex};
    if(output != nullptr) std::fclose(output);
    output = nullptr;
}
} // namespace

extern "C" rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* id)
{
    id->name           = "nvtx-marker-tool";
    static auto result = rocprofiler_tool_configure_result_t{
        sizeof(rocprofiler_tool_configure_result_t), tool_init, tool_fini, nullptr};
    return &result;
}
