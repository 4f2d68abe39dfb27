// The agent registry. Built once, on first use, from the registered device backends in their
// order (backend/device_backend.hpp), so that ids are stable. Never changes afterwards.
#pragma once

#include "backend/device_backend.hpp"

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace rocprofiler::agent
{
// Every agent, in id order. Stable pointers.
const std::vector<const rocprofiler_agent_v0_t*>& get_agents();

const rocprofiler_agent_v0_t* find(rocprofiler_agent_id_t id);

// Id of a backend's device, if it is an agent.
std::optional<rocprofiler_agent_id_t> id_of(const backend::device_backend& owner,
                                            uint32_t                       device_index);

// The backend and device index of an agent.
std::optional<std::pair<backend::device_backend*, uint32_t>> backend_of(rocprofiler_agent_id_t id);
} // namespace rocprofiler::agent
