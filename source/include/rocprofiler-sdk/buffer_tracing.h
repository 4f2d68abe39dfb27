/**
 * @file buffer_tracing.h
 * @brief The buffer tracing service: asynchronous records written to a buffer.
 */
#pragma once

#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/kfd/kfd_id.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup BUFFER_TRACING_SERVICE Buffer tracing service
 * @{
 */

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH: one per executed kernel (under
 * kernel replay, one per pass, all with the same dispatch id). Timestamps in nanoseconds.
 */
typedef struct rocprofiler_buffer_tracing_kernel_dispatch_record_t
{
    uint64_t                                size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t       kind;            ///< KERNEL_DISPATCH
    rocprofiler_kernel_dispatch_operation_t operation;       ///< COMPLETE
    rocprofiler_async_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_thread_id_t                 thread_id;       ///< Submitting thread
    rocprofiler_timestamp_t                 start_timestamp; ///< Kernel start, ns
    rocprofiler_timestamp_t                 end_timestamp;   ///< Kernel end, ns
    rocprofiler_kernel_dispatch_info_t      dispatch_info;   ///< The dispatch
} rocprofiler_buffer_tracing_kernel_dispatch_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_MEMORY_COPY: one per finished copy. The
 * operation is its direction. A side in host memory has no agent here (handle 0). Timestamps in
 * nanoseconds, around the copy itself.
 */
typedef struct rocprofiler_buffer_tracing_memory_copy_record_t
{
    uint64_t                            size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t   kind;            ///< MEMORY_COPY
    rocprofiler_memory_copy_operation_t operation;       ///< The direction
    rocprofiler_async_correlation_id_t  correlation_id;  ///< Correlation ids
    rocprofiler_thread_id_t             thread_id;       ///< Thread that asked for the copy
    rocprofiler_timestamp_t             start_timestamp; ///< Copy start, ns
    rocprofiler_timestamp_t             end_timestamp;   ///< Copy end, ns
    rocprofiler_agent_id_t              dst_agent_id;    ///< Agent of the destination
    rocprofiler_agent_id_t              src_agent_id;    ///< Agent of the source
    uint64_t                            bytes;           ///< Bytes copied
    rocprofiler_address_t               dst_address;     ///< Destination address
    rocprofiler_address_t               src_address;     ///< Source address
} rocprofiler_buffer_tracing_memory_copy_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_MEMORY_ALLOCATION, with rocprofiler-sdk's
 * layout. No backend reports allocations yet: configuring the kind returns
 * ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED, so no such record is written.
 */
typedef struct rocprofiler_buffer_tracing_memory_allocation_record_t
{
    uint64_t                                  size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t         kind;            ///< MEMORY_ALLOCATION
    rocprofiler_memory_allocation_operation_t operation;       ///< Allocate or free
    rocprofiler_correlation_id_t              correlation_id;  ///< Correlation ids
    rocprofiler_thread_id_t                   thread_id;       ///< Allocating thread
    rocprofiler_timestamp_t                   start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t                   end_timestamp;   ///< Call end, ns
    rocprofiler_agent_id_t                    agent_id;        ///< Agent of the memory
    rocprofiler_address_t                     address;         ///< Start of the memory
    uint64_t                                  allocation_size; ///< Bytes
} rocprofiler_buffer_tracing_memory_allocation_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_RUNTIME_INITIALIZATION, with rocprofiler-sdk's
 * layout. Not reported yet: configuring the kind returns ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
typedef struct rocprofiler_buffer_tracing_runtime_initialization_record_t
{
    uint64_t                                       size;           ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t              kind;           ///< RUNTIME_INITIALIZATION
    rocprofiler_runtime_initialization_operation_t operation;      ///< Which runtime
    rocprofiler_correlation_id_t                   correlation_id; ///< Correlation ids
    rocprofiler_thread_id_t                        thread_id;      ///< Initializing thread
    rocprofiler_timestamp_t                        timestamp;      ///< When, ns
    uint64_t                                       version;        ///< The runtime's version
    uint64_t                                       instance;       ///< Its instance
} rocprofiler_buffer_tracing_runtime_initialization_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_CORRELATION_ID_RETIREMENT, with
 * rocprofiler-sdk's layout: the moment no later record can carry an internal correlation id.
 * Not reported here: configuring the kind returns ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED.
 */
typedef struct rocprofiler_buffer_tracing_correlation_id_retirement_record_t
{
    uint64_t                          size;                    ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;                    ///< CORRELATION_ID_RETIREMENT
    rocprofiler_timestamp_t           timestamp;               ///< When the id retired, ns
    uint64_t                          internal_correlation_id; ///< The retired id
} rocprofiler_buffer_tracing_correlation_id_retirement_record_t;

/**
 * @brief Record of the marker buffer kinds (@ref ROCPROFILER_BUFFER_TRACING_MARKER_CORE_API,
 * _CONTROL_API, _NAME_API): one per call, with timestamps around the call. The operation is a
 * rocprofiler_marker_core_api_id_t, _control_api_id_t or _name_api_id_t. Messages are not in the
 * record: a tool that wants them reads them in the callback form.
 */
typedef struct rocprofiler_buffer_tracing_marker_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< MARKER_CORE_API, _CONTROL_ or _NAME_
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_marker_api_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_CUDA_RUNTIME_API and
 * @ref ROCPROFILER_BUFFER_TRACING_CUDA_DRIVER_API: one per call the application made (the SDK's
 * own calls into CUDA are never recorded). The operation is CUPTI's callback id of the entry
 * point; rocprofiler_query_buffer_tracing_kind_operation_name names it ("cudaMalloc",
 * "cuLaunchKernel").
 */
typedef struct rocprofiler_buffer_tracing_cuda_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< CUDA_RUNTIME_API or CUDA_DRIVER_API
    rocprofiler_tracing_operation_t   operation;       ///< CUPTI's callback id of the function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_cuda_api_record_t;

/**
 * @brief Subscribes a context to a buffer tracing kind.
 * @param [in] context_id The context.
 * @param [in] kind The kind.
 * @param [in] operations Operations to record; NULL with @p operations_count 0 for all.
 * @param [in] operations_count Number of entries in @p operations.
 * @param [in] buffer_id The buffer that receives the records (of the same context).
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 * @retval ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND An operation is not one of the kind's.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p operations NULL with a non-zero count.
 * @retval ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED The context already records @p kind.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED The kind has no runtime on this platform.
 */
rocprofiler_status_t
rocprofiler_configure_buffer_tracing_service(rocprofiler_context_id_t               context_id,
                                             rocprofiler_buffer_tracing_kind_t      kind,
                                             const rocprofiler_tracing_operation_t* operations,
                                             size_t                  operations_count,
                                             rocprofiler_buffer_id_t buffer_id) ROCPROFILER_API;

/**
 * @brief Name of a buffer tracing kind, e.g. "KERNEL_DISPATCH".
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 */
rocprofiler_status_t rocprofiler_query_buffer_tracing_kind_name(
    rocprofiler_buffer_tracing_kind_t kind, const char** name, uint64_t* name_len) ROCPROFILER_API;

/**
 * @brief Name of an operation of a buffer tracing kind.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 * @retval ROCPROFILER_STATUS_ERROR_OPERATION_NOT_FOUND @p operation is not one of its operations.
 */
rocprofiler_status_t
rocprofiler_query_buffer_tracing_kind_operation_name(rocprofiler_buffer_tracing_kind_t kind,
                                                     rocprofiler_tracing_operation_t   operation,
                                                     const char**                      name,
                                                     uint64_t* name_len) ROCPROFILER_API;

/** @brief Called once per kind; return non-zero to stop iterating. */
typedef int (*rocprofiler_buffer_tracing_kind_cb_t)(rocprofiler_buffer_tracing_kind_t kind,
                                                    void*                             data);

/** @brief Called once per operation of a kind; return non-zero to stop iterating. */
typedef int (*rocprofiler_buffer_tracing_kind_operation_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind, rocprofiler_tracing_operation_t operation, void* data);

/**
 * @brief Calls @p callback for every buffer tracing kind.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 */
rocprofiler_status_t
rocprofiler_iterate_buffer_tracing_kinds(rocprofiler_buffer_tracing_kind_cb_t callback,
                                         void*                                data) ROCPROFILER_API;

/**
 * @brief Calls @p callback for every operation of @p kind.
 * @retval ROCPROFILER_STATUS_SUCCESS
 * @retval ROCPROFILER_STATUS_ERROR_KIND_NOT_FOUND @p kind is not a kind.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 */
rocprofiler_status_t rocprofiler_iterate_buffer_tracing_kind_operations(
    rocprofiler_buffer_tracing_kind_t              kind,
    rocprofiler_buffer_tracing_kind_operation_cb_t callback,
    void*                                          data) ROCPROFILER_API;

/** @} */

/** @brief Receives one argument of a buffered call (rocprofiler-sdk's form); non-zero stops. */
typedef int (*rocprofiler_buffer_tracing_operation_args_cb_t)(
    rocprofiler_buffer_tracing_kind_t kind,
    rocprofiler_tracing_operation_t   operation,
    uint32_t                          arg_number,
    const void* const                 arg_value_addr,
    int32_t                           arg_indirection_count,
    const char*                       arg_type,
    const char*                       arg_name,
    const char*                       arg_value_str,
    void*                             data);

/**
 * @brief Walks the arguments of a buffered record's call. No buffer record here carries its
 * call's arguments.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p callback is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE Otherwise.
 */
rocprofiler_status_t rocprofiler_iterate_buffer_tracing_record_args(
    rocprofiler_record_header_t                    record,
    rocprofiler_buffer_tracing_operation_args_cb_t callback,
    void*                                          user_data) ROCPROFILER_API;

ROCPROFILER_EXTERN_C_FINI
