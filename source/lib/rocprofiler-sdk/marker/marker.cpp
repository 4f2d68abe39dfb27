#include "marker/marker.hpp"

#include "buffer/buffer.hpp"
#include "common/guard.hpp"
#include "common/logging.hpp"
#include "common/thread.hpp"
#include "common/time.hpp"
#include "context/context.hpp"
#include "correlation/correlation.hpp"
#include "dispatch/api_call.hpp"
#include "dispatch/dispatch.hpp"
#include "registration/registration.hpp"

#include <rocprofiler-sdk-roctx/api_trace.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/external_correlation.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <string_view>

namespace rocprofiler::marker
{
namespace
{
constexpr auto domain_count = size_t{3};

rocprofiler_external_correlation_id_request_kind_t
request_kind(domain d)
{
    switch(d)
    {
    case domain::core:
        return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_API;
    case domain::control:
        return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CONTROL_API;
    case domain::name:
        return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_NAME_API;
    }
    return ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE;
}

const char*
callback_label(domain d)
{
    switch(d)
    {
    case domain::core:
        return "MARKER_CORE_API callback";
    case domain::control:
        return "MARKER_CONTROL_API callback";
    case domain::name:
        return "MARKER_NAME_API callback";
    }
    return "marker callback";
}

thread_local int32_t  push_stack_depth = 0;
std::atomic<uint64_t> range_ids{0};
} // namespace

rocprofiler_callback_tracing_kind_t
callback_kind(domain d)
{
    switch(d)
    {
    case domain::core:
        return ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API;
    case domain::control:
        return ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API;
    case domain::name:
        return ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API;
    }
    return ROCPROFILER_CALLBACK_TRACING_NONE;
}

rocprofiler_buffer_tracing_kind_t
buffer_kind(domain d)
{
    switch(d)
    {
    case domain::core:
        return ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API;
    case domain::control:
        return ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API;
    case domain::name:
        return ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API;
    }
    return ROCPROFILER_BUFFER_TRACING_NONE;
}

bool
configured()
{
    auto any = false;
    context::for_each(
        [&any](context::context& ctx)
        {
            for(size_t i = 0; i < domain_count; ++i)
            {
                const auto d = static_cast<domain>(i);
                if(ctx.callback_tracer && ctx.callback_tracer->kinds[callback_kind(d)].has_value())
                    any = true;
                if(ctx.buffered_tracer && ctx.buffered_tracer->kinds[buffer_kind(d)].has_value())
                    any = true;
            }
        });
    return any;
}

rocprofiler_marker_api_retval_t
traced(domain d, int32_t op, const rocprofiler_marker_api_args_t& args, call_fn call, void* data)
{
    auto       parts = dispatch::api_call::participants{};
    const auto count =
        dispatch::api_call::gather(callback_kind(d), buffer_kind(d), op, parts, "marker tracing");
    if(count == 0) return call(args, data);

    const auto tid         = common::thread_id();
    const auto internal_id = correlation::next_id();
    const auto ancestor    = correlation::current_ancestor();
    dispatch::api_call::request_external_ids(parts, count, tid, request_kind(d), op, internal_id);

    auto payload = rocprofiler_callback_tracing_marker_api_data_t{};
    payload.size = sizeof(payload);
    payload.args = args;
    auto fire    = [&](rocprofiler_callback_phase_t phase)
    {
        auto record                    = rocprofiler_callback_tracing_record_t{};
        record.thread_id               = tid;
        record.correlation_id.internal = internal_id;
        record.correlation_id.ancestor = ancestor;
        record.kind                    = callback_kind(d);
        record.operation               = op;
        record.phase                   = phase;
        record.payload                 = &payload;
        for(size_t i = 0; i < count; ++i)
            dispatch::api_call::fire(parts[i], record, callback_label(d));
    };

    fire(ROCPROFILER_CALLBACK_PHASE_ENTER);
    const auto start = common::timestamp_ns();
    const auto ret   = call(args, data);
    const auto end   = common::timestamp_ns();
    payload.retval   = ret;
    fire(ROCPROFILER_CALLBACK_PHASE_EXIT);

    for(size_t i = 0; i < count; ++i)
    {
        const auto& p = parts[i];
        if(p.buffer == nullptr) continue;
        auto record                    = rocprofiler_buffer_tracing_marker_api_record_t{};
        record.size                    = sizeof(record);
        record.kind                    = buffer_kind(d);
        record.operation               = op;
        record.correlation_id.internal = internal_id;
        record.correlation_id.external = p.external;
        record.correlation_id.ancestor = ancestor;
        record.start_timestamp         = start;
        record.end_timestamp           = end;
        record.thread_id               = tid;
        buffer::emplace(
            p.buffer->buffer, ROCPROFILER_BUFFER_CATEGORY_TRACING, buffer_kind(d), record);
    }
    return ret;
}

int32_t
push_depth()
{
    return push_stack_depth++;
}

int32_t
pop_depth()
{
    if(push_stack_depth == 0) return -1;
    return --push_stack_depth;
}

roctx_range_id_t
next_range_id()
{
    return range_ids.fetch_add(1, std::memory_order_relaxed) + 1;
}

namespace
{
// The library's own entries, called by the wrappers below.
roctxCoreApiTable_t    original_core    = {};
roctxControlApiTable_t original_control = {};
roctxNameApiTable_t    original_name    = {};

rocprofiler_marker_api_retval_t
int_result(int value)
{
    auto ret           = rocprofiler_marker_api_retval_t{};
    ret.int32_t_retval = value;
    return ret;
}

// Whether a table the library passed has room for an entry (an older library's table may be
// shorter than ours) and fills it.
#define ROCP_HAS_ENTRY(TABLE, TYPE, MEMBER)                                                        \
    ((TABLE)->size >= offsetof(TYPE, MEMBER) + sizeof((TABLE)->MEMBER) &&                          \
     (TABLE)->MEMBER != nullptr)

void
wrap_core(roctxCoreApiTable_t* table)
{
    original_core = *table;
    if(ROCP_HAS_ENTRY(table, roctxCoreApiTable_t, roctxMarkA_fn))
        table->roctxMarkA_fn = [](const char* message)
        {
            auto args               = rocprofiler_marker_api_args_t{};
            args.roctxMarkA.message = message;
            traced(
                domain::core,
                ROCPROFILER_MARKER_CORE_API_ID_roctxMarkA,
                args,
                [](const rocprofiler_marker_api_args_t& a, void*)
                {
                    original_core.roctxMarkA_fn(a.roctxMarkA.message);
                    return rocprofiler_marker_api_retval_t{};
                },
                nullptr);
        };
    if(ROCP_HAS_ENTRY(table, roctxCoreApiTable_t, roctxRangePushA_fn))
        table->roctxRangePushA_fn = [](const char* message)
        {
            auto args                    = rocprofiler_marker_api_args_t{};
            args.roctxRangePushA.message = message;
            return traced(
                       domain::core,
                       ROCPROFILER_MARKER_CORE_API_ID_roctxRangePushA,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*) {
                           return int_result(
                               original_core.roctxRangePushA_fn(a.roctxRangePushA.message));
                       },
                       nullptr)
                .int32_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxCoreApiTable_t, roctxRangePop_fn))
        table->roctxRangePop_fn = []()
        {
            auto args                        = rocprofiler_marker_api_args_t{};
            args.roctxRangePop.no_args.empty = '\0';
            return traced(
                       domain::core,
                       ROCPROFILER_MARKER_CORE_API_ID_roctxRangePop,
                       args,
                       [](const rocprofiler_marker_api_args_t&, void*)
                       { return int_result(original_core.roctxRangePop_fn()); },
                       nullptr)
                .int32_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxCoreApiTable_t, roctxRangeStartA_fn))
        table->roctxRangeStartA_fn = [](const char* message)
        {
            auto args                     = rocprofiler_marker_api_args_t{};
            args.roctxRangeStartA.message = message;
            return traced(
                       domain::core,
                       ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStartA,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*)
                       {
                           auto ret = rocprofiler_marker_api_retval_t{};
                           ret.roctx_range_id_t_retval =
                               original_core.roctxRangeStartA_fn(a.roctxRangeStartA.message);
                           return ret;
                       },
                       nullptr)
                .roctx_range_id_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxCoreApiTable_t, roctxRangeStop_fn))
        table->roctxRangeStop_fn = [](roctx_range_id_t id)
        {
            auto args              = rocprofiler_marker_api_args_t{};
            args.roctxRangeStop.id = id;
            traced(
                domain::core,
                ROCPROFILER_MARKER_CORE_API_ID_roctxRangeStop,
                args,
                [](const rocprofiler_marker_api_args_t& a, void*)
                {
                    original_core.roctxRangeStop_fn(a.roctxRangeStop.id);
                    return rocprofiler_marker_api_retval_t{};
                },
                nullptr);
        };
    if(ROCP_HAS_ENTRY(table, roctxCoreApiTable_t, roctxGetThreadId_fn))
        table->roctxGetThreadId_fn = [](roctx_thread_id_t* tid)
        {
            auto args                 = rocprofiler_marker_api_args_t{};
            args.roctxGetThreadId.tid = tid;
            return traced(
                       domain::core,
                       ROCPROFILER_MARKER_CORE_API_ID_roctxGetThreadId,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*) {
                           return int_result(
                               original_core.roctxGetThreadId_fn(a.roctxGetThreadId.tid));
                       },
                       nullptr)
                .int32_t_retval;
        };
}

