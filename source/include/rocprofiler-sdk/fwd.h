/**
 * @file fwd.h
 * @brief Every enumeration, handle and record type shared by the services of the API.
 *
 * C99-clean. Enumerations start with `..._NONE = 0` and end with a `..._LAST` sentinel; handle
 * types are one-member structs so that two kinds of handle cannot be mixed up by the compiler.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>

#include <stddef.h>
#include <stdint.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup BASIC_DATA_TYPES Basic data types
 * @{
 */

/**
 * @brief Status codes returned by every function of the API.
 *
 * Every code has a name (@ref rocprofiler_get_status_name) and a one-line message
 * (@ref rocprofiler_get_status_string).
 */
typedef enum rocprofiler_status_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_STATUS_SUCCESS = 0,               ///< No error occurred
    ROCPROFILER_STATUS_ERROR,                     ///< Generic error
    ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND,   ///< No context exists for the given id
    ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND,    ///< No buffer exists for the given id
    ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND,      ///< The tracing kind is not valid
    ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND, ///< The operation is not valid for the kind
    ROCPROFILER_STATUS_ERROR_THREAD_NOT_FOUND,    ///< No thread exists for the given id
    ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND,     ///< No agent exists for the given id
    ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND,   ///< No counter exists for the given id
    ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR,       ///< Generic context error
    ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID,     ///< The context configuration is not valid
    ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED, ///< The context is not active
    ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT,    ///< Conflicts with another context
    ROCPROFILER_STATUS_ERROR_CONTEXT_ID_NOT_ZERO, ///< The context id was not zero on entry
    ROCPROFILER_STATUS_ERROR_BUFFER_BUSY,         ///< The buffer is busy (e.g. flushing)
    ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED, ///< The service is already configured
    ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED,       ///< Configuration is locked after init
    ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED,            ///< The function is not implemented
    ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_ABI,           ///< A struct from the caller is too small
    ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT,           ///< One or more arguments are invalid
    ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT, ///< The metric is not valid for the agent
    ROCPROFILER_STATUS_ERROR_FINALIZED,                  ///< The library has been finalized
    ROCPROFILER_STATUS_ERROR_HSA_NOT_LOADED,             ///< The device runtime is not loaded
    ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND,              ///< The counter dimension does not exist
    ROCPROFILER_STATUS_ERROR_PROFILE_COUNTER_NOT_FOUND,  ///< The profile has no such counter
    ROCPROFILER_STATUS_ERROR_AST_GENERATION_FAILED,      ///< A derived-counter expression is bad
    ROCPROFILER_STATUS_ERROR_AST_NOT_FOUND,              ///< No expression exists for the counter
    ROCPROFILER_STATUS_ERROR_AQL_NO_EVENT_COORD,         ///< No hardware event for the counter
    ROCPROFILER_STATUS_ERROR_INCOMPATIBLE_KERNEL,        ///< The OS kernel or driver is too old
    ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES,           ///< Resources are insufficient
    ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND,          ///< No counter config exists for the id
    ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT,    ///< Device and dispatch counting conflict
    ROCPROFILER_STATUS_INTERNAL_NO_AGENT_CONTEXT,        ///< No agent context (may not be an error)
    ROCPROFILER_STATUS_ERROR_SAMPLE_RATE_EXCEEDED,       ///< The sample rate is too high
    ROCPROFILER_STATUS_ERROR_NO_PROFILE_QUEUE,           ///< A profiling queue could not be made
    ROCPROFILER_STATUS_ERROR_NO_HARDWARE_COUNTERS,       ///< No hardware counters were given
    ROCPROFILER_STATUS_ERROR_AGENT_MISMATCH,             ///< The agent does not match the config
    ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE,              ///< The service is not available here
    ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT,           ///< Does not fit the hardware in one pass
    ROCPROFILER_STATUS_ERROR_AGENT_ARCH_NOT_SUPPORTED, ///< The agent's architecture is unsupported
    ROCPROFILER_STATUS_ERROR_PERMISSION_DENIED,        ///< Permission denied
    ROCPROFILER_STATUS_LAST,                           ///< Sentinel: number of status codes
} rocprofiler_status_t;

