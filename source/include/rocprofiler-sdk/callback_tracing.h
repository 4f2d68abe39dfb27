/**
 * @file callback_tracing.h
 * @brief The callback tracing service: synchronous callbacks on the thread that performs an
 * operation, and the name and iteration queries for every kind and operation.
 */
#pragma once

#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/hip.h>
#include <rocprofiler-sdk/hsa.h>
#include <rocprofiler-sdk/hsa_types.h>
#include <rocprofiler-sdk/marker.h>
#include <rocprofiler-sdk/ompt.h>
#include <rocprofiler-sdk/rccl.h>
#include <rocprofiler-sdk/rocdecode.h>
#include <rocprofiler-sdk/rocjpeg.h>

#include <stdint.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup CALLBACK_TRACING_SERVICE Callback tracing service
 * @{
 */

/** @brief One callback tracing record, passed by value to the tool's callback. */
typedef struct rocprofiler_callback_tracing_record_t
{
    rocprofiler_context_id_t            context_id;     ///< Context whose service fired
    rocprofiler_thread_id_t             thread_id;      ///< Thread of the operation
    rocprofiler_correlation_id_t        correlation_id; ///< Correlation ids of the operation
    rocprofiler_callback_tracing_kind_t kind;           ///< Kind of the record
    rocprofiler_tracing_operation_t     operation;      ///< Operation of that kind
    rocprofiler_callback_phase_t        phase;          ///< Phase
    void*                               payload;        ///< Kind-specific payload
} rocprofiler_callback_tracing_record_t;

/**
 * @brief Callback of the callback tracing service.
 * @param [in] record The record.
 * @param [in,out] user_data Storage kept from ENTER to EXIT of one operation (for kernel replay:
 * for the whole replay sequence of one dispatch).
 * @param [in] callback_data The `callback_args` given at configuration.
 */
typedef void (*rocprofiler_callback_tracing_cb_t)(rocprofiler_callback_tracing_record_t record,
                                                  rocprofiler_user_data_t*              user_data,
                                                  void* callback_data);

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH records. ENQUEUE ENTER/EXIT
 * fire on the submitting thread with zero timestamps; COMPLETE (phase NONE) fires when the kernel
 * finished, with its start and end timestamps in nanoseconds.
 */
typedef struct rocprofiler_callback_tracing_kernel_dispatch_data_t
{
    uint64_t                           size;            ///< Size of this struct
    rocprofiler_timestamp_t            start_timestamp; ///< Kernel start (COMPLETE only), ns
    rocprofiler_timestamp_t            end_timestamp;   ///< Kernel end (COMPLETE only), ns
    rocprofiler_kernel_dispatch_info_t dispatch_info;   ///< The dispatch
} rocprofiler_callback_tracing_kernel_dispatch_data_t;

/**
 * @brief Payload of the marker kinds (@ref ROCPROFILER_CALLBACK_TRACING_MARKER_CORE_API,
 * _CONTROL_API, _NAME_API): the function's arguments at ENTER and EXIT, its return value at EXIT.
 * The operation is a rocprofiler_marker_core_api_id_t, _control_api_id_t or _name_api_id_t.
 */
typedef struct rocprofiler_callback_tracing_marker_api_data_t
{
    uint64_t                        size;   ///< Size of this struct
    rocprofiler_marker_api_args_t   args;   ///< Arguments of the call
    rocprofiler_marker_api_retval_t retval; ///< Return value (EXIT only)
} rocprofiler_callback_tracing_marker_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_HSA_CORE_API, _HSA_AMD_EXT_API,
 * _HSA_IMAGE_EXT_API and _HSA_FINALIZE_EXT_API: arguments at ENTER and EXIT, return value at
 * EXIT. Declared for source compatibility: no HSA runtime runs here, so none is delivered.
 */
typedef struct rocprofiler_callback_tracing_hsa_api_data_t
{
    uint64_t                     size;   ///< Size of this struct
    rocprofiler_hsa_api_args_t   args;   ///< Arguments of the call
    rocprofiler_hsa_api_retval_t retval; ///< Return value (EXIT only)
} rocprofiler_callback_tracing_hsa_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_HIP_RUNTIME_API and _HIP_COMPILER_API.
 * Declared for source compatibility: no HIP runtime runs here, so none is delivered.
 */
typedef struct rocprofiler_callback_tracing_hip_api_data_t
{
    uint64_t                     size;   ///< Size of this struct
    rocprofiler_hip_api_args_t   args;   ///< Arguments of the call
    rocprofiler_hip_api_retval_t retval; ///< Return value (EXIT only)
} rocprofiler_callback_tracing_hip_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_OMPT: the OpenMP runtime's callback
 * arguments. Declared for source compatibility: no OpenMP runtime reports here.
 */
typedef struct rocprofiler_callback_tracing_ompt_data_t
{
    uint64_t                size; ///< Size of this struct
    rocprofiler_ompt_args_t args; ///< Arguments of the OMPT callback
} rocprofiler_callback_tracing_ompt_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_RCCL_API. Declared for source
 * compatibility: RCCL does not run here.
 */
typedef struct rocprofiler_callback_tracing_rccl_api_data_t
{
    uint64_t                      size;   ///< Size of this struct
    rocprofiler_rccl_api_args_t   args;   ///< Arguments of the call
    rocprofiler_rccl_api_retval_t retval; ///< Return value (EXIT only)
} rocprofiler_callback_tracing_rccl_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_ROCDECODE_API. Declared for source
 * compatibility: rocDecode does not run here.
 */
typedef struct rocprofiler_callback_tracing_rocdecode_api_data_t
{
    uint64_t                           size;   ///< Size of this struct
    rocprofiler_rocdecode_api_args_t   args;   ///< Arguments of the call
    rocprofiler_rocdecode_api_retval_t retval; ///< Return value (EXIT only)
} rocprofiler_callback_tracing_rocdecode_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_ROCJPEG_API. Declared for source
 * compatibility: rocJPEG does not run here.
 */
typedef struct rocprofiler_callback_tracing_rocjpeg_api_data_t
{
    uint64_t                         size;   ///< Size of this struct
    rocprofiler_rocjpeg_api_args_t   args;   ///< Arguments of the call
    rocprofiler_rocjpeg_api_retval_t retval; ///< Return value (EXIT only)
} rocprofiler_callback_tracing_rocjpeg_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_CUDA_RUNTIME_API and
 * @ref ROCPROFILER_CALLBACK_TRACING_CUDA_DRIVER_API records: one ENTER and one EXIT per call the
 * application made. The operation is CUPTI's callback id of the entry point. @p args points to
 * the call's parameters as CUPTI lays them out (the <function>_params structure of CUPTI's
 * generated_cuda_runtime_api_meta.h / generated_cuda_meta.h), valid during the callback only.
 */
