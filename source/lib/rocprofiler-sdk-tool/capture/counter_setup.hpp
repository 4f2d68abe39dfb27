// The counter configurations of a run, planned when the tool initializes (counter_setup.cpp).
#pragma once

#include "config/config.hpp"
#include "model/results.hpp"

#include <rocprofiler-sdk/rocprofiler.h>

#include <cstdint>
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
    std::unordered_map<uint64_t, std::vector<rocprofiler_counter_config_id_t>> agent_configs = {};
    std::unordered_map<uint64_t, std::string> counter_names = {}; // by counter id
};

// Resolves the configured counter groups on every GPU agent of @p data and creates the counter
// configs each pass collects (and, under kernel replay, data.replay_groups and
// data.replay_pass_groups). Errors name the counter and the agent. Returns errors.empty().
bool setup_counters(const config&             cfg,
                    results&                  data,
                    counter_plan&             plan,
                    std::vector<std::string>& errors);
} // namespace rocprofiler::tool
