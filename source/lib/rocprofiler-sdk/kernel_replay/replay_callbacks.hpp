// The tool-facing half of kernel replay: the CONFIG and PASS callbacks of the
// ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY domain, and the calls into the tool's
// replay_pass_count and replay_continue. Everything here runs on the submitting thread.
//
// All of these are tool code. Each call runs inside the library's guard (common/guard.hpp): an
// exception is reported once per callback name and recorded in the sequence (`tool_exception`),
// and the engine ends the dispatch as cleanly as it can (see docs/kernel_replay.md).
#pragma once

#include "context/context.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/local_context.hpp"
#include "kernel_replay/plan.hpp"

#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <optional>

namespace rocprofiler::kernel_replay
{
// One replay sequence: everything the callbacks of one logical dispatch share. The correlation
// ids are the logical dispatch's (captured once, before CONFIG). `user_data` is the sequence's
// rocprofiler_user_data_t as CONFIG left it (CONFIG ENTER and EXIT share it); every PASS ENTER
// starts `pass_user_data` from it again, and that pass's EXIT and the replay_continue call after
// it see the pass's writes.
struct replay_sequence
{
    const dispatch::logical_dispatch*         dispatch       = nullptr;
    context::context*                         ctx            = nullptr; // owner of the domain
    const context::callback_kind_config*      config         = nullptr; // its KERNEL_REPLAY config
    rocprofiler_user_data_t                   user_data      = {};
    rocprofiler_user_data_t                   pass_user_data = {}; // of the current pass
    rocprofiler_user_data_t                   external       = {}; // captured when the window opens
    rocprofiler_kernel_replay_pass_count_cb_t pass_count     = nullptr; // as left by CONFIG
    rocprofiler_kernel_replay_continue_cb_t   continue_cb    = nullptr; // as left by CONFIG
    // The first tool callback of the sequence that threw (its name in the report), or NULL.
    const char* tool_exception = nullptr;
};

// The sequence for a dispatch of the replay context `ctx`.
replay_sequence make_sequence(const dispatch::logical_dispatch& dispatch, context::context& ctx);

// The dispatch info every callback and tool function of the sequence receives: the logical
// dispatch's, with its reserved dispatch id.
rocprofiler_kernel_dispatch_info_t make_dispatch_info(const dispatch::logical_dispatch& dispatch);

// CONFIG PHASE_ENTER: pass fields zero; the tool may set replay_pass_count/replay_continue.
void execute_config_phase_enter(replay_sequence& seq);

// CONFIG PHASE_EXIT: the payload shows what the tool set at ENTER, pass fields zero; the
// replay_pass_count/replay_continue left in it when EXIT returns are the sequence's.
void execute_config_phase_exit(replay_sequence& seq);

// Calls replay_pass_count once, or nullopt when the tool left it NULL or it threw.
std::optional<uint64_t> request_pass_count(replay_sequence& seq);

// PASS PHASE_ENTER of pass `pass`; localized start/stop are armed for its duration only and
// are in its payload only (NULL in every other payload).
void execute_pass_phase_enter(replay_sequence&     seq,
                              const plan&          loop,
                              uint64_t             pass,
                              local_context_scope& contexts);

// PASS PHASE_EXIT of pass `pass`; localized start/stop return ERROR_CONTEXT_ERROR here.
void execute_pass_phase_exit(replay_sequence& seq, const plan& loop, uint64_t pass);

// Whether a further pass follows pass `pass`: a fixed loop ends after pass N-1 without asking
// replay_continue; otherwise replay_continue decides (a fixed loop without it always continues).
bool should_continue_replay(replay_sequence& seq, const plan& loop, uint64_t pass);
} // namespace rocprofiler::kernel_replay