void
wrap_control(roctxControlApiTable_t* table)
{
    original_control = *table;
    if(ROCP_HAS_ENTRY(table, roctxControlApiTable_t, roctxProfilerPause_fn))
        table->roctxProfilerPause_fn = [](roctx_thread_id_t tid)
        {
            auto args                   = rocprofiler_marker_api_args_t{};
            args.roctxProfilerPause.tid = tid;
            return traced(
                       domain::control,
                       ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerPause,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*) {
                           return int_result(
                               original_control.roctxProfilerPause_fn(a.roctxProfilerPause.tid));
                       },
                       nullptr)
                .int32_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxControlApiTable_t, roctxProfilerResume_fn))
        table->roctxProfilerResume_fn = [](roctx_thread_id_t tid)
        {
            auto args                    = rocprofiler_marker_api_args_t{};
            args.roctxProfilerResume.tid = tid;
            return traced(
                       domain::control,
                       ROCPROFILER_MARKER_CONTROL_API_ID_roctxProfilerResume,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*) {
                           return int_result(
                               original_control.roctxProfilerResume_fn(a.roctxProfilerResume.tid));
                       },
                       nullptr)
                .int32_t_retval;
        };
}

void
wrap_name(roctxNameApiTable_t* table)
{
    original_name = *table;
    if(ROCP_HAS_ENTRY(table, roctxNameApiTable_t, roctxNameOsThread_fn))
        table->roctxNameOsThread_fn = [](const char* name)
        {
            auto args                   = rocprofiler_marker_api_args_t{};
            args.roctxNameOsThread.name = name;
            return traced(
                       domain::name,
                       ROCPROFILER_MARKER_NAME_API_ID_roctxNameOsThread,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*) {
                           return int_result(
                               original_name.roctxNameOsThread_fn(a.roctxNameOsThread.name));
                       },
                       nullptr)
                .int32_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxNameApiTable_t, roctxNameHsaAgent_fn))
        table->roctxNameHsaAgent_fn = [](const char* name, const struct hsa_agent_s* agent)
        {
            auto args                    = rocprofiler_marker_api_args_t{};
            args.roctxNameHsaAgent.name  = name;
            args.roctxNameHsaAgent.agent = agent;
            return traced(
                       domain::name,
                       ROCPROFILER_MARKER_NAME_API_ID_roctxNameHsaAgent,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*)
                       {
                           return int_result(original_name.roctxNameHsaAgent_fn(
                               a.roctxNameHsaAgent.name, a.roctxNameHsaAgent.agent));
                       },
                       nullptr)
                .int32_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxNameApiTable_t, roctxNameHipDevice_fn))
        table->roctxNameHipDevice_fn = [](const char* name, int device_id)
        {
            auto args                         = rocprofiler_marker_api_args_t{};
            args.roctxNameHipDevice.name      = name;
            args.roctxNameHipDevice.device_id = device_id;
            return traced(
                       domain::name,
                       ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipDevice,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*)
                       {
                           return int_result(original_name.roctxNameHipDevice_fn(
                               a.roctxNameHipDevice.name, a.roctxNameHipDevice.device_id));
                       },
                       nullptr)
                .int32_t_retval;
        };
    if(ROCP_HAS_ENTRY(table, roctxNameApiTable_t, roctxNameHipStream_fn))
        table->roctxNameHipStream_fn = [](const char* name, const struct ihipStream_t* stream)
        {
            auto args                      = rocprofiler_marker_api_args_t{};
            args.roctxNameHipStream.name   = name;
            args.roctxNameHipStream.stream = stream;
            return traced(
                       domain::name,
                       ROCPROFILER_MARKER_NAME_API_ID_roctxNameHipStream,
                       args,
                       [](const rocprofiler_marker_api_args_t& a, void*)
                       {
                           return int_result(original_name.roctxNameHipStream_fn(
                               a.roctxNameHipStream.name, a.roctxNameHipStream.stream));
                       },
                       nullptr)
                .int32_t_retval;
        };
}
#undef ROCP_HAS_ENTRY
} // namespace

