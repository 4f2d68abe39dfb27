// Accepted values of the CUDA driver side's settings that are read on every call
// (cuda/settings_driver.hpp).
#include "cuda/settings_driver.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

namespace rocprofiler::cuda::settings
{
namespace
{
class scoped_env
{
public:
    scoped_env(const char* name, const char* value)
        : m_name{name}
    {
        if(value != nullptr)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
    }
    ~scoped_env() { ::unsetenv(m_name); }

    scoped_env(const scoped_env&)            = delete;
    scoped_env& operator=(const scoped_env&) = delete;

private:
    const char* m_name;
};

TEST(settings_driver, cuda_agents)
{
    const char* name = "ROCPROFILER_CUDA_AGENTS";
    {
        auto env = scoped_env{name, nullptr};
        EXPECT_EQ(cuda_agents(), agents_mode::when_loaded);
    }
    {
        auto env = scoped_env{name, "1"};
        EXPECT_EQ(cuda_agents(), agents_mode::always);
    }
    {
        auto env = scoped_env{name, "0"};
        EXPECT_EQ(cuda_agents(), agents_mode::never);
    }
    {
        auto env = scoped_env{name, "yes"};
        EXPECT_EQ(cuda_agents(), agents_mode::when_loaded);
    }
}

TEST(settings_driver, replay_shadow)
{
    const char* name = "ROCPROFILER_REPLAY_SHADOW";
    {
        auto env = scoped_env{name, nullptr};
        EXPECT_EQ(replay_shadow(), shadow_placement::automatic);
    }
    {
        auto env = scoped_env{name, ""};
        EXPECT_EQ(replay_shadow(), shadow_placement::automatic);
    }
    {
        auto env = scoped_env{name, "device"};
        EXPECT_EQ(replay_shadow(), shadow_placement::device);
    }
    {
        auto env = scoped_env{name, "host"};
        EXPECT_EQ(replay_shadow(), shadow_placement::host);
    }
    {
        auto env = scoped_env{name, "Host"};
        EXPECT_EQ(replay_shadow(), shadow_placement::automatic);
    }
}

TEST(settings_driver, flags_need_exactly_one)
{
    {
        auto env = scoped_env{"ROCPROFILER_REPLAY_MERGE_ADJACENT", "1"};
        EXPECT_TRUE(merge_adjacent());
    }
    {
        auto env = scoped_env{"ROCPROFILER_REPLAY_MERGE_ADJACENT", "true"};
        EXPECT_FALSE(merge_adjacent());
    }
    {
        auto env = scoped_env{"ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", "1"};
        EXPECT_TRUE(allow_host_memory());
    }
    {
        auto env = scoped_env{"ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", nullptr};
        EXPECT_FALSE(allow_host_memory());
    }
}
} // namespace
} // namespace rocprofiler::cuda::settings
