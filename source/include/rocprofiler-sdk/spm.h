/**
 * @file spm.h
 * @brief rocprofiler-sdk 1.0's first form of streaming performance monitoring (SPM): one call
 * that streams a counter configuration into a buffer at an interval. Declared with AMD's names
 * and layout so that a tool using it compiles unchanged.
 *
 * Here this form is not implemented: @ref rocprofiler_configure_spm_service checks its arguments
 * and returns @ref ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED. SPM works through the services of
 * experimental/spm.h (the callback dispatch service on the host device), which replaced this form
 * in rocprofiler-sdk too.
 */
#pragma once

#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup SPM_SERVICE_V0 SPM service (rocprofiler-sdk 1.0's form)
 * @{
 */

/** @brief The counter values of one SPM sample. */
typedef struct rocprofiler_spm_record_t
{
    rocprofiler_counter_record_t* counters;       ///< The values, with their counter ids
    uint64_t                      counters_count; ///< How many
} rocprofiler_spm_record_t;

/**
 * @brief Streams the counters of a configuration into a buffer at an interval.
 * @param [in] context_id The context
 * @param [in] buffer_id Where samples would go
 * @param [in] counter_config Which counters
 * @param [in] interval The sampling interval (AMD's header gives no unit)
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED outside a tool's initialization
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND no such context
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND no such buffer
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED otherwise: use experimental/spm.h
 */
rocprofiler_status_t
rocprofiler_configure_spm_service(rocprofiler_context_id_t        context_id,
                                  rocprofiler_buffer_id_t         buffer_id,
                                  rocprofiler_counter_config_id_t counter_config,
                                  uint64_t                        interval) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
