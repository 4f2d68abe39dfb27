// The capture side: the SDK's callbacks turn its records into the plain records of output.hpp
// (the model) and hand them to the outputs (state->outputs, sinks/fan_out.hpp). Nothing here
// knows a file format. Kernel names come from CODE_OBJECT tracing (kernel symbol records),
// through the public API only, so the tool works on any agent. Every function the SDK calls
// catches all exceptions (callback_guard.hpp).
#include "capture/callback_guard.hpp"
#include "capture/tool_state.hpp"
#include "config/parse.hpp"
#include "log.hpp"
#include "model/names.hpp"

#include <mutex>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
namespace
{
// The kernel's name from its CODE_OBJECT symbol record; a kernel id never reported gets the
// placeholder kernel_<id>, with a warning the first time.
std::string
resolve_kernel_name(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto warning = std::string{};
    auto name    = std::string{};
    {
        auto lock = std::lock_guard{state->mutex};
        name      = ensure_kernel_symbol(state->data, info.kernel_id, &warning).name;
    }
    if(!warning.empty()) log::warning(warning);
    return name;
}

// One CUDA API row, to every output. Called with state->mutex held.
void
record_api_call(const marker_event& e)
{
    state->outputs.api_call(state->data, e);
    if(state->cfg.stats || state->cfg.summary)
        state->data.domain_stats.add(e.domain, e.function, e.start, e.end);
    ++state->api_rows;
    state->changed = true;
}

// A CUDA API buffer record as its cuda_api_trace.csv row.
marker_event
api_row(const rocprofiler_record_header_t& header)
{
    const auto& r =
        *static_cast<const rocprofiler_buffer_tracing_cuda_api_record_t*>(header.payload);
    auto        e    = marker_event{};
    const char* kind = nullptr;
    if(rocprofiler_query_buffer_tracing_kind_name(r.kind, &kind, nullptr) ==
           ROCPROFILER_STATUS_SUCCESS &&
       kind != nullptr)
        e.domain = kind;
    const char* name = nullptr;
    if(rocprofiler_query_buffer_tracing_kind_operation_name(r.kind, r.operation, &name, nullptr) ==
           ROCPROFILER_STATUS_SUCCESS &&
       name != nullptr)
        e.function = name;
    else
        e.function = "operation " + std::to_string(r.operation);
    e.thread_id      = r.thread_id;
    e.correlation_id = r.correlation_id.internal;
    e.start          = r.start_timestamp;
    e.end            = r.end_timestamp;
    return e;
}
} // namespace

// replay_ledger's sink: one dispatch rocprofv3 asked to replay, with the counter groups it is
// missing, to every output. Called with state->mutex held.
void
record_replay_outcome(const replay_outcome& outcome, const std::vector<uint64_t>& missing)
{
    state->outputs.replay_outcome(state->data, outcome, missing);
    state->changed = true;
}

bool
accept(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto name = resolve_kernel_name(info);
    return state->filter.accept(info.dispatch_id, name);
}

