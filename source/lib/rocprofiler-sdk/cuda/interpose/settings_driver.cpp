#include "cuda/interpose/settings_driver.hpp"

#include "common/environment.hpp"
#include "cuda/settings.hpp"

namespace rocprofiler::cuda::settings
{
namespace env = common::env;

agents_mode
cuda_agents()
{
    const auto value = env::get(table::cuda_agents);
    if(!value) return agents_mode::when_loaded;
    return *value ? agents_mode::always : agents_mode::never;
}

bool
timing_stats()
{
    static const bool value = env::get(table::cuda_timing_stats);
    return value;
}

shadow_placement
replay_shadow()
{
    return env::get(table::replay_shadow);
}

size_t
shadow_pool_retain_bytes()
{
    static const size_t value = env::get(table::replay_shadow_pool_mb) << 20;
    return value;
}

uint64_t
drain_spin_ns()
{
    static const uint64_t value = env::get(table::replay_drain_spin_us) * 1000;
    return value;
}

size_t
batch_min()
{
    static const size_t value = env::get(table::replay_batch_min);
    return value;
}

bool
merge_adjacent()
{
    return env::get(table::replay_merge_adjacent);
}

bool
allow_host_memory()
{
    return env::get(env::settings::replay_allow_host_memory);
}
} // namespace rocprofiler::cuda::settings
