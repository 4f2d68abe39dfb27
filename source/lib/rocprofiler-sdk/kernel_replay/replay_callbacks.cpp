#include "kernel_replay/replay_callbacks.hpp"

#include <rocprofiler-sdk/callback_tracing.h>

namespace rocprofiler::kernel_replay
{
namespace
{
using payload_t = rocprofiler_callback_tracing_kernel_replay_data_t;

payload_t
make_payload(const replay_sequence& seq)
{
    auto payload          = payload_t{};
    payload.size          = sizeof(payload_t);
    payload.dispatch_info = make_dispatch_info(*seq.dispatch);
    return payload;
}

void
fire(replay_sequence&                      seq,
     rocprofiler_kernel_replay_operation_t operation,
     rocprofiler_callback_phase_t          phase,
     payload_t&                            payload)
{
    if(!seq.config->covers(operation)) return;
    auto record                    = rocprofiler_callback_tracing_record_t{};
    record.context_id              = rocprofiler_context_id_t{seq.ctx->id};
    record.thread_id               = seq.dispatch->thread_id;
    record.correlation_id.internal = seq.dispatch->internal_id;
    record.correlation_id.external = seq.external;
    record.correlation_id.ancestor = seq.dispatch->ancestor_id;
    record.kind                    = ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY;
    record.operation               = operation;
    record.phase                   = phase;
    record.payload                 = &payload;
    // The sequence's one user_data: the tool's writes at CONFIG ENTER reach every later callback.
    seq.config->callback(record, &seq.user_data, seq.config->data);
}

// A fresh PASS payload per callback, so writes the tool makes to the config pointers or the pass
// fields during PASS are ignored.
payload_t
make_pass_payload(const replay_sequence& seq, const plan& loop, uint64_t pass)
{
    auto payload                 = make_payload(seq);
    payload.current_pass         = pass;
    payload.total_passes         = loop.total_passes;
    payload.replay_start_context = &replay_local_enable_context;
    payload.replay_stop_context  = &replay_local_disable_context;
    return payload;
}
} // namespace

replay_sequence
make_sequence(const dispatch::logical_dispatch& dispatch, context::context& ctx)
{
    auto seq     = replay_sequence{};
    seq.dispatch = &dispatch;
    seq.ctx      = &ctx;
    seq.config   = &*ctx.callback_tracer->kinds[ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY];
    seq.external = ctx.external_ids.top(dispatch.thread_id);
    return seq;
}

rocprofiler_kernel_dispatch_info_t
make_dispatch_info(const dispatch::logical_dispatch& dispatch)
{
    auto info = dispatch.info;
    info.size = sizeof(rocprofiler_kernel_dispatch_info_t);
    return info;
}

void
execute_config_phase_enter(replay_sequence& seq)
{
    auto payload = make_payload(seq);
    fire(seq, ROCPROFILER_KERNEL_REPLAY_CONFIG, ROCPROFILER_CALLBACK_PHASE_ENTER, payload);
    seq.pass_count  = payload.replay_pass_count;
    seq.continue_cb = payload.replay_continue;
}

void
execute_config_phase_exit(replay_sequence& seq)
{
    // What the tool set at ENTER, and nothing else: pass fields stay zero during CONFIG.
    auto payload              = make_payload(seq);
    payload.replay_pass_count = seq.pass_count;
    payload.replay_continue   = seq.continue_cb;
    fire(seq, ROCPROFILER_KERNEL_REPLAY_CONFIG, ROCPROFILER_CALLBACK_PHASE_EXIT, payload);
    seq.pass_count  = payload.replay_pass_count;
    seq.continue_cb = payload.replay_continue;
}

std::optional<uint64_t>
request_pass_count(const replay_sequence& seq)
{
    if(seq.pass_count == nullptr) return std::nullopt;
    return seq.pass_count(make_dispatch_info(*seq.dispatch), seq.user_data);
}

void
execute_pass_phase_enter(replay_sequence&     seq,
                         const plan&          loop,
                         uint64_t             pass,
                         local_context_scope& contexts)
{
    auto payload = make_pass_payload(seq, loop, pass);
    auto armed   = local_context_scope::armed{contexts};
    fire(seq, ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_ENTER, payload);
}

void
execute_pass_phase_exit(replay_sequence& seq, const plan& loop, uint64_t pass)
{
    auto payload = make_pass_payload(seq, loop, pass);
    fire(seq, ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_EXIT, payload);
}

bool
should_continue_replay(const replay_sequence& seq, const plan& loop, uint64_t pass)
{
    if(loop.kind == loop_kind::fixed && pass + 1 >= loop.total_passes) return false;
    if(seq.continue_cb == nullptr) return loop.kind == loop_kind::fixed;
    return seq.continue_cb(
               make_dispatch_info(*seq.dispatch), pass, loop.total_passes, seq.user_data) != 0;
}
} // namespace rocprofiler::kernel_replay
