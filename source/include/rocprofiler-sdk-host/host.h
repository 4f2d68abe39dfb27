/**
 * @file host.h
 * @brief C API of the host reference device.
 *
 * The host reference device is a "GPU" whose kernels are C functions executed on a pool of CPU
 * worker threads. It exists so that the profiler (tracing, kernel replay, counters) can run and be
 * tested on machines without a GPU. Its model follows HSA: device memory, in-order queues,
 * asynchronous dispatch packets over a 3-D grid of workgroups, and completion signals.
 *
 * Execution model:
 * - Device memory is ordinary host memory, aligned to ::ROCPROFILER_HOST_ALLOCATION_ALIGNMENT
 *   bytes; host code and kernels may both dereference it.
 * - Each queue executes its packets in submission order: a packet starts only after the previous
 *   packet of the same queue has completed. Different queues run concurrently.
 * - The workgroups of one dispatch are distributed over the worker pool. Within a workgroup the
 *   work-items run sequentially, on one thread, in linear order (x fastest, then y, then z).
 *   Consequently barriers inside a workgroup are NOT supported: a work-item cannot wait for a
 *   later work-item of its own workgroup. A workgroup occupies its worker thread until it returns,
 *   so kernels that wait for other dispatches can only make progress while workers are free.
 * - The pool has `std::thread::hardware_concurrency()` workers (at least 2) unless the environment
 *   variable `ROCPROFILER_HOST_WORKERS` gives a positive count.
 * - At process exit, packets that are executing are allowed to finish (bounded by the environment
 *   variable `ROCPROFILER_HOST_SHUTDOWN_TIMEOUT_MS`, default 5000 ms); packets that have not
 *   started are dropped and their completion signals are not decremented.
 *
 * All functions are thread-safe. Functions that block (queue, device synchronization, queue
 * destruction) return ::ROCPROFILER_HOST_STATUS_INVALID_OPERATION when called from a device
 * thread (inside a kernel), where waiting could deadlock the device.
 */

#ifndef ROCPROFILER_SDK_HOST_HOST_H_
#define ROCPROFILER_SDK_HOST_HOST_H_

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__)
#    define ROCPROFILER_HOST_API __attribute__((visibility("default")))
#else
#    define ROCPROFILER_HOST_API
#endif

