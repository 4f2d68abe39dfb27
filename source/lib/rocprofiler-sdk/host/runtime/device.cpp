#include "rocprofiler-sdk/common/environment.hpp"
#include "rocprofiler-sdk/host/runtime/after_fork.hpp"
#include "rocprofiler-sdk/host/runtime/allocation_registry.hpp"
#include "rocprofiler-sdk/host/runtime/kernel_registry.hpp"
#include "rocprofiler-sdk/host/runtime/runtime.hpp"
#include "rocprofiler-sdk/host/runtime/scheduler.hpp"
#include "rocprofiler-sdk/host/runtime/settings.hpp"
#include "rocprofiler-sdk/host/runtime/wait.hpp"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <new>
#include <thread>
#include <unordered_map>

namespace rocprofiler
{
namespace host
{
namespace
{
constexpr auto min_dispatch_params_size =
    offsetof(rocprofiler_host_dispatch_params_t, completion_signal) +
    sizeof(rocprofiler_host_signal_t);

uint32_t
cpu_count()
{
    return std::thread::hardware_concurrency();
}

uint32_t
resolve_worker_count(uint32_t requested)
{
    if(requested > 0) return requested;
    if(auto configured = common::env::get(runtime::settings::workers))
        return static_cast<uint32_t>(*configured);
    return std::max<uint32_t>(cpu_count(), 2);
}

bool
valid_dims(rocprofiler_host_dim3_t dims)
{
    return dims.x > 0 && dims.y > 0 && dims.z > 0;
}

// Checks what every execution relies on: a kernel, non-zero dimensions, limits, and a work-item
// count (hence every global id) that fits in 64 bits.
rocprofiler_host_status_t
validate_packet(const packet& pkt)
{
    if(!pkt.kernel || !pkt.kernel->function) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(!valid_dims(pkt.grid) || !valid_dims(pkt.workgroup_size))
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    auto wg_items = uint64_t{pkt.workgroup_size.x} * pkt.workgroup_size.y * pkt.workgroup_size.z;
    if(wg_items > ROCPROFILER_HOST_MAX_WORKGROUP_SIZE)
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(pkt.dynamic_group_segment_size >
       ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE - pkt.kernel->group_segment_size)
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(pkt.args.size() > ROCPROFILER_HOST_MAX_ARGS_SIZE)
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    auto groups = uint64_t{pkt.grid.x} * pkt.grid.y;
    auto items  = uint64_t{0};
    if(__builtin_mul_overflow(groups, uint64_t{pkt.grid.z}, &groups) ||
       __builtin_mul_overflow(groups, wg_items, &items))
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}
} // namespace

struct device::impl
{
    explicit impl(device_options opts)
        : options{opts}
        , pool{resolve_worker_count(opts.worker_count), this}
    {
    }

    std::atomic<uint64_t> memory_writes = 0; // copies and fills, counted before they write

    std::shared_ptr<host_queue> find_queue(rocprofiler_host_queue_t queue)
    {
        auto lock = std::lock_guard{queues_mutex};
        auto it   = queues.find(queue.handle);
        return it == queues.end() ? nullptr : it->second;
    }

