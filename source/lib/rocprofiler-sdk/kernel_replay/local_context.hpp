// Localized context control: which already-active contexts take part in each pass of one replay
// loop. The mask lives in a thread-local override (context::thread_local_override()) that only
// the replaying thread's dispatches consult, and only for the length of the loop; global context
// state is never touched.
#pragma once

#include "context/context.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <vector>

namespace rocprofiler::kernel_replay
{
// Owns the mask of one replay loop on the calling thread. Construction records which contexts
// are active now (the loop's beginning) and installs an empty override; destruction removes it,
// so every context's pre-replay state is in effect again.
class local_context_scope
{
public:
    local_context_scope();
    ~local_context_scope();

    local_context_scope(const local_context_scope&)            = delete;
    local_context_scope& operator=(const local_context_scope&) = delete;

    // Arms the localized start/stop callbacks for the length of one PASS PHASE_ENTER callback.
    class armed
    {
    public:
        explicit armed(local_context_scope& scope);
        ~armed();

        armed(const armed&)            = delete;
        armed& operator=(const armed&) = delete;

    private:
        local_context_scope& m_scope;
    };

    struct state
    {
        context::local_override override        = {};
        std::vector<bool>       active_at_start = {}; // by context index
        bool                    armed           = false;
    };

private:
    state                          m_state             = {};
    state*                         m_previous          = nullptr;
    const context::local_override* m_previous_override = nullptr;
};

// The payload's replay_start_context: the context takes part again from the next submit of this
// loop (following its global state). Legal only during PASS PHASE_ENTER on the replaying thread.
rocprofiler_status_t replay_local_enable_context(rocprofiler_context_id_t context_id) noexcept;

// The payload's replay_stop_context: the context takes no part in this loop's submits from now
// on, until replay_local_enable_context. Legal only during PASS PHASE_ENTER on the replaying
// thread.
rocprofiler_status_t replay_local_disable_context(rocprofiler_context_id_t context_id) noexcept;
} // namespace rocprofiler::kernel_replay
