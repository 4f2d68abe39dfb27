// Agents and their counters, through the public query API. Used at tool initialization and by the
// helper mode that rocprofv3 runs before the application (-L/--list-avail, counter validation).
#pragma once

#include "model/results.hpp"

#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rocprofiler::tool
{
// Every agent the SDK reports. For each GPU agent, its counters are appended to @p counters, or
// the agent's counters_error says why there are none (the status name of
// rocprofiler_iterate_agent_supported_counters). Failures of the agent query itself go to @p
// errors.
std::vector<agent_entry> query_agents(std::vector<counter_entry>& counters,
                                      std::vector<std::string>&   errors);

// The PC sampling configurations @p agent offers (rocprofiler_query_pc_sampling_agent_
// configurations), appended to @p out; the query's status.
rocprofiler_status_t
pc_sampling_configurations(rocprofiler_agent_id_t                                agent,
                           std::vector<rocprofiler_pc_sampling_configuration_t>& out);

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

// The passes @p agent takes to collect @p ids together (a configuration is created, its pass
// count queried, and destroyed): 1 when they fit in one pass, more on agents that schedule the
// passes themselves. nullopt when no configuration of them can be created (ERROR_EXCEEDS_HW_LIMIT
// on agents with fixed slots per pass, or another error), with the status in @p status.
std::optional<uint64_t> passes_needed(rocprofiler_agent_id_t                       agent,
                                      const std::vector<rocprofiler_counter_id_t>& ids,
                                      rocprofiler_status_t* status = nullptr);

// A counter group split into groups of one pass each (indices into the group), in the group's
// order: each counter joins the first group that still fits with it, else starts a new one. A
// counter that takes several passes even by itself is in multi_pass, with its pass count, and is a
// group of its own after the one-pass groups (collectable only by replaying each dispatch that
// many passes).
struct pass_split
{
    std::vector<std::vector<size_t>>         groups     = {};
    std::vector<std::pair<size_t, uint64_t>> multi_pass = {};
};

// Splits a counter group of @p agent (@p ids are the agent's ids of its counters), deciding by
// creating configurations. nullopt, with @p impossible naming the counters, when some counter
// cannot be configured at all.
std::optional<pass_split> split_into_passes(rocprofiler_agent_id_t                       agent,
                                            const std::vector<rocprofiler_counter_id_t>& ids,
                                            std::vector<size_t>* impossible);

// "pmc" status check: logs the failing call with the SDK's status name; true on success.
bool check_status(rocprofiler_status_t status, const char* call);
} // namespace rocprofiler::tool

#define ROCPROFV3_CALL(...) ::rocprofiler::tool::check_status((__VA_ARGS__), #__VA_ARGS__)
