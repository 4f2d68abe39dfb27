#include "kernel_replay/kernel_replay.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <array>

namespace rocprofiler::kernel_replay
{
namespace
{
// Indexed by operation id; index 0 (NONE) has no name.
constexpr auto operation_names = std::array<const char*, ROCPROFILER_KERNEL_REPLAY_LAST>{
    nullptr,
    "CONFIG",
    "PASS",
};

static_assert(ROCPROFILER_KERNEL_REPLAY_CONFIG == 1 && ROCPROFILER_KERNEL_REPLAY_PASS == 2,
              "the replay operation ids are fixed by the spec");
} // namespace

const char*
name_by_id(int32_t op)
{
    if(op <= ROCPROFILER_KERNEL_REPLAY_NONE || op >= ROCPROFILER_KERNEL_REPLAY_LAST) return nullptr;
    return operation_names[static_cast<size_t>(op)];
}

std::optional<int32_t>
id_by_name(std::string_view name)
{
    for(int32_t op = ROCPROFILER_KERNEL_REPLAY_NONE + 1; op < ROCPROFILER_KERNEL_REPLAY_LAST; ++op)
    {
        if(name == operation_names[static_cast<size_t>(op)]) return op;
    }
    return std::nullopt;
}
} // namespace rocprofiler::kernel_replay
