/**
 * @file buffer_tracing.h
 * @brief The buffer tracing service: asynchronous records written to a buffer.
 */
#pragma once

#include <rocprofiler-sdk/buffer.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/hip/api_args.h>
#include <rocprofiler-sdk/hsa/scratch_memory_id.h>
#include <rocprofiler-sdk/kfd/kfd_id.h>
#include <rocprofiler-sdk/rocdecode/api_args.h>
#include <rocprofiler-sdk/rocdecode/api_id.h>

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
 * @brief Record of the HSA API buffer kinds (HSA_CORE_API, _AMD_EXT_API, _IMAGE_EXT_API,
 * _FINALIZE_EXT_API): one per call. Declared with rocprofiler-sdk's layout; no such runtime runs
 * here, so none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_hsa_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< The API's kind
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_hsa_api_record_t;

/**
 * @brief Record of the HIP API buffer kinds (HIP_RUNTIME_API, _COMPILER_API): one per call.
 * Declared with rocprofiler-sdk's layout; no such runtime runs here, so none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_hip_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< The API's kind
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_hip_api_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_HIP_RUNTIME_API_EXT and _HIP_COMPILER_API_EXT:
 * the HIP record with the call's arguments and return value (see hip/api_args.h for the members
 * declared). Declared with rocprofiler-sdk's fields; no HIP runtime runs here, so none is ever
 * delivered.
 */
typedef struct rocprofiler_buffer_tracing_hip_api_ext_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< The API's kind
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
    rocprofiler_hip_api_args_t        args;            ///< Arguments of the call
    rocprofiler_hip_api_retval_t      retval;          ///< Return value
} rocprofiler_buffer_tracing_hip_api_ext_record_t;

/**
 * @brief Record of the RCCL API buffer kinds (RCCL_API): one per call.
 * Declared with rocprofiler-sdk's layout; no such runtime runs here, so none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_rccl_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< The API's kind
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_rccl_api_record_t;

/**
 * @brief Record of the rocDecode API buffer kinds (ROCDECODE_API): one per call.
 * Declared with rocprofiler-sdk's layout; no such runtime runs here, so none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_rocdecode_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< The API's kind
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_rocdecode_api_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_ROCDECODE_API_EXT: the rocDecode record with
 * the call's arguments and return value. Declared with rocprofiler-sdk's layout; rocDecode does
 * not run here, so none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_rocdecode_api_ext_record_t
{
    uint64_t                           size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t  kind;            ///< The API's kind
    rocprofiler_rocdecode_api_id_t     operation;       ///< The function
    rocprofiler_correlation_id_t       correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t            start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t            end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t            thread_id;       ///< Calling thread
    rocprofiler_rocdecode_api_args_t   args;            ///< Arguments of the call
    rocprofiler_rocdecode_api_retval_t retval;          ///< Return value
} rocprofiler_buffer_tracing_rocdecode_api_ext_record_t;

/**
 * @brief Record of the rocJPEG API buffer kinds (ROCJPEG_API): one per call.
 * Declared with rocprofiler-sdk's layout; no such runtime runs here, so none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_rocjpeg_api_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< The API's kind
    rocprofiler_tracing_operation_t   operation;       ///< The function
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Call start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< Call end, ns
    rocprofiler_thread_id_t           thread_id;       ///< Calling thread
} rocprofiler_buffer_tracing_rocjpeg_api_record_t;

/** @brief The target region of an OpenMP offload record (OMPT's target callback). */
typedef struct rocprofiler_buffer_tracing_ompt_target_t
{
    int32_t     kind;       ///< OMPT's ompt_target_t
    int32_t     device_num; ///< OMPT device of the region
    uint64_t    task_id;    ///< The task's id
    uint64_t    target_id;  ///< The target region's id
    const void* codeptr_ra; ///< Return address of the call site
} rocprofiler_buffer_tracing_ompt_target_t;

/** @brief A data operation of an OpenMP offload record. */
typedef struct rocprofiler_buffer_tracing_ompt_target_data_op_t
{
    uint64_t    host_op_id;     ///< OMPT's host operation id
    int32_t     optype;         ///< OMPT's ompt_target_data_op_t
    int32_t     src_device_num; ///< Source device
    int32_t     dst_device_num; ///< Destination device
    int32_t     reserved;       ///< Padding
    uint64_t    bytes;          ///< Bytes moved
    const void* codeptr_ra;     ///< Return address of the call site
} rocprofiler_buffer_tracing_ompt_target_data_op_t;

/** @brief A kernel launch of an OpenMP offload record. */
typedef struct rocprofiler_buffer_tracing_ompt_target_kernel_t
{
    uint64_t host_op_id;          ///< OMPT's host operation id
    int32_t  device_num;          ///< Device of the kernel
    uint32_t requested_num_teams; ///< Teams the compiler requested
} rocprofiler_buffer_tracing_ompt_target_kernel_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_OMPT: one per OpenMP offload event; the
 * operation says which member of the union is valid. No OpenMP runtime reports to this SDK, so
 * none is ever delivered.
 */
