#include "kernel_replay/local_context.hpp"

#include <optional>

namespace rocprofiler::kernel_replay
{
namespace
{
// The loop running on this thread, or nullptr. Thread-local by design: a toggle from any other
// thread finds no loop and is refused.
thread_local local_context_scope::state* this_thread_loop = nullptr;

// Validates a toggle; on success returns the context's index in the override map.
rocprofiler_status_t
check_toggle(rocprofiler_context_id_t context_id, size_t* index)
{
    auto* loop = this_thread_loop;
    if(loop == nullptr || !loop->armed) return ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR;
    auto* ctx = context::get(context_id);
    if(ctx == nullptr) return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND;
    *index = ctx->id - 1;
    if(*index >= loop->active_at_start.size() || !loop->active_at_start[*index])
        return ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED;
    return ROCPROFILER_STATUS_SUCCESS;
}

rocprofiler_status_t
set_participation(rocprofiler_context_id_t context_id, std::optional<bool> value)
{
    auto index = size_t{0};
    if(auto status = check_toggle(context_id, &index); status != ROCPROFILER_STATUS_SUCCESS)
        return status;
    this_thread_loop->override.state[index] = value;
    return ROCPROFILER_STATUS_SUCCESS;
}
} // namespace

local_context_scope::local_context_scope()
    : m_previous{this_thread_loop}
    , m_previous_override{context::thread_local_override()}
{
    auto n = context::count();
    m_state.active_at_start.assign(n, false);
    m_state.override.state.assign(n, std::nullopt);
    for(size_t i = 0; i < n; ++i)
    {
        if(const auto* ctx = context::at(i); ctx != nullptr)
            m_state.active_at_start[i] = ctx->active.load(std::memory_order_acquire);
    }
    this_thread_loop                 = &m_state;
    context::thread_local_override() = &m_state.override;
}

local_context_scope::~local_context_scope()
{
    context::thread_local_override() = m_previous_override;
    this_thread_loop                 = m_previous;
}

local_context_scope::armed::armed(local_context_scope& scope)
    : m_scope{scope}
{
    m_scope.m_state.armed = true;
}

local_context_scope::armed::~armed()
{
    m_scope.m_state.armed = false;
}

rocprofiler_status_t
replay_local_enable_context(rocprofiler_context_id_t context_id) noexcept
{
    // No stored value: the context follows its global state again, which was active when the
    // loop began (a start never makes a context participate that is stopped globally).
    return set_participation(context_id, std::nullopt);
}

rocprofiler_status_t
replay_local_disable_context(rocprofiler_context_id_t context_id) noexcept
{
    return set_participation(context_id, false);
}
} // namespace rocprofiler::kernel_replay
