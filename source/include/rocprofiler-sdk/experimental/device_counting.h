/**
 * @file experimental/device_counting.h
 * @brief How much of an agent's work a device counting window holds (an extension of this SDK;
 * AMD's rocprofiler-sdk has no equivalent).
 *
 * The device counting service (device_counting_service.h) sums the counter values of every
 * execution on an agent from the moment its context starts. An execution whose values could not
 * be measured (it failed, or the backend did not measure one of the configuration's counters) is
 * left out of the sums; the next sample says so in a warning, and this query gives the numbers,
 * so that a tool can show how complete a sampled value is.
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

/** @brief The executions a device counting window counted and left out, on one agent. */
typedef struct rocprofiler_device_counting_coverage_t
{
    uint64_t size;       ///< Size of this struct
    uint64_t counted;    ///< Executions whose values are in the sums
    uint64_t unmeasured; ///< Executions on the agent the sums leave out (failed, or not measured)
} rocprofiler_device_counting_coverage_t;

/**
 * @brief The coverage of the current window of a context's device counting on one agent: the
 * window its latest start opened (still readable once the context stopped).
 * @param [in] context_id A context with the device counting service.
 * @param [in] agent_id An agent the service was configured for.
 * @param [out] coverage Receives the counts (`size` is set).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT `coverage` is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID The context has no device counting service.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND The service was not configured for the agent.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED The context has not started since it was
 * configured: there is no window yet.
 */
rocprofiler_status_t rocprofiler_query_device_counting_coverage(
    rocprofiler_context_id_t                context_id,
    rocprofiler_agent_id_t                  agent_id,
    rocprofiler_device_counting_coverage_t* coverage) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
