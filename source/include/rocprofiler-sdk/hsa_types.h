/**
 * @file hsa_types.h
 * @brief The types of the HSA runtime (`hsa/hsa.h`, `hsa/hsa_ext_amd.h`, `hsa/hsa_ext_image.h`,
 * `hsa/hsa_ext_finalize.h`) that rocprofiler-sdk's records, its HSA argument union
 * (hsa/api_args.h) and its C++ helpers name, declared here with HSA's sizes so that no ROCm
 * package is needed. No agent of this SDK is an HSA agent: these fields are always zero here.
 * Stand-ins: handles are HSA's one-member structures; enumerations are `int` (HSA's size, without
 * HSA's enumerators); structures that the SDK names only through pointers are incomplete; the one
 * passed by value (hsa_ext_control_directives_t) has HSA's fields. Each group is skipped when the
 * HSA header it stands in for was included first (same include guard): a tool that needs HSA's
 * enumerators or structure fields includes HSA's headers first.
 */
#pragma once

#ifndef HSA_RUNTIME_INC_HSA_H_
#    define HSA_RUNTIME_INC_HSA_H_

#    include <stdint.h>

/** @brief Status of an HSA call (an enumeration in HSA). */
typedef int hsa_status_t;

/** @brief Value of an HSA signal. */
#    if defined(_M_X64) || defined(__LP64__)
typedef int64_t hsa_signal_value_t;
#    else
typedef int32_t hsa_signal_value_t;
#    endif

typedef uint32_t hsa_queue_type32_t; ///< A queue type (hsa_queue_type_t) as 32 bits
typedef int      hsa_file_t;         ///< A file descriptor

/** @brief Three dimensions. */
typedef struct hsa_dim3_s
{
    uint32_t x; ///< X dimension
    uint32_t y; ///< Y dimension
    uint32_t z; ///< Z dimension
} hsa_dim3_t;

/** @brief An HSA queue (named through pointers only here). */
typedef struct hsa_queue_s hsa_queue_t;

/* HSA enumerations named by the argument union (int-sized, without enumerators here). */
typedef int hsa_access_permission_t;
typedef int hsa_agent_info_t;
typedef int hsa_cache_info_t;
typedef int hsa_code_object_info_t;
typedef int hsa_code_object_type_t;
typedef int hsa_code_symbol_info_t;
typedef int hsa_default_float_rounding_mode_t;
typedef int hsa_executable_info_t;
typedef int hsa_executable_state_t;
typedef int hsa_executable_symbol_info_t;
typedef int hsa_flush_mode_t;
typedef int hsa_fp_type_t;
typedef int hsa_isa_info_t;
typedef int hsa_machine_model_t;
typedef int hsa_profile_t;
typedef int hsa_region_info_t;
typedef int hsa_round_method_t;
typedef int hsa_signal_condition_t;
typedef int hsa_system_info_t;
typedef int hsa_wait_state_t;
typedef int hsa_wavefront_info_t;

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

/** @brief An instruction set architecture. */
typedef struct hsa_isa_s
{
    uint64_t handle; ///< Opaque handle
} hsa_isa_t;

/** @brief A code object (deprecated in HSA). */
typedef struct hsa_code_object_s
{
    uint64_t handle; ///< Opaque handle
} hsa_code_object_t;

/** @brief A code object reader. */
typedef struct hsa_code_object_reader_s
{
    uint64_t handle; ///< Opaque handle
} hsa_code_object_reader_t;

/** @brief An executable symbol. */
typedef struct hsa_executable_symbol_s
{
    uint64_t handle; ///< Opaque handle
} hsa_executable_symbol_t;

/** @brief A signal group. */
typedef struct hsa_signal_group_s
{
    uint64_t handle; ///< Opaque handle
} hsa_signal_group_t;

/** @brief A wavefront. */
typedef struct hsa_wavefront_s
{
    uint64_t handle; ///< Opaque handle
} hsa_wavefront_t;

/** @brief A code symbol (deprecated in HSA). */
typedef struct hsa_code_symbol_s
{
    uint64_t handle; ///< Opaque handle
} hsa_code_symbol_t;

/** @brief Data passed to a callback (deprecated in HSA). */
typedef struct hsa_callback_data_s
{
    uint64_t handle; ///< Opaque handle
} hsa_callback_data_t;

/** @brief A cache. */
typedef struct hsa_cache_s
{
    uint64_t handle; ///< Opaque handle
} hsa_cache_t;

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

/** @brief A virtual memory allocation. */
typedef struct hsa_amd_vmem_alloc_handle_s
{
    uint64_t handle; ///< Opaque handle
} hsa_amd_vmem_alloc_handle_t;

/* Enumerations of HSA's AMD extensions named by the argument union (int-sized, without
 * enumerators here). */
