// Accepted values of the CUDA driver side's settings that are read on every call
// (cuda/interpose/settings_driver.hpp), as the environment registry checks them: a value it does
// not accept gives the default.
#include "cuda/interpose/settings_driver.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <utility>
#include <vector>

namespace rocprofiler::cuda::settings
{
namespace
{
// For each (value, expected) case: sets `name` to value (nullptr: unset), checks read(), and
// unsets it.
template <typename T, typename Read>
void
expect_values(const char* name, const std::vector<std::pair<const char*, T>>& cases, Read read)
{
    for(const auto& [value, expected] : cases)
    {
        if(value != nullptr)
            ::setenv(name, value, 1);
        else
            ::unsetenv(name);
        EXPECT_EQ(read(), expected) << name << "=" << (value != nullptr ? value : "(unset)");
        ::unsetenv(name);
    }
}

TEST(settings_driver, cuda_agents)
{
    expect_values<agents_mode>("ROCPROFILER_CUDA_AGENTS",
                               {{nullptr, agents_mode::when_loaded},
                                {"1", agents_mode::always},
                                {"0", agents_mode::never},
                                {"yes", agents_mode::always},
                                {"maybe", agents_mode::when_loaded}},
                               cuda_agents);
}

TEST(settings_driver, replay_shadow)
{
    expect_values<shadow_placement>("ROCPROFILER_REPLAY_SHADOW",
                                    {{nullptr, shadow_placement::automatic},
                                     {"", shadow_placement::automatic},
                                     {"device", shadow_placement::device},
                                     {"host", shadow_placement::host},
                                     {"Host", shadow_placement::host},
                                     {"auto", shadow_placement::automatic},
                                     {"hbm", shadow_placement::automatic}},
                                    replay_shadow);
}

TEST(settings_driver, flags_take_the_registrys_boolean_words)
{
    const auto flag_cases = std::vector<std::pair<const char*, bool>>{
        {nullptr, false}, {"1", true}, {"true", true}, {"0", false}, {"2", false}};
    expect_values("ROCPROFILER_REPLAY_MERGE_ADJACENT", flag_cases, merge_adjacent);
    expect_values("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", flag_cases, allow_host_memory);
}
} // namespace
} // namespace rocprofiler::cuda::settings
