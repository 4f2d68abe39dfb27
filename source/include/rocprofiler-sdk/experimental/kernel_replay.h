/**
 * @file experimental/kernel_replay.h
 * @brief Kernel replay as a callback tracing service (experimental).
 *
 * A tool subscribes to @ref ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY through
 * `rocprofiler_configure_callback_tracing_service()`. For every candidate dispatch the SDK reserves
 * one dispatch id, fires `CONFIG` (ENTER, EXIT) on the submitting thread, asks the tool's
 * `replay_pass_count` how many passes to run, snapshots the device memory the kernel may touch, and
 * runs the passes, each bracketed by `PASS` ENTER/EXIT, restoring memory before every further pass.
 * The application observes exactly one completion, after the loop.
 *
 * Pass-count semantics (`replay_pass_count` / `replay_continue`):
 * - `replay_pass_count` left NULL: not replayed (the dispatch runs once, no snapshot).
 * - returns 1: not replayed.
 * - returns N > 1, `replay_continue` NULL: exactly N passes.
 * - returns N > 1, `replay_continue` set: up to N passes; it may end the loop early, never extend
 * it.
 * - returns 0, `replay_continue` set: indefinite loop until `replay_continue` returns 0;
 *   `total_passes` is reported as 0. The tool must guarantee termination.
 * - returns 0, `replay_continue` NULL: rejected with a warning; not replayed.
 *
 * This header is part of the `CALLBACK_TRACING_SERVICE` group. The domain and payload are expected
 * to change before a stable release.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @addtogroup CALLBACK_TRACING_SERVICE
 * @{
 */

/**
 * @brief Returns how many passes a dispatch gets. Called by the SDK once per candidate dispatch,
 * on the submitting thread, after `CONFIG` `PHASE_ENTER` returns.
 * @param [in] dispatch_info The dispatch, with its reserved dispatch id.
 * @param [in] user_data The value the tool wrote at `CONFIG` `PHASE_ENTER`.
 * @return 0 (indefinite, needs `replay_continue`), 1 (no replay) or N > 1 passes.
 */
typedef uint64_t (*rocprofiler_kernel_replay_pass_count_cb_t)(
    rocprofiler_kernel_dispatch_info_t dispatch_info, rocprofiler_user_data_t user_data);

/**
 * @brief Decides whether a further pass follows. Called after a pass completes and after that
 * pass's `PHASE_EXIT`. A fixed loop of N passes consults it after passes 0..N-2 only; an
 * indefinite loop after every pass.
 * @param [in] dispatch_info The dispatch.
 * @param [in] current_pass The pass that just completed, from 0.
 * @param [in] total_passes N, or 0 for an indefinite loop.
 * @param [in] user_data The value the tool wrote at `CONFIG` `PHASE_ENTER`.
 * @return non-zero to run a further pass, zero to end the loop.
 */
typedef int (*rocprofiler_kernel_replay_continue_cb_t)(
    rocprofiler_kernel_dispatch_info_t dispatch_info,
    uint64_t                           current_pass,
    uint64_t                           total_passes,
    rocprofiler_user_data_t            user_data);

/**
 * @brief Localized start or stop of an already-active context for the rest of this replay loop.
 * Legal only during `PASS` `PHASE_ENTER`, on the thread that received the callback.
 * @retval ROCPROFILER_STATUS_SUCCESS Recorded (also when it changes nothing).
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR Called outside `PASS` `PHASE_ENTER`; nothing is
 * recorded.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED The context was not active when the loop
 * began.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 */
typedef rocprofiler_status_t (*rocprofiler_kernel_replay_context_cb_t)(
    rocprofiler_context_id_t context);

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY records. One flat struct for
 * both operations; which members are meaningful depends on the operation.
 */
typedef struct rocprofiler_callback_tracing_kernel_replay_data_t
{
    uint64_t                           size;          ///< Size of this struct
    rocprofiler_kernel_dispatch_info_t dispatch_info; ///< Always populated by the SDK

    /** [CONFIG] Set by the tool during `CONFIG` `PHASE_ENTER`; zero during `PASS`. */
    rocprofiler_kernel_replay_pass_count_cb_t replay_pass_count;
    /** [CONFIG] Set by the tool during `CONFIG` `PHASE_ENTER`; zero during `PASS`. */
    rocprofiler_kernel_replay_continue_cb_t replay_continue;

    uint64_t current_pass; ///< [PASS] 0-indexed pass; zero during `CONFIG`
    uint64_t total_passes; ///< [PASS] N, or 0 for an indefinite loop; zero during `CONFIG`

    /** [PASS] Call during `PASS` `PHASE_ENTER` to start a context for this loop. */
    rocprofiler_kernel_replay_context_cb_t replay_start_context;
    /** [PASS] Call during `PASS` `PHASE_ENTER` to stop a context for this loop. */
    rocprofiler_kernel_replay_context_cb_t replay_stop_context;
} rocprofiler_callback_tracing_kernel_replay_data_t;

/** @} */

ROCPROFILER_EXTERN_C_FINI