typedef struct rocprofiler_buffer_tracing_ompt_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< OMPT
    rocprofiler_tracing_operation_t   operation;       ///< A rocprofiler_ompt_operation_t
    rocprofiler_correlation_id_t      correlation_id;  ///< Correlation ids
    rocprofiler_timestamp_t           start_timestamp; ///< Start, ns
    rocprofiler_timestamp_t           end_timestamp;   ///< End, ns
    rocprofiler_thread_id_t           thread_id;       ///< Reporting thread
    /* Anonymous members are C11; __extension__ keeps C99 -pedantic builds quiet. */
    ROCPROFILER_ANONYMOUS union
    {
        rocprofiler_buffer_tracing_ompt_target_t         target;         ///< Target region
        rocprofiler_buffer_tracing_ompt_target_data_op_t target_data_op; ///< Data operation
        rocprofiler_buffer_tracing_ompt_target_kernel_t  target_kernel;  ///< Kernel
        uint64_t                                         reserved[5];    ///< Size of the union
    };
} rocprofiler_buffer_tracing_ompt_record_t;

/*
 * The KFD records: events the amdgpu kernel driver reports (page migrations and faults, queue
 * evictions and restores, unmaps, dropped events). This SDK reads no KFD, so none is ever
 * delivered; the records are declared with rocprofiler-sdk's layout so that tools compile.
 */

/** @brief A page migration event (KFD_EVENT_PAGE_MIGRATE). */
typedef struct rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t
{
    uint64_t                                       size;           ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t              kind;           ///< KFD_EVENT_PAGE_MIGRATE
    rocprofiler_kfd_event_page_migrate_operation_t operation;      ///< Start or end, and why
    rocprofiler_timestamp_t                        timestamp;      ///< When, as KFD reports it
    uint32_t                                       pid;            ///< Process, as KFD reports it
    rocprofiler_address_t                          start_address;  ///< First address of the range
    rocprofiler_address_t                          end_address;    ///< End of the range
    rocprofiler_agent_id_t                         src_agent;      ///< Where the pages were
    rocprofiler_agent_id_t                         dst_agent;      ///< Where they went
    rocprofiler_agent_id_t                         prefetch_agent; ///< Prefetch target (start only)
    rocprofiler_agent_id_t preferred_agent; ///< Preferred location (start only)
    int32_t                error_code;      ///< Non-zero: the end failed
} rocprofiler_buffer_tracing_kfd_event_page_migrate_record_t;

/** @brief A page fault event (KFD_EVENT_PAGE_FAULT). */
typedef struct rocprofiler_buffer_tracing_kfd_event_page_fault_record_t
{
    uint64_t                                     size;      ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t            kind;      ///< KFD_EVENT_PAGE_FAULT
    rocprofiler_kfd_event_page_fault_operation_t operation; ///< Start or end, and its kind
    rocprofiler_timestamp_t                      timestamp; ///< When, as KFD reports it
    uint32_t                                     pid;       ///< Process, as KFD reports it
    rocprofiler_agent_id_t                       agent_id;  ///< The faulting agent
    rocprofiler_address_t                        address;   ///< The faulting address
} rocprofiler_buffer_tracing_kfd_event_page_fault_record_t;

/** @brief A queue eviction or restore event (KFD_EVENT_QUEUE). */
typedef struct rocprofiler_buffer_tracing_kfd_event_queue_record_t
{
    uint64_t                                size;      ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t       kind;      ///< KFD_EVENT_QUEUE
    rocprofiler_kfd_event_queue_operation_t operation; ///< Eviction (and why) or restore
    rocprofiler_timestamp_t                 timestamp; ///< When, as KFD reports it
    uint32_t                                pid;       ///< Process, as KFD reports it
    rocprofiler_agent_id_t                  agent_id;  ///< The agent of the queue
} rocprofiler_buffer_tracing_kfd_event_queue_record_t;

/** @brief An unmap-from-GPU event (KFD_EVENT_UNMAP_FROM_GPU). */
typedef struct rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t
{
    uint64_t                                         size;          ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t                kind;          ///< KFD_EVENT_UNMAP_FROM_GPU
    rocprofiler_kfd_event_unmap_from_gpu_operation_t operation;     ///< Why
    rocprofiler_timestamp_t                          timestamp;     ///< When, as KFD reports it
    uint32_t                                         pid;           ///< Process, as KFD reports it
    rocprofiler_agent_id_t                           agent_id;      ///< The agent
    rocprofiler_address_t                            start_address; ///< First address of the range
    rocprofiler_address_t                            end_address;   ///< End of the range
} rocprofiler_buffer_tracing_kfd_event_unmap_from_gpu_record_t;