/** @brief Categories of buffer records, stored in @ref rocprofiler_record_header_t. */
typedef enum rocprofiler_buffer_category_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_BUFFER_CATEGORY_NONE = 0,    ///< No category
    ROCPROFILER_BUFFER_CATEGORY_TRACING,     ///< Records of @ref rocprofiler_buffer_tracing_kind_t
    ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING, ///< Records of @ref
                                             ///< rocprofiler_pc_sampling_record_kind_t
    ROCPROFILER_BUFFER_CATEGORY_COUNTERS,    ///< Records of @ref rocprofiler_counter_record_kind_t
    ROCPROFILER_BUFFER_CATEGORY_LAST,        ///< Sentinel
} rocprofiler_buffer_category_t;

/** @brief Type of an agent. */
typedef enum rocprofiler_agent_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_AGENT_TYPE_NONE = 0, ///< Unknown
    ROCPROFILER_AGENT_TYPE_CPU,      ///< A CPU
    ROCPROFILER_AGENT_TYPE_GPU,      ///< A kernel-executing device (a GPU or the host device)
    ROCPROFILER_AGENT_TYPE_LAST,     ///< Sentinel
} rocprofiler_agent_type_t;

/** @brief Phase of a callback. */
typedef enum rocprofiler_callback_phase_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_CALLBACK_PHASE_NONE = 0,                                 ///< No phase
    ROCPROFILER_CALLBACK_PHASE_ENTER,                                    ///< Before the operation
    ROCPROFILER_CALLBACK_PHASE_LOAD = ROCPROFILER_CALLBACK_PHASE_ENTER,  ///< Code object load
    ROCPROFILER_CALLBACK_PHASE_EXIT,                                     ///< After the operation
    ROCPROFILER_CALLBACK_PHASE_UNLOAD = ROCPROFILER_CALLBACK_PHASE_EXIT, ///< Code object unload
    ROCPROFILER_CALLBACK_PHASE_LAST,                                     ///< Sentinel
} rocprofiler_callback_phase_t;

/**
 * @brief Kinds of the callback tracing service.
 *
 * The order is that of rocprofiler-sdk 1.x so that tools built against either header agree on
 * the values. Kinds whose runtime does not exist on this platform are listed so that tools compile
 * unchanged; configuring one of them returns @ref ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
typedef enum rocprofiler_callback_tracing_kind_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_CALLBACK_TRACING_NONE = 0,             ///< No kind
    ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API,         ///< HSA core API (not on this platform)
    ROCPROFILER_CALLBACK_TRACING_HSA_AMD_EXT_API,      ///< HSA AMD extension API (not here)
    ROCPROFILER_CALLBACK_TRACING_HSA_IMAGE_EXT_API,    ///< HSA image extension API (not here)
    ROCPROFILER_CALLBACK_TRACING_HSA_FINALIZE_EXT_API, ///< HSA finalizer API (not here)
    ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API,      ///< HIP runtime API (not here)
    ROCPROFILER_CALLBACK_TRACING_HIP_COMPILER_API,     ///< HIP compiler API (not here)
    ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,      ///< ROCTx markers (and NVTX on CUDA)
    ROCPROFILER_CALLBACK_TRACING_MARKER_CONTROL_API,   ///< ROCTx profiler control
    ROCPROFILER_CALLBACK_TRACING_MARKER_NAME_API,      ///< ROCTx naming
    ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,          ///< @see rocprofiler_code_object_operation_t
    ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY,       ///< Scratch memory (not here)
    ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, ///< @see rocprofiler_kernel_dispatch_operation_t
    ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY,     ///< Memory copies (not yet)
    ROCPROFILER_CALLBACK_TRACING_RCCL_API,        ///< RCCL API (not here)
    ROCPROFILER_CALLBACK_TRACING_OMPT,            ///< OpenMP tools interface (not here)
    ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION,      ///< Memory allocation (not yet)
    ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION, ///< Runtime initialization (not yet)
    ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API,          ///< rocDecode API (not here)
    ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API,            ///< rocJPEG API (not here)
    ROCPROFILER_CALLBACK_TRACING_HIP_STREAM,             ///< HIP stream handles (not here)
    ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_RANGE_API,  ///< ROCTx ranges by table (not here)
    // This SDK's kinds follow rocprofiler-sdk's, so that every kind rocprofiler-sdk 1.0 names
    // has its value there.
    ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, ///< @see rocprofiler_kernel_replay_operation_t
    /// CUDA runtime API calls: operations are CUPTI's runtime callback ids
    /// (CUPTI_RUNTIME_TRACE_CBID_*)
    ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API,
    /// CUDA driver API calls: operations are CUPTI's driver callback ids
    /// (CUPTI_DRIVER_TRACE_CBID_*)
    ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API,
    ROCPROFILER_CALLBACK_TRACING_LAST, ///< Sentinel
} rocprofiler_callback_tracing_kind_t;

/**
 * @brief Kinds of the buffer tracing service. Same conventions as the callback kinds.
 */