typedef struct rocprofiler_callback_tracing_cuda_api_data_t
{
    uint64_t    size;          ///< Size of this struct
    const char* function_name; ///< The entry point ("cudaMalloc"), as the operation's name
    const char* symbol_name;   ///< The kernel of a launch, else NULL
    const void* args;          ///< The call's parameters (CUPTI's <function>_params)
    /// EXIT only: the call's return value (a cudaError_t for the runtime, a CUresult for the
    /// driver), else NULL
    const void* retval;
} rocprofiler_callback_tracing_cuda_api_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_MEMORY_COPY records, declared for source
 * compatibility: memory copies are traced in buffer form here
 * (rocprofiler_buffer_tracing_memory_copy_record_t); configuring the callback form returns
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
typedef struct rocprofiler_callback_tracing_memory_copy_data_t
{
    uint64_t                size;            ///< Size of this struct
    rocprofiler_timestamp_t start_timestamp; ///< Copy start, ns
    rocprofiler_timestamp_t end_timestamp;   ///< Copy end, ns
    rocprofiler_agent_id_t  dst_agent_id;    ///< Agent of the destination
    rocprofiler_agent_id_t  src_agent_id;    ///< Agent of the source
    uint64_t                bytes;           ///< Bytes copied
    rocprofiler_address_t   dst_address;     ///< Destination address
    rocprofiler_address_t   src_address;     ///< Source address
} rocprofiler_callback_tracing_memory_copy_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_MEMORY_ALLOCATION, with rocprofiler-sdk's
 * layout. No backend reports allocations yet: configuring the kind returns
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
typedef struct rocprofiler_callback_tracing_memory_allocation_data_t
{
    uint64_t                size;            ///< Size of this struct
    rocprofiler_timestamp_t start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t end_timestamp;   ///< Call end, ns
    rocprofiler_agent_id_t  agent_id;        ///< Agent of the memory
    rocprofiler_address_t   address;         ///< Start of the memory
    uint64_t                allocation_size; ///< Bytes
} rocprofiler_callback_tracing_memory_allocation_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_RUNTIME_INITIALIZATION, with
 * rocprofiler-sdk's layout. Not reported yet: configuring the kind returns
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
typedef struct rocprofiler_callback_tracing_runtime_initialization_data_t
{
    uint64_t size;     ///< Size of this struct
    uint64_t version;  ///< The runtime's version
    uint64_t instance; ///< Its instance
} rocprofiler_callback_tracing_runtime_initialization_data_t;

