#include "dispatch/decline_reason.hpp"

#include <array>

namespace rocprofiler::dispatch
{
namespace
{
constexpr auto names = std::array<std::string_view, static_cast<size_t>(decline_reason::last)>{
    "none",
    "not_requested",
    "single_pass",
    "indefinite_without_continue",
    "pass_limit",
    "reentrant_dispatch",
    "stream_capture",
    "collective_kernel",
    "agent_drain_stuck",
    "snapshot_failed",
    "footprint_budget",
    "untracked_memory",
    "pass_failed",
    "restore_failed",
    "write_outside_snapshot",
    "verification_failed",
    "tool_exception",
    "pass_drain_stuck",
    "child_dispatch",
    "graph_launch",
};
} // namespace

std::string_view
name(decline_reason reason)
{
    const auto index = static_cast<size_t>(reason);
    return index < names.size() ? names[index] : std::string_view{"unknown"};
}

std::optional<decline_reason>
decline_reason_by_name(std::string_view text)
{
    for(size_t i = 0; i < names.size(); ++i)
        if(names[i] == text) return static_cast<decline_reason>(i);
    return std::nullopt;
}

bool
is_tool_choice(decline_reason reason)
{
    return reason == decline_reason::not_requested || reason == decline_reason::single_pass;
}
} // namespace rocprofiler::dispatch