typedef enum rocprofiler_buffer_tracing_kind_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_BUFFER_TRACING_NONE = 0,             ///< No kind
    ROCPROFILER_BUFFER_TRACING_HSA_CORE_API,         ///< HSA core API (not on this platform)
    ROCPROFILER_BUFFER_TRACING_HSA_AMD_EXT_API,      ///< HSA AMD extension API (not here)
    ROCPROFILER_BUFFER_TRACING_HSA_IMAGE_EXT_API,    ///< HSA image extension API (not here)
    ROCPROFILER_BUFFER_TRACING_HSA_FINALIZE_EXT_API, ///< HSA finalizer API (not here)
    ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API,      ///< HIP runtime API (not here)
    ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API,     ///< HIP compiler API (not here)
    ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,      ///< ROCTx markers (and NVTX on CUDA)
    ROCPROFILER_BUFFER_TRACING_MARKER_CONTROL_API,   ///< ROCTx profiler control
    ROCPROFILER_BUFFER_TRACING_MARKER_NAME_API,      ///< ROCTx naming
    ROCPROFILER_BUFFER_TRACING_MEMORY_COPY,          ///< Memory copies
    ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,      ///< @see
                                                ///< rocprofiler_buffer_tracing_kernel_dispatch_record_t
    ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY,            ///< Scratch memory (not here)
    ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, ///< Correlation id retirement (not yet)
    ROCPROFILER_BUFFER_TRACING_RCCL_API,                  ///< RCCL API (not here)
    ROCPROFILER_BUFFER_TRACING_OMPT,                      ///< OpenMP tools interface (not here)
    ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION,         ///< Memory allocation (not yet)
    ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION,    ///< Runtime initialization (not yet)
    ROCPROFILER_BUFFER_TRACING_ROCDECODE_API,             ///< rocDecode API (not here)
    ROCPROFILER_BUFFER_TRACING_ROCJPEG_API,               ///< rocJPEG API (not here)
    ROCPROFILER_BUFFER_TRACING_HIP_STREAM,                ///< HIP stream handles (not here)
    ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT,  ///< HIP runtime API, fuller record (not here)
    ROCPROFILER_BUFFER_TRACING_HIP_COMPILER_API_EXT, ///< HIP compiler API, fuller record (not here)
    ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT,    ///< rocDecode API, fuller record (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_MIGRATE,   ///< KFD page migration events (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_EVENT_PAGE_FAULT,     ///< KFD page fault events (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_EVENT_QUEUE,          ///< KFD queue events (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_EVENT_UNMAP_FROM_GPU, ///< KFD unmap events (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_EVENT_DROPPED_EVENTS, ///< KFD dropped events (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_PAGE_MIGRATE,         ///< KFD page migrations (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_PAGE_FAULT,           ///< KFD page faults (not here)
    ROCPROFILER_BUFFER_TRACING_KFD_QUEUE,                ///< KFD queue suspensions (not here)
    ROCPROFILER_BUFFER_TRACING_MARKER_CORE_RANGE_API,    ///< ROCTx ranges by table (not here)
    // This SDK's kinds follow rocprofiler-sdk's, so that every kind rocprofiler-sdk 1.0 names
    // has its value there.
    /// CUDA runtime API calls: @see rocprofiler_buffer_tracing_cuda_api_record_t
    ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API,
    ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API, ///< CUDA driver API calls
    ROCPROFILER_BUFFER_TRACING_LAST,            ///< Sentinel
} rocprofiler_buffer_tracing_kind_t;

/** @brief Operations of @ref ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH. */
typedef enum rocprofiler_kernel_dispatch_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KERNEL_DISPATCH_NONE = 0, ///< No operation
    ROCPROFILER_KERNEL_DISPATCH_ENQUEUE,  ///< The dispatch is entering its queue (ENTER and EXIT)
    ROCPROFILER_KERNEL_DISPATCH_COMPLETE, ///< The kernel finished (phase NONE, has timestamps)
    ROCPROFILER_KERNEL_DISPATCH_LAST,     ///< Sentinel
} rocprofiler_kernel_dispatch_operation_t;

