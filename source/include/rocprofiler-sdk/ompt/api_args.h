/* Arguments of the OpenMP tools callbacks (OMPT), one union member per callback, and the OMPT
 * entry points a tool may call, as rocprofiler-sdk's callback record declares them. No OpenMP
 * runtime reports to this SDK: no record of this kind is delivered; the declarations let tools
 * written for rocprofiler-sdk compile. All members are declared, with OpenMP's types: a tool that
 * includes OpenMP's omp-tools.h before this header gets them (with their enumerators); otherwise
 * the stand-ins below give them OpenMP's sizes (enumerations as int, ompt_frame_t and
 * ompt_dependence_t incomplete: named through pointers only). */
#pragma once

#include <rocprofiler-sdk/defines.h>

#include <stddef.h>
#include <stdint.h>

#if !defined(__OMPT__) && !defined(ROCPROFILER_OMPT_STAND_INS)
#    define ROCPROFILER_OMPT_STAND_INS 1
typedef int      ompt_thread_t; /* enumerations of omp-tools.h */
typedef int      ompt_task_status_t;
typedef int      ompt_scope_endpoint_t;
typedef int      ompt_sync_region_t;
typedef int      ompt_mutex_t;
typedef int      ompt_work_t;
typedef int      ompt_dispatch_t;
typedef int      ompt_target_t;
typedef int      ompt_target_data_op_t;
typedef int      ompt_severity_t;
typedef uint64_t ompt_wait_id_t;
typedef uint64_t ompt_id_t;
typedef void     ompt_device_t;
typedef union ompt_data_t
{
    uint64_t value;
    void*    ptr;
} ompt_data_t;
typedef struct ompt_frame_t      ompt_frame_t;
typedef struct ompt_dependence_t ompt_dependence_t;
typedef void (*ompt_interface_fn_t)(void);
typedef ompt_interface_fn_t (*ompt_function_lookup_t)(const char* interface_function_name);
typedef int (*ompt_enumerate_states_t)(int          current_state,
                                       int*         next_state,
                                       const char** next_state_name);
typedef int (*ompt_enumerate_mutex_impls_t)(int          current_impl,
                                            int*         next_impl,
                                            const char** next_impl_name);
typedef ompt_data_t* (*ompt_get_thread_data_t)(void);
typedef int (*ompt_get_num_procs_t)(void);
typedef int (*ompt_get_num_places_t)(void);
typedef int (*ompt_get_place_proc_ids_t)(int place_num, int ids_size, int* ids);
typedef int (*ompt_get_place_num_t)(void);
typedef int (*ompt_get_partition_place_nums_t)(int place_nums_size, int* place_nums);
typedef int (*ompt_get_proc_id_t)(void);
typedef int (*ompt_get_state_t)(ompt_wait_id_t* wait_id);
typedef int (*ompt_get_parallel_info_t)(int           ancestor_level,
                                        ompt_data_t** parallel_data,
                                        int*          team_size);
typedef int (*ompt_get_task_info_t)(int            ancestor_level,
                                    int*           flags,
                                    ompt_data_t**  task_data,
                                    ompt_frame_t** task_frame,
                                    ompt_data_t**  parallel_data,
                                    int*           thread_num);
typedef int (*ompt_get_task_memory_t)(void** addr, size_t* size, int block);
typedef int (*ompt_get_target_info_t)(uint64_t*  device_num,
                                      ompt_id_t* target_id,
                                      ompt_id_t* host_op_id);
typedef int (*ompt_get_num_devices_t)(void);
typedef uint64_t (*ompt_get_unique_id_t)(void);
#endif

ROCPROFILER_EXTERN_C_INIT

/** @brief The OMPT entry points (looked up through ompt_function_lookup_t) a tool may call. */
typedef struct rocprofiler_ompt_callback_functions_t
{
    ompt_enumerate_states_t         ompt_enumerate_states;
    ompt_enumerate_mutex_impls_t    ompt_enumerate_mutex_impls;
    ompt_get_thread_data_t          ompt_get_thread_data;
    ompt_get_num_places_t           ompt_get_num_places;
    ompt_get_place_proc_ids_t       ompt_get_place_proc_ids;
    ompt_get_place_num_t            ompt_get_place_num;
    ompt_get_partition_place_nums_t ompt_get_partition_place_nums;
    ompt_get_proc_id_t              ompt_get_proc_id;
    ompt_get_state_t                ompt_get_state;
    ompt_get_parallel_info_t        ompt_get_parallel_info;
    ompt_get_task_info_t            ompt_get_task_info;
    ompt_get_task_memory_t          ompt_get_task_memory;
    ompt_get_num_devices_t          ompt_get_num_devices;
    ompt_get_num_procs_t            ompt_get_num_procs;
    ompt_get_target_info_t          ompt_get_target_info;
    ompt_get_unique_id_t            ompt_get_unique_id;
} rocprofiler_ompt_callback_functions_t;

/** @brief Member for a callback without arguments (1 byte in C and C++ alike). */
typedef struct rocprofiler_ompt_no_args
{
    char empty;
} rocprofiler_ompt_no_args;

/** @brief Arguments of an OMPT callback, one member per callback (named after it, without the
 *  ompt_callback_ prefix), and the entry points. */