void
code_object_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    guarded(
        "the code object callback",
        [&]
        {
            if(record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT ||
               record.phase != ROCPROFILER_CALLBACK_PHASE_LOAD || record.payload == nullptr)
                return;
            if(record.operation == ROCPROFILER_CODE_OBJECT_LOAD)
            {
                const auto* p =
                    static_cast<const rocprofiler_callback_tracing_code_object_load_data_t*>(
                        record.payload);
                auto entry       = code_object_entry{};
                entry.id         = p->code_object_id;
                entry.agent      = p->agent_id;
                entry.uri        = p->uri != nullptr ? p->uri : "";
                entry.load_base  = p->load_base;
                entry.load_size  = p->load_size;
                entry.load_delta = p->load_delta;
                auto lock        = std::lock_guard{state->mutex};
                state->outputs.code_object(entry);
                state->data.code_objects[entry.id] = std::move(entry);
            }
            else if(record.operation == ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
            {
                const auto* p = static_cast<
                    const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
                    record.payload);
                auto sym                      = kernel_symbol{};
                sym.kernel_id                 = p->kernel_id;
                sym.code_object_id            = p->code_object_id;
                sym.name                      = p->kernel_name != nullptr
                                                    ? parse::format_kernel_name(p->kernel_name,
                                                           state->cfg.demangle_kernels,
                                                           state->cfg.truncate_kernels)
                                                    : "";
                sym.kernel_object             = p->kernel_object;
                sym.kernarg_segment_size      = p->kernarg_segment_size;
                sym.kernarg_segment_alignment = p->kernarg_segment_alignment;
                sym.group_segment_size        = p->group_segment_size;
                sym.private_segment_size      = p->private_segment_size;
                sym.sgpr_count                = p->sgpr_count;
                sym.arch_vgpr_count           = p->arch_vgpr_count;
                sym.accum_vgpr_count          = p->accum_vgpr_count;
                if(sym.name.empty()) sym.name = "kernel_" + std::to_string(sym.kernel_id);
                auto lock = std::lock_guard{state->mutex};
                // A report replaces a placeholder made before it arrived.
                state->outputs.kernel_symbol(sym);
                state->data.kernel_symbols[sym.kernel_id] = std::move(sym);
            }
        });
}

void
kernel_dispatch_callback(rocprofiler_callback_tracing_record_t record,
                         rocprofiler_user_data_t*,
                         void*)
{
    guarded("the kernel dispatch callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH ||
                   record.operation != ROCPROFILER_KERNEL_DISPATCH_ENQUEUE ||
                   record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER)
                    return;
                // Decide on the submitting thread, in submission order, so iteration numbers are
                // stable.
                const auto* payload =
                    static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(
                        record.payload);
                // Dispatches, not passes: a replayed dispatch's ENQUEUE runs in each pass, where
                // current_replay_pass is set (PASS ENTER runs on this thread first).
                if(accept(payload->dispatch_info) && current_replay_pass.value_or(0) == 0)
                    ++state->dispatches_seen;
                (void)ranges_allow(payload->dispatch_info); // --nvtx: decided at submission
            });
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        num_headers,
                void*,
                uint64_t drop_count)
{
    guarded("the buffer callback",
            [&]
            {
                auto accepted = std::vector<rocprofiler_buffer_tracing_kernel_dispatch_record_t>{};
                // Copies are not kernels: the kernel filters do not apply to them.
                auto copies = std::vector<rocprofiler_buffer_tracing_memory_copy_record_t>{};
                auto calls  = std::vector<marker_event>{};
                for(size_t i = 0; i < num_headers; ++i)
                {
                    const auto* header = headers[i];
                    if(header->category != ROCPROFILER_BUFFER_CATEGORY_TRACING) continue;
                    if(header->kind == ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API ||
                       header->kind == ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API)
                    {
                        calls.push_back(api_row(*header));
                        continue;
                    }
                    if(header->kind == ROCPROFILER_BUFFER_TRACING_MEMORY_COPY)
                    {
                        copies.push_back(
                            *static_cast<const rocprofiler_buffer_tracing_memory_copy_record_t*>(
                                header->payload));
                        continue;
                    }
                    if(header->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH) continue;
                    const auto* rec =
                        static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                            header->payload);
                    // Decided for every dispatch (the decision is shared with the counter and
                    // replay callbacks); the trace keeps the others too unless asked not to.
                    if(accept(rec->dispatch_info) || !state->cfg.filter_trace)
                        accepted.push_back(*rec);
                }
                for(const auto& rec : accepted)
                    summarize_dispatch(rec);
                {
                    auto  lock = std::lock_guard{state->mutex};
                    auto& data = state->data;
                    for(const auto& rec : accepted)
                        state->outputs.dispatch(data, rec);
                    if(state->cfg.stats || state->cfg.summary ||
                       state->cfg.print_summary == "per-kernel")
                        for(const auto& rec : accepted)
                            data.kernel_stats.add(rec);
                    // Copies are not kernels: the kernel filters do not apply to them.
                    for(const auto& rec : copies)
                    {
                        state->outputs.memory_copy(data, rec);
                        if(state->cfg.stats || state->cfg.summary)
                            data.domain_stats.add(memory_copy_domain,
                                                  memory_copy_direction_name(rec.operation),
                                                  rec.start_timestamp,
                                                  rec.end_timestamp);
                    }
                    state->outputs.batch_end();
                    for(const auto& call : calls)
                        record_api_call(call);
                    data.dropped_records += drop_count;
                    state->changed =
                        state->changed || !accepted.empty() || !copies.empty() || drop_count > 0;
                }
            });
}

