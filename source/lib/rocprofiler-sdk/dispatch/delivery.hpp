// Delivery of one execution to the services of its participants: ENQUEUE callbacks, the COMPLETE
// callback, the buffer record and the counter records. Internal to dispatch/.
#pragma once

#include "dispatch/dispatch.hpp"

#include <rocprofiler-sdk/callback_tracing.h>

#include <vector>

namespace rocprofiler::dispatch::delivery
{
// The context's KERNEL_DISPATCH callback tracing configuration, or nullptr.
const context::callback_kind_config* callback_config(const context::context& ctx);

// The context's KERNEL_DISPATCH buffer tracing configuration, or nullptr.
const context::buffer_kind_config* buffer_config(const context::context& ctx);

// A participant whose client was finalized (fini_func) after the execution was submitted: a tool
// receives nothing after its finalize, not even completions of work already in flight.
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