typedef int hsa_amd_agent_memory_pool_info_t;
typedef int hsa_amd_coherency_type_t;
typedef int hsa_amd_copy_direction_t;
typedef int hsa_amd_memory_pool_info_t;
typedef int hsa_amd_memory_type_t;
typedef int hsa_amd_queue_priority_t;
typedef int hsa_amd_sdma_engine_id_t;
typedef int hsa_queue_info_attribute_t;

/* Structures of HSA's AMD extensions named through pointers only here. */
typedef struct hsa_amd_event_s                     hsa_amd_event_t;
typedef struct hsa_amd_image_descriptor_s          hsa_amd_image_descriptor_t;
typedef struct hsa_amd_ipc_memory_s                hsa_amd_ipc_memory_t;
typedef hsa_amd_ipc_memory_t                       hsa_amd_ipc_signal_t;
typedef struct hsa_amd_memory_access_desc_s        hsa_amd_memory_access_desc_t;
typedef struct hsa_amd_pointer_info_s              hsa_amd_pointer_info_t;
typedef struct hsa_amd_profiling_async_copy_time_s hsa_amd_profiling_async_copy_time_t;
typedef struct hsa_amd_profiling_dispatch_time_s   hsa_amd_profiling_dispatch_time_t;
typedef struct hsa_amd_svm_attribute_pair_s        hsa_amd_svm_attribute_pair_t;
typedef struct hsa_pitched_ptr_s                   hsa_pitched_ptr_t;

/* Callback types of HSA's AMD extensions. */
#    if !defined(__cplusplus)
#        include <stdbool.h>
#    endif
typedef bool (*hsa_amd_signal_handler)(hsa_signal_value_t value, void* arg);
typedef void (*hsa_amd_deallocation_callback_t)(void* ptr, void* user_data);
typedef hsa_status_t (*hsa_amd_system_event_callback_t)(const hsa_amd_event_t* event, void* data);

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

/* The types of HSA's image extension (`hsa/hsa_ext_image.h`), under that header's guard. */
#ifndef HSA_EXT_IMAGE_H
#    define HSA_EXT_IMAGE_H

#    include <stdint.h>

/** @brief An image. */
typedef struct hsa_ext_image_s
{
    uint64_t handle; ///< Opaque handle
} hsa_ext_image_t;

/** @brief A sampler. */
typedef struct hsa_ext_sampler_s
{
    uint64_t handle; ///< Opaque handle
} hsa_ext_sampler_t;

typedef int hsa_ext_image_geometry_t;    ///< An enumeration in HSA
typedef int hsa_ext_image_data_layout_t; ///< An enumeration in HSA

/* Structures named through pointers only here. */
typedef struct hsa_ext_image_descriptor_s   hsa_ext_image_descriptor_t;
typedef struct hsa_ext_image_format_s       hsa_ext_image_format_t;
typedef struct hsa_ext_image_region_s       hsa_ext_image_region_t;
typedef struct hsa_ext_image_data_info_s    hsa_ext_image_data_info_t;
typedef struct hsa_ext_sampler_descriptor_s hsa_ext_sampler_descriptor_t;

#endif

/* The types of HSA's finalizer extension (`hsa/hsa_ext_finalize.h`), under that header's guard. */
#ifndef HSA_RUNTIME_INC_HSA_EXT_FINALIZE_H_
#    define HSA_RUNTIME_INC_HSA_EXT_FINALIZE_H_

#    include <stdint.h>

/** @brief A program. */
typedef struct hsa_ext_program_s
{
    uint64_t handle; ///< Opaque handle
} hsa_ext_program_t;

typedef int hsa_ext_program_info_t; ///< An enumeration in HSA

/** @brief A BRIG module (named through a pointer). */
typedef struct BrigModuleHeader* BrigModule_t;
typedef BrigModule_t             hsa_ext_module_t; ///< A BRIG module

/** @brief Control directives of a finalization (passed by value, hence HSA's fields). */
typedef struct hsa_ext_control_directives_s
{
    uint64_t   control_directives_mask; ///< Which directives are present
    uint16_t   break_exceptions_mask;   ///< Exceptions that break
    uint16_t   detect_exceptions_mask;  ///< Exceptions that are detected
    uint32_t   max_dynamic_group_size;  ///< Largest dynamic group segment, bytes
    uint64_t   max_flat_grid_size;      ///< Largest grid, work-items
    uint32_t   max_flat_workgroup_size; ///< Largest work-group, work-items
    uint32_t   reserved1;               ///< Reserved
    uint64_t   required_grid_size[3];   ///< Required grid size per dimension
    hsa_dim3_t required_workgroup_size; ///< Required work-group size
    uint8_t    required_dim;            ///< Required number of dimensions
    uint8_t    reserved2[75];           ///< Reserved
} hsa_ext_control_directives_t;

#endif
