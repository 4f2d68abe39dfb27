// Device (agent-wide) counting on the dispatch path (device_counting_service.h): the counter
// values of every execution on an agent, summed from the moment a context starts, and read by the
// tool whenever it samples.
//
// A window is what one start of a context counts. When the context starts, begin() asks the
// tool's callback, per configured agent, which counter configuration to count (set_config may be
// called only then); every execution on such an agent submitted while the context is globally
// active is measured for that configuration's base counters (added to the execution's request,
// beside what dispatch counting asks for) and its values are added to the window when it
// completes. A later start opens a new window from zero; executions of the earlier one still in
// flight add to the earlier one, which nobody reads any more.
//
// Agent-wide, as PC sampling: the kernel replay engine's per-thread mask does not apply, so every
// pass of a replayed dispatch counts (the agent ran each of them). Values are the backend's own
// per-execution measurements, so only agents whose backend reports every execution's values with
// its completion offer the service (counters::counts_every_execution), and only counters whose
// values add up over executions can be chosen (counters::first_non_additive). Derived counters are
// evaluated over the sums of their base counters.
#pragma once

#include "context/context.hpp"
#include "counters/counters.hpp"
#include "dispatch/backend.hpp"
#include "dispatch/dispatch.hpp"

#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace rocprofiler::dispatch::device_counting
{
struct window;

// One window's interest in one execution: the window, and which of its agents ran it.
struct share
{
    std::shared_ptr<window> counting    = {};
    size_t                  agent_index = 0;
};

// Whether @p cfg can be counted agent-wide: SUCCESS; ERROR_METRIC_NOT_VALID_FOR_AGENT when a base
// counter's values do not add up over executions; ERROR_EXCEEDS_HW_LIMIT when the agent collects
// the configuration over several passes of one execution (each execution is measured once). Says
// why in a warning. What set_config answers after its own checks.
rocprofiler_status_t check_countable(const counters::config& cfg);

// Opens a new window of @p ctx (which has a device counting service and was just activated):
// calls the tool's callback of each configured agent, on the calling thread, and from then on
// counts. Returns SUCCESS, or ERROR_CONTEXT_ERROR when a callback threw (the context was stopped
// by then, and nothing is counted).
rocprofiler_status_t begin(context::context& ctx);

// The windows that count an execution of @p dispatch: those of the contexts globally active now
// whose tool chose a configuration for the dispatch's agent. Called on the submitting thread.
std::vector<share> shares_of(const logical_dispatch& dispatch);

// Adds the base counters the shares need to @p out, each once.
void add_counters(const std::vector<share>&                         shares,
                  std::vector<const counters::counter_definition*>& out);

// Adds the values of one completed execution to each share's window. An execution that failed,
// or whose counters were not measured, is counted as unmeasured and said so when sampled. Any
// thread.
void account(const std::vector<share>& shares, const execution_result& result);

// What rocprofiler_sample_device_counting_service does once its arguments and the context's state
// were checked: reads the current sums of @p ctx's window. With @p output, writes one record per
// counter of each agent's configuration there (*count on entry: its capacity; on exit: the records
// written, or the records needed with ERROR_OUT_OF_RESOURCES, when nothing is written anywhere).
// Records go to each agent's buffer as well (AMD's behaviour), unless the agent has none. Returns
// ERROR_BUFFER_NOT_FOUND when an agent's buffer was destroyed (nothing is written then).
rocprofiler_status_t sample(const context::context&       ctx,
                            rocprofiler_user_data_t       user_data,
                            rocprofiler_counter_record_t* output,
                            size_t*                       count);
// What rocprofiler_query_device_counting_coverage does once the context was checked: the
// executions the current window of @p ctx counted and left out on @p agent. Returns
// ERROR_AGENT_NOT_FOUND when @p agent is not one of the service's, ERROR_CONTEXT_NOT_STARTED when
// no window was opened yet.
rocprofiler_status_t coverage(const context::context& ctx,
                              rocprofiler_agent_id_t  agent,
                              uint64_t&               counted,
                              uint64_t&               unmeasured);
} // namespace rocprofiler::dispatch::device_counting