/** @brief Operations of @ref ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY (experimental). */
typedef enum rocprofiler_kernel_replay_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KERNEL_REPLAY_NONE   = 0, ///< No operation
    ROCPROFILER_KERNEL_REPLAY_CONFIG = 1, ///< Pass-count / loop configuration, once per dispatch
    ROCPROFILER_KERNEL_REPLAY_PASS,       ///< Per-pass begin/end notification
    ROCPROFILER_KERNEL_REPLAY_LAST,       ///< Sentinel
} rocprofiler_kernel_replay_operation_t;

/** @brief Operations of @ref ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT. */
typedef enum rocprofiler_code_object_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_CODE_OBJECT_NONE = 0,                      ///< No operation
    ROCPROFILER_CODE_OBJECT_LOAD,                          ///< A code object was loaded
    ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER, ///< A device kernel symbol
    ROCPROFILER_CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER,   ///< A host kernel symbol (not produced)
    ROCPROFILER_CODE_OBJECT_LAST,                          ///< Sentinel
} rocprofiler_code_object_operation_t;

/** @brief Directions of memory copies (listed for source compatibility). */
typedef enum rocprofiler_memory_copy_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MEMORY_COPY_NONE = 0,         ///< Unknown direction
    ROCPROFILER_MEMORY_COPY_HOST_TO_HOST,     ///< Host to host
    ROCPROFILER_MEMORY_COPY_HOST_TO_DEVICE,   ///< Host to device
    ROCPROFILER_MEMORY_COPY_DEVICE_TO_HOST,   ///< Device to host
    ROCPROFILER_MEMORY_COPY_DEVICE_TO_DEVICE, ///< Device to device
    ROCPROFILER_MEMORY_COPY_LAST,             ///< Sentinel
} rocprofiler_memory_copy_operation_t;

/** @brief Memory allocation operations (listed for source compatibility). */
typedef enum rocprofiler_memory_allocation_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_MEMORY_ALLOCATION_NONE = 0,      ///< Unknown
    ROCPROFILER_MEMORY_ALLOCATION_ALLOCATE,      ///< Allocation
    ROCPROFILER_MEMORY_ALLOCATION_VMEM_ALLOCATE, ///< Virtual memory handle allocation
    ROCPROFILER_MEMORY_ALLOCATION_FREE,          ///< Free
    ROCPROFILER_MEMORY_ALLOCATION_VMEM_FREE,     ///< Virtual memory handle release
    ROCPROFILER_MEMORY_ALLOCATION_LAST,          ///< Sentinel
} rocprofiler_memory_allocation_operation_t;

/** @brief Operations of ROCPROFILER_*_TRACING_SCRATCH_MEMORY (listed for source compatibility). */
typedef enum rocprofiler_scratch_memory_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_SCRATCH_MEMORY_NONE = 0,      ///< Unknown
    ROCPROFILER_SCRATCH_MEMORY_ALLOC,         ///< Scratch memory allocated
    ROCPROFILER_SCRATCH_MEMORY_FREE,          ///< Scratch memory freed
    ROCPROFILER_SCRATCH_MEMORY_ASYNC_RECLAIM, ///< Scratch memory reclaimed asynchronously
    ROCPROFILER_SCRATCH_MEMORY_LAST,          ///< Sentinel
} rocprofiler_scratch_memory_operation_t;

/** @brief Operations of ROCPROFILER_*_TRACING_RUNTIME_INITIALIZATION: which runtime started. */
typedef enum rocprofiler_runtime_initialization_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_RUNTIME_INITIALIZATION_NONE = 0,  ///< Unknown
    ROCPROFILER_RUNTIME_INITIALIZATION_HSA,       ///< HSA runtime
    ROCPROFILER_RUNTIME_INITIALIZATION_HIP,       ///< HIP runtime
    ROCPROFILER_RUNTIME_INITIALIZATION_MARKER,    ///< ROCTx
    ROCPROFILER_RUNTIME_INITIALIZATION_RCCL,      ///< RCCL
    ROCPROFILER_RUNTIME_INITIALIZATION_ROCDECODE, ///< rocDecode
    ROCPROFILER_RUNTIME_INITIALIZATION_ROCJPEG,   ///< rocJPEG
    ROCPROFILER_RUNTIME_INITIALIZATION_LAST,      ///< Sentinel
} rocprofiler_runtime_initialization_operation_t;

