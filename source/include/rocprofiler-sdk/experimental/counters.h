/**
 * @file experimental/counters.h
 * @brief Loading counter definitions from YAML, as rocprofiler-sdk offers. Not built here.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

#include <stddef.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @brief Loads counter definitions (@p yaml of @p size bytes).
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p yaml is NULL or @p size is 0.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED Otherwise.
 */
rocprofiler_status_t rocprofiler_load_counter_definition(
    const char* yaml, size_t size, rocprofiler_counter_flag_t flags) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
