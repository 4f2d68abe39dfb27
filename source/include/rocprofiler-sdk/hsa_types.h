/**
 * @file hsa_types.h
 * @brief The handle types of the HSA runtime (`hsa/hsa.h`, and the memory pool of
 * `hsa/hsa_ext_amd.h`) that rocprofiler-sdk records and its C++ helpers name, declared here with
 * HSA's layout so that no ROCm package is needed. No agent of this SDK is an HSA agent: these
 * fields are always zero here. The declarations are skipped when HSA's own header was included
 * first (same include guard); include HSA's header first if a tool needs both.
 */
#pragma once

#ifndef HSA_RUNTIME_INC_HSA_H_
#    define HSA_RUNTIME_INC_HSA_H_

#    include <stdint.h>

/** @brief An HSA agent. */
typedef struct hsa_agent_s
{
    uint64_t handle; ///< Opaque handle
} hsa_agent_t;

/** @brief An HSA signal. */
typedef struct hsa_signal_s
{
    uint64_t handle; ///< Opaque handle
} hsa_signal_t;

/** @brief An HSA executable. */
typedef struct hsa_executable_s
{
    uint64_t handle; ///< Opaque handle
} hsa_executable_t;

/** @brief An HSA code object loaded into an executable. */
typedef struct hsa_loaded_code_object_s
{
    uint64_t handle; ///< Opaque handle
} hsa_loaded_code_object_t;

/** @brief An HSA memory region. */
typedef struct hsa_region_s
{
    uint64_t handle; ///< Opaque handle
} hsa_region_t;

#endif

/* The memory pool handle of HSA's AMD extensions (`hsa/hsa_ext_amd.h`), under that header's guard.
 */
#ifndef HSA_RUNTIME_EXT_AMD_H_
#    define HSA_RUNTIME_EXT_AMD_H_

#    include <stdint.h>

/** @brief An HSA AMD memory pool. */
typedef struct hsa_amd_memory_pool_s
{
    uint64_t handle; ///< Opaque handle
} hsa_amd_memory_pool_t;

#endif

/* The event kinds of HSA's tool events (`hsa/hsa_amd_tool.h`), under that header's guard: the
 * scratch-memory callback record names them. */
#ifndef HSA_RUNTIME_AMD_TOOL_EVENTS_H_
#    define HSA_RUNTIME_AMD_TOOL_EVENTS_H_

/** @brief Kinds of HSA tool events. */
typedef enum // NOLINT(performance-enum-size)
{
    HSA_AMD_TOOL_EVENT_MIN = 0,                     ///< Lower bound
    HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_START,         ///< Scratch allocation begins
    HSA_AMD_TOOL_EVENT_SCRATCH_ALLOC_END,           ///< Scratch allocation ends
    HSA_AMD_TOOL_EVENT_SCRATCH_FREE_START,          ///< Scratch free begins
    HSA_AMD_TOOL_EVENT_SCRATCH_FREE_END,            ///< Scratch free ends
    HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_START, ///< Asynchronous reclaim begins
    HSA_AMD_TOOL_EVENT_SCRATCH_ASYNC_RECLAIM_END,   ///< Asynchronous reclaim ends
    HSA_AMD_TOOL_EVENT_MAX,                         ///< Upper bound
} hsa_amd_tool_event_kind_t;

#endif
