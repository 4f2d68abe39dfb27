// The tool's SDK contexts, set up once the runtime starts (tool_initialize): the main context
// (code objects, the buffer of dispatch, memory copy and CUDA API records, kernel dispatch
// callbacks, counters), the replay context and the marker context.
#include "capture/agents.hpp"
#include "capture/tool_state.hpp"
#include "log.hpp"
#include "session/run_report.hpp"

#include <unistd.h>

#include <mutex>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
// The model's facts of this process: agents and counters, pid, command line, start time.
void
describe_process(std::vector<std::string>& errors)
{
    auto agents = query_agents(state->data.counters, errors);
    {
        auto lock          = std::lock_guard{state->mutex};
        state->data.agents = std::move(agents);
    }
    state->data.pid              = static_cast<uint64_t>(getpid());
    state->data.command          = command_line();
    state->data.agent_index_mode = state->cfg.agent_index == "absolute" ? agent_index::absolute
                                   : state->cfg.agent_index == "type-relative"
                                       ? agent_index::type_relative
                                       : agent_index::relative;
    rocprofiler_get_timestamp(&state->data.init_time);
}

// The buffer and the buffer tracing services of the main context: dispatch, memory copy and CUDA
// API records.
bool
setup_buffer(const config& cfg)
{
    auto ok = true;
    if(ok && cfg.uses_buffer())
        ok = ROCPROFV3_CALL(rocprofiler_create_buffer(state->context,
                                                      1U << 20U,
                                                      (1U << 20U) - (1U << 16U),
                                                      ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                      buffer_callback,
                                                      nullptr,
                                                      &state->buffer));
    if(ok && cfg.records_dispatches())
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, state->buffer));
    if(ok && cfg.memory_copy_trace)
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context, ROCPROFILER_BUFFER_TRACING_MEMORY_COPY, nullptr, 0, state->buffer));
    if(ok && cfg.cuda_runtime_trace)
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context,
            ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API,
            nullptr,
            0,
            state->buffer));
    if(ok && cfg.cuda_driver_trace)
        ok = ROCPROFV3_CALL(rocprofiler_configure_buffer_tracing_service(
            state->context, ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, nullptr, 0, state->buffer));
    return ok;
}
} // namespace

int
initialize()
{
    auto errors = std::vector<std::string>{};
    describe_process(errors);

    const auto& cfg = state->cfg;
    auto        ok  = ROCPROFV3_CALL(rocprofiler_create_context(&state->context));
    // Kernel names: symbols registered before the context starts arrive when it starts. Without
    // code object tracing the tool still profiles; kernels are then named kernel_<id>.
    if(ok)
    {
        auto ops = std::vector<rocprofiler_tracing_operation_t>{
            ROCPROFILER_CODE_OBJECT_LOAD, ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER};
        (void)ROCPROFV3_CALL(
            rocprofiler_configure_callback_tracing_service(state->context,
                                                           ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                           ops.data(),
                                                           ops.size(),
                                                           code_object_callback,
                                                           nullptr));
    }
    ok = ok && setup_buffer(cfg);
    if(ok && (cfg.records_dispatches() || cfg.counter_collection))
    {
        auto ops = rocprofiler_tracing_operation_t{ROCPROFILER_KERNEL_DISPATCH_ENQUEUE};
        ok       = ROCPROFV3_CALL(rocprofiler_configure_callback_tracing_service(
            state->context,
            ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
            &ops,
            1,
            kernel_dispatch_callback,
            nullptr));
    }
    if(ok && cfg.counter_collection)
    {
        ok = setup_counters(cfg, state->data, state->counters, errors) &&
             ROCPROFV3_CALL(rocprofiler_configure_callback_dispatch_counting_service(
                 state->context,
                 counting_dispatch_callback,
                 nullptr,
                 counting_record_callback,
                 nullptr));
    }
    if(ok && cfg.pc_sampling()) ok = setup_pc_sampling(cfg, errors);
    // The replay context exists only when rocprofv3 was given --replay-mode kernel.
    if(ok && cfg.kernel_replay) ok = setup_kernel_replay();
    // --selected-regions: nothing is collected until the program's first roctxProfilerResume.
    state->collecting = !cfg.selected_regions;
    if(ok && !cfg.selected_regions) ok = ROCPROFV3_CALL(rocprofiler_start_context(state->context));
    if(ok && !cfg.selected_regions && cfg.pc_sampling())
        ok = ROCPROFV3_CALL(rocprofiler_start_context(state->pc_context));
    if(ok && (cfg.marker_trace || cfg.selected_regions || cfg.follows_ranges()))
        ok = setup_markers();

    for(const auto& e : errors)
        log::error(e);
    if(!ok || !errors.empty())
    {
        log::error("profiling is disabled for this process");
        run_report::send("disabled",
                         errors.empty() ? std::string{"the SDK refused the tool's configuration"}
                                        : errors.front());
        return 1;
    }
    start_outputs();
    return 0;
}
} // namespace rocprofiler::tool