/** @brief Operations of ROCPROFILER_*_TRACING_HIP_STREAM (listed for source compatibility). */
typedef enum rocprofiler_hip_stream_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HIP_STREAM_NONE = 0, ///< Unknown
    ROCPROFILER_HIP_STREAM_CREATE,   ///< A stream was created
    ROCPROFILER_HIP_STREAM_DESTROY,  ///< A stream was destroyed
    ROCPROFILER_HIP_STREAM_SET,      ///< The stream of the following operations
    ROCPROFILER_HIP_STREAM_LAST,     ///< Sentinel
} rocprofiler_hip_stream_operation_t;

/**
 * @brief Libraries around whose internal threads a tool can be called (bit flags), @see
 * rocprofiler_at_internal_thread_create. ROCPROFILER_LIBRARY is this SDK itself.
 */
typedef enum rocprofiler_runtime_library_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_LIBRARY           = (1 << 0),                    ///< This SDK
    ROCPROFILER_HSA_LIBRARY       = (1 << 1),                    ///< HSA runtime (not here)
    ROCPROFILER_HIP_LIBRARY       = (1 << 2),                    ///< HIP runtime (not here)
    ROCPROFILER_MARKER_LIBRARY    = (1 << 3),                    ///< ROCTx
    ROCPROFILER_RCCL_LIBRARY      = (1 << 4),                    ///< RCCL (not here)
    ROCPROFILER_ROCDECODE_LIBRARY = (1 << 5),                    ///< rocDecode (not here)
    ROCPROFILER_ROCJPEG_LIBRARY   = (1 << 6),                    ///< rocJPEG (not here)
    ROCPROFILER_LIBRARY_LAST      = ROCPROFILER_ROCJPEG_LIBRARY, ///< The highest flag
} rocprofiler_runtime_library_t;

/** @brief Runtime API tables a tool can ask to wrap (bit flags), @see intercept_table.h. */
typedef enum rocprofiler_intercept_table_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_HSA_TABLE            = (1 << 0),                  ///< HSA
    ROCPROFILER_HIP_RUNTIME_TABLE    = (1 << 1),                  ///< HIP runtime
    ROCPROFILER_HIP_COMPILER_TABLE   = (1 << 2),                  ///< HIP compiler
    ROCPROFILER_MARKER_CORE_TABLE    = (1 << 3),                  ///< ROCTx core
    ROCPROFILER_MARKER_CONTROL_TABLE = (1 << 4),                  ///< ROCTx control
    ROCPROFILER_MARKER_NAME_TABLE    = (1 << 5),                  ///< ROCTx naming
    ROCPROFILER_RCCL_TABLE           = (1 << 6),                  ///< RCCL
    ROCPROFILER_ROCDECODE_TABLE      = (1 << 7),                  ///< rocDecode
    ROCPROFILER_ROCJPEG_TABLE        = (1 << 8),                  ///< rocJPEG
    ROCPROFILER_TABLE_LAST           = ROCPROFILER_ROCJPEG_TABLE, ///< The highest flag
} rocprofiler_intercept_table_t;

/** @brief What a buffer does when it is full. */
typedef enum rocprofiler_buffer_policy_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_BUFFER_POLICY_NONE = 0, ///< Same as LOSSLESS
    ROCPROFILER_BUFFER_POLICY_DISCARD,  ///< Drop new records while full and count them
    ROCPROFILER_BUFFER_POLICY_LOSSLESS, ///< Flush synchronously and never drop a record
    ROCPROFILER_BUFFER_POLICY_LAST,     ///< Sentinel
} rocprofiler_buffer_policy_t;

