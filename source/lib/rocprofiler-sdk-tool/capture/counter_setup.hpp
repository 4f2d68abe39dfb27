// The counter configurations of a run, planned when the tool initializes (counter_setup.cpp).
#pragma once

#include "config/config.hpp"
#include "model/results.hpp"

#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace rocprofiler::tool
{
struct counter_plan
{
    // Per agent handle: the counter config each replay pass of its dispatches collects (pass 0
    // also for a dispatch that is not replayed); whether a pass's record reports values is in
    // results::replay_pass_groups (the later passes of a configuration of several passes repeat
    // the values of its first). Only groups whose counters all exist on the agent are planned.
    // Under AMD's multiplexing (config::multiplexed()) the list is instead every group collectable
    // on the agent, and dispatches take turns (next_multiplexed).
    std::unordered_map<uint64_t, std::vector<rocprofiler_counter_config_id_t>> agent_configs = {};
    std::unordered_map<uint64_t, std::string> counter_names = {}; // by counter id
    // Multiplexing: counted dispatches of each agent so far, and how many in a row share a group.
    std::unordered_map<uint64_t, uint64_t> multiplexed_dispatches = {};
    uint64_t                               multiplex_interval     = 0;
};

// Multiplexing: the configuration of the next counted dispatch of @p agent, AMD's rotation (the
// n-th counted dispatch of an agent, from 0, takes group (n / interval) % groups). None when the
// agent collects nothing. Called under the tool's lock.
std::optional<rocprofiler_counter_config_id_t> next_multiplexed(counter_plan& plan, uint64_t agent);

// Resolves the configured counter groups on every GPU agent of @p data and creates the counter
// configs each pass collects (and, under kernel replay, data.replay_groups and
// data.replay_pass_groups). Errors name the counter and the agent. Returns errors.empty().
bool setup_counters(const config&             cfg,
                    results&                  data,
                    counter_plan&             plan,
                    std::vector<std::string>& errors);
} // namespace rocprofiler::tool
