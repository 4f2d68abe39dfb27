// Isolation of a replay window from the rest of its agent's work (REPLAY_RULES.md): one isolation
// lock per agent, held exclusively by a window and shared by ordinary dispatches and by frees of
// device memory; the calling thread's window state; and the counts of work between windows that
// a kept verification baseline must match (window_memory.hpp).
#pragma once

#include "dispatch/interception.hpp"

#include <rocprofiler-sdk/fwd.h>

#include <atomic>
#include <cstdint>
#include <shared_mutex>

namespace rocprofiler::kernel_replay
{
// The agent's isolation lock (created on first use, process lifetime).
std::shared_mutex& isolation_lock(rocprofiler_agent_id_t agent);

// True when the calling thread holds the agent's isolation lock exclusively (its window is open).
bool holds_exclusively(rocprofiler_agent_id_t agent);

// True from CONFIG ENTER to the end of a window on the calling thread.
bool this_thread_in_window();

// The agent's isolation lock, held exclusively for the rest of the window.
class exclusive_agent_lock
{
public:
    explicit exclusive_agent_lock(rocprofiler_agent_id_t agent);
    ~exclusive_agent_lock();

    exclusive_agent_lock(const exclusive_agent_lock&)            = delete;
    exclusive_agent_lock& operator=(const exclusive_agent_lock&) = delete;

private:
    uint64_t           m_agent;
    std::shared_mutex& m_lock;
};

// Marks the calling thread as inside a window (this_thread_in_window()) for its lifetime.
class window_scope
{
public:
    window_scope();
    ~window_scope();

    window_scope(const window_scope&)            = delete;
    window_scope& operator=(const window_scope&) = delete;
};

// Work that may write tracked memory between two windows of an agent, as the engine sees it,
// counted since the process started: ordinary dispatches (the single runs of declined candidates
// included) and replay windows of any agent (a kernel may write memory another agent's snapshots
// cover); and dispatches made on a device thread (a kernel that dispatches kernels), counted when
// submitted: a pass during which that count moved launched children that may still write memory.
struct work_counters
{
    std::atomic<uint64_t> ordinary_dispatches      = 0;
    std::atomic<uint64_t> windows_opened           = 0;
    std::atomic<uint64_t> device_thread_dispatches = 0;
};

work_counters& work();
} // namespace rocprofiler::kernel_replay
