#include "kernel_replay/plan.hpp"

#include "common/environment.hpp"
#include "kernel_replay/settings.hpp"

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

static_assert(max_passes_default == common::env::settings::replay_max_passes.def.fallback);

uint64_t
max_passes()
{
    return settings().max_passes;
}

plan
make_plan(std::optional<uint64_t> pass_count, bool has_continue)
{
    return make_plan(pass_count, has_continue, max_passes());
}

plan
make_plan(std::optional<uint64_t> pass_count, bool has_continue, uint64_t max_passes)
{
    if(!pass_count) return not_replayed(dispatch::decline_reason::not_requested);
    if(*pass_count == 1) return not_replayed(dispatch::decline_reason::single_pass);
    if(*pass_count == 0 && !has_continue)
        return not_replayed(dispatch::decline_reason::indefinite_without_continue);
    if(*pass_count > max_passes) return not_replayed(dispatch::decline_reason::pass_limit);

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
    return value.reason == dispatch::decline_reason::indefinite_without_continue ||
           value.reason == dispatch::decline_reason::pass_limit;
}
} // namespace rocprofiler::kernel_replay