    rocprofiler_host_status_t push(rocprofiler_host_queue_t queue, queue_entry entry)
    {
        if(queue.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
        if(auto status = validate_packet(entry.pkt); status != ROCPROFILER_HOST_STATUS_SUCCESS)
            return status;
        auto q = find_queue(queue);
        if(!q)
            return shutting_down() ? ROCPROFILER_HOST_STATUS_SHUTDOWN
                                   : ROCPROFILER_HOST_STATUS_NOT_FOUND;
        return q->push(std::move(entry));
    }

    bool shutting_down()
    {
        auto lock = std::lock_guard{queues_mutex};
        return stopping;
    }

    const device_options options;
    activity_counter     activity; // before pool and queues: they refer to it
    worker_pool          pool;
    kernel_registry      kernels;
    // Serializes registrations with the kernel observer (see set_kernel_observer).
    std::mutex                              kernel_observer_mutex = {};
    std::function<void(const kernel_info&)> kernel_observer       = {};
    allocation_registry                     allocations;

    std::mutex                                      queues_mutex;
    std::map<uint64_t, std::shared_ptr<host_queue>> queues;
    uint64_t                                        next_queue_id = 1;
    bool                                            stopping      = false;
    std::optional<bool>                             shutdown_joined; // set once shut down

    mutable std::mutex                                    signals_mutex;
    std::unordered_map<uint64_t, std::shared_ptr<signal>> signals;
    uint64_t                                              next_signal_id = 1;

    std::mutex                                  interceptor_mutex;
    std::shared_ptr<const dispatch_interceptor> interceptor;

    mutable std::mutex                   copy_observer_mutex;
    std::shared_ptr<const copy_observer> observer_of_copies;

    std::mutex shutdown_mutex; // serializes shutdown()
};

device::device(device_options options)
    : m_impl{std::make_unique<impl>(options)}
{
}

device::~device()
{
    // Threads left running on this object would use freed memory: keep the object alive instead.
    if(!shutdown(m_impl->options.shutdown_timeout_ns)) (void)m_impl.release();
}

agent_properties
device::properties() const
{
    auto props         = agent_properties{};
    props.worker_count = worker_count();
    props.cpu_count    = cpu_count();
    return props;
}

uint32_t
device::worker_count() const noexcept
{
    return m_impl->pool.size();
}

bool
device::is_device_thread() const noexcept
{
    return current_thread_owner() == m_impl.get();
}

// --- memory ----------------------------------------------------------------------------------

rocprofiler_host_status_t
device::allocate(size_t bytes, void** ptr)
{
    if(ptr) *ptr = nullptr;
    if(ptr && m_impl->shutting_down()) return ROCPROFILER_HOST_STATUS_SHUTDOWN;
    return m_impl->allocations.allocate(bytes, ptr);
}

rocprofiler_host_status_t
device::deallocate(void* ptr)
{
    return m_impl->allocations.deallocate(ptr);
}

rocprofiler_host_status_t
device::copy(void* dst, const void* src, size_t bytes) const
{
    if(bytes == 0) return ROCPROFILER_HOST_STATUS_SUCCESS;
    if(!dst || !src) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(!m_impl->allocations.range_is_valid(dst, bytes) ||
       !m_impl->allocations.range_is_valid(src, bytes))
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    auto observer = std::shared_ptr<const copy_observer>{};
    {
        auto lock = std::lock_guard{m_impl->copy_observer_mutex};
        observer  = m_impl->observer_of_copies;
    }
    m_impl->memory_writes.fetch_add(1, std::memory_order_acq_rel);
    if(!observer)
    {
        std::memmove(dst, src, bytes);
        return ROCPROFILER_HOST_STATUS_SUCCESS;
    }
    auto event       = copy_event{};
    event.dst        = dst;
    event.src        = src;
    event.bytes      = bytes;
    event.dst_device = m_impl->allocations.find(dst).has_value();
    event.src_device = m_impl->allocations.find(src).has_value();
    event.start_ns   = now_ns();
    std::memmove(dst, src, bytes);
    event.end_ns = now_ns();
    (*observer)(event);
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

void
device::set_copy_observer(copy_observer observer)
{
    auto next = observer ? std::make_shared<const copy_observer>(std::move(observer)) : nullptr;
    auto lock = std::lock_guard{m_impl->copy_observer_mutex};
    m_impl->observer_of_copies.swap(next);
}

rocprofiler_host_status_t
device::fill(void* dst, int value, size_t bytes) const
{
    if(bytes == 0) return ROCPROFILER_HOST_STATUS_SUCCESS;
    if(!dst) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(!m_impl->allocations.range_is_valid(dst, bytes))
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    m_impl->memory_writes.fetch_add(1, std::memory_order_acq_rel);
    std::memset(dst, value, bytes);
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

uint64_t
device::memory_writes() const
{
    return m_impl->memory_writes.load(std::memory_order_acquire);
}

void
device::set_allocation_observer(allocation_observer observer, bool report_live_allocations)
{
    m_impl->allocations.set_observer(std::move(observer), report_live_allocations);
}

std::vector<allocation>
device::live_allocations() const
{
    return m_impl->allocations.live();
}

std::optional<allocation>
device::find_allocation(const void* ptr) const
{
    return m_impl->allocations.find(ptr);
}

// --- kernels ---------------------------------------------------------------------------------

rocprofiler_host_status_t
device::register_kernel(const char*                  name,
                        rocprofiler_host_kernel_fn_t fn,
                        uint32_t                     private_segment_size,
                        uint32_t                     group_segment_size,
                        rocprofiler_host_kernel_t*   kernel)
{
    auto lock   = std::lock_guard{m_impl->kernel_observer_mutex};
    auto status = m_impl->kernels.add(name, fn, private_segment_size, group_segment_size, kernel);
    if(status == ROCPROFILER_HOST_STATUS_SUCCESS && m_impl->kernel_observer)
    {
        if(auto info = m_impl->kernels.find(kernel->handle)) m_impl->kernel_observer(*info);
    }
    return status;
}

void
device::set_kernel_observer(std::function<void(const kernel_info&)> observer, bool report_existing)
{
    auto lock = std::lock_guard{m_impl->kernel_observer_mutex};
    if(observer && report_existing)
    {
        for(const auto& info : m_impl->kernels.all())
            observer(*info);
    }
    m_impl->kernel_observer = std::move(observer);
}

std::shared_ptr<const kernel_info>
device::find_kernel(rocprofiler_host_kernel_t kernel) const
{
    return m_impl->kernels.find(kernel.handle);
}

// --- queues ----------------------------------------------------------------------------------

rocprofiler_host_status_t
device::create_queue(rocprofiler_host_queue_t* queue)
{
    if(!queue) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    queue->handle = 0;
    auto lock     = std::lock_guard{m_impl->queues_mutex};
    if(m_impl->stopping) return ROCPROFILER_HOST_STATUS_SHUTDOWN;
    auto id = m_impl->next_queue_id;
    auto q  = std::shared_ptr<host_queue>{};
    try
    {
        q = std::make_shared<host_queue>(id, m_impl->pool, m_impl->activity, m_impl.get());
    }
    catch(const std::bad_alloc&)
    {
        return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;
    }
    catch(const std::system_error&)
    {
        return ROCPROFILER_HOST_STATUS_ERROR;
    }
    try
    {
        m_impl->queues.emplace(id, q);
    }
    catch(...)
    {
        q->request_stop();
        q->join();
        return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;
    }
    ++m_impl->next_queue_id;
    queue->handle = id;
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

rocprofiler_host_status_t
device::destroy_queue(rocprofiler_host_queue_t queue)
{
    if(queue.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(is_device_thread()) return ROCPROFILER_HOST_STATUS_INVALID_OPERATION;
    auto q = m_impl->find_queue(queue);
    if(!q || !q->begin_destroy()) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
    q->close_when_idle_and_join();
    auto lock = std::lock_guard{m_impl->queues_mutex};
    m_impl->queues.erase(queue.handle);
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

rocprofiler_host_status_t
device::synchronize_queue(rocprofiler_host_queue_t queue, uint64_t timeout_ns)
{
    if(queue.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(is_device_thread()) return ROCPROFILER_HOST_STATUS_INVALID_OPERATION;
    auto q = m_impl->find_queue(queue);
    if(!q) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
    return q->wait_idle(timeout_ns) ? ROCPROFILER_HOST_STATUS_SUCCESS
                                    : ROCPROFILER_HOST_STATUS_TIMEOUT;
}

// --- signals ---------------------------------------------------------------------------------

rocprofiler_host_status_t
device::create_signal(int64_t initial_value, rocprofiler_host_signal_t* sig)
{
    if(!sig) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    sig->handle = 0;
    auto value  = std::make_shared<signal>(initial_value);
    auto lock   = std::lock_guard{m_impl->signals_mutex};
    auto id     = m_impl->next_signal_id;
    m_impl->signals.emplace(id, std::move(value));
    ++m_impl->next_signal_id;
    sig->handle = id;
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

rocprofiler_host_status_t
device::destroy_signal(rocprofiler_host_signal_t sig)
{
    if(sig.handle == 0) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    auto lock = std::lock_guard{m_impl->signals_mutex};
    return m_impl->signals.erase(sig.handle) == 1 ? ROCPROFILER_HOST_STATUS_SUCCESS
                                                  : ROCPROFILER_HOST_STATUS_NOT_FOUND;
}

std::shared_ptr<signal>
device::find_signal(rocprofiler_host_signal_t sig) const
{
    auto lock = std::lock_guard{m_impl->signals_mutex};
    auto it   = m_impl->signals.find(sig.handle);
    return it == m_impl->signals.end() ? nullptr : it->second;
}

// --- dispatch --------------------------------------------------------------------------------

rocprofiler_host_status_t
device::dispatch(rocprofiler_host_queue_t queue, const rocprofiler_host_dispatch_params_t* params)
{
    if(!params || params->size < min_dispatch_params_size || queue.handle == 0 ||
       params->kernel.handle == 0)
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(params->args_size > 0 && !params->args) return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    if(params->args_size > ROCPROFILER_HOST_MAX_ARGS_SIZE)
        return ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;

    auto pkt   = packet{};
    pkt.kernel = find_kernel(params->kernel);
    if(!pkt.kernel) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
    pkt.grid                       = params->grid;
    pkt.workgroup_size             = params->workgroup_size;
    pkt.dynamic_group_segment_size = params->dynamic_group_segment_size;
    pkt.queue                      = queue;
    if(auto status = validate_packet(pkt); status != ROCPROFILER_HOST_STATUS_SUCCESS) return status;

    if(params->completion_signal.handle != 0)
    {
        pkt.completion_signal = find_signal(params->completion_signal);
        if(!pkt.completion_signal) return ROCPROFILER_HOST_STATUS_NOT_FOUND;
        pkt.completion_signal_handle = params->completion_signal;
    }
    // The interceptor only ever sees live queues (it may still race with their destruction).
    if(!m_impl->find_queue(queue))
        return m_impl->shutting_down() ? ROCPROFILER_HOST_STATUS_SHUTDOWN
                                       : ROCPROFILER_HOST_STATUS_NOT_FOUND;
    if(m_impl->shutting_down()) return ROCPROFILER_HOST_STATUS_SHUTDOWN;

    try
    {
        pkt.args = kernel_args{params->args, params->args_size};
    }
    catch(const std::bad_alloc&)
    {
        return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY;
    }

    auto interceptor = std::shared_ptr<const dispatch_interceptor>{};
    {
        auto lock   = std::lock_guard{m_impl->interceptor_mutex};
        interceptor = m_impl->interceptor;
    }
    if(interceptor) return (*interceptor)(pkt);
    return enqueue(queue, pkt);
}

void
device::set_dispatch_interceptor(dispatch_interceptor interceptor)
{
    auto next = interceptor ? std::make_shared<const dispatch_interceptor>(std::move(interceptor))
                            : nullptr;
    auto lock = std::lock_guard{m_impl->interceptor_mutex};
    m_impl->interceptor.swap(next);
    // `next` (the previous interceptor) is released here, or by the last dispatch still using it.
}

rocprofiler_host_status_t
device::enqueue(rocprofiler_host_queue_t queue, const packet& pkt)
{
    auto entry               = queue_entry{};
    entry.pkt                = pkt;
    entry.default_completion = true;
    return m_impl->push(queue, std::move(entry));
}

rocprofiler_host_status_t
device::enqueue(rocprofiler_host_queue_t         queue,
                const packet&                    pkt,
                completion_callback              on_complete,
                std::shared_ptr<execution_hooks> hooks)
{
    auto entry        = queue_entry{};
    entry.pkt         = pkt;
    entry.on_complete = std::move(on_complete);
    entry.hooks       = std::move(hooks);
    return m_impl->push(queue, std::move(entry));
}

execution_result
device::run_and_wait(rocprofiler_host_queue_t         queue,
                     const packet&                    pkt,
                     uint64_t                         timeout_ns,
                     std::shared_ptr<execution_hooks> hooks)
{
    auto failed = [](rocprofiler_host_status_t status)
    {
        auto result   = execution_result{};
        result.status = status;
        return result;
    };
    if(is_device_thread()) return failed(ROCPROFILER_HOST_STATUS_INVALID_OPERATION);

    struct completion
    {
        std::mutex              mutex;
        std::condition_variable cv;
        bool                    done = false;
        execution_result        result;
    };
    // Shared with the callback, which may outlive this call when the wait times out.
    auto state  = std::make_shared<completion>();
    auto status = enqueue(
        queue,
        pkt,
        [state](const execution_result& result)
        {
            auto lock     = std::lock_guard{state->mutex};
            state->result = result;
            state->done   = true;
            state->cv.notify_all();
        },
        std::move(hooks));
    if(status != ROCPROFILER_HOST_STATUS_SUCCESS) return failed(status);

    auto lock = std::unique_lock{state->mutex};
    if(!wait_for_ns(state->cv, lock, timeout_ns, [&state] { return state->done; }))
        return failed(ROCPROFILER_HOST_STATUS_TIMEOUT);
    return state->result;
}

void
device::signal_completion(const packet& pkt)
{
    if(pkt.completion_signal) pkt.completion_signal->subtract(1);
}

bool
device::drain(uint64_t timeout_ns)
{
    if(is_device_thread()) return false;
    return m_impl->activity.wait_idle(timeout_ns);
}

bool
device::shutdown(uint64_t timeout_ns)
{
    auto serial = std::lock_guard{m_impl->shutdown_mutex};
    if(m_impl->shutdown_joined) return *m_impl->shutdown_joined;

    auto queues = std::vector<std::shared_ptr<host_queue>>{};
    {
        auto lock        = std::lock_guard{m_impl->queues_mutex};
        m_impl->stopping = true;
        for(auto& [id, q] : m_impl->queues)
            queues.push_back(q);
    }
    for(auto& q : queues)
        q->request_stop();

    // A device thread cannot wait for its own work: abandon the threads at once.
    const auto deadline_ns = is_device_thread() ? 0 : timeout_ns;
    const auto start       = now_ns();
    auto       remaining   = [&]() -> uint64_t
    {
        if(deadline_ns == ROCPROFILER_HOST_TIMEOUT_INFINITE) return deadline_ns;
        auto elapsed = now_ns() - start;
        return elapsed >= deadline_ns ? 0 : deadline_ns - elapsed;
    };

    auto joined = m_impl->activity.wait_idle(deadline_ns);
    if(joined)
    {
        for(auto& q : queues)
            q->join(); // quick: their entries are retired and they are stopped
        m_impl->pool.request_stop();
        joined = m_impl->pool.wait_exited(remaining());
    }
    else
    {
        m_impl->pool.request_stop();
    }
    if(joined)
    {
        m_impl->pool.join();
    }
    else
    {
        for(auto& q : queues)
            q->detach();
        m_impl->pool.detach();
    }
    {
        auto lock = std::lock_guard{m_impl->queues_mutex};
        if(joined) m_impl->queues.clear();
    }
    m_impl->shutdown_joined = joined;
    return joined;
}

void
device::restart_after_fork() noexcept
{
    auto& d = *m_impl;
    renew_after_fork(d.kernel_observer_mutex);
    renew_after_fork(d.queues_mutex);
    renew_after_fork(d.signals_mutex);
    renew_after_fork(d.interceptor_mutex);
    renew_after_fork(d.copy_observer_mutex);
    renew_after_fork(d.shutdown_mutex);
    d.kernels.reset_after_fork();
    d.allocations.reset_after_fork();
    d.activity.reset_after_fork();
    for(auto& [id, sig] : d.signals)
        sig->reset_after_fork();
    try
    {
        d.pool.restart_after_fork();
        for(auto& [id, q] : d.queues)
            q->restart_after_fork();
    }
    catch(...)
    {
        // No threads to run work: refuse it instead of queueing it forever.
        d.stopping        = true;
        d.shutdown_joined = false;
        d.pool.request_stop();
        for(auto& [id, q] : d.queues)
            q->request_stop();
    }
}

// --- process device --------------------------------------------------------------------------

device&
process_device()
{
    static const uint64_t shutdown_timeout_ns =
        common::env::get(runtime::settings::shutdown_timeout_ms) * 1000000;
    static device* const instance = []
    {
        auto options                = device_options{};
        options.shutdown_timeout_ns = shutdown_timeout_ns;
        // Never deleted: calls that arrive after the exit-time shutdown (static destructors of
        // the application or the profiler) find a stopped device, not freed memory.
        auto* dev = new device{options};
        // Not through get_device(): exit must not attach the profiler to a device never used.
        std::atexit([] { instance->shutdown(shutdown_timeout_ns); });
        // A child forked without exec gets a working device (its threads started again there).
        pthread_atfork(nullptr, nullptr, [] { instance->restart_after_fork(); });
        return dev;
    }();
    return *instance;
}

namespace
{
// Constant-initialized: set at library load, before any caller can reach get_device().
std::atomic<first_use_hook> installed_first_use_hook = nullptr;
} // namespace

void
set_first_use_hook(first_use_hook hook)
{
    installed_first_use_hook.store(hook, std::memory_order_release);
}

device&
get_device()
{
    auto& dev = process_device();
    // Outside process_device()'s static initializer: the hook (tool discovery) may call back into
    // get_device() (a tool that dispatches or queries agents in its initialize).
    if(auto hook = installed_first_use_hook.load(std::memory_order_acquire)) hook(dev);
    return dev;
}
} // namespace host
} // namespace rocprofiler
