/**
 * @file experimental/kernel_replay_outcome.h
 * @brief What became of each kernel replay candidate (an extension of this SDK; AMD's
 * rocprofiler-sdk has no equivalent).
 *
 * A tool that plans N passes per dispatch sees only the PASS callbacks that ran: a dispatch whose
 * replay was declined (no room for the snapshot, untracked memory, ...) gets none, and one whose
 * replay ended early (a pass wrote memory outside the snapshot, a pass failed) gets fewer. The
 * outcome callback says which, and why, once per candidate dispatch (every dispatch that got a
 * `CONFIG` callback), so that outputs can name what is missing instead of silently holding fewer
 * records.
 *
 * The callback runs on the submitting thread at the end of the dispatch's replay window: after the
 * last `PASS` `PHASE_EXIT` (or the single fall-through run was submitted) and before the
 * application observes the dispatch's completion. It must not block on the dispatch's completion.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @addtogroup CALLBACK_TRACING_SERVICE
 * @{
 */

/** @brief What became of a replay candidate. */
typedef enum rocprofiler_kernel_replay_outcome_kind_t
{
    /** Every pass the loop planned (or `replay_continue` asked for) ran. */
    ROCPROFILER_KERNEL_REPLAY_OUTCOME_REPLAYED = 0,
    /** Not replayed: the dispatch ran once, without `PASS` callbacks. */
    ROCPROFILER_KERNEL_REPLAY_OUTCOME_DECLINED,
    /** Replayed, but the loop ended after `passes_run` passes; the application has that pass's
     * results. */
    ROCPROFILER_KERNEL_REPLAY_OUTCOME_ENDED_EARLY,
    ROCPROFILER_KERNEL_REPLAY_OUTCOME_LAST,
} rocprofiler_kernel_replay_outcome_kind_t;

/** @brief One candidate dispatch's outcome. Valid during the callback only. */
typedef struct rocprofiler_kernel_replay_outcome_t
{
    uint64_t                                 size;        ///< Size of this struct
    uint64_t                                 dispatch_id; ///< As in the dispatch's records
    rocprofiler_agent_id_t                   agent_id;
    rocprofiler_kernel_id_t                  kernel_id;
    rocprofiler_kernel_replay_outcome_kind_t kind;
    /** Why the dispatch was declined or its replay ended early (`"footprint_budget"`,
     * `"write_outside_snapshot"`, ...), as the `[kernel-replay]` log lines spell it; `"none"` for a
     * complete replay. Static storage. */
    const char* reason;
    uint64_t    passes_run;     ///< Executions of the kernel: 1 for a declined dispatch
    uint64_t    passes_planned; ///< What `replay_pass_count` returned (0: indefinite)
    /** Bytes of device memory the snapshot copied aside; for a dispatch declined with
     * `"footprint_budget"`, the bytes it would have needed; 0 for other declines. */
    uint64_t snapshot_bytes;
    /** Bytes pass 0 wrote inside the snapshot, as found by comparing it with its copy: per 64 KiB
     * piece, the span from the first to the last changed byte, in 16-byte granules (writes that
     * leave a value unchanged are not seen). 0 when the snapshot holds every tracked allocation. */
    uint64_t written_bytes;
    /** Bytes outside the snapshot hashed before and after passes to prove that no pass wrote
     * there (0 when verification is off). */
    uint64_t verified_bytes;
    /** The pass that wrote outside the snapshot, when `reason` is `"write_outside_snapshot"`. */
    uint64_t failed_pass;
    /** Bytes of the verified memory hashed before pass 0; the rest of `verified_bytes` started
     * from the hashes the agent's previous verified window left (docs/kernel_replay.md). Present
     * when `size` covers it. */
    uint64_t baseline_hashed_bytes;
} rocprofiler_kernel_replay_outcome_t;

/**
 * @brief Receives each candidate dispatch's outcome.
 * @param [in] outcome The outcome; valid during the call only.
 * @param [in] data The pointer given to @ref rocprofiler_set_kernel_replay_outcome_callback.
 */
typedef void (*rocprofiler_kernel_replay_outcome_cb_t)(
    const rocprofiler_kernel_replay_outcome_t* outcome, void* data);

/**
 * @brief Sets the process's outcome callback (one per process; a later call replaces it, NULL
 * removes it). May be called at any time, also before the replay service is configured.
 * @retval ROCPROFILER_STATUS_SUCCESS Set.
 */
rocprofiler_status_t
rocprofiler_set_kernel_replay_outcome_callback(rocprofiler_kernel_replay_outcome_cb_t callback,
                                               void* data) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
