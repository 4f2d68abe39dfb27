// The counter planner: requested counter groups x an agent's counters and limits -> the groups each
// pass collects, for application replay (one run of the application per pass) or kernel replay
// (each dispatch replayed once per pass). rocprofv3 plans before the application runs, from the
// facts the tool library's helper mode reports; the tool library plans at run time from the same
// facts, found by creating counter configurations.
//
// The planner never calls the SDK: the one hardware fact it needs, how many passes a set of
// counters takes on an agent, comes from a probe the caller passes (the tool wraps
// rocprofiler_create_counter_config; tests pass a hand-built one). Pure functions, thread-safe as
// far as the probe is.
#pragma once

#include "config/metric_sets.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace rocprofiler::tool::planner
{
// What creating a configuration of a set of counters on an agent answers: its pass count, or none
// when no configuration of them can be created, with exceeds_limit set when that is because the
// agent's fixed slots per pass are exceeded (ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT).
struct probe_result
{
    std::optional<uint64_t> passes        = {};
    bool                    exceeds_limit = false;
};
using probe_fn = std::function<probe_result(const std::vector<std::string>& counters)>;

// A counter group split into groups of one pass each (indices into the group), in the group's
// order: each counter joins the first group that still fits with it, else starts a new one. A
// counter that takes several passes even by itself is in multi_pass, with its pass count, and is a
// group of its own after the one-pass groups (collectable only by replaying each dispatch that
// many passes). impossible: counters of which no configuration can be created at all.
struct group_split
{
    std::vector<std::vector<size_t>>         groups     = {};
    std::vector<std::pair<size_t, uint64_t>> multi_pass = {};
    std::vector<size_t>                      impossible = {};
};

group_split split_group(const std::vector<std::string>& group, const probe_fn& probe);

// An agent as the planner sees it: its counters, its limit, and (for the groups requested) what
// probing found. rocprofv3 builds it from the helper's report (query.cpp writes the same fields).
struct agent_description
{
    std::string                logical_id   = {};
    std::string                product_name = {};
    std::optional<std::string> error        = {}; // why the agent reports no counters
    std::vector<std::string>   counters     = {};
    // Counters one pass of the agent collects, when it is a fixed number (for messages).
    std::optional<size_t> counters_per_pass = {};
    // 0-based indices of requested groups whose counters all exist on the agent but that do not
    // fit in one pass there.
    std::vector<size_t> groups_exceeding = {};
    // How each of those groups splits into groups that fit in one pass of the agent (absent when
    // some counter fits in no pass by itself: those are in exceeding_alone).
    std::map<size_t, std::vector<std::vector<std::string>>> group_splits    = {};
    std::vector<std::string>                                exceeding_alone = {};
    // Counters that take several passes even by themselves, with their pass counts.
    std::vector<std::pair<std::string, uint64_t>> multi_pass = {};
    // Pass counts of the groups of groups_exceeding that a configuration collects in several
    // passes (agents that schedule passes themselves).
    std::map<size_t, uint64_t> group_passes = {};
    // rocprofiler_agent_t.name ("sm_90", "host"): which metric set definitions apply.
    std::string name = {};
    // AMD's counter names without an equivalent on this agent, with the reason
    // (amd_names::describe): requesting one is an error of its own, not an unknown counter.
    std::map<std::string, std::string> amd_absent = {};
};

// Fills the probed fields of @p agent (groups_exceeding, group_splits, exceeding_alone,
// multi_pass) for @p groups, each as the agent collects it (metric sets expanded), through
// @p probe. A group with a counter the agent lacks is left out (not collectable there).
void probe_groups(agent_description&                           agent,
                  const std::vector<std::vector<std::string>>& groups,
                  const metric_sets::catalog&                  sets,
                  const probe_fn&                              probe);

// Checks that every requested counter exists on some agent (unknown counters come with the close
// matches among all agents' counters and @p sets' names) and that every group either fits in one
// pass of the agents that have its counters or splits into groups that do (a counter that fits in
// no pass by itself is an error naming the agent). Returns the error lines (empty: fine).
// A name no agent has as a counter may name a metric set: it must apply to some agent (its
// definition for the agent lists only the agent's counters), else the error names what each agent
// lacks; agents where it does not apply are warnings. A set name that is also a counter of an
// agent is that counter there (a warning says so).
// When some agent reports no counters at all (no permission, another profiler holding them), a
// counter no agent lists may be one of its own: that goes to @p warnings instead, and the
// application runs (the tool library collects what it can and says what it cannot).
// A name no agent has that is AMD's counter name without an equivalent on some agent
// (agent_description::amd_absent) is an error naming each such agent and its reason.
// A counter that takes several passes by itself is an error unless @p kernel_replay.
std::vector<std::string> validate(const std::vector<std::vector<std::string>>& groups,
                                  const std::vector<agent_description>&        agents,
                                  std::vector<std::string>*                    warnings = nullptr,
                                  const metric_sets::catalog&                  sets     = {},
                                  bool kernel_replay                                    = false);

// The groups as collected: a group that does not fit in one pass of an agent that has its
// counters is replaced by its split into one-pass groups there (the first such agent's; on other
// agents each part must fit too, which the tool library checks when it starts). One line per split
// group goes to @p notes. A group naming a metric set stays as it is when it fits in one pass
// everywhere (the tool library gives each agent its own definition of the set); when it does not
// fit on some agent, each agent that can collect it gets its own groups: its split, or the group
// with the set replaced by the agent's metrics.
std::vector<std::vector<std::string>>
expand_groups(const std::vector<std::vector<std::string>>& groups,
              const std::vector<agent_description>&        agents,
              std::vector<std::string>&                    notes,
              const metric_sets::catalog&                  sets = {});

// One pass of a dispatch under kernel replay on one agent.
struct replay_pass
{
    // The group whose configuration this pass collects; nullopt: the configuration of every
    // group together.
    std::optional<size_t> group = {};
    // The groups this pass reports (the first pass of a group reports it; with every group
    // together, pass 0 reports them all).
    std::vector<size_t> reports = {};

    bool operator==(const replay_pass&) const = default;
};

// Under kernel replay, the passes of one agent's dispatches: group by group, each in as many
// consecutive passes as it takes (@p group_passes, in group order), or, on an agent without a
// fixed number of counters per pass (@p fixed_limit false) with several groups, when one
// configuration of all groups takes @p together passes, fewer than group by group, that
// configuration in each of its passes.
// One pass means the dispatch is not replayed.
std::vector<replay_pass> plan_replay(const std::vector<uint64_t>& group_passes,
                                     std::optional<uint64_t>      together,
                                     bool                         fixed_limit);
} // namespace rocprofiler::tool::planner
