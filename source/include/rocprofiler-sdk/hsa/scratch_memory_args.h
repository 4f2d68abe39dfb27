/* Arguments of the ROCPROFILER_*_TRACING_SCRATCH_MEMORY operations (rocprofiler-sdk's layout).
 * No agent here uses scratch memory through HSA, so no record carries them yet. */
#pragma once

#include <stddef.h>
#include <stdint.h>

/** @brief The arguments of an operation that has none. */
typedef struct rocprofiler_scratch_memory_no_args
{
    char empty;
} rocprofiler_scratch_memory_no_args;

/** @brief Arguments of each scratch memory operation, one member per operation. */
typedef union rocprofiler_scratch_memory_args_t
{
    struct
    {
        uint64_t dispatch_id; ///< The dispatch that needs the scratch memory
    } alloc_start;
    struct
    {
        uint64_t dispatch_id; ///< The dispatch that needed the scratch memory
        size_t   size;        ///< Bytes allocated
        size_t   num_slots;   ///< Scratch slots allocated
    } alloc_end;
    struct
    {
        rocprofiler_scratch_memory_no_args no_args;
    } free_start;
    struct
    {
        rocprofiler_scratch_memory_no_args no_args;
    } free_end;
    struct
    {
        rocprofiler_scratch_memory_no_args no_args;
    } async_reclaim_start;
    struct
    {
        rocprofiler_scratch_memory_no_args no_args;
    } async_reclaim_end;
} rocprofiler_scratch_memory_args_t;