void
counting_dispatch_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                           rocprofiler_counter_config_id_t*             config,
                           rocprofiler_user_data_t*                     user_data,
                           void*)
{
    guarded("the counter dispatch callback",
            [&]
            {
                const auto& info = dispatch_data.dispatch_info;
                if(!accept(info) || !ranges_allow(info)) return;
                auto pass = current_replay_pass.value_or(0);
                auto lock = std::lock_guard{state->mutex};
                if(state->cfg.multiplexed())
                {
                    // AMD's multiplexing: this dispatch's turn among the agent's groups.
                    if(auto chosen = next_multiplexed(state->counters, info.agent_id.handle))
                        *config = *chosen;
                    user_data->value = 0;
                    return;
                }
                auto it = state->counters.agent_configs.find(info.agent_id.handle);
                if(it == state->counters.agent_configs.end() || pass >= it->second.size()) return;
                *config = it->second[pass];
                // The record callback learns the pass from the user data: pass + 1, 0 = not
                // replayed.
                user_data->value = current_replay_pass ? *current_replay_pass + 1 : 0;
            });
}

void
counting_record_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                         rocprofiler_counter_record_t*                records,
                         size_t                                       record_count,
                         rocprofiler_user_data_t                      user_data,
                         void*)
{
    guarded(
        "the counter record callback",
        [&]
        {
            auto entry = counter_dispatch{};
            entry.data = dispatch_data;
            auto tid   = rocprofiler_thread_id_t{};
            entry.thread_id =
                rocprofiler_get_thread_id(&tid) == ROCPROFILER_STATUS_SUCCESS ? tid : 0;
            if(state->cfg.kernel_replay)
                entry.replay_pass = user_data.value > 0 ? user_data.value - 1 : 0;

            // Instances of one counter are summed, as counter_collection.csv shows one value
            // per counter.
            for(size_t i = 0; i < record_count; ++i)
            {
                auto counter = rocprofiler_counter_id_t{};
                if(rocprofiler_query_record_counter_id(records[i].id, &counter) !=
                   ROCPROFILER_STATUS_SUCCESS)
                    continue;
                auto found = false;
                for(auto& v : entry.values)
                    if(v.counter_id == counter.handle)
                    {
                        v.value += records[i].counter_value;
                        found = true;
                    }
                if(!found)
                    entry.values.push_back(
                        counter_value{counter.handle, {}, records[i].counter_value});
            }
            const auto& info = dispatch_data.dispatch_info;
            auto        lock = std::lock_guard{state->mutex};
            if(state->cfg.kernel_replay)
                state->replay.counter_record(state->data,
                                             info.dispatch_id,
                                             info.agent_id,
                                             info.kernel_id,
                                             user_data.value > 0
                                                 ? std::optional<uint64_t>{user_data.value - 1}
                                                 : std::nullopt,
                                             record_replay_outcome);
            // A later pass of a configuration of several passes carries the values its first
            // pass reports already.
            if(entry.replay_pass &&
               !pass_reports(state->data, dispatch_data.dispatch_info.agent_id, *entry.replay_pass))
                return;
            for(auto& v : entry.values)
                v.name = state->counters.counter_names[v.counter_id];
            state->outputs.counters(state->data, entry);
            state->changed = true;
        });
}
} // namespace rocprofiler::tool
