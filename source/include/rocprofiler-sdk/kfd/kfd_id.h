/* Operations of the ROCPROFILER_BUFFER_TRACING_KFD_* kinds.
 * Values are rocprofiler-sdk 1.0's; written by scripts/generate-amd-api-ids.py. */
#pragma once

typedef enum rocprofiler_kfd_event_page_migrate_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_NONE          = -1,
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_PREFETCH      = 0,
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_PAGEFAULT_GPU = 1,
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_PAGEFAULT_CPU = 2,
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_TTM_EVICTION  = 3,
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_END           = 4,
    ROCPROFILER_KFD_EVENT_PAGE_MIGRATE_LAST          = 5,
} rocprofiler_kfd_event_page_migrate_operation_t;

typedef enum rocprofiler_kfd_event_page_fault_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_NONE              = -1,
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_START             = 0,
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_START_READ_FAULT  = 1,
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_START_WRITE_FAULT = 2,
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_END_PAGE_MIGRATED = 3,
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_END_PAGE_UPDATED  = 4,
    ROCPROFILER_KFD_EVENT_PAGE_FAULT_LAST              = 5,
} rocprofiler_kfd_event_page_fault_operation_t;

typedef enum rocprofiler_kfd_event_queue_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_EVENT_QUEUE_NONE                  = -1,
    ROCPROFILER_KFD_EVENT_QUEUE_EVICT_SVM             = 0,
    ROCPROFILER_KFD_EVENT_QUEUE_EVICT_USERPTR         = 1,
    ROCPROFILER_KFD_EVENT_QUEUE_EVICT_TTM             = 2,
    ROCPROFILER_KFD_EVENT_QUEUE_EVICT_SUSPEND         = 3,
    ROCPROFILER_KFD_EVENT_QUEUE_EVICT_CRIU_CHECKPOINT = 4,
    ROCPROFILER_KFD_EVENT_QUEUE_EVICT_CRIU_RESTORE    = 5,
    ROCPROFILER_KFD_EVENT_QUEUE_RESTORE_RESCHEDULED   = 6,
    ROCPROFILER_KFD_EVENT_QUEUE_RESTORE               = 7,
    ROCPROFILER_KFD_EVENT_QUEUE_LAST                  = 8,
} rocprofiler_kfd_event_queue_operation_t;

typedef enum rocprofiler_kfd_event_unmap_from_gpu_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_EVENT_UNMAP_FROM_GPU_NONE               = -1,
    ROCPROFILER_KFD_EVENT_UNMAP_FROM_GPU_MMU_NOTIFY         = 0,
    ROCPROFILER_KFD_EVENT_UNMAP_FROM_GPU_MMU_NOTIFY_MIGRATE = 1,
    ROCPROFILER_KFD_EVENT_UNMAP_FROM_GPU_UNMAP_FROM_CPU     = 2,
    ROCPROFILER_KFD_EVENT_UNMAP_FROM_GPU_LAST               = 3,
} rocprofiler_kfd_event_unmap_from_gpu_operation_t;

typedef enum rocprofiler_kfd_event_dropped_events_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_EVENT_DROPPED_EVENTS_NONE = -1,
    ROCPROFILER_KFD_EVENT_DROPPED_EVENTS      = 0,
    ROCPROFILER_KFD_EVENT_DROPPED_EVENTS_LAST = 1,
} rocprofiler_kfd_event_dropped_events_operation_t;

typedef enum rocprofiler_kfd_page_migrate_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_PAGE_MIGRATE_NONE          = -1,
    ROCPROFILER_KFD_PAGE_MIGRATE_PREFETCH      = 0,
    ROCPROFILER_KFD_PAGE_MIGRATE_PAGEFAULT_GPU = 1,
    ROCPROFILER_KFD_PAGE_MIGRATE_PAGEFAULT_CPU = 2,
    ROCPROFILER_KFD_PAGE_MIGRATE_TTM_EVICTION  = 3,
    ROCPROFILER_KFD_PAGE_MIGRATE_LAST          = 4,
} rocprofiler_kfd_page_migrate_operation_t;

typedef enum rocprofiler_kfd_page_fault_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_PAGE_FAULT_NONE                 = -1,
    ROCPROFILER_KFD_PAGE_FAULT_READ_FAULT_MIGRATED  = 0,
    ROCPROFILER_KFD_PAGE_FAULT_READ_FAULT_UPDATED   = 1,
    ROCPROFILER_KFD_PAGE_FAULT_WRITE_FAULT_MIGRATED = 2,
    ROCPROFILER_KFD_PAGE_FAULT_WRITE_FAULT_UPDATED  = 3,
    ROCPROFILER_KFD_PAGE_FAULT_LAST                 = 4,
} rocprofiler_kfd_page_fault_operation_t;

typedef enum rocprofiler_kfd_queue_operation_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_KFD_QUEUE_NONE                  = -1,
    ROCPROFILER_KFD_QUEUE_EVICT_SVM             = 0,
    ROCPROFILER_KFD_QUEUE_EVICT_USERPTR         = 1,
    ROCPROFILER_KFD_QUEUE_EVICT_TTM             = 2,
    ROCPROFILER_KFD_QUEUE_EVICT_SUSPEND         = 3,
    ROCPROFILER_KFD_QUEUE_EVICT_CRIU_CHECKPOINT = 4,
    ROCPROFILER_KFD_QUEUE_EVICT_CRIU_RESTORE    = 5,
    ROCPROFILER_KFD_QUEUE_LAST                  = 6,
} rocprofiler_kfd_queue_operation_t;
