// Helper mode of the tool library, for rocprofv3 before it runs the application: -L/--list-avail
// and the validation of --pmc counters. rocprofv3 loads this library in a child process and calls
// rocprofv3_tool_query_agents(); the SDK is never configured there (no tool is registered).
#include "agents.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <string>

extern "C" __attribute__((visibility("default"))) int
rocprofv3_tool_query_agents(int fd);

// Writes {"agents": [{"id", "type", "name", "product_name", "logical_node_id",
// "counters_error"?, "counters": [{"name", "description", "block", "is_derived"}]}],
// "errors": [...]} to @p fd. Returns 0 when the agents could be queried.
int
rocprofv3_tool_query_agents(int fd)
{
    using json = nlohmann::ordered_json;
    try
    {
        auto counters = std::vector<rocprofiler::tool::counter_entry>{};
        auto errors   = std::vector<std::string>{};
        auto agents   = rocprofiler::tool::query_agents(counters, errors);

        auto out = json{{"agents", json::array()}, {"errors", errors}};
        for(const auto& a : agents)
        {
            auto entry = json{{"id", a.info.id.handle},
                              {"type", a.info.type == ROCPROFILER_AGENT_TYPE_GPU   ? "GPU"
                                       : a.info.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU"
                                                                                   : "NONE"},
                              {"name", a.name},
                              {"product_name", a.product_name},
                              {"logical_node_id", a.info.logical_node_id},
                              {"counters", json::array()}};
            if(a.counters_error) entry["counters_error"] = *a.counters_error;
            for(const auto& c : counters)
                if(c.agent.handle == a.info.id.handle)
                    entry["counters"].push_back(json{{"name", c.name},
                                                     {"description", c.description},
                                                     {"block", c.block},
                                                     {"is_derived", c.is_derived}});
            out["agents"].push_back(std::move(entry));
        }
        auto text = out.dump() + "\n";
        for(size_t done = 0; done < text.size();)
        {
            auto n = ::write(fd, text.data() + done, text.size() - done);
            if(n <= 0) return 1;
            done += static_cast<size_t>(n);
        }
        return errors.empty() ? 0 : 1;
    } catch(...)
    {
        return 1;
    }
}
