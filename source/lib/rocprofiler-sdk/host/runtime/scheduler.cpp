#include "rocprofiler-sdk/host/runtime/scheduler.hpp"
#include "rocprofiler-sdk/host/runtime/after_fork.hpp"
#include "rocprofiler-sdk/host/runtime/wait.hpp"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>

namespace rocprofiler
{
namespace host
{
namespace
{
thread_local const void* tl_owner = nullptr;

std::string
describe_current_exception()
{
    try
    {
        throw;
    }
    catch(const std::exception& e)
    {
        return e.what();
    }
    catch(...)
    {
        return "unknown exception";
    }
}

// Zero-initialized-on-demand scratch memory of one worker, aligned like device memory.
class aligned_buffer
{
public:
    aligned_buffer() = default;
    ~aligned_buffer() { std::free(m_data); }

    aligned_buffer(const aligned_buffer&)            = delete;
    aligned_buffer& operator=(const aligned_buffer&) = delete;

    // Returns at least `bytes` bytes (null for 0); throws std::bad_alloc.
    void* reserve(size_t bytes)
    {
        if(bytes == 0) return nullptr;
        if(bytes > m_capacity)
        {
            constexpr auto alignment = size_t{ROCPROFILER_HOST_ALLOCATION_ALIGNMENT};
            auto           capacity  = (bytes + alignment - 1) / alignment * alignment;
            auto*          data      = std::aligned_alloc(alignment, capacity);
            if(!data) throw std::bad_alloc{};
            std::free(m_data);
            m_data     = data;
            m_capacity = capacity;
        }
        return m_data;
    }

private:
    void*  m_data     = nullptr;
    size_t m_capacity = 0;
};

// What a forked child inherited of its parent's queued work: never run and never destroyed,
// but reachable, so that leak checkers do not report it.
void
keep_abandoned(std::deque<queue_entry> entries)
{
    static auto* const kept = new std::vector<std::deque<queue_entry>>{};
    kept->push_back(std::move(entries));
}
} // namespace

const void*
current_thread_owner() noexcept
{
    return tl_owner;
}

// ---------------------------------------------------------------------------------------------
// activity_counter

void
activity_counter::add()
{
    auto lock = std::lock_guard{m_mutex};
    ++m_count;
}

void
activity_counter::remove()
{
    auto lock = std::lock_guard{m_mutex};
    if(--m_count == 0) m_cv.notify_all();
}

bool
activity_counter::wait_idle(uint64_t timeout_ns)
{
    auto lock = std::unique_lock{m_mutex};
    return wait_for_ns(m_cv, lock, timeout_ns, [this] { return m_count == 0; });
}

void
activity_counter::reset_after_fork()
{
    renew_after_fork(m_mutex);
    renew_after_fork(m_cv);
    m_count = 0;
}

// ---------------------------------------------------------------------------------------------
// worker_pool

// Lives on the stack of the queue thread inside execute(), which returns only after `done`.
struct worker_pool::execution
{
    const packet*      pkt      = nullptr;
    const kernel_info* kernel   = nullptr;
    execution_hooks*   hooks    = nullptr;
    void*              args     = nullptr; // this execution's private copy
    uint64_t           total    = 0;       // workgroups
    uint32_t           group_sz = 0;

    std::atomic<uint64_t> next{0}; // next unclaimed workgroup

