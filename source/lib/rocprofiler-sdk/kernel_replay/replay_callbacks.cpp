#include "kernel_replay/replay_callbacks.hpp"

#include "common/guard.hpp"

#include <rocprofiler-sdk/callback_tracing.h>

#include <utility>

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

// The names a thrown exception is reported under, one per tool function.
constexpr auto config_callback_name = "the tool's KERNEL_REPLAY CONFIG callback";
constexpr auto pass_callback_name   = "the tool's KERNEL_REPLAY PASS callback";
constexpr auto pass_count_name      = "the tool's replay_pass_count";
constexpr auto continue_name        = "the tool's replay_continue";

// Runs tool code; an exception is reported (once per name, by the guard) and the first one of the
// sequence is kept.
template <typename Fn, typename Result>
Result
call_tool(replay_sequence& seq, const char* name, Fn&& fn, Result on_exception)
{
    return common::guarded(name,
                           std::forward<Fn>(fn),
                           [&seq, name, on_exception](common::caught)
                           {
                               if(seq.tool_exception == nullptr) seq.tool_exception = name;
                               return on_exception;
                           });
}

void
fire(replay_sequence&                      seq,
     rocprofiler_kernel_replay_operation_t operation,
     rocprofiler_callback_phase_t          phase,
     payload_t&                            payload,
     rocprofiler_user_data_t&              user_data)
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
    const auto* name =
        operation == ROCPROFILER_KERNEL_REPLAY_CONFIG ? config_callback_name : pass_callback_name;
    call_tool(
        seq,
        name,
        [&]
        {
            seq.config->callback(record, &user_data, seq.config->data);
            return true;
        },
        false);
}

// A fresh PASS payload per callback, so writes the tool makes to the config pointers or the pass
// fields during PASS are ignored. The localized start/stop callbacks are usable only during PASS
// ENTER, so only its payload carries them.
payload_t
make_pass_payload(const replay_sequence&       seq,
                  const plan&                  loop,
                  uint64_t                     pass,
                  rocprofiler_callback_phase_t phase)
{
    auto payload         = make_payload(seq);
    payload.current_pass = pass;
    payload.total_passes = loop.total_passes;
    if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        payload.replay_start_context = &replay_local_enable_context;
        payload.replay_stop_context  = &replay_local_disable_context;
    }
    return payload;
}
// CONFIG ENTER and EXIT share the sequence's user_data; the config pointers the tool leaves in
// the payload are the sequence's.
void
fire_config(replay_sequence& seq, rocprofiler_callback_phase_t phase, payload_t& payload)
{
    fire(seq, ROCPROFILER_KERNEL_REPLAY_CONFIG, phase, payload, seq.user_data);
    seq.pass_count  = payload.replay_pass_count;
    seq.continue_cb = payload.replay_continue;
}
// One PASS callback with a fresh payload; ENTER and EXIT of a pass share the pass's user_data.
void
fire_pass(replay_sequence& seq, const plan& loop, uint64_t pass, rocprofiler_callback_phase_t phase)
{
    auto payload = make_pass_payload(seq, loop, pass, phase);
    fire(seq, ROCPROFILER_KERNEL_REPLAY_PASS, phase, payload, seq.pass_user_data);
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
    fire_config(seq, ROCPROFILER_CALLBACK_PHASE_ENTER, payload);
}

void
execute_config_phase_exit(replay_sequence& seq)
{
    // What the tool set at ENTER, and nothing else: pass fields stay zero during CONFIG.
    auto payload              = make_payload(seq);
    payload.replay_pass_count = seq.pass_count;
    payload.replay_continue   = seq.continue_cb;
    fire_config(seq, ROCPROFILER_CALLBACK_PHASE_EXIT, payload);
}

std::optional<uint64_t>
request_pass_count(replay_sequence& seq)
{
    if(seq.pass_count == nullptr) return std::nullopt;
    return call_tool(
        seq,
        pass_count_name,
        [&seq]() -> std::optional<uint64_t>
        { return seq.pass_count(make_dispatch_info(*seq.dispatch), seq.user_data); },
        std::optional<uint64_t>{});
}

void
execute_pass_phase_enter(replay_sequence&     seq,
                         const plan&          loop,
                         uint64_t             pass,
                         local_context_scope& contexts)
{
    auto armed         = local_context_scope::armed{contexts};
    seq.pass_user_data = seq.user_data; // every pass starts from the value CONFIG left
    fire_pass(seq, loop, pass, ROCPROFILER_CALLBACK_PHASE_ENTER);
}

void
execute_pass_phase_exit(replay_sequence& seq, const plan& loop, uint64_t pass)
{
    fire_pass(seq, loop, pass, ROCPROFILER_CALLBACK_PHASE_EXIT);
}

bool
should_continue_replay(replay_sequence& seq, const plan& loop, uint64_t pass)
{
    if(loop.kind == loop_kind::fixed && pass + 1 >= loop.total_passes) return false;
    if(seq.continue_cb == nullptr) return loop.kind == loop_kind::fixed;
    return call_tool(
        seq,
        continue_name,
        [&]
        {
            return seq.continue_cb(make_dispatch_info(*seq.dispatch),
                                   pass,
                                   loop.total_passes,
                                   seq.pass_user_data) != 0;
        },
        false);
}
} // namespace rocprofiler::kernel_replay