/** @brief Where a code object's image was read from. */
typedef enum rocprofiler_code_object_storage_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_NONE = 0, ///< Not known (the host device, CUDA modules)
    ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE,     ///< A file: @p storage_file
    ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY,   ///< Memory: @p memory_base, @p memory_size
    ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_LAST,
} rocprofiler_code_object_storage_type_t;

/**
 * @brief Payload of @ref ROCPROFILER_CODE_OBJECT_LOAD. The load addresses and the storage are
 * zero (@ref ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_NONE) where the backend does not know them;
 * @p hsa_agent is always zero (no agent here is an HSA agent).
 */
typedef struct rocprofiler_callback_tracing_code_object_load_data_t
{
    uint64_t size;           ///< Size of this struct
    uint64_t code_object_id; ///< Id of the code object
    ROCPROFILER_ANONYMOUS union
    {
        rocprofiler_agent_id_t rocp_agent; ///< Agent it was loaded on
        rocprofiler_agent_id_t agent_id;   ///< Same as @p rocp_agent
    };
    hsa_agent_t                            hsa_agent;    ///< Always zero here
    const char*                            uri;          ///< URI of the code object
    uint64_t                               load_base;    ///< Load address (0 when unknown)
    uint64_t                               load_size;    ///< Loaded bytes (0 when unknown)
    int64_t                                load_delta;   ///< Load address minus linked address
    rocprofiler_code_object_storage_type_t storage_type; ///< Where the image was read from
    ROCPROFILER_ANONYMOUS union
    {
        ROCPROFILER_ANONYMOUS struct
        {
            int storage_file; ///< File descriptor (@ref ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE)
        };
        ROCPROFILER_ANONYMOUS struct
        {
            uint64_t
                memory_base; ///< Image address (@ref ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY)
            uint64_t memory_size; ///< Image bytes
        };
    };
} rocprofiler_callback_tracing_code_object_load_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT records of operation
 * @ref ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER (phase LOAD): how a tool learns the
 * name of a `kernel_id` that dispatch records carry. A context that starts after kernels were
 * registered receives their records when it starts, on the starting thread.
 */