int
take_roctx_tables(uint64_t lib_version, uint64_t lib_instance, void** tables, uint64_t count)
{
    if(tables == nullptr || count < 3) return 1;
    auto* core    = static_cast<roctxCoreApiTable_t*>(tables[0]);
    auto* control = static_cast<roctxControlApiTable_t*>(tables[1]);
    auto* name    = static_cast<roctxNameApiTable_t*>(tables[2]);
    if(core == nullptr || control == nullptr || name == nullptr) return 1;
    // One library per process: a second copy (a program that loaded two) keeps its own entries
    // rather than overwriting the first one's originals.
    static std::once_flag once;
    auto                  taken = false;
    std::call_once(once, [&] { taken = true; });
    if(!taken || lib_instance != 0)
    {
        ROCP_LOG(warning) << "roctx: a second copy of the ROCTx library (instance " << lib_instance
                          << ", version " << lib_version
                          << ") registered; its markers are not traced";
        return 1;
    }
    registration::initialize();
    // Always wrapped: a call no context traces costs one look at the contexts.
    wrap_core(core);
    wrap_control(control);
    wrap_name(name);
    ROCP_LOG(debug) << "roctx: version " << lib_version << " registered; its calls are traced";
    return 0;
}
} // namespace rocprofiler::marker

extern "C" ROCPROFILER_API int
rocprofiler_set_api_table(const char* name,
                          uint64_t    lib_version,
                          uint64_t    lib_instance,
                          void**      tables,
                          uint64_t    num_tables)
{
    return rocprofiler::common::guarded(
        "rocprofiler_set_api_table",
        [&]() -> int
        {
            if(name == nullptr) return 1;
            if(std::string_view{name} == "roctx")
                return rocprofiler::marker::take_roctx_tables(
                    lib_version, lib_instance, tables, num_tables);
            ROCP_LOG(debug) << "rocprofiler_set_api_table: no tracing for library '" << name << "'";
            return 1;
        },
        [](rocprofiler::common::caught) { return 1; });
}