    // Guarded by worker_pool::m_mutex.
    uint32_t                  active       = 0;
    uint32_t                  participants = 0;
    uint64_t                  start_ns     = std::numeric_limits<uint64_t>::max();
    uint64_t                  end_ns       = 0;
    bool                      done         = false;
    rocprofiler_host_status_t status       = ROCPROFILER_HOST_STATUS_SUCCESS;
    std::string               error;
};

struct worker_pool::scratch
{
    aligned_buffer group;
    aligned_buffer private_segment;
};

// What one worker did for one execution.
struct worker_pool::participation
{
    uint64_t    start_ns = 0;
    uint64_t    end_ns   = 0;
    bool        failed   = false;
    std::string error;
};

worker_pool::worker_pool(uint32_t count, const void* owner)
    : m_owner{owner}
{
    start(std::max<uint32_t>(count, 1));
}

void
worker_pool::start(uint32_t count)
{
    m_threads.reserve(count);
    try
    {
        for(uint32_t i = 0; i < count; ++i)
        {
            {
                auto lock = std::lock_guard{m_mutex};
                ++m_running;
            }
            m_threads.emplace_back([this, i] { worker_main(i); });
        }
    }
    catch(...)
    {
        {
            auto lock = std::lock_guard{m_mutex};
            --m_running; // the thread that failed to start
        }
        request_stop();
        join();
        throw;
    }
}

worker_pool::~worker_pool() = default;

worker_pool::execution*
worker_pool::pick_locked() const
{
    execution* best = nullptr;
    for(auto* exec : m_active)
    {
        if(exec->next.load(std::memory_order_relaxed) >= exec->total) continue;
        if(!best || exec->active < best->active) best = exec;
    }
    return best;
}

void
worker_pool::worker_main(uint32_t index)
{
    tl_owner     = m_owner;
    auto buffers = scratch{};
    auto lock    = std::unique_lock{m_mutex};
    while(true)
    {
        m_work_cv.wait(lock, [this] { return m_stop || pick_locked() != nullptr; });
        auto* exec = pick_locked();
        if(!exec) break; // stopped and nothing left to do
        // Claiming the first workgroup under the lock makes "participant" mean "ran at least one
        // workgroup". If the claim fails, the last workgroups belong to active participants, and
        // the last of them to leave completes the execution.
        auto first = exec->next.fetch_add(1, std::memory_order_relaxed);
        if(first >= exec->total) continue;
        ++exec->active;
        ++exec->participants;
        lock.unlock();

        auto part = participate(*exec, first, index, buffers);

        lock.lock();
        exec->start_ns = std::min(exec->start_ns, part.start_ns);
        exec->end_ns   = std::max(exec->end_ns, part.end_ns);
        if(part.failed && exec->status == ROCPROFILER_HOST_STATUS_SUCCESS)
        {
            exec->status = ROCPROFILER_HOST_STATUS_ERROR;
            exec->error  = std::move(part.error);
        }
        // Workers join only while workgroups are unclaimed, and `next` only grows, so once every
        // workgroup is claimed and the last participant left, nobody can touch `exec` again.
        if(--exec->active == 0 && exec->next.load(std::memory_order_relaxed) >= exec->total)
        {
            m_active.erase(std::find(m_active.begin(), m_active.end(), exec));
            exec->done = true;
            m_done_cv.notify_all();
        }
    }
    --m_running;
    m_exit_cv.notify_all();
}

worker_pool::participation
worker_pool::participate(execution& exec, uint64_t first, uint32_t index, scratch& buffers)
{
    auto part = participation{};
    auto fail = [&part]
    {
        if(!part.failed) part.error = describe_current_exception();
        part.failed = true;
    };

    if(exec.hooks)
    {
        try
        {
            exec.hooks->on_worker_begin(index);
        }
        catch(...)
        {
            fail();
        }
    }
    part.start_ns = now_ns();
    for(auto wg = first; wg < exec.total; wg = exec.next.fetch_add(1, std::memory_order_relaxed))
    {
        try
        {
            run_workgroup(exec, wg, index, buffers);
        }
        catch(...)
        {
            fail();
        }
    }
    part.end_ns = now_ns();
    if(exec.hooks)
    {
        try
        {
            exec.hooks->on_worker_end(index);
        }
        catch(...)
        {
            fail();
        }
    }
    return part;
}

void
worker_pool::run_workgroup(execution& exec, uint64_t workgroup, uint32_t index, scratch& buffers)
{
    const auto& pkt  = *exec.pkt;
    const auto  grid = pkt.grid;
    const auto  wgs  = pkt.workgroup_size;
    const auto  gxy  = uint64_t{grid.x} * grid.y;

    auto item           = rocprofiler_host_work_item_t{};
    item.workgroup_id.x = static_cast<uint32_t>(workgroup % grid.x);
    item.workgroup_id.y = static_cast<uint32_t>((workgroup / grid.x) % grid.y);
    item.workgroup_id.z = static_cast<uint32_t>(workgroup / gxy);
    item.workgroup_size = wgs;
    item.grid_size      = grid;
    item.worker_index   = index;

    item.group_segment_size = exec.group_sz;
    item.group_segment      = buffers.group.reserve(exec.group_sz);
    if(item.group_segment) std::memset(item.group_segment, 0, exec.group_sz);

    const auto private_sz     = exec.kernel->private_segment_size;
    item.private_segment_size = private_sz;
    item.private_segment      = buffers.private_segment.reserve(private_sz);

    // Global extents in work-items; validation guarantees the products fit in 64 bits.
    const auto global_x = uint64_t{grid.x} * wgs.x;
    const auto global_y = uint64_t{grid.y} * wgs.y;
    const auto base_x   = uint64_t{item.workgroup_id.x} * wgs.x;
    const auto base_y   = uint64_t{item.workgroup_id.y} * wgs.y;
    const auto base_z   = uint64_t{item.workgroup_id.z} * wgs.z;
    const auto fn       = exec.kernel->function;

    auto local_linear = uint32_t{0};
    for(uint32_t z = 0; z < wgs.z; ++z)
    {
        for(uint32_t y = 0; y < wgs.y; ++y)
        {
            for(uint32_t x = 0; x < wgs.x; ++x, ++local_linear)
            {
                item.local_id        = {x, y, z};
                item.global_id       = {base_x + x, base_y + y, base_z + z};
                item.local_linear_id = local_linear;
                item.global_linear_id =
                    item.global_id.x + global_x * (item.global_id.y + global_y * item.global_id.z);
                if(item.private_segment) std::memset(item.private_segment, 0, private_sz);
                fn(&item, exec.args);
            }
        }
    }
}

execution_result
worker_pool::execute(const packet& pkt, execution_hooks* hooks)
{
    auto args = std::unique_ptr<std::byte[]>{};
    if(pkt.args.size() > 0)
    {
        args = std::unique_ptr<std::byte[]>{new std::byte[pkt.args.size()]};
        std::memcpy(args.get(), pkt.args.data(), pkt.args.size());
    }

    auto exec     = execution{};
    exec.pkt      = &pkt;
    exec.kernel   = pkt.kernel.get();
    exec.hooks    = hooks;
    exec.args     = args.get();
    exec.total    = pkt.workgroup_count();
    exec.group_sz = pkt.group_segment_size();

    auto lock = std::unique_lock{m_mutex};
    m_active.push_back(&exec);
    if(exec.total >= m_threads.size())
        m_work_cv.notify_all();
    else
        for(uint64_t i = 0; i < exec.total; ++i)
            m_work_cv.notify_one();
    m_done_cv.wait(lock, [&exec] { return exec.done; });

    auto result         = execution_result{};
    result.status       = exec.status;
    result.error        = std::move(exec.error);
    result.worker_count = exec.participants;
    if(exec.end_ns != 0)
    {
        result.start_ns = exec.start_ns;
        result.end_ns   = exec.end_ns;
    }
    return result;
}

void
worker_pool::request_stop()
{
    {
        auto lock = std::lock_guard{m_mutex};
        m_stop    = true;
    }
    m_work_cv.notify_all();
}

bool
worker_pool::wait_exited(uint64_t timeout_ns)
{
    auto lock = std::unique_lock{m_mutex};
    return wait_for_ns(m_exit_cv, lock, timeout_ns, [this] { return m_running == 0; });
}

void
worker_pool::join()
{
    for(auto& thread : m_threads)
        if(thread.joinable()) thread.join();
}

void
worker_pool::detach()
{
    for(auto& thread : m_threads)
        if(thread.joinable()) thread.detach();
}

void
worker_pool::restart_after_fork()
{
    const auto count = static_cast<uint32_t>(m_threads.size());
    for(auto& thread : m_threads)
        forget_thread_after_fork(thread);
    m_threads.clear();
    renew_after_fork(m_mutex);
    renew_after_fork(m_work_cv);
    renew_after_fork(m_done_cv);
    renew_after_fork(m_exit_cv);
    // Executions lived on the stacks of the parent's queue threads.
    m_active.clear();
    m_running = 0;
    if(!m_stop && count > 0) start(count);
}

// ---------------------------------------------------------------------------------------------
// host_queue

host_queue::host_queue(uint64_t          id,
                       worker_pool&      pool,
                       activity_counter& activity,
                       const void*       owner)
    : m_id{id}
    , m_pool{pool}
    , m_activity{activity}
    , m_owner{owner}
    , m_thread{[this] { main(); }}
{
}

host_queue::~host_queue() = default;

rocprofiler_host_status_t
host_queue::push(queue_entry entry)
{
    {
        auto lock = std::lock_guard{m_mutex};
        if(m_stop) return ROCPROFILER_HOST_STATUS_SHUTDOWN;
        if(m_closed) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
        m_pending.push_back(std::move(entry));
        m_activity.add();
    }
    m_work_cv.notify_one();
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

bool
host_queue::wait_idle(uint64_t timeout_ns)
{
    auto lock = std::unique_lock{m_mutex};
    return wait_for_ns(
        m_idle_cv, lock, timeout_ns, [this] { return m_pending.empty() && !m_busy; });
}

bool
host_queue::begin_destroy()
{
    auto lock = std::lock_guard{m_mutex};
    if(m_destroying || m_closed) return false;
    m_destroying = true;
    return true;
}

void
host_queue::close_when_idle_and_join()
{
    {
        auto lock = std::unique_lock{m_mutex};
        m_idle_cv.wait(lock, [this] { return m_pending.empty() && !m_busy; });
        // Idle and closed in one critical section: no push can slip in between.
        m_closed = true;
        m_stop   = true;
    }
    m_work_cv.notify_all();
    join();
}

void
host_queue::request_stop()
{
    {
        auto lock = std::lock_guard{m_mutex};
        m_stop    = true;
    }
    m_work_cv.notify_all();
}

void
host_queue::join()
{
    auto lock = std::lock_guard{m_thread_mutex};
    if(m_thread.joinable()) m_thread.join();
}

void
host_queue::detach()
{
    auto lock = std::lock_guard{m_thread_mutex};
    if(m_thread.joinable()) m_thread.detach();
}

void
host_queue::restart_after_fork()
{
    forget_thread_after_fork(m_thread);
    renew_after_fork(m_mutex);
    renew_after_fork(m_work_cv);
    renew_after_fork(m_idle_cv);
    renew_after_fork(m_thread_mutex);
    // Entries the parent had queued are the parent's to run; in the child they are kept, never
    // run nor destroyed (their destructors could wait for locks of threads that are gone).
    if(!m_pending.empty()) keep_abandoned(std::move(m_pending));
    m_pending.clear();
    m_busy       = false;
    m_destroying = false;
    if(m_stop || m_closed) return;
    m_thread = std::thread{[this] { main(); }};
}

void
host_queue::complete(queue_entry& entry, const execution_result& result) noexcept
{
    if(entry.default_completion)
    {
        // A dropped packet did not run, so its completion is not signalled.
        if(result.status != ROCPROFILER_HOST_STATUS_SHUTDOWN) device::signal_completion(entry.pkt);
        return;
    }
    if(!entry.on_complete) return;
    try
    {
        entry.on_complete(result);
    }
    catch(...)
    {
        // The callback's failure is its owner's business; the queue must go on.
    }
}

void
host_queue::main()
{
    tl_owner  = m_owner;
    auto lock = std::unique_lock{m_mutex};
    while(true)
    {
        m_work_cv.wait(lock, [this] { return m_stop || !m_pending.empty(); });
        if(m_stop)
        {
            auto dropped = std::move(m_pending);
            m_pending.clear();
            if(dropped.empty()) break;
            m_busy = true;
            lock.unlock();
            auto result   = execution_result{};
            result.status = ROCPROFILER_HOST_STATUS_SHUTDOWN;
            result.error  = "dropped at device shutdown before it started";
            for(auto& entry : dropped)
            {
                complete(entry, result);
                m_activity.remove();
            }
            dropped.clear(); // release captured state before reporting idle
            lock.lock();
            m_busy = false;
            m_idle_cv.notify_all();
            continue; // pushes are refused once stopped, so this ends the loop
        }

        auto entry = std::move(m_pending.front());
        m_pending.pop_front();
        m_busy = true;
        lock.unlock();

        auto result = execution_result{};
        try
        {
            result = m_pool.execute(entry.pkt, entry.hooks.get());
        }
        catch(...)
        {
            result.status = ROCPROFILER_HOST_STATUS_ERROR;
            result.error  = describe_current_exception();
        }
        complete(entry, result);
        entry = queue_entry{}; // release the callback and packet before reporting completion

        lock.lock();
        m_busy = false;
        if(m_pending.empty()) m_idle_cv.notify_all();
        m_activity.remove();
    }
    m_idle_cv.notify_all();
}
} // namespace host
} // namespace rocprofiler
