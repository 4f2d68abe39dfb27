// Names and ids of the operations of ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY. The spec names
// these two functions as the single source of the replay operation names; tracing/names.cpp
// answers the public name and iteration queries for the KERNEL_REPLAY kind through them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rocprofiler::kernel_replay
{
// Name of a rocprofiler_kernel_replay_operation_t value ("CONFIG", "PASS"); a static string, or
// nullptr for NONE, LAST and any other value.
const char* name_by_id(int32_t op);

// Inverse of name_by_id: "CONFIG" -> 1, "PASS" -> 2; exact, case-sensitive match.
std::optional<int32_t> id_by_name(std::string_view name);
} // namespace rocprofiler::kernel_replay
