#include "cuda/settings_cupti.hpp"

#include "common/logging.hpp"

#include <cstdlib>
#include <string_view>

namespace rocprofiler::cuda::settings
{
namespace
{
// A setting of two values: false for `off`, true otherwise. A value other than `on`, `off` or
// empty is logged with `fallback` (what is done instead).
bool
read_two_choice(const char* name, std::string_view on, std::string_view off, const char* fallback)
{
    const char* env = std::getenv(name);
    if(env == nullptr || *env == '\0' || std::string_view{env} == on) return true;
    if(std::string_view{env} != off)
        ROCP_LOG(warning) << "cuda: " << name << "='" << env << "' is neither '" << on << "' nor '"
                          << off << "'; " << fallback;
    return std::string_view{env} != off;
}

bool
equals(const char* name, std::string_view value)
{
    const char* env = std::getenv(name);
    return env != nullptr && std::string_view{env} == value;
}

// An unsigned decimal number from the environment, or `fallback`.
uint64_t
read_number(const char* name, uint64_t fallback)
{
    const char* env = std::getenv(name);
    if(env == nullptr || *env == '\0') return fallback;
    char* end   = nullptr;
    auto  value = std::strtoull(env, &end, 10);
    return (end != nullptr && *end == '\0') ? value : fallback;
}

std::optional<std::string>
read_text(const char* name)
{
    const char* env = std::getenv(name);
    if(env == nullptr || *env == '\0') return std::nullopt;
    return std::string{env};
}
} // namespace

bool
read_counter_schedule_per_dispatch()
{
    return read_two_choice(
        "ROCPROFILER_CUDA_COUNTER_SCHEDULE", "dispatch", "pass", "'dispatch' is used");
}

bool
read_cache_control_flush()
{
    return read_two_choice("ROCPROFILER_CUDA_CACHE_CONTROL", "all", "none", "caches are flushed");
}

bool
read_range_mode_user()
{
    return equals("ROCPROFILER_CUDA_RANGE_MODE", "user");
}

std::string
metric_filter_variable(uint32_t ordinal)
{
    return "ROCPROFILER_CUDA_METRIC_FILTER_DEVICE" + std::to_string(ordinal);
}

std::optional<std::string>
read_metric_filter(uint32_t ordinal)
{
    return read_text(metric_filter_variable(ordinal).c_str());
}

bool
read_timing_stats()
{
    return equals("ROCPROFILER_CUDA_TIMING_STATS", "1");
}

timestamp_source
read_timestamp_source()
{
    return equals("ROCPROFILER_CUDA_TIMESTAMPS", "events") ? timestamp_source::events
                                                           : timestamp_source::cupti;
}

flush_mode
read_flush_mode()
{
    return equals("ROCPROFILER_CUDA_FLUSH", "loop") ? flush_mode::loop : flush_mode::owner;
}

uint64_t
read_flush_period_ms(uint64_t fallback)
{
    return read_number("ROCPROFILER_CUDA_FLUSH_PERIOD_MS", fallback);
}

uint64_t
read_buffer_records(uint64_t fallback)
{
    return read_number("ROCPROFILER_CUDA_BUFFER_RECORDS", fallback);
}

uint64_t
read_record_wait_ms()
{
    return read_number("ROCPROFILER_CUDA_RECORD_WAIT_MS", 500);
}

std::optional<uint8_t>
read_per_thread_buffers()
{
    const auto text = read_text("ROCPROFILER_CUDA_PER_THREAD_BUFFERS");
    if(!text) return std::nullopt;
    return static_cast<uint8_t>(*text == "1" ? 1 : 0);
}

bool
read_cupti_activity_enabled()
{
    return !equals("ROCPROFILER_CUDA_CUPTI", "0");
}

std::optional<std::string>
read_cupti_library()
{
    return read_text("ROCPROFILER_CUPTI_LIBRARY");
}
} // namespace rocprofiler::cuda::settings
