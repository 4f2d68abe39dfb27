// The core learns its agents and their counters only through registered device backends.
#include "agent/agent.hpp"
#include "backend/device_backend.hpp"
#include "counters/counters.hpp"

#include <gtest/gtest.h>

#include <string>

namespace
{
using rocprofiler::agent::backend_of;
using rocprofiler::agent::get_agents;
using rocprofiler::agent::id_of;
} // namespace

// Every agent belongs to exactly one registered backend, in registration order, and the
// backend's own device index maps back to the agent's id.
TEST(backend_registry, every_agent_maps_to_its_backend_and_back)
{
    const auto& backends = rocprofiler::backend::registered();
    ASSERT_FALSE(backends.empty());
    auto names = std::string{};
    for(const auto* b : backends)
        names += std::string{b->name()} + " ";
    EXPECT_NE(names.find("host"), std::string::npos) << names;

    const auto& agents = get_agents();
    ASSERT_FALSE(agents.empty());
    size_t previous_backend = 0;
    for(const auto* props : agents)
    {
        auto owner = backend_of(props->id);
        ASSERT_TRUE(owner.has_value()) << props->id.handle;
        auto itr = std::find(backends.begin(), backends.end(), owner->first);
        ASSERT_NE(itr, backends.end());
        auto position = static_cast<size_t>(itr - backends.begin());
        EXPECT_GE(position, previous_backend) << "agents follow the backends' order";
        previous_backend = position;
        auto back        = id_of(*owner->first, owner->second);
        ASSERT_TRUE(back.has_value());
        EXPECT_EQ(back->handle, props->id.handle);
    }
    EXPECT_FALSE(backend_of(rocprofiler_agent_id_t{0}).has_value());
    EXPECT_FALSE(backend_of(rocprofiler_agent_id_t{agents.size() + 1}).has_value());
}

// The counter registry lists, for each agent, what its backend's counters_of() describes.
TEST(backend_registry, counters_come_from_the_agents_backend)
{
    for(const auto* props : get_agents())
    {
        auto        owner    = backend_of(props->id);
        auto        expected = owner->first->counters_of(owner->second);
        const auto* listed   = rocprofiler::counters::counters_of(props->id);
        if(!expected)
        {
            EXPECT_EQ(listed, nullptr);
            continue;
        }
        ASSERT_NE(listed, nullptr);
        ASSERT_EQ(listed->size(), expected->counters.size());
        for(size_t i = 0; i < listed->size(); ++i)
        {
            EXPECT_EQ((*listed)[i]->spec.name, expected->counters[i].name);
            EXPECT_EQ((*listed)[i]->agent.handle, props->id.handle);
        }
    }
}

// Device counting is offered on exactly the agents whose backend says it measures every execution
// (the host device does; an agent whose backend does not answers NOT_IMPLEMENTED), and a counter
// is summed agent-wide only when its backend says its values add up: on the host device, every
// counter but the number of workers of one execution.
TEST(backend_registry, device_counting_follows_what_each_backend_says)
{
    auto host_seen = false;
    for(const auto* props : get_agents())
    {
        auto owner     = backend_of(props->id);
        auto described = owner->first->counters_of(owner->second);
        EXPECT_EQ(rocprofiler::counters::counts_every_execution(props->id),
                  described.has_value() && described->counts_every_execution)
            << props->name;
        if(std::string{owner->first->name()} != "host") continue;
        host_seen = true;
        ASSERT_TRUE(described.has_value());
        EXPECT_TRUE(described->counts_every_execution);
        for(const auto& spec : described->counters)
            EXPECT_EQ(spec.additive, spec.name != "WORKERS_ACTIVE") << spec.name;
    }
    EXPECT_TRUE(host_seen);
}
