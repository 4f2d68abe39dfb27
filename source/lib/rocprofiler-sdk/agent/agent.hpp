// The agent registry. Built once, on first use, from the backends in a fixed order (CUDA devices,
// then the host reference device) so that ids are stable. Never changes afterwards.
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/fwd.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::agent
{
enum class backend
{
    cuda,
    host,
};

// What a backend reports for one of its devices. Strings are copied into the registry.
struct description
{
    backend                backend_kind  = backend::host;
    uint32_t               backend_index = 0; // the device's index within its backend
    rocprofiler_agent_v0_t properties =
        {}; // id, node ids and string pointers are set by the registry
    std::string name         = {};
    std::string vendor_name  = {};
    std::string product_name = {};
    std::string model_name   = {};
};

// Every agent, in id order. Stable pointers.
const std::vector<const rocprofiler_agent_v0_t*>& get_agents();

const rocprofiler_agent_v0_t* find(rocprofiler_agent_id_t id);

// Id of a backend's device, if it is an agent.
std::optional<rocprofiler_agent_id_t> id_of(backend backend_kind, uint32_t backend_index);

// The backend and backend index of an agent.
std::optional<std::pair<backend, uint32_t>> backend_of(rocprofiler_agent_id_t id);

// Backends: each appends its devices. Defined by each backend.
void append_host_agents(std::vector<description>& out);
#if defined(ROCPROFILER_HAVE_CUDA)
void append_cuda_agents(std::vector<description>& out);
#endif
} // namespace rocprofiler::agent