/** @brief KFD dropped events (KFD_EVENT_DROPPED_EVENTS). */
typedef struct rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t
{
    uint64_t                                         size;      ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t                kind;      ///< KFD_EVENT_DROPPED_EVENTS
    rocprofiler_kfd_event_dropped_events_operation_t operation; ///< The one operation
    rocprofiler_timestamp_t                          timestamp; ///< When, as KFD reports it
    uint32_t                                         pid;       ///< Process, as KFD reports it
    uint32_t                                         count;     ///< Events KFD dropped
} rocprofiler_buffer_tracing_kfd_event_dropped_events_record_t;

/** @brief A page migration, start and end paired (KFD_PAGE_MIGRATE). */
typedef struct rocprofiler_buffer_tracing_kfd_page_migrate_record_t
{
    uint64_t                                 size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t        kind;            ///< KFD_PAGE_MIGRATE
    rocprofiler_kfd_page_migrate_operation_t operation;       ///< Why the pages moved
    rocprofiler_timestamp_t                  start_timestamp; ///< Start, as KFD reports it
    rocprofiler_timestamp_t                  end_timestamp;   ///< End, as KFD reports it
    uint32_t                                 pid;             ///< Process, as KFD reports it
    rocprofiler_address_t                    start_address;   ///< First address of the range
    rocprofiler_address_t                    end_address;     ///< End of the range
    rocprofiler_agent_id_t                   src_agent;       ///< Where the pages were
    rocprofiler_agent_id_t                   dst_agent;       ///< Where they went
    rocprofiler_agent_id_t                   prefetch_agent;  ///< Prefetch target
    rocprofiler_agent_id_t                   preferred_agent; ///< Preferred location
    int32_t                                  error_code;      ///< Non-zero: failed (KFD's code)
} rocprofiler_buffer_tracing_kfd_page_migrate_record_t;

/** @brief A page fault, start and end paired (KFD_PAGE_FAULT). */
typedef struct rocprofiler_buffer_tracing_kfd_page_fault_record_t
{
    uint64_t                               size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t      kind;            ///< KFD_PAGE_FAULT
    rocprofiler_kfd_page_fault_operation_t operation;       ///< The kind of fault
    rocprofiler_timestamp_t                start_timestamp; ///< Start, as KFD reports it
    rocprofiler_timestamp_t                end_timestamp;   ///< End, as KFD reports it
    uint32_t                               pid;             ///< Process, as KFD reports it
    rocprofiler_agent_id_t                 agent_id;        ///< The faulting agent
    rocprofiler_address_t                  address;         ///< The faulting address
} rocprofiler_buffer_tracing_kfd_page_fault_record_t;

/** @brief A queue eviction and its restore, paired (KFD_QUEUE). */
typedef struct rocprofiler_buffer_tracing_kfd_queue_record_t
{
    uint64_t                          size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t kind;            ///< KFD_QUEUE
    rocprofiler_kfd_queue_operation_t operation;       ///< Why the queue was evicted
    rocprofiler_timestamp_t           start_timestamp; ///< Eviction, as KFD reports it
    rocprofiler_timestamp_t           end_timestamp;   ///< Restore, as KFD reports it
    uint32_t                          pid;             ///< Process, as KFD reports it
    rocprofiler_agent_id_t            agent_id;        ///< The agent of the queue
} rocprofiler_buffer_tracing_kfd_queue_record_t;

/**
 * @brief Record of @ref ROCPROFILER_BUFFER_TRACING_SCRATCH_MEMORY: one per scratch allocation,
 * free or reclaim of the HSA runtime. No agent here uses HSA scratch memory, so none is ever
 * delivered.
 */
typedef struct rocprofiler_buffer_tracing_scratch_memory_record_t
{
    uint64_t                               size;            ///< Size of this struct
    rocprofiler_buffer_tracing_kind_t      kind;            ///< SCRATCH_MEMORY
    rocprofiler_scratch_memory_operation_t operation;       ///< Alloc, free or reclaim
    rocprofiler_correlation_id_t           correlation_id;  ///< Correlation ids
    rocprofiler_agent_id_t                 agent_id;        ///< Agent of the dispatch
    rocprofiler_queue_id_t                 queue_id;        ///< Queue of the dispatch
    rocprofiler_thread_id_t                thread_id;       ///< Reporting thread
    rocprofiler_timestamp_t                start_timestamp; ///< Start, ns
    rocprofiler_timestamp_t                end_timestamp;   ///< End, ns
    rocprofiler_scratch_alloc_flag_t       flags;           ///< How it was allocated
    uint64_t                               allocation_size; ///< Bytes
} rocprofiler_buffer_tracing_scratch_memory_record_t;

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
