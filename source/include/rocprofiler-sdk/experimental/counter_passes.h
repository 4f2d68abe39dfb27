/**
 * @file experimental/counter_passes.h
 * @brief How many passes a counter configuration takes (an extension of this SDK; AMD's
 * rocprofiler-sdk has no equivalent).
 *
 * On agents with a fixed number of counter slots per pass (the host device),
 * @ref rocprofiler_create_counter_config refuses a configuration that does not fit in one pass
 * with ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT, as AMD's does. On agents whose hardware
 * schedules each set of counters into passes itself (NVIDIA GPUs, through CUPTI), it accepts every
 * configuration the hardware can collect, including metrics that need several passes even by
 * themselves (throughputs, hit rates), and this query says how many passes that takes.
 *
 * A configuration of P passes is collected when a replayed dispatch selects it in P passes (the
 * dispatch counting callback returns it in each): every such pass runs the next of the hardware's
 * passes, and each of those passes' records carries the values of all of them once the last one
 * ran (the records of one dispatch then hold equal values). A dispatch that is not replayed, or
 * whose replay ends before the P-th pass, reports no values for it (a warning says why), as for
 * any counters that could not be collected.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stdint.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @addtogroup COUNTER_CONFIG
 * @{
 */

/**
 * @brief The passes a counter configuration takes on its agent.
 * @param [in] config_id A configuration from @ref rocprofiler_create_counter_config.
 * @param [out] pass_count Receives the number of passes (1 for a configuration that fits in one).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND No such configuration.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT `pass_count` is NULL.
 */
rocprofiler_status_t
rocprofiler_query_counter_config_pass_count(rocprofiler_counter_config_id_t config_id,
                                            uint64_t* pass_count) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
