// Agents and their counters, through the public query API. Used at tool initialization and by the
// helper mode that rocprofv3 runs before the application (-L/--list-avail, counter validation).
#pragma once

#include "output.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::tool
{
// Every agent the SDK reports. For each GPU agent, its counters are appended to @p counters, or
// the agent's counters_error says why there are none (the status name of
// rocprofiler_iterate_agent_supported_counters). Failures of the agent query itself go to @p
// errors.
std::vector<agent_entry> query_agents(std::vector<counter_entry>& counters,
                                      std::vector<std::string>&   errors);

// How many counters one pass of @p agent collects: configurations of the agent's first k counters
// (in its own order) are created for growing k, at most max_probed_counters, until
// rocprofiler_create_counter_config answers ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT; the same
// limit must then hold for the agent's last counters. nullopt when all probed counters fit, no
// configuration can be created, or the limit depends on which counters are chosen (agents whose
// driver schedules each set of counters itself). It names the limit in messages; whether a group
// fits is decided by creating it. Asks only the public API: no vendor is named.
inline constexpr size_t max_probed_counters = 64;
std::optional<size_t>   counters_per_pass(rocprofiler_agent_id_t            agent,
                                          const std::vector<counter_entry>& counters);

// Splits a counter group that does not fit in one pass of @p agent into groups that do, in the
// group's order: each counter joins the first group that still fits with it
// (rocprofiler_create_counter_config decides), else starts a new one. @p ids are the agent's ids of
// the group's counters. nullopt, with @p alone naming the counters, when some counter does not fit
// in one pass even by itself.
std::optional<std::vector<std::vector<size_t>>>
split_into_passes(rocprofiler_agent_id_t                       agent,
                  const std::vector<rocprofiler_counter_id_t>& ids,
                  std::vector<size_t>*                         alone);

// "pmc" status check: logs the failing call with the SDK's status name; true on success.
bool check_status(rocprofiler_status_t status, const char* call);
} // namespace rocprofiler::tool

#define ROCPROFV3_CALL(...) ::rocprofiler::tool::check_status((__VA_ARGS__), #__VA_ARGS__)
