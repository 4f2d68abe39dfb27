// C++ interface of the host reference device runtime.
//
// The C API in <rocprofiler-sdk-host/host.h> is a thin layer over `device`. The profiler's host
// adapter uses the hook points declared here: dispatch interception (the analogue of HSA's queue
// write interceptor), allocation observation, and per-execution worker hooks for counters.
//
// Threads of a device:
// - one queue thread per queue: takes the queue's packets in order, publishes each execution to
//   the worker pool, waits for it, then runs its completion (on_complete or the app signal);
// - the worker pool: executes workgroups.
// Both kinds are "device threads" (see device::is_device_thread()).

#pragma once

#include <rocprofiler-sdk-host/host.h>

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler
{
namespace host
{
// The device clock: nanoseconds of std::chrono::steady_clock (CLOCK_MONOTONIC on Linux). Every
// timestamp the device reports comes from this function.
uint64_t now_ns() noexcept;

// An HSA-like signal: a 64-bit value with waiters. All members are thread-safe.
class signal
{
public:
    explicit signal(int64_t initial_value) noexcept;

    signal(const signal&)            = delete;
    signal& operator=(const signal&) = delete;

    int64_t load() const noexcept;
    void    store(int64_t value);
    // Atomically subtracts `value` and wakes waiters; returns the new value.
    int64_t subtract(int64_t value);
    // Waits until `condition` holds for the value against `compare_value`, at most `timeout_ns`
    // (ROCPROFILER_HOST_TIMEOUT_INFINITE: forever). Returns true when the condition holds; the last
    // value seen goes to `observed` when not null. `condition` must be a valid enum value.
    bool wait(rocprofiler_host_signal_condition_t condition,
              int64_t                             compare_value,
              uint64_t                            timeout_ns,
              int64_t*                            observed = nullptr) const;
    // In a forked child (after_fork.hpp): its waiters and lock holders are gone; the value stays.
    void reset_after_fork();

private:
    mutable std::mutex              m_mutex;
    mutable std::condition_variable m_cv;
    std::atomic<int64_t>            m_value;
};

// A registered kernel. Immutable and alive as long as its device.
struct kernel_info
{
    uint64_t                     id = 0; // the handle value of rocprofiler_host_kernel_t
    std::string                  name;
    rocprofiler_host_kernel_fn_t function             = nullptr;
    uint32_t                     private_segment_size = 0;
    uint32_t                     group_segment_size   = 0; // static part
};

// Immutable argument bytes of a dispatch, copied once at submit time and shared by every copy of
// the packet, so that any number of executions (replay passes) see the same bytes. Each execution
// hands the kernel a private copy, so a kernel writing its arguments cannot affect later passes.
class kernel_args
{
public:
    kernel_args() = default;
    // Copies `size` bytes from `data`; throws std::bad_alloc.
    kernel_args(const void* data, size_t size);

    const void* data() const noexcept { return m_data.get(); }
    size_t      size() const noexcept { return m_size; }

private:
    std::shared_ptr<const std::byte[]> m_data = {};
    size_t                             m_size = 0;
};

// One dispatch as submitted by the application: a value type, cheap to copy (shared members).
// The interceptor may copy it, keep it, and modify copies (e.g. to run on a private queue).
struct packet
{
    std::shared_ptr<const kernel_info> kernel                     = {};
    rocprofiler_host_dim3_t            grid                       = {1, 1, 1}; // in workgroups
    rocprofiler_host_dim3_t            workgroup_size             = {1, 1, 1}; // in work-items
    kernel_args                        args                       = {};
    uint32_t                           dynamic_group_segment_size = 0;
    rocprofiler_host_queue_t           queue                      = {0}; // the app's queue
    rocprofiler_host_signal_t          completion_signal_handle   = {0}; // 0: none
    std::shared_ptr<signal>            completion_signal          = {};  // null: none

    uint64_t workgroup_count() const noexcept;
    uint64_t work_item_count() const noexcept;
    uint32_t group_segment_size() const noexcept; // static + dynamic
};

// Outcome of one execution of a packet.
struct execution_result
{
    // SUCCESS; ERROR when a kernel or hook threw (see `error`); SHUTDOWN when the execution was
    // dropped at device shutdown before it started; TIMEOUT only from device::run_and_wait.
    rocprofiler_host_status_t status = ROCPROFILER_HOST_STATUS_SUCCESS;
    // Device clock (now_ns). start_ns: just before the first workgroup began; end_ns: just after
    // the last workgroup returned. Neither includes the execution hooks. 0 when nothing ran.
    uint64_t    start_ns     = 0;
    uint64_t    end_ns       = 0;
    uint32_t    worker_count = 0; // worker threads that took part
    std::string error        = {};
};

// Per-execution hooks, e.g. to read per-thread perf_event counters or CPU time around the work a
// thread does for one execution.
//
// Threading contract: called on worker threads. Each worker thread that runs at least one
// workgroup of the execution calls on_worker_begin() once before its first workgroup of that
// execution and on_worker_end() once after its last one (execution_result::worker_count is the
// number of such threads); different workers call concurrently, so shared state
// needs synchronization. Every on_worker_end() happens-before the execution's on_complete. The
// hooks must not block on other device work. Exceptions are caught and reported as ERROR.
class execution_hooks
{
public:
    virtual ~execution_hooks() = default;
    // `worker_index` < the device's worker count identifies the thread.
    virtual void on_worker_begin(uint32_t worker_index) { (void)worker_index; }
    virtual void on_worker_end(uint32_t worker_index) { (void)worker_index; }
};

// Called once per accepted enqueue, on the queue's thread, after the execution completed (or was
// dropped at shutdown). While it runs the queue counts as busy, so a callback may enqueue the next
// pass on the same queue without the queue ever looking idle. It must not block on its own queue.
using completion_callback = std::function<void(const execution_result&)>;

// Receives every dispatch that passed validation, on the submitting thread (which may be a device
// thread when a kernel or completion callback dispatches). The interceptor owns the logical
// dispatch: it executes it with device::enqueue / run_and_wait any number of times and signals the
// app's completion exactly once (device::signal_completion). Its return value is returned to the
// application; on a non-SUCCESS return the dispatch is considered not submitted. An exception
// propagates out of device::dispatch (the C API returns it as ERROR).
using dispatch_interceptor = std::function<rocprofiler_host_status_t(const packet&)>;

// One finished rocprofiler_host_memcpy, as the copy observer sees it. A side is device memory when
// it lies in a live allocation of the device; start_ns and end_ns are on the device clock (now_ns)
// around the copy itself.
struct copy_event
{
    const void* dst        = nullptr;
    const void* src        = nullptr;
    uint64_t    bytes      = 0;
    bool        dst_device = false;
    bool        src_device = false;
    uint64_t    start_ns   = 0;
    uint64_t    end_ns     = 0;
};

using copy_observer = std::function<void(const copy_event&)>;

struct allocation
{
    void*  ptr  = nullptr;
    size_t size = 0; // bytes requested by the application
};

// Observes device memory, on the allocating/freeing thread. Notifications are serialized with
// each other and with set_allocation_observer, so an observer sees a consistent sequence.
// on_allocate runs after the allocation is registered (find_allocation finds it); on_free runs
// after it left the registry but before the memory is released, so its bytes are still readable.
// Observers may query the registry but must not allocate or free device memory (those calls fail
// with INVALID_OPERATION inside an observer). Exceptions are caught and ignored.
struct allocation_observer
{
    std::function<void(const allocation&)> on_allocate = {};
    std::function<void(const allocation&)> on_free     = {};
};

// What the profiler reports about the device as an agent.
struct agent_properties
{
    std::string name                     = "Host reference device";
    std::string vendor                   = "rocprofiler-sdk host reference device";
    uint32_t    worker_count             = 0;
    uint32_t    cpu_count                = 0; // std::thread::hardware_concurrency()
    uint32_t    max_workgroup_size       = ROCPROFILER_HOST_MAX_WORKGROUP_SIZE;
    uint32_t    max_group_segment_size   = ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE;
    uint32_t    max_private_segment_size = ROCPROFILER_HOST_MAX_PRIVATE_SEGMENT_SIZE;
    uint32_t    max_args_size            = ROCPROFILER_HOST_MAX_ARGS_SIZE;
    uint32_t    allocation_alignment     = ROCPROFILER_HOST_ALLOCATION_ALIGNMENT;
};

struct device_options
{
    // 0: ROCPROFILER_HOST_WORKERS if set to a positive count, else hardware_concurrency() (>= 2).
    uint32_t worker_count = 0;
    // How long shutdown() waits for executing work before it abandons the threads (see shutdown).
    uint64_t shutdown_timeout_ns = ROCPROFILER_HOST_TIMEOUT_INFINITE;
};

// The device. Every member function is thread-safe. Blocking members (destroy_queue,
// synchronize_queue, run_and_wait, drain, shutdown) refuse to block on a device thread.
class device
{
public:
    explicit device(device_options options = {});
    // shutdown(options.shutdown_timeout_ns), then releases remaining allocations without notifying
    // the observer. A device whose shutdown abandoned threads must not be destroyed; the process
    // device (get_device) never is.
    ~device();

    device(const device&)            = delete;
    device& operator=(const device&) = delete;

    agent_properties properties() const;
    uint32_t         worker_count() const noexcept;

    // True when the calling thread is one of this device's worker or queue threads, i.e. when
    // called from inside a kernel, an execution hook or a completion callback of this device.
    bool is_device_thread() const noexcept;

    // --- memory (C API semantics, see host.h) ---
    rocprofiler_host_status_t allocate(size_t bytes, void** ptr);
    rocprofiler_host_status_t deallocate(void* ptr);
    rocprofiler_host_status_t copy(void* dst, const void* src, size_t bytes) const;
    rocprofiler_host_status_t fill(void* dst, int value, size_t bytes) const;
    // How many copies and fills have written device memory so far (kernel replay's write epoch).
    uint64_t memory_writes() const;
    // Installs (or, with an empty function, removes) the copy observer: called on the copying
    // thread after every successful copy of at least one byte. Copies that already read the
    // previous observer still report to it.
    void set_copy_observer(copy_observer observer);

    // Installs (or, with an empty observer, removes) the allocation observer. With
    // `report_live_allocations`, on_allocate is first called for every live allocation, on this
    // thread, atomically with the installation: no allocation is missed or reported twice.
    // Notifications already running on other threads may still use the previous observer.
    void set_allocation_observer(allocation_observer observer,
                                 bool                report_live_allocations = false);
    // Snapshot of the live allocations, ordered by address.
    std::vector<allocation> live_allocations() const;
    // The live allocation containing `ptr` (its start or any byte inside it).
    std::optional<allocation> find_allocation(const void* ptr) const;

    // --- kernels ---
    rocprofiler_host_status_t register_kernel(const char*                  name,
                                              rocprofiler_host_kernel_fn_t fn,
                                              uint32_t                     private_segment_size,
                                              uint32_t                     group_segment_size,
                                              rocprofiler_host_kernel_t*   kernel);
    // Null when unknown.
    std::shared_ptr<const kernel_info> find_kernel(rocprofiler_host_kernel_t kernel) const;

    // Installs (or, with an empty function, removes) the kernel observer: called on the
    // registering thread after every successful registration, a repeated one included. With
    // `report_existing`, it is first called for every kernel registered so far, on this thread.
    // Registrations are serialized with the observer's calls and its installation.
    void set_kernel_observer(std::function<void(const kernel_info&)> observer,
                             bool                                    report_existing = false);

    // --- queues ---
    rocprofiler_host_status_t create_queue(rocprofiler_host_queue_t* queue);
    rocprofiler_host_status_t destroy_queue(rocprofiler_host_queue_t queue);
    // SUCCESS once the queue was idle (nothing pending or executing) at some point after the call;
    // TIMEOUT after `timeout_ns`.
    rocprofiler_host_status_t
    synchronize_queue(rocprofiler_host_queue_t queue,
                      uint64_t                 timeout_ns = ROCPROFILER_HOST_TIMEOUT_INFINITE);

    // --- signals ---
    rocprofiler_host_status_t create_signal(int64_t initial_value, rocprofiler_host_signal_t* sig);
    rocprofiler_host_status_t destroy_signal(rocprofiler_host_signal_t sig);
    // Null when unknown. The signal stays usable after destroy_signal while referenced.
    std::shared_ptr<signal> find_signal(rocprofiler_host_signal_t sig) const;

    // --- dispatch ---
    // The C API entry: validates `params`, builds the packet (copying the arguments) and hands it
    // to the interceptor when one is installed, else enqueues it with default completion.
    rocprofiler_host_status_t dispatch(rocprofiler_host_queue_t                  queue,
                                       const rocprofiler_host_dispatch_params_t* params);

    // Installs (or, with an empty function, removes) the dispatch interceptor. Dispatches that
    // already read the previous interceptor still go to it.
    void set_dispatch_interceptor(dispatch_interceptor interceptor);

    // Enqueues one execution of `pkt` at the tail of `queue` with default completion: the
    // packet's app signal is decremented by one when it completed. This is the path of an
    // un-intercepted dispatch; an interceptor uses it to pass a dispatch through unchanged.
    // Returns NOT_FOUND for an unknown or destroyed queue, SHUTDOWN during shutdown,
    // INVALID_ARGUMENT for a packet without kernel or with zero dimensions.
    rocprofiler_host_status_t enqueue(rocprofiler_host_queue_t queue, const packet& pkt);

    // Enqueues one execution of `pkt` at the tail of `queue`; does NOT touch the app signal.
    // When the call returns SUCCESS, `on_complete` (which may be empty) is called exactly once on
    // the queue's thread with the execution's result; on any other return it is never called.
    // `hooks` (optional) is called on the participating worker threads. The same packet may be
    // enqueued any number of times, on any queue. Callable from any thread, device threads
    // included.
    rocprofiler_host_status_t enqueue(rocprofiler_host_queue_t         queue,
                                      const packet&                    pkt,
                                      completion_callback              on_complete,
                                      std::shared_ptr<execution_hooks> hooks = {});

    // enqueue(queue, pkt, <private completion>, hooks) and waits for the result, at most
    // `timeout_ns`. On timeout the result has status TIMEOUT and the execution still completes
    // later. Refused on device threads (status INVALID_OPERATION). Enqueue failures are returned
    // as the result's status.
    execution_result run_and_wait(rocprofiler_host_queue_t queue,
                                  const packet&            pkt,
                                  uint64_t timeout_ns = ROCPROFILER_HOST_TIMEOUT_INFINITE,
                                  std::shared_ptr<execution_hooks> hooks = {});

    // Decrements the packet's app completion signal by one (no-op without signal). The
    // interceptor calls it exactly once per logical dispatch, from any thread.
    static void signal_completion(const packet& pkt);

    // Waits until no execution is pending or running on any queue of the device (completion
    // callbacks included). Returns false on timeout, and at once on a device thread.
    bool drain(uint64_t timeout_ns = ROCPROFILER_HOST_TIMEOUT_INFINITE);

    // In a child forked without exec (after_fork.hpp), on its only thread: the device works
    // again with new worker and queue threads; its kernels, allocations, queues and signals stay
    // valid. Work queued in the parent is the parent's and does not run here. When threads cannot
    // be started, the device is stopped (calls answer SHUTDOWN) rather than left to hang.
    void restart_after_fork() noexcept;

    // Stops the device; idempotent. New work is refused with SHUTDOWN from here on. Executions
    // that are running finish; executions that have not started are dropped: their on_complete
    // receives status SHUTDOWN, and default-completion packets do not signal. Then the threads are
    // joined. If they have not finished within `timeout_ns` (or when called on a device thread),
    // the threads are detached and left running on this object, which must then never be
    // destroyed. Returns true when all threads were joined.
    bool shutdown(uint64_t timeout_ns = ROCPROFILER_HOST_TIMEOUT_INFINITE);

    struct impl;

private:
    std::unique_ptr<impl> m_impl;
};

// The process-wide device used by the C API: created on first use with default options, shut
// down at process exit (atexit; ROCPROFILER_HOST_SHUTDOWN_TIMEOUT_MS bounds the wait, default
// 5000 ms), and never destroyed, so calls made after the shutdown return SHUTDOWN instead of
// touching freed state. Calls the first-use hook, when one is set, on every call.
device& get_device();

// What get_device() calls after the device exists, on every call and from any thread: the
// runtime's one extension point for whoever embeds it (the profiler's adapter attaches itself
// here, host/adapter.cpp). The hook must be cheap after its first call. Set once, before the
// first get_device() that should see it (at library load); nullptr: none.
using first_use_hook = void (*)(device&);
void set_first_use_hook(first_use_hook hook);

// The same device without attaching the profiler: for the profiler's own queries (the agent
// list), which must not start tool discovery while they are being answered.
device& process_device();
} // namespace host
} // namespace rocprofiler
