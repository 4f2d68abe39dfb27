// Delivery of one execution to the services of its participants: ENQUEUE callbacks, the COMPLETE
// callback, the buffer record and the counter records. Internal to dispatch/.
#pragma once

#include "dispatch/dispatch.hpp"

#include "common/guard.hpp"

#include <rocprofiler-sdk/callback_tracing.h>

#include <utility>
#include <vector>

namespace rocprofiler::dispatch::delivery
{
// The context's KERNEL_DISPATCH callback tracing configuration, or nullptr.
const context::callback_kind_config* callback_config(const context::context& ctx);

// The context's KERNEL_DISPATCH buffer tracing configuration, or nullptr.
const context::buffer_kind_config* buffer_config(const context::context& ctx);

// After a callback of `ctx` threw: the context is stopped (it delivers nothing further; the
// dispatch goes on and the application sees its completion), and that is said once per context.
void stop_after_exception(context::context& ctx, const char* callback);

// Runs a tool's callback of `ctx` (`callback` names it: "KERNEL_DISPATCH COMPLETE callback"). An
// exception is reported once per tool and callback, with the tool's name, and the context is
// stopped. Returns false when the callback threw.
template <typename Fn>
bool
call_tool(context::context& ctx, const char* callback, Fn&& fn)
{
    auto ok = true;
    common::guarded(callback,
                    std::forward<Fn>(fn),
                    [&](common::caught)
                    {
                        ok = false;
                        stop_after_exception(ctx, callback);
                    });
    return ok;
}

// A participant whose client was finalized (fini_func) after the execution was submitted, or whose
// context was stopped because one of its callbacks threw: a tool receives nothing after its
// finalize, not even completions of work already in flight.
bool client_gone(const participant& p);

// Fires the ENQUEUE callbacks of one phase. On the submitting thread.
void fire_enqueue(const logical_dispatch&      dispatch,
                  std::vector<participant>&    participants,
                  rocprofiler_callback_phase_t phase);

// Delivers the completion of one execution to its participants (COMPLETE callback, buffer record,
// counter values unless deferred). Any thread.
void deliver_completion(const logical_dispatch&   dispatch,
                        std::vector<participant>& participants,
                        const execution_result&   result);

// Delivers one participant's counter values, in callback or buffer form; nothing when the values
// are deferred.
void deliver_participant_counters(const logical_dispatch& dispatch,
                                  const participant&      p,
                                  const execution_result& result);
} // namespace rocprofiler::dispatch::delivery
