// C entry points of agent.h.
#include "agent/agent.hpp"
#include "common/api_guard.hpp"

#include <rocprofiler-sdk/agent.h>

#include <vector>

extern "C"
{
    rocprofiler_status_t
    rocprofiler_query_available_agents(rocprofiler_agent_version_t             version,
                                       rocprofiler_query_available_agents_cb_t callback,
                                       size_t                                  agent_size,
                                       void*                                   user_data)
    {
        ROCP_API_GUARD_BEGIN
        if(callback == nullptr || version != ROCPROFILER_AGENT_INFO_VERSION_0)
            return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
        if(agent_size > sizeof(rocprofiler_agent_v0_t))
            return ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI;
        const auto& agents = rocprofiler::agent::get_agents();
        auto        ptrs   = std::vector<const void*>(agents.begin(), agents.end());
        return callback(version, ptrs.data(), ptrs.size(), user_data);
        ROCP_API_GUARD_END("rocprofiler_query_available_agents")
    }
}