typedef union rocprofiler_ompt_args_t
{
    struct
    {
        ompt_thread_t thread_type;
        ompt_data_t*  thread_data;
    } thread_begin;
    struct
    {
        ompt_data_t* thread_data;
    } thread_end;
    struct
    {
        ompt_data_t*        encountering_task_data;
        const ompt_frame_t* encountering_task_frame;
        ompt_data_t*        parallel_data;
        unsigned int        requested_parallelism;
        int                 flags;
        const void*         codeptr_ra;
    } parallel_begin;
    struct
    {
        ompt_data_t* parallel_data;
        ompt_data_t* encountering_task_data;
        int          flags;
        const void*  codeptr_ra;
    } parallel_end;
    struct
    {
        ompt_data_t*        encountering_task_data;
        const ompt_frame_t* encountering_task_frame;
        ompt_data_t*        new_task_data;
        int                 flags;
        int                 has_dependences;
        const void*         codeptr_ra;
    } task_create;
    struct
    {
        ompt_data_t*       prior_task_data;
        ompt_task_status_t prior_task_status;
        ompt_data_t*       next_task_data;
    } task_schedule;
    struct
    {
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          parallel_data;
        ompt_data_t*          task_data;
        unsigned int          actual_parallelism;
        unsigned int          index;
        int                   flags;
    } implicit_task;
    struct
    {
        int                    device_num;
        const char*            type;
        ompt_device_t*         device;
        ompt_function_lookup_t lookup;
        const char*            documentation;
    } device_initialize;
    struct
    {
        int device_num;
    } device_finalize;
    struct
    {
        int         device_num;
        const char* filename;
        int64_t     offset_in_file;
        void*       vma_in_file;
        size_t      bytes;
        void*       host_addr;
        void*       device_addr;
        uint64_t    module_id;
    } device_load;
    struct
    {
        ompt_sync_region_t    kind;
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          parallel_data;
        ompt_data_t*          task_data;
        const void*           codeptr_ra;
    } sync_region_wait;
    struct
    {
        ompt_mutex_t   kind;
        ompt_wait_id_t wait_id;
        const void*    codeptr_ra;
    } mutex_released;
    struct
    {
        ompt_data_t*             task_data;
        const ompt_dependence_t* deps;
        int                      ndeps;
    } dependences;
    struct
    {
        ompt_data_t* src_task_data;
        ompt_data_t* sink_task_data;
    } task_dependence;
    struct
    {
        ompt_work_t           work_type;
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          parallel_data;
        ompt_data_t*          task_data;
        uint64_t              count;
        const void*           codeptr_ra;
    } work;
    struct
    {
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          parallel_data;
        ompt_data_t*          task_data;
        const void*           codeptr_ra;
    } masked;
    struct
    {
        ompt_sync_region_t    kind;
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          parallel_data;
        ompt_data_t*          task_data;
        const void*           codeptr_ra;
    } sync_region;
    struct
    {
        ompt_mutex_t   kind;
        unsigned int   hint;
        unsigned int   impl;
        ompt_wait_id_t wait_id;
        const void*    codeptr_ra;
    } lock_init;
    struct
    {
        ompt_mutex_t   kind;
        ompt_wait_id_t wait_id;
        const void*    codeptr_ra;
    } lock_destroy;
    struct
    {
        ompt_mutex_t   kind;
        unsigned int   hint;
        unsigned int   impl;
        ompt_wait_id_t wait_id;
        const void*    codeptr_ra;
    } mutex_acquire;
    struct
    {
        ompt_mutex_t   kind;
        ompt_wait_id_t wait_id;
        const void*    codeptr_ra;
    } mutex_acquired;
    struct
    {
        ompt_scope_endpoint_t endpoint;
        ompt_wait_id_t        wait_id;
        const void*           codeptr_ra;
    } nest_lock;
    struct
    {
        ompt_data_t* thread_data;
        const void*  codeptr_ra;
    } flush;
    struct
    {
        ompt_data_t* task_data;
        int          flags;
        const void*  codeptr_ra;
    } cancel;
    struct
    {
        ompt_sync_region_t    kind;
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          parallel_data;
        ompt_data_t*          task_data;
        const void*           codeptr_ra;
    } reduction;
    struct
    {
        ompt_data_t*    parallel_data;
        ompt_data_t*    task_data;
        ompt_dispatch_t kind;
        ompt_data_t     instance;
    } dispatch;
    struct
    {
        ompt_target_t         kind;
        ompt_scope_endpoint_t endpoint;
        int                   device_num;
        ompt_data_t*          task_data;
        ompt_data_t*          target_task_data;
        ompt_data_t*          target_data;
        const void*           codeptr_ra;
    } target_emi;
    struct
    {
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          target_task_data;
        ompt_data_t*          target_data;
        ompt_data_t*          host_op_id;
        ompt_target_data_op_t optype;
        void*                 src_address;
        int                   src_device_num;
        void*                 dst_address;
        int                   dst_device_num;
        size_t                bytes;
        const void*           codeptr_ra;
    } target_data_op_emi;
    struct
    {
        ompt_scope_endpoint_t endpoint;
        ompt_data_t*          target_data;
        ompt_data_t*          host_op_id;
        unsigned int          requested_num_teams;
    } target_submit_emi;
    struct
    {
        ompt_severity_t severity;
        const char*     message;
        size_t          length;
        const void*     codeptr_ra;
    } error;
    rocprofiler_ompt_callback_functions_t callback_functions; ///< Entry points
} rocprofiler_ompt_args_t;

ROCPROFILER_EXTERN_C_FINI
