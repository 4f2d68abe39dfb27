#include "cuda/cupti/settings_cupti.hpp"

#include "common/environment.hpp"
#include "cuda/settings.hpp"

namespace rocprofiler::cuda::settings
{
namespace env = common::env;

bool
read_counter_schedule_per_dispatch()
{
    return env::get(table::cuda_counter_schedule) == counter_schedule::dispatch;
}

bool
read_cache_control_flush()
{
    return env::get(table::cuda_cache_control) == cache_control::all;
}

bool
read_range_mode_user()
{
    return env::get(table::cuda_range_mode) == range_mode::user;
}

uint64_t
read_counter_batch()
{
    return env::get(table::cuda_counter_batch);
}

std::string
metric_filter_variable(uint32_t ordinal)
{
    return std::string{table::cuda_metric_filter_device.def.name} + std::to_string(ordinal);
}

std::optional<std::string>
read_metric_filter(uint32_t ordinal)
{
    auto expression = env::get(table::cuda_metric_filter_device, ordinal);
    if(expression.empty()) return std::nullopt;
    return expression;
}

bool
read_timing_stats()
{
    return env::get(table::cuda_timing_stats);
}

timestamp_source
read_timestamp_source()
{
    return env::get(table::cuda_timestamps);
}

flush_mode
read_flush_mode()
{
    return env::get(table::cuda_flush);
}

uint64_t
read_flush_period_ms(uint64_t fallback)
{
    return env::get(table::cuda_flush_period_ms).value_or(fallback);
}

uint64_t
read_buffer_records(uint64_t fallback)
{
    return env::get(table::cuda_buffer_records).value_or(fallback);
}

uint64_t
read_record_wait_ms()
{
    return env::get(table::cuda_record_wait_ms);
}

std::optional<uint8_t>
read_per_thread_buffers()
{
    const auto value = env::get(table::cuda_per_thread_buffers);
    if(!value) return std::nullopt;
    return static_cast<uint8_t>(*value ? 1 : 0);
}

bool
read_cupti_activity_enabled()
{
    return env::get(table::cuda_cupti);
}

std::optional<std::string>
read_cupti_library()
{
    auto path = env::get(table::cupti_library);
    if(path.empty()) return std::nullopt;
    return path;
}
} // namespace rocprofiler::cuda::settings