/** @brief Operations for which a tool may be asked for an external correlation id. */
typedef enum rocprofiler_external_correlation_id_request_kind_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_NONE = 0,              ///< No kind
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_CORE_API,          ///< HSA core API (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_AMD_EXT_API,       ///< HSA AMD ext API (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_IMAGE_EXT_API,     ///< HSA image API (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HSA_FINALIZE_EXT_API,  ///< HSA finalizer (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_RUNTIME_API,       ///< HIP runtime API (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_HIP_COMPILER_API,      ///< HIP compiler (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_API,       ///< ROCTx markers
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CONTROL_API,    ///< ROCTx control
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_NAME_API,       ///< ROCTx naming
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_COPY,           ///< Memory copies
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH,       ///< Kernel dispatches
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_SCRATCH_MEMORY,        ///< Scratch memory (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_RCCL_API,              ///< RCCL API (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_OMPT,                  ///< OpenMP tools (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MEMORY_ALLOCATION,     ///< Allocations (not yet)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCDECODE_API,         ///< rocDecode (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_ROCJPEG_API,           ///< rocJPEG (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_MARKER_CORE_RANGE_API, ///< ROCTx ranges (not here)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_RUNTIME_API,      ///< CUDA runtime (this SDK's)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_CUDA_DRIVER_API,       ///< CUDA driver (this SDK's)
    ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_LAST,                  ///< Sentinel
} rocprofiler_external_correlation_id_request_kind_t;

/** @brief Version of @ref rocprofiler_counter_info_v0_t / v1 requested from the query. */
typedef enum rocprofiler_counter_info_version_id_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_COUNTER_INFO_VERSION_NONE = 0, ///< No version
    ROCPROFILER_COUNTER_INFO_VERSION_0,        ///< @ref rocprofiler_counter_info_v0_t
    ROCPROFILER_COUNTER_INFO_VERSION_1,        ///< @ref rocprofiler_counter_info_v1_t
    ROCPROFILER_COUNTER_INFO_VERSION_LAST,     ///< Sentinel
} rocprofiler_counter_info_version_id_t;

/** @brief Flags of a device counting sample. */
typedef enum rocprofiler_counter_flag_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_COUNTER_FLAG_NONE = 0,
    ROCPROFILER_COUNTER_FLAG_ASYNC,             ///< Return at once; records arrive in the buffer
    ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION, ///< Counter definitions append to existing ones
    ROCPROFILER_COUNTER_FLAG_LAST,
} rocprofiler_counter_flag_t;

/** @brief Kinds of records of @ref ROCPROFILER_BUFFER_CATEGORY_COUNTERS. */
typedef enum rocprofiler_counter_record_kind_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_COUNTER_RECORD_NONE = 0,                         ///< No kind
    ROCPROFILER_COUNTER_RECORD_PROFILE_COUNTING_DISPATCH_HEADER, ///< @ref
                                                                 ///< rocprofiler_dispatch_counting_service_record_t
    ROCPROFILER_COUNTER_RECORD_VALUE, ///< @ref rocprofiler_counter_record_t
    ROCPROFILER_COUNTER_RECORD_LAST,  ///< Sentinel
} rocprofiler_counter_record_kind_t;

/** @brief Version of the agent struct passed to @ref rocprofiler_query_available_agents. */
typedef enum rocprofiler_agent_version_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_AGENT_INFO_VERSION_NONE = 0, ///< No version
    ROCPROFILER_AGENT_INFO_VERSION_0    = 1, ///< @ref rocprofiler_agent_v0_t
    ROCPROFILER_AGENT_INFO_VERSION_LAST,     ///< Sentinel
} rocprofiler_agent_version_t;

/** @brief How PC samples are taken (@ref rocprofiler_configure_pc_sampling_service). */
typedef enum rocprofiler_pc_sampling_method_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_PC_SAMPLING_METHOD_NONE = 0,   ///< No method
    ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC, ///< Taken by the device's sampling hardware
    ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,  ///< Taken by interrupting waves from the host
    ROCPROFILER_PC_SAMPLING_METHOD_LAST,       ///< Sentinel
} rocprofiler_pc_sampling_method_t;

/** @brief Unit of a PC sampling interval. */
typedef enum rocprofiler_pc_sampling_unit_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_PC_SAMPLING_UNIT_NONE = 0,     ///< No unit
    ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS, ///< Instructions issued
    ROCPROFILER_PC_SAMPLING_UNIT_CYCLES,       ///< Device clock cycles
    ROCPROFILER_PC_SAMPLING_UNIT_TIME,         ///< Nanoseconds
    ROCPROFILER_PC_SAMPLING_UNIT_LAST,         ///< Sentinel
} rocprofiler_pc_sampling_unit_t;

/** @brief Kinds of records of @ref ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING. */
typedef enum rocprofiler_pc_sampling_record_kind_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_PC_SAMPLING_RECORD_NONE = 0,             ///< No kind
    ROCPROFILER_PC_SAMPLING_RECORD_INVALID_SAMPLE,       ///< An undecodable sample
    ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE,  ///< A host-trap sample (v0 record)
    ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE, ///< A stochastic sample (v0 record)
    ROCPROFILER_PC_SAMPLING_RECORD_LAST,                 ///< Sentinel
} rocprofiler_pc_sampling_record_kind_t;

