// pmc-check: whether the named counters are collected together in one pass of each agent they are
// checked on, how many passes they take otherwise and how they split, or why they cannot be. The
// answers come from counter configurations (configure_fn); names resolve as rocprofv3's --pmc
// resolves them: an agent's counter (AMD's names included, which the SDK offers as derived
// counters), else a metric set defined for the agent. Pure apart from the configure_fn it is given.
#pragma once

#include "arguments.hpp"
#include "inventory.hpp"

#include "config/amd_names.hpp"
#include "config/metric_sets.hpp"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace rocprofv3_avail
{
namespace amd_names   = ::rocprofiler::tool::amd_names;
namespace metric_sets = ::rocprofiler::tool::metric_sets;

enum class verdict
{
    one_pass,       // one configuration of one pass
    several_passes, // passes > 1: scheduled by the SDK (configured together) or split
    cannot_collect, // some counter cannot be configured even by itself
};

struct agent_check
{
    const agent*             target    = nullptr;
    std::vector<std::string> requested = {}; // as named (metric sets unexpanded), once each
    std::vector<std::string> counters  = {}; // as collected (metric sets expanded), once each
    verdict                  answer    = verdict::one_pass;
    uint64_t                 passes    = 0; // one_pass: 1; several_passes: how many
    // several_passes: true when one configuration of all of them takes `passes` passes (the
    // agent schedules them); false when they exceed the agent's slots and `split` is the
    // one-pass groups (a counter of multi_pass in a group of its own) that take `passes` passes.
    bool                                          scheduled_by_sdk = false;
    std::vector<std::vector<std::string>>         split            = {};
    std::vector<std::pair<std::string, uint64_t>> multi_pass       = {};
    std::vector<std::string>                      impossible       = {}; // cannot_collect
    std::string              status = {}; // the SDK's status when a configuration was refused
    std::vector<std::string> notes  = {}; // AMD names measured as equivalents, metric sets expanded
};

struct check_result
{
    std::vector<agent_check> checks    = {};
    std::vector<std::string> skipped   = {}; // agents not checked (no device named) and why
    std::vector<std::string> errors    = {};
    int                      exit_code = 0;
};

// The GPU agent of index @p index, or nullptr.
const agent* find_agent(const inventory& inv, int index);

// "GPU 0 (host, Host reference device)".
std::string agent_label(const agent& a);

// The error line for -d/--device or :device= naming no GPU agent (which exist, too).
std::string unknown_agent(const inventory& inv, int index);

// Why @p name is not a counter or a usable metric set of @p target: "unknown counter 'X' on GPU 0
// (...); did you mean ...?", "metric set 'x' is not available on GPU 0 (...): it lacks A, B", or
// "counter 'X' is AMD's counter name with no equivalent on GPU 0 (...): <reason>".
std::string unknown_name(const std::string&          name,
                         const agent&                target,
                         const metric_sets::catalog& sets,
                         const amd_names::table&     names);

// Checks the request's pmc-check names. A name with :device= is checked on those agents, else on
// -d's agent, else on every GPU agent that has all of its agent's names (the others are skipped,
// with the reason; none left is an error). Exit codes as exit_codes.hpp.
check_result check_counters(const request&              req,
                            const inventory&            inv,
                            const metric_sets::catalog& sets,
                            const amd_names::table&     names,
                            const configure_fn&         configure);
} // namespace rocprofv3_avail
