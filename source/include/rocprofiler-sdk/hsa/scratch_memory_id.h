/* Operations of ROCPROFILER_*_TRACING_SCRATCH_MEMORY.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_scratch_alloc_flag_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_SCRATCH_ALLOC_FLAG_NONE     = 0,
    ROCPROFILER_SCRATCH_ALLOC_FLAG_USE_ONCE = 1,
    ROCPROFILER_SCRATCH_ALLOC_FLAG_ALT      = 2,
} rocprofiler_scratch_alloc_flag_t;