/** @brief Nanosecond timestamp on the SDK's clock (@ref rocprofiler_get_timestamp). */
typedef uint64_t rocprofiler_timestamp_t;
/** @brief Operating-system id of a thread. */
typedef uint64_t rocprofiler_thread_id_t;
/** @brief An operation of a tracing kind (values of the kind's operation enum). */
typedef int32_t rocprofiler_tracing_operation_t;
/** @brief Stable id of a kernel. */
typedef uint64_t rocprofiler_kernel_id_t;
/** @brief Id of a logical dispatch; unique per process, starting at 1. */
typedef uint64_t rocprofiler_dispatch_id_t;
/** @brief Id of one counter instance in a record (@ref rocprofiler_query_record_counter_id). */
typedef uint64_t rocprofiler_counter_instance_id_t;
/** @brief An address, as a number or as a pointer (the same 64 bits). */
typedef union rocprofiler_address_t
{
    uint64_t    handle; ///< The address as a number (older spelling)
    uint64_t    value;  ///< The address as a number
    const void* ptr;    ///< The address as a pointer
} rocprofiler_address_t;

/** @brief Three dimensions. */
typedef struct rocprofiler_dim3_t
{
    uint32_t x; ///< X
    uint32_t y; ///< Y
    uint32_t z; ///< Z
} rocprofiler_dim3_t;

/** @brief 128-bit unique id of an agent. */
typedef struct rocprofiler_uuid_t
{
    uint8_t bytes[16]; ///< The id, most significant byte first
} rocprofiler_uuid_t;

/** @brief Data a tool may keep with a callback or a record: a number or a pointer. */
typedef union rocprofiler_user_data_t
{
    uint64_t value; ///< As a number
    void*    ptr;   ///< As a pointer
} rocprofiler_user_data_t;

/** @brief Handle of a context. */
typedef struct rocprofiler_context_id_t
{
    uint64_t handle; ///< Opaque; 0 is no context
} rocprofiler_context_id_t;

/** @brief Handle of a buffer. */
typedef struct rocprofiler_buffer_id_t
{
    uint64_t handle; ///< Opaque; 0 is no buffer
} rocprofiler_buffer_id_t;

/** @brief Handle of an agent. */
typedef struct rocprofiler_agent_id_t
{
    uint64_t handle; ///< Opaque; 0 is no agent
} rocprofiler_agent_id_t;

/** @brief Handle of a queue (a host-device queue, or a CUDA stream). */
typedef struct rocprofiler_queue_id_t
{
    uint64_t handle; ///< Opaque; 0 is no queue
} rocprofiler_queue_id_t;

/** @brief Handle of a stream of a runtime (rocprofiler-sdk's HIP streams; unused here). */
typedef struct rocprofiler_stream_id_t
{
    uint64_t handle; ///< Opaque; 0 is no stream
} rocprofiler_stream_id_t;

/** @brief Handle of a counter. */
typedef struct rocprofiler_counter_id_t
{
    uint64_t handle; ///< Opaque; 0 is no counter
} rocprofiler_counter_id_t;

/** @brief Handle of a counter configuration (a group of counters collected in one pass). */
typedef struct rocprofiler_counter_config_id_t
{
    uint64_t handle; ///< Opaque; 0 is no configuration
} rocprofiler_counter_config_id_t;

/** @brief Former name of @ref rocprofiler_counter_config_id_t, kept for source compatibility. */
typedef rocprofiler_counter_config_id_t rocprofiler_profile_config_id_t;

/** @brief Handle of a callback thread (@ref rocprofiler_create_callback_thread). */
typedef struct rocprofiler_callback_thread_t
{
    uint64_t handle; ///< Opaque; 0 is the default thread
} rocprofiler_callback_thread_t;

/** @brief Correlation ids of a synchronous callback. */
typedef struct rocprofiler_correlation_id_t
{
    uint64_t                internal; ///< Unique per traced operation, from 1
    rocprofiler_user_data_t external; ///< The tool's external id (push/pop or request service)
    uint64_t                ancestor; ///< Internal id of the enclosing operation, or 0
} rocprofiler_correlation_id_t;