typedef struct rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t
{
    uint64_t                size;                      ///< Size of this struct
    rocprofiler_kernel_id_t kernel_id;                 ///< The id dispatch records carry
    uint64_t                code_object_id;            ///< Code object that holds the kernel
    const char*             kernel_name;               ///< Name (demangled); static storage
    uint64_t                kernel_object;             ///< Device handle of the kernel, or 0
    uint32_t                kernarg_segment_size;      ///< Bytes of kernel arguments, or 0
    uint32_t                kernarg_segment_alignment; ///< Their alignment, or 0
    uint32_t                group_segment_size;        ///< Static group (shared) memory, bytes
    uint32_t                private_segment_size;      ///< Private memory per work-item, bytes
    uint32_t                sgpr_count;                ///< Scalar registers, or 0
    uint32_t arch_vgpr_count;               ///< Vector registers (CUDA: registers per thread), or 0
    uint32_t accum_vgpr_count;              ///< Accumulation registers, or 0
    int64_t  kernel_code_entry_byte_offset; ///< Entry of the code from the descriptor, or 0
    rocprofiler_address_t kernel_address;   ///< Address of the kernel's code, or 0 if unknown
} rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CODE_OBJECT_HOST_KERNEL_SYMBOL_REGISTER: a HIP host function
 * registered for a device kernel. Declared with rocprofiler-sdk's layout; no HIP runtime runs
 * here, so none is ever delivered.
 */
typedef struct rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t
{
    uint64_t              size;             ///< Size of this struct
    uint64_t              host_function_id; ///< Id of the host function
    uint64_t              kernel_id;        ///< The device kernel's id
    uint64_t              code_object_id;   ///< Code object that holds the kernel
    rocprofiler_address_t host_function;    ///< The host function
    rocprofiler_address_t modules;          ///< Where HIP keeps the modules
    const char*           device_function;  ///< Name HIP matches at launch
    uint32_t              thread_limit;     ///< HIP's thread limit
    rocprofiler_dim3_t    thread_ids;       ///< As HIP registered it
    rocprofiler_dim3_t    block_ids;        ///< As HIP registered it
    rocprofiler_dim3_t    block_dims;       ///< As HIP registered it
    rocprofiler_dim3_t    grid_dims;        ///< As HIP registered it
    uint64_t              workgroup_size;   ///< As HIP registered it
} rocprofiler_callback_tracing_code_object_host_kernel_symbol_register_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_SCRATCH_MEMORY: one scratch allocation,
 * free or reclaim of the HSA runtime. No agent here uses HSA scratch memory, so none is ever
 * delivered.
 */
typedef struct rocprofiler_callback_tracing_scratch_memory_data_t
{
    uint64_t                          size;      ///< Size of this struct
    rocprofiler_agent_id_t            agent_id;  ///< Agent of the dispatch
    rocprofiler_queue_id_t            queue_id;  ///< Queue of the dispatch
    rocprofiler_scratch_alloc_flag_t  flags;     ///< How it was allocated
    hsa_amd_tool_event_kind_t         args_kind; ///< Which member of args is valid
    rocprofiler_scratch_memory_args_t args;      ///< The operation's arguments
} rocprofiler_callback_tracing_scratch_memory_data_t;

/**
 * @brief Payload of @ref ROCPROFILER_CALLBACK_TRACING_HIP_STREAM: a HIP stream created, destroyed
 * or made current. No HIP runtime runs here, so none is ever delivered.
 */
typedef struct rocprofiler_callback_tracing_hip_stream_data_t
{
    uint64_t                size;         ///< Size of this struct
    rocprofiler_stream_id_t stream_id;    ///< The stream's id
    rocprofiler_address_t   stream_value; ///< The hipStream_t
} rocprofiler_callback_tracing_hip_stream_data_t;

/**
 * @brief Subscribes a context to a callback tracing kind.
 * @param [in] context_id The context.
 * @param [in] kind The kind.
 * @param [in] operations Operations of the kind to deliver; NULL with @p operations_count 0 for
 * all.
 * @param [in] operations_count Number of entries in @p operations.
 * @param [in] callback Called for every record.
 * @param [in] callback_args Passed to @p callback.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 * @retval ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND An operation is not one of the kind's.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL, or @p operations is NULL
 * with a non-zero count.
 * @retval ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED The context already traces @p kind,
 * or (kernel replay) another context already configured the replay domain.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED The kind has no runtime on this platform.
 */