#ifdef __cplusplus
extern "C"
{
#endif

/** @defgroup host_device Host reference device
 *  @{
 */

/** Alignment in bytes of every pointer returned by ::rocprofiler_host_malloc. */
#define ROCPROFILER_HOST_ALLOCATION_ALIGNMENT 256u
/** Maximum number of work-items in one workgroup (product of the three dimensions). */
#define ROCPROFILER_HOST_MAX_WORKGROUP_SIZE 1024u
/** Maximum group segment bytes of one workgroup (static plus dynamic). */
#define ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE (64u * 1024u)
/** Maximum private segment bytes of one work-item. */
#define ROCPROFILER_HOST_MAX_PRIVATE_SEGMENT_SIZE (64u * 1024u)
/** Maximum size in bytes of the argument block of one dispatch. */
#define ROCPROFILER_HOST_MAX_ARGS_SIZE (64u * 1024u)
/** Timeout value meaning "wait forever". */
#define ROCPROFILER_HOST_TIMEOUT_INFINITE UINT64_MAX

    /**
     * @brief Status code returned by every function of this API.
     */
    typedef enum rocprofiler_host_status_t
    {
        ROCPROFILER_HOST_STATUS_SUCCESS = 0,      ///< The call succeeded.
        ROCPROFILER_HOST_STATUS_ERROR,            ///< Unspecified internal error.
        ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT, ///< An argument is null, zero or out of range.
        ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY,    ///< Host memory could not be allocated.
        ROCPROFILER_HOST_STATUS_TIMEOUT,          ///< A wait ended before its condition was met.
        ROCPROFILER_HOST_STATUS_NOT_FOUND, ///< A handle or pointer is not known to the device.
        ROCPROFILER_HOST_STATUS_INVALID_OPERATION, ///< Not allowed here, e.g. a blocking call on a
                                                   ///< device thread, where it could deadlock.
        ROCPROFILER_HOST_STATUS_SHUTDOWN,          ///< The device is shutting down; no new work.
        ROCPROFILER_HOST_STATUS_LAST               ///< Number of status codes; not a status.
    } rocprofiler_host_status_t;

    /**
     * @brief Handle of a registered kernel. The value is a stable, non-zero kernel id.
     */
    typedef struct rocprofiler_host_kernel_t
    {
        uint64_t handle; ///< Kernel id; 0 is never a valid kernel.
    } rocprofiler_host_kernel_t;

    /**
     * @brief Handle of a queue. Handles are never reused within a process.
     */
    typedef struct rocprofiler_host_queue_t
    {
        uint64_t handle; ///< Queue id; 0 is never a valid queue.
    } rocprofiler_host_queue_t;

    /**
     * @brief Handle of a signal. Handles are never reused within a process.
     */
    typedef struct rocprofiler_host_signal_t
    {
        uint64_t handle; ///< Signal id; 0 means "no signal" where a signal is optional.
    } rocprofiler_host_signal_t;

    /**
     * @brief Three 32-bit dimensions.
     */
    typedef struct rocprofiler_host_dim3_t
    {
        uint32_t x; ///< Fastest-varying dimension.
        uint32_t y; ///< Second dimension.
        uint32_t z; ///< Slowest-varying dimension.
    } rocprofiler_host_dim3_t;

    /**
     * @brief Three 64-bit dimensions (global work-item coordinates).
     */
    typedef struct rocprofiler_host_global_id_t
    {
        uint64_t x; ///< Fastest-varying dimension.
        uint64_t y; ///< Second dimension.
        uint64_t z; ///< Slowest-varying dimension.
    } rocprofiler_host_global_id_t;

    /**
     * @brief Everything a kernel knows about the work-item it is executing.
     *
     * The structure is owned by the runtime and valid only during the kernel call. New fields are
     * only ever appended.
     */
    typedef struct rocprofiler_host_work_item_t
    {
        rocprofiler_host_dim3_t      workgroup_id; ///< Workgroup coordinates within the grid.
        rocprofiler_host_dim3_t      local_id;     ///< Work-item coordinates within the workgroup.
        rocprofiler_host_dim3_t      workgroup_size; ///< Workgroup size in work-items.
        rocprofiler_host_dim3_t      grid_size;      ///< Grid size in workgroups.
        rocprofiler_host_global_id_t global_id;      ///< workgroup_id * workgroup_size + local_id.
        uint64_t global_linear_id;     ///< Linear global id over the whole grid, x fastest.
        uint32_t local_linear_id;      ///< Linear id within the workgroup, x fastest.
        uint32_t worker_index;         ///< Index of the executing worker thread, < worker count.
        void*    group_segment;        ///< Memory shared by the workgroup's work-items, zeroed at
                                       ///< workgroup start; NULL when group_segment_size is 0.
        uint32_t group_segment_size;   ///< Static plus dynamic group segment bytes.
        uint32_t private_segment_size; ///< Private segment bytes of this work-item.
        void*    private_segment;      ///< Memory private to this work-item, zeroed at work-item
                                       ///< start; NULL when private_segment_size is 0.
    } rocprofiler_host_work_item_t;

    /**
     * @brief A kernel: called once per work-item.
     *
     * @param [in] item The work-item being executed.
     * @param [in] args The dispatch's argument bytes (NULL when the dispatch has none). Each
     * execution of a packet receives its own copy, aligned for any fundamental type; kernels should
     *             treat it as read-only.
     */
    typedef void (*rocprofiler_host_kernel_fn_t)(const rocprofiler_host_work_item_t* item,
                                                 void*                               args);

    /**
     * @brief Condition tested by ::rocprofiler_host_signal_wait.
     */
    typedef enum rocprofiler_host_signal_condition_t
    {
        ROCPROFILER_HOST_SIGNAL_CONDITION_EQ = 0, ///< value == compare_value
        ROCPROFILER_HOST_SIGNAL_CONDITION_NE,     ///< value != compare_value
        ROCPROFILER_HOST_SIGNAL_CONDITION_LT,     ///< value <  compare_value
        ROCPROFILER_HOST_SIGNAL_CONDITION_GTE,    ///< value >= compare_value
        ROCPROFILER_HOST_SIGNAL_CONDITION_LAST    ///< Number of conditions; not a condition.
    } rocprofiler_host_signal_condition_t;

    /**
     * @brief Parameters of one dispatch.
     *
     * Set @p size to `sizeof(rocprofiler_host_dispatch_params_t)`. Fields are only ever appended;
     * the runtime accepts any size at least as large as this version of the structure and ignores
     * bytes beyond the fields it knows. Zero-initialize the structure before filling it.
     */
    typedef struct rocprofiler_host_dispatch_params_t
    {
        size_t                    size;   ///< sizeof(rocprofiler_host_dispatch_params_t).
        rocprofiler_host_kernel_t kernel; ///< Registered kernel to run.
        rocprofiler_host_dim3_t   grid;   ///< Grid size in workgroups; every dimension > 0.
        rocprofiler_host_dim3_t
            workgroup_size; ///< Workgroup size in work-items; every dimension
                            ///< > 0, product <= ::ROCPROFILER_HOST_MAX_WORKGROUP_SIZE.
        const void* args;   ///< Argument bytes; copied at submit time, so the caller may reuse
                            ///< the buffer as soon as the dispatch call returns.
        size_t   args_size; ///< Bytes at @p args; <= ::ROCPROFILER_HOST_MAX_ARGS_SIZE.
        uint32_t dynamic_group_segment_size; ///< Group segment bytes added to the kernel's static
                                             ///< group segment size.
        rocprofiler_host_signal_t completion_signal; ///< Decremented by exactly 1 when the kernel
                                                     ///< has completed; handle 0 for none.
    } rocprofiler_host_dispatch_params_t;

    /**
     * @brief Name of a status code.
     *
     * @param [in] status Any value.
     * @return A static string such as "ROCPROFILER_HOST_STATUS_SUCCESS"; for values outside the
     * enum, "ROCPROFILER_HOST_STATUS_UNKNOWN". Never NULL.
     */
    ROCPROFILER_HOST_API const char*
    rocprofiler_host_status_string(rocprofiler_host_status_t status);

    /**
     * @brief One-sentence description of a status code.
     *
     * @param [in] status Any value.
     * @return A static string; never NULL.
     */
    ROCPROFILER_HOST_API const char*
    rocprofiler_host_status_message(rocprofiler_host_status_t status);

    /**
     * @brief Current time of the device clock in nanoseconds (CLOCK_MONOTONIC), the clock of every
     *        timestamp the device reports.
     *
     * @param [out] timestamp_ns Receives the time.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p timestamp_ns is NULL.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_get_timestamp(uint64_t* timestamp_ns);

    /**
     * @brief Number of worker threads that execute workgroups.
     *
     * @param [out] count Receives the worker count (>= 1).
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p count is NULL.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_get_worker_count(uint32_t* count);

    /**
     * @brief Allocates device memory.
     *
     * The memory is uninitialized, aligned to ::ROCPROFILER_HOST_ALLOCATION_ALIGNMENT bytes and
     * registered with the device (the profiler tracks it). A request of 0 bytes succeeds and yields
     * NULL.
     *
     * @param [in] bytes Size of the allocation.
     * @param [out] ptr Receives the pointer (NULL on failure).
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p ptr is NULL.
     * @retval ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY The memory could not be allocated.
     * @retval ROCPROFILER_HOST_STATUS_INVALID_OPERATION Called from an allocation observer.
     * @retval ROCPROFILER_HOST_STATUS_SHUTDOWN The device is shutting down.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t rocprofiler_host_malloc(size_t bytes,
                                                                           void** ptr);

    /**
     * @brief Frees memory returned by ::rocprofiler_host_malloc.
     *
     * @param [in] ptr Start of an allocation, or NULL (no effect).
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND @p ptr is not the start of a live allocation (never
     *         allocated, already freed, or an interior pointer); nothing is freed.
     * @retval ROCPROFILER_HOST_STATUS_INVALID_OPERATION Called from an allocation observer.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t rocprofiler_host_free(void* ptr);

    /**
     * @brief Copies bytes synchronously on the calling thread (overlapping ranges are allowed).
     *
     * Either pointer may be host or device memory. The copy is not ordered with queued dispatches:
     * synchronize the queue first if a kernel writes the source. A range that starts inside a
     * device allocation must end inside it.
     *
     * @param [in] dst Destination.
     * @param [in] src Source.
     * @param [in] bytes Number of bytes; 0 is a no-op.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT A pointer is NULL while @p bytes > 0, or a
     *         range overruns its device allocation.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t rocprofiler_host_memcpy(void*       dst,
                                                                           const void* src,
                                                                           size_t      bytes);

    /**
     * @brief Fills bytes synchronously on the calling thread.
     *
     * @param [in] dst Destination (host or device memory).
     * @param [in] value Byte value (converted to unsigned char).
     * @param [in] bytes Number of bytes; 0 is a no-op.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p dst is NULL while @p bytes > 0, or the
     * range overruns its device allocation.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t rocprofiler_host_memset(void*  dst,
                                                                           int    value,
                                                                           size_t bytes);

    /**
     * @brief Registers a kernel under a unique name.
     *
     * Registering the same name again with the same function and segment sizes returns the existing
     * handle. Kernels are never unregistered.
     *
     * @param [in] name Non-empty, NUL-terminated name (copied).
     * @param [in] fn Kernel function.
     * @param [in] private_segment_size Private bytes per work-item, <=
     *             ::ROCPROFILER_HOST_MAX_PRIVATE_SEGMENT_SIZE.
     * @param [in] group_segment_size Static group bytes per workgroup, <=
     *             ::ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE.
     * @param [out] kernel Receives the handle.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT A pointer is NULL, the name is empty, a size
     * is out of range, or the name is registered with a different function or sizes.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_register_kernel(const char*                  name,
                                     rocprofiler_host_kernel_fn_t fn,
                                     uint32_t                     private_segment_size,
                                     uint32_t                     group_segment_size,
                                     rocprofiler_host_kernel_t*   kernel);

    /**
     * @brief Name of a registered kernel.
     *
     * @param [in] kernel Kernel handle.
     * @param [out] name Receives the name; valid until the process exits.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p name is NULL or the handle is 0.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND No kernel has this handle.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_kernel_name(rocprofiler_host_kernel_t kernel, const char** name);

    /**
     * @brief Creates an in-order queue with its own dispatch thread.
     *
     * @param [out] queue Receives the handle.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p queue is NULL.
     * @retval ROCPROFILER_HOST_STATUS_ERROR The queue thread could not be started.
     * @retval ROCPROFILER_HOST_STATUS_SHUTDOWN The device is shutting down.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_create_queue(rocprofiler_host_queue_t* queue);

    /**
     * @brief Waits until the queue is idle, then destroys it.
     *
     * Packets submitted to the queue while it drains (for example by completion handlers) are still
     * executed; afterwards the handle is invalid.
     *
     * @param [in] queue Queue handle.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT The handle is 0.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND Unknown or already destroyed (or being destroyed).
     * @retval ROCPROFILER_HOST_STATUS_INVALID_OPERATION Called from a device thread.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_destroy_queue(rocprofiler_host_queue_t queue);

    /**
     * @brief Waits until every packet submitted to the queue so far has completed.
     *
     * @param [in] queue Queue handle.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT The handle is 0.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND Unknown queue.
     * @retval ROCPROFILER_HOST_STATUS_INVALID_OPERATION Called from a device thread.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_queue_synchronize(rocprofiler_host_queue_t queue);

    /**
     * @brief Waits until no packet is queued or executing on any queue.
     *
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_OPERATION Called from a device thread.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t rocprofiler_host_device_synchronize(void);

    /**
     * @brief Creates a signal: a 64-bit value that dispatches decrement on completion.
     *
     * @param [in] initial_value Initial value.
     * @param [out] signal Receives the handle.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p signal is NULL.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_create_signal(int64_t initial_value, rocprofiler_host_signal_t* signal);

    /**
     * @brief Destroys a signal.
     *
     * Dispatches still referring to it and threads waiting on it remain safe: their decrements go
     * nowhere and the waits run to their condition or timeout.
     *
     * @param [in] signal Signal handle.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT The handle is 0.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND Unknown or already destroyed.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_destroy_signal(rocprofiler_host_signal_t signal);

    /**
     * @brief Reads the current value of a signal.
     *
     * @param [in] signal Signal handle.
     * @param [out] value Receives the value.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p value is NULL or the handle is 0.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND Unknown signal.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_signal_load(rocprofiler_host_signal_t signal, int64_t* value);

    /**
     * @brief Sets the value of a signal and wakes its waiters (for example to reuse it).
     *
     * @param [in] signal Signal handle.
     * @param [in] value New value.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT The handle is 0.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND Unknown signal.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_signal_store(rocprofiler_host_signal_t signal, int64_t value);

    /**
     * @brief Blocks until the signal's value satisfies a condition, or a timeout passes.
     *
     * Typical use: a signal created with value 1, passed to one dispatch, waited with
     * ::ROCPROFILER_HOST_SIGNAL_CONDITION_LT and compare value 1.
     *
     * @param [in] signal Signal handle.
     * @param [in] condition How the value is compared with @p compare_value.
     * @param [in] compare_value Right-hand side of the comparison.
     * @param [in] timeout_ns Maximum wait in nanoseconds; 0 tests once;
     *             ::ROCPROFILER_HOST_TIMEOUT_INFINITE waits forever.
     * @param [out] observed_value If not NULL, receives the last value seen.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS The condition holds.
     * @retval ROCPROFILER_HOST_STATUS_TIMEOUT The timeout passed first.
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT The handle is 0 or the condition is invalid.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND Unknown signal.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t
    rocprofiler_host_signal_wait(rocprofiler_host_signal_t           signal,
                                 rocprofiler_host_signal_condition_t condition,
                                 int64_t                             compare_value,
                                 uint64_t                            timeout_ns,
                                 int64_t*                            observed_value);

    /**
     * @brief Submits a kernel dispatch to a queue; returns without waiting for it.
     *
     * The argument bytes are copied before the call returns. On success the kernel runs after every
     * earlier packet of the queue, and the completion signal (if any) is decremented by exactly 1
     * once every work-item has returned. May be called from inside a kernel.
     *
     * @param [in] queue Queue handle.
     * @param [in] params Dispatch parameters.
     * @retval ROCPROFILER_HOST_STATUS_SUCCESS
     * @retval ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT @p params is NULL, `params->size` is too
     * small, a handle is 0, a dimension is 0, the workgroup is too large, the total number of
     *         work-items does not fit in 64 bits, `args` is NULL with a non-zero `args_size`, or a
     *         size limit is exceeded.
     * @retval ROCPROFILER_HOST_STATUS_NOT_FOUND The queue, kernel or signal is unknown.
     * @retval ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY The arguments could not be copied.
     * @retval ROCPROFILER_HOST_STATUS_SHUTDOWN The device is shutting down.
     */
    ROCPROFILER_HOST_API rocprofiler_host_status_t rocprofiler_host_dispatch(
        rocprofiler_host_queue_t queue, const rocprofiler_host_dispatch_params_t* params);

    /** @} */

#ifdef __cplusplus
}
#endif

#endif // ROCPROFILER_SDK_HOST_HOST_H_