/** @brief Correlation ids of an asynchronous (buffer) record. */
typedef struct rocprofiler_async_correlation_id_t
{
    uint64_t                internal; ///< Unique per traced operation, from 1
    rocprofiler_user_data_t external; ///< The tool's external id
} rocprofiler_async_correlation_id_t;

/** @brief Header of a buffer record. */
typedef struct rocprofiler_record_header_t
{
    /* Anonymous members are C11; __extension__ keeps C99 -pedantic builds quiet. */
    ROCPROFILER_ANONYMOUS union
    {
        ROCPROFILER_ANONYMOUS struct
        {
            uint32_t category; ///< A @ref rocprofiler_buffer_category_t
            uint32_t kind;     ///< A kind of that category
        };
        uint64_t hash; ///< category and kind as one number
    };
    void* payload; ///< The record
} rocprofiler_record_header_t;

/** @brief The @p hash of a record header of that category and kind. */
static inline uint64_t
rocprofiler_record_header_compute_hash(uint32_t category, uint32_t kind)
{
    return (uint64_t)category | ((uint64_t)kind << 32);
}

/** @brief A version: major, minor, patch. */
typedef struct rocprofiler_version_triplet_t
{
    uint32_t major; ///< Major version
    uint32_t minor; ///< Minor version
    uint32_t patch; ///< Patch version
} rocprofiler_version_triplet_t;

/**
 * @brief What the SDK knows about a kernel dispatch. Shared by dispatch tracing, dispatch counting
 * and kernel replay. 128 bytes.
 */
typedef struct rocprofiler_kernel_dispatch_info_t
{
    uint64_t                  size;                 ///< Size of this struct
    rocprofiler_agent_id_t    agent_id;             ///< Agent that runs the kernel
    rocprofiler_queue_id_t    queue_id;             ///< Queue (CUDA: stream) of the dispatch
    rocprofiler_kernel_id_t   kernel_id;            ///< Stable id of the kernel
    rocprofiler_dispatch_id_t dispatch_id;          ///< Id of the logical dispatch
    uint32_t                  private_segment_size; ///< Private (local) memory per work-item, bytes
    uint32_t                  group_segment_size;   ///< Group (shared) memory per workgroup, bytes
    rocprofiler_dim3_t        workgroup_size;       ///< Work-items per workgroup
    rocprofiler_dim3_t        grid_size;            ///< Work-items in the grid (as in HSA)
    uint8_t                   reserved_padding[56]; ///< Reserved; zero
} rocprofiler_kernel_dispatch_info_t;

/** @brief A handle value of type @p TYPE, written so that it compiles as C99 and as C++. */
#if defined(__cplusplus)
#    define ROCPROFILER_HANDLE_LITERAL(TYPE, VALUE)                                                \
        TYPE                                                                                       \
        {                                                                                          \
            VALUE                                                                                  \
        }
#else
#    define ROCPROFILER_HANDLE_LITERAL(TYPE, VALUE) ((TYPE){VALUE})
#endif

/** @brief A 64-bit constant of type uint64_t, in C and C++. */
#if defined(__cplusplus)
#    define ROCPROFILER_UINT64_C(VALUE) uint64_t(VALUE)
#else
#    define ROCPROFILER_UINT64_C(VALUE) UINT64_C(VALUE)
#endif

/** @brief No internal correlation id (ids start at 1). */
#define ROCPROFILER_CORRELATION_ID_INTERNAL_NONE ROCPROFILER_UINT64_C(0)

/** @brief No ancestor: the operation was not made inside another traced operation. */
#define ROCPROFILER_CORRELATION_ID_ANCESTOR_NONE ROCPROFILER_UINT64_C(0)

/** @brief No context: `ROCPROFILER_CONTEXT_NONE.handle == 0`. */
#define ROCPROFILER_CONTEXT_NONE ROCPROFILER_HANDLE_LITERAL(rocprofiler_context_id_t, 0)

#if defined(__cplusplus)
static_assert(sizeof(rocprofiler_kernel_dispatch_info_t) == 128,
              "rocprofiler_kernel_dispatch_info_t must be 128 bytes");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(rocprofiler_kernel_dispatch_info_t) == 128,
               "rocprofiler_kernel_dispatch_info_t must be 128 bytes");
#endif

/** @} */

ROCPROFILER_EXTERN_C_FINI
