#include "cuda/settings_driver.hpp"

#include <cstdlib>
#include <string_view>

namespace rocprofiler::cuda::settings
{
namespace
{
// True only for the exact value "1".
bool
env_flag(const char* name)
{
    const char* value = std::getenv(name);
    return value != nullptr && std::string_view{value} == "1";
}

// A decimal number; unset, empty or not entirely digits: `fallback`.
uint64_t
env_number(const char* name, uint64_t fallback)
{
    const char* value = std::getenv(name);
    if(value == nullptr || *value == '\0') return fallback;
    char* end    = nullptr;
    auto  number = std::strtoull(value, &end, 10);
    return (end != nullptr && *end == '\0') ? number : fallback;
}
} // namespace

agents_mode
cuda_agents()
{
    const char* env  = std::getenv("ROCPROFILER_CUDA_AGENTS");
    const auto  mode = std::string_view{env != nullptr ? env : ""};
    if(mode == "0") return agents_mode::never;
    if(mode == "1") return agents_mode::always;
    return agents_mode::when_loaded;
}

bool
timing_stats()
{
    static const bool value = env_flag("ROCPROFILER_CUDA_TIMING_STATS");
    return value;
}

shadow_placement
replay_shadow()
{
    const char* value = std::getenv("ROCPROFILER_REPLAY_SHADOW");
    if(value == nullptr) return shadow_placement::automatic;
    const auto text = std::string_view{value};
    if(text == "device") return shadow_placement::device;
    if(text == "host") return shadow_placement::host;
    return shadow_placement::automatic;
}

size_t
shadow_pool_retain_bytes()
{
    static const size_t value = env_number("ROCPROFILER_REPLAY_SHADOW_POOL_MB", 2048) << 20;
    return value;
}

uint64_t
drain_spin_ns()
{
    static const uint64_t value = env_number("ROCPROFILER_REPLAY_DRAIN_SPIN_US", 200) * 1000;
    return value;
}

uint64_t
drain_worker_spin_ns()
{
    static const uint64_t value = env_number("ROCPROFILER_REPLAY_DRAIN_WORKER_SPIN_US", 0) * 1000;
    return value;
}

size_t
batch_min()
{
    static const size_t value = env_number("ROCPROFILER_REPLAY_BATCH_MIN", 8);
    return value;
}

bool
merge_adjacent()
{
    return env_flag("ROCPROFILER_REPLAY_MERGE_ADJACENT");
}

bool
allow_host_memory()
{
    return env_flag("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY");
}
} // namespace rocprofiler::cuda::settings
