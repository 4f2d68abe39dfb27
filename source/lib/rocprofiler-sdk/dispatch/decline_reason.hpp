// Why a kernel dispatch was not replayed, or why its replay ended early: the one list of reasons,
// shared by the backends (exclusions, snapshot failures), the replay engine and its diagnostics
// (`[kernel-replay] ... reason=<name>`). The names are part of the documented log format
// (docs/kernel_replay.md); never reuse one for another meaning.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace rocprofiler::dispatch
{
enum class decline_reason : uint8_t
{
    none = 0,
    // The tool's plan (kernel_replay/plan.hpp).
    not_requested,               // replay_pass_count left NULL
    single_pass,                 // replay_pass_count returned 1
    indefinite_without_continue, // replay_pass_count returned 0 and replay_continue is NULL
    pass_limit, // replay_pass_count returned more than ROCPROFILER_REPLAY_MAX_PASSES
    // Exclusions: launches that can never be replayed, known before CONFIG.
    reentrant_dispatch, // made from inside a replay window or on a device thread
    stream_capture,     // recorded into a CUDA graph, not executed
    collective_kernel,  // a collective (NCCL) kernel: its peers would run once
    // The memory of the window.
    agent_drain_stuck, // earlier work of the agent did not finish in time
    snapshot_failed,   // the backend could not copy the memory aside
    footprint_budget,  // the snapshot would not fit in the memory budget
    untracked_memory,  // the kernel receives memory the SDK does not track
    // A replay that ended early (the dispatch was replayed; the application sees that pass).
    pass_failed,
    restore_failed,
    // A pass changed memory outside the snapshot (kernel_replay/write_set.hpp): the replay ends
    // after that pass, whose results the application then has; the kernel's prediction widens.
    write_outside_snapshot,
    // The memory outside the snapshot could not be hashed or compared; the replay ends (after the
    // pass that ran) or, before pass 0, is declined.
    verification_failed,
    // Tool code of the replay domain threw: before any pass (CONFIG, replay_pass_count) the
    // dispatch is declined; during the loop (PASS, replay_continue) the replay ends early.
    tool_exception,
    // A pass did not finish within ROCPROFILER_REPLAY_PASS_TIMEOUT_MS (a kernel that waits for
    // work the replay window holds back, such as a kernel of another queue): the replay ends, that
    // pass is the application's run and signals the application when it finishes.
    pass_drain_stuck,
    // A pass launched dispatches of its own from the device (a kernel that dispatches kernels):
    // they are waited for before the memory is verified or restored; the replay ends after that
    // pass when they do not finish within ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS, or when nothing
    // proves that they wrote only inside the snapshot (ROCPROFILER_REPLAY_VERIFY is not `all`).
    child_dispatch,
    // A CUDA graph launch: its kernel nodes run inside one driver call and are traced from their
    // activity records (cuda/tracing/graph_kernels.hpp), never replayed (no replay of graph nodes
    // yet).
    graph_launch,
    last,
};

// The reason's name as logs and outputs spell it ("footprint_budget"); "none" for none.
std::string_view name(decline_reason reason);

// The inverse of name(), for tests and parsers.
std::optional<decline_reason> decline_reason_by_name(std::string_view text);

// True for the reasons that are a tool's per-dispatch choice rather than a problem (no warning).
bool is_tool_choice(decline_reason reason);
} // namespace rocprofiler::dispatch