rocprofiler_status_t
rocprofiler_configure_callback_tracing_service(rocprofiler_context_id_t               context_id,
                                               rocprofiler_callback_tracing_kind_t    kind,
                                               const rocprofiler_tracing_operation_t* operations,
                                               size_t                            operations_count,
                                               rocprofiler_callback_tracing_cb_t callback,
                                               void* callback_args) ROCPROFILER_API;

/**
 * @brief Name of a callback tracing kind, e.g. "KERNEL_DISPATCH".
 * @param [in] kind The kind.
 * @param [out] name Receives a static NUL-terminated string; may be NULL.
 * @param [out] name_len Receives its length; may be NULL.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 */
rocprofiler_status_t
rocprofiler_query_callback_tracing_kind_name(rocprofiler_callback_tracing_kind_t kind,
                                             const char**                        name,
                                             uint64_t* name_len) ROCPROFILER_API;

/**
 * @brief Name of an operation of a callback tracing kind, e.g. "CONFIG" for kernel replay.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 * @retval ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND @p operation is not one of its operations.
 */
rocprofiler_status_t
rocprofiler_query_callback_tracing_kind_operation_name(rocprofiler_callback_tracing_kind_t kind,
                                                       rocprofiler_tracing_operation_t operation,
                                                       const char**                    name,
                                                       uint64_t* name_len) ROCPROFILER_API;

/** @brief Called once per kind; return non-zero to stop iterating. */
typedef int (*rocprofiler_callback_tracing_kind_cb_t)(rocprofiler_callback_tracing_kind_t kind,
                                                      void*                               data);

/** @brief Called once per operation of a kind; return non-zero to stop iterating. */
typedef int (*rocprofiler_callback_tracing_kind_operation_cb_t)(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_tracing_operation_t     operation,
    void*                               data);

/**
 * @brief Calls @p callback for every callback tracing kind, in enum order.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 */
rocprofiler_status_t
rocprofiler_iterate_callback_tracing_kinds(rocprofiler_callback_tracing_kind_cb_t callback,
                                           void* data) ROCPROFILER_API;

/**
 * @brief Calls @p callback for every operation of @p kind, in enum order (NONE excluded).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 */
rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operations(
    rocprofiler_callback_tracing_kind_t              kind,
    rocprofiler_callback_tracing_kind_operation_cb_t callback,
    void*                                            data) ROCPROFILER_API;

/** @} */

#ifndef ROCPROFILER_CODE_OBJECT_ID_NONE
/** @brief No code object (also in pc_sampling.h, whichever comes first). */
#    define ROCPROFILER_CODE_OBJECT_ID_NONE ROCPROFILER_UINT64_C(0)
#endif

/** @brief Receives one argument of a traced call (rocprofiler-sdk's form); non-zero stops. */
typedef int (*rocprofiler_callback_tracing_operation_args_cb_t)(
    rocprofiler_callback_tracing_kind_t kind,
    rocprofiler_tracing_operation_t     operation,
    uint32_t                            arg_number,
    const void* const                   arg_value_addr,
    int32_t                             arg_indirection_count,
    const char*                         arg_type,
    const char*                         arg_name,
    const char*                         arg_value_str,
    int32_t                             arg_dereference_count,
    void*                               data);

/**
 * @brief Walks the arguments of a record's call. No kind here carries argument descriptions
 * (its payload holds the arguments themselves, see docs/api.md).
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE Otherwise.
 */
rocprofiler_status_t rocprofiler_iterate_callback_tracing_kind_operation_args(
    rocprofiler_callback_tracing_record_t            record,
    rocprofiler_callback_tracing_operation_args_cb_t callback,
    int32_t                                          max_dereference_count,
    void*                                            user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
