// Execution machinery of a device: the worker pool that runs workgroups and the in-order queues
// that feed it. Internal to the runtime; the device (device.cpp) owns one pool and any number of
// queues.

#pragma once

#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace rocprofiler
{
namespace host
{
// The device (as an opaque owner token) whose worker or queue thread the calling thread is; null
// on every other thread.
const void* current_thread_owner() noexcept;

// Counts the entries accepted by the queues of one device that have not been retired yet (retired:
// completion handled, or dropped and reported). Thread-safe.
class activity_counter
{
public:
    void add();
    void remove();
    // True once the count is zero; false after `timeout_ns`.
    bool wait_idle(uint64_t timeout_ns);
    // In a forked child (after_fork.hpp): nothing is in flight there.
    void reset_after_fork();

private:
    std::mutex              m_mutex;
    std::condition_variable m_cv;
    uint64_t                m_count = 0;
};

// A fixed pool of worker threads executing the workgroups of the executions published to it.
// Several executions (of different queues) may be active at once; an idle worker joins the active
// execution with unclaimed workgroups and the fewest workers by claiming one of its workgroups,
// and stays with it until every workgroup has been claimed, so each worker takes part in an
// execution at most once and only if it runs at least one of its workgroups.
class worker_pool
{
public:
    // Starts `count` (>= 1) threads; throws std::system_error when a thread cannot be started.
    worker_pool(uint32_t count, const void* owner);
    // The threads must have been joined or detached.
    ~worker_pool();

    worker_pool(const worker_pool&)            = delete;
    worker_pool& operator=(const worker_pool&) = delete;

    uint32_t size() const noexcept { return static_cast<uint32_t>(m_threads.size()); }

    // Executes every workgroup of `pkt` (already validated) and returns when all have returned and
    // every participating worker has run on_worker_end. Called by queue threads only.
    execution_result execute(const packet& pkt, execution_hooks* hooks);

    // Lets the workers exit once no execution is active. Called after all queues have stopped.
    void request_stop();
    // True once every worker thread has left its loop; false after `timeout_ns`.
    bool wait_exited(uint64_t timeout_ns);
    void join();
    void detach();
    // In a forked child (after_fork.hpp): forgets the parent's workers and the executions they
    // ran, and starts as many new ones unless the pool was stopped. Throws std::system_error when
    // a thread cannot be started (the pool then has none).
    void restart_after_fork();

private:
    struct execution;

    void start(uint32_t count);
    struct scratch;
    struct participation;

    void       worker_main(uint32_t index);
    execution* pick_locked() const;
    // Runs workgroup `first` (already claimed) and then claims more until none is left.
    participation participate(execution& exec, uint64_t first, uint32_t index, scratch& buffers);
    static void
    run_workgroup(execution& exec, uint64_t workgroup, uint32_t index, scratch& buffers);

    const void*              m_owner = nullptr;
    std::mutex               m_mutex;
    std::condition_variable  m_work_cv; // workers: new execution or stop
    std::condition_variable  m_done_cv; // queue threads: an execution finished
    std::condition_variable  m_exit_cv; // shutdown: a worker left its loop
    std::vector<execution*>  m_active;  // published, not finished
    bool                     m_stop    = false;
    uint32_t                 m_running = 0; // workers still in their loop
    std::vector<std::thread> m_threads;
};

// One entry of a queue: an execution of a packet plus what to do when it completed.
struct queue_entry
{
    packet pkt;
    // True: decrement the packet's app signal on completion (un-intercepted dispatch).
    bool                             default_completion = false;
    completion_callback              on_complete;
    std::shared_ptr<execution_hooks> hooks;
};

// An in-order queue with its own thread. Thread-safe.
class host_queue
{
public:
    // Starts the queue thread; throws std::system_error.
    host_queue(uint64_t id, worker_pool& pool, activity_counter& activity, const void* owner);
    // The thread must have been joined or detached.
    ~host_queue();

    host_queue(const host_queue&)            = delete;
    host_queue& operator=(const host_queue&) = delete;

    uint64_t id() const noexcept { return m_id; }

    // Appends an entry. NOT_FOUND once the queue is closed by destruction, SHUTDOWN once stopped.
    rocprofiler_host_status_t push(queue_entry entry);
    // True once nothing is pending or executing (completion included); false after `timeout_ns`.
    bool wait_idle(uint64_t timeout_ns);

    // Destruction: claims the right to destroy (false when another caller already has it), then
    // waits until idle, refuses further pushes, and joins the thread.
    bool begin_destroy();
    void close_when_idle_and_join();

    // Shutdown: refuses further pushes; the thread finishes the executing entry, reports the
    // pending ones as dropped (status SHUTDOWN) and exits.
    void request_stop();
    void join();
    void detach();
    // In a forked child (after_fork.hpp): forgets the parent's queue thread and the entries it
    // had not run (the parent runs them), and starts a new thread unless the queue was stopped or
    // closed. Throws std::system_error when the thread cannot be started.
    void restart_after_fork();

private:
    void main();
    void complete(queue_entry& entry, const execution_result& result) noexcept;

    const uint64_t          m_id;
    worker_pool&            m_pool;
    activity_counter&       m_activity;
    const void*             m_owner;
    std::mutex              m_mutex;
    std::condition_variable m_work_cv;
    std::condition_variable m_idle_cv;
    std::deque<queue_entry> m_pending;
    bool                    m_busy       = false; // an entry is executing or completing
    bool                    m_stop       = false; // drop pending entries and exit
    bool                    m_closed     = false; // refuse pushes (destroyed)
    bool                    m_destroying = false;
    std::mutex              m_thread_mutex; // serializes join/detach
    std::thread             m_thread;
};
} // namespace host
} // namespace rocprofiler
