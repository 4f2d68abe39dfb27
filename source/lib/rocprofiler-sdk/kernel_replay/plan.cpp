#include "kernel_replay/plan.hpp"

namespace rocprofiler::kernel_replay
{
namespace
{
plan
not_replayed(dispatch::decline_reason reason)
{
    auto value   = plan{};
    value.reason = reason;
    return value;
}
} // namespace

plan
make_plan(std::optional<uint64_t> pass_count, bool has_continue)
{
    if(!pass_count) return not_replayed(dispatch::decline_reason::not_requested);
    if(*pass_count == 1) return not_replayed(dispatch::decline_reason::single_pass);
    if(*pass_count == 0 && !has_continue)
        return not_replayed(dispatch::decline_reason::indefinite_without_continue);

    auto value         = plan{};
    value.has_continue = has_continue;
    if(*pass_count == 0)
    {
        value.kind = loop_kind::indefinite;
    }
    else
    {
        value.kind         = loop_kind::fixed;
        value.total_passes = *pass_count;
    }
    return value;
}

bool
is_rejected(const plan& value)
{
    return value.reason == dispatch::decline_reason::indefinite_without_continue;
}
} // namespace rocprofiler::kernel_replay
