#include "buffer/callback_thread.hpp"

#include "common/logging.hpp"
#include "common/static_object.hpp"
#include "common/thread_hooks.hpp"

#include <array>
#include <atomic>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <deque>
#include <exception>
#include <mutex>
#include <new>
#include <pthread.h>
#include <system_error>
#include <thread>

namespace rocprofiler::internal_threading
{
namespace
{
// More threads than any tool needs; a fixed table keeps lookups lock-free.
constexpr size_t max_threads = 256;

thread_local int64_t this_thread_handle = -1;

// Keeps asynchronous signals off SDK threads, so that they reach the application's threads as the
// application expects. Faults stay unblocked: blocking them is undefined.
void
block_async_signals()
{
    auto set = sigset_t{};
    sigfillset(&set);
    for(int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS})
        sigdelset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

class callback_thread
{
public:
    explicit callback_thread(uint64_t handle)
        : m_handle{handle}
    {
    }

    callback_thread(const callback_thread&)            = delete;
    callback_thread& operator=(const callback_thread&) = delete;

    bool post(task work);
    void stop_and_join();

private:
    void run();
    // Starts the operating-system thread unless it runs or the thread is stopping; true when it
    // runs.
    bool start_if_needed();

    const uint64_t          m_handle;
    std::mutex              m_start_mutex  = {};
    std::atomic<bool>       m_started_flag = false; // m_started, readable without m_mutex
    std::mutex              m_mutex        = {};
    std::condition_variable m_wake         = {};
    std::deque<task>        m_queue        = {};
    std::thread             m_thread       = {};
    bool                    m_started      = false;
    bool                    m_stopping     = false;
};

bool
callback_thread::start_if_needed()
{
    // One starter at a time, without m_mutex: the tools' internal-thread callbacks run around the
    // start (rocprofiler_at_internal_thread_create) and may take their time.
    auto start_lock = std::unique_lock{m_start_mutex};
    {
        auto lock = std::lock_guard{m_mutex};
        if(m_stopping) return false;
        if(m_started) return true;
    }
    common::thread_hooks::before_create();
    auto started = false;
    {
        auto lock = std::lock_guard{m_mutex};
        if(!m_stopping)
        {
            try
            {
                m_thread  = std::thread{[this] { run(); }};
                m_started = true;
                started   = true;
            }
            catch(const std::system_error& e)
            {
                common::log::warn_once("callback-thread-start",
                                       std::string{"cannot start a buffer callback thread ("} +
                                           e.what() + "); callbacks run on the producing thread");
            }
        }
    }
    common::thread_hooks::after_create();
    return started;
}

bool
callback_thread::post(task work)
{
    if(!m_started_flag.load(std::memory_order_acquire))
    {
        if(!start_if_needed()) return false;
        m_started_flag.store(true, std::memory_order_release);
    }
    auto lock = std::unique_lock{m_mutex};
    if(m_stopping) return false;
    try
    {
        m_queue.push_back(work);
    }
    catch(const std::bad_alloc&)
    {
        return false;
    }
    m_wake.notify_one();
    return true;
}

void
callback_thread::run()
{
    this_thread_handle = static_cast<int64_t>(m_handle);
    block_async_signals();
    char name[16] = {};
    std::snprintf(name, sizeof(name), "rocp-cb-%llu", static_cast<unsigned long long>(m_handle));
    pthread_setname_np(pthread_self(), name);

    auto lock = std::unique_lock{m_mutex};
    while(true)
    {
        m_wake.wait(lock, [this] { return m_stopping || !m_queue.empty(); });
        if(m_queue.empty()) break; // stopping, and everything queued has run
        auto work = m_queue.front();
        m_queue.pop_front();
        lock.unlock();
        try
        {
            work.function(work.argument);
        }
        catch(...)
        {
            ROCP_LOG(error) << "a task of buffer callback thread " << m_handle << " threw";
        }
        lock.lock();
    }
}

void
callback_thread::stop_and_join()
{
    auto thread = std::thread{};
    {
        auto lock  = std::lock_guard{m_mutex};
        m_stopping = true;
        thread     = std::move(m_thread);
        m_wake.notify_all();
    }
    if(!thread.joinable()) return;
    // finalize() reached from inside one of our callbacks (e.g. the tool called exit()).
    if(thread.get_id() == std::this_thread::get_id())
        thread.detach();
    else
        thread.join();
}

// Never destroyed at exit: callback threads may be running while static destructors run
// (common/static_object.hpp). A test reset destroys it after finalize() joined every thread.
struct registry
{
    registry() { threads[default_thread].store(new callback_thread{default_thread}); }
    ~registry()
    {
        for(auto& entry : threads)
            delete entry.load();
    }
    registry(const registry&)            = delete;
    registry& operator=(const registry&) = delete;

    std::mutex                                             create_mutex = {};
    size_t                                                 count        = 1;
    std::array<std::atomic<callback_thread*>, max_threads> threads      = {};
};

registry&
get_registry()
{
    return common::static_object<registry, common::reset_order::threads>::get();
}

callback_thread*
lookup(uint64_t handle)
{
    if(handle >= max_threads) return nullptr;
    return get_registry().threads[handle].load(std::memory_order_acquire);
}
} // namespace

rocprofiler_status_t
create_callback_thread(rocprofiler_callback_thread_t* id)
{
    if(id == nullptr) return ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT;
    auto& reg  = get_registry();
    auto  lock = std::lock_guard{reg.create_mutex};
    if(reg.count >= max_threads) return ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES;
    auto handle = reg.count;
    reg.threads[handle].store(new callback_thread{handle}, std::memory_order_release);
    ++reg.count;
    id->handle = handle;
    return ROCPROFILER_STATUS_SUCCESS;
}

bool
exists(rocprofiler_callback_thread_t id)
{
    return lookup(id.handle) != nullptr;
}

bool
post(uint64_t handle, task work)
{
    auto* thread = lookup(handle);
    return thread != nullptr && thread->post(work);
}

int64_t
current_thread()
{
    return this_thread_handle;
}

void
finalize()
{
    for(auto& entry : get_registry().threads)
    {
        if(auto* thread = entry.load(std::memory_order_acquire); thread != nullptr)
            thread->stop_and_join();
    }
}
} // namespace rocprofiler::internal_threading
