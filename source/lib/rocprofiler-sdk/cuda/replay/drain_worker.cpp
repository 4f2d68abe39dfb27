#include "cuda/replay/drain_worker.hpp"

#include "common/guard.hpp"
#include "common/static_object.hpp"
#include "common/thread_hooks.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>
#include <unordered_map>

namespace rocprofiler::cuda
{
namespace
{
void
cpu_relax()
{
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}

// cuCtxSynchronize cannot time out, so it runs on a worker thread of the context that the replay
// window stops waiting for after the timeout. One worker per context lives for the process;
// requests coalesce: a worker still stuck in an earlier synchronize serves the next request when
// it returns (the device had not drained, so that request times out too).
class drain_worker
{
public:
    explicit drain_worker(CUcontext ctx)
        : m_ctx{ctx}
    {
        // Never joined: the worker lives until exit. An exception ends it (logged); its callers
        // time out from then on.
        std::thread{[this] {
            common::guarded("kernel-replay drain worker", [this] { run(); });
        }}.detach();
    }

    // The result of a cuCtxSynchronize that started after this call, or nothing on timeout.
    std::optional<CUresult> synchronize(uint64_t timeout_ns)
    {
        const auto start    = std::chrono::steady_clock::now();
        const auto deadline = start + std::chrono::nanoseconds{timeout_ns};
        auto       gen      = uint64_t{0};
        {
            auto lock = std::lock_guard{m_mutex};
            gen       = m_requested.load(std::memory_order_relaxed) + 1;
            m_requested.store(gen, std::memory_order_release);
        }
        m_wake.notify_one();
        const auto spin_until =
            start +
            std::chrono::nanoseconds{std::min<uint64_t>(timeout_ns, settings::drain_spin_ns())};
        while(m_completed.load(std::memory_order_acquire) < gen &&
              std::chrono::steady_clock::now() < spin_until)
            cpu_relax();
        auto lock = std::unique_lock{m_mutex};
        if(!m_done.wait_until(
               lock, deadline, [&] { return m_completed.load(std::memory_order_acquire) >= gen; }))
            return std::nullopt;
        return m_result;
    }

private:
    void run()
    {
        auto        scope = internal_call_scope{}; // for the thread's life
        const auto* drv   = driver();
        relax_stream_capture_on_this_thread(); // cuCtxSynchronize during an application capture
        auto lock = std::unique_lock{m_mutex};
        for(;;)
        {
            const auto pending = [this]
            {
                return m_requested.load(std::memory_order_acquire) >
                       m_completed.load(std::memory_order_relaxed);
            };
            m_wake.wait(lock, pending);
            const auto target = m_requested.load(std::memory_order_acquire);
            lock.unlock();
            // Set every time: a handle reused by a new context (after a reset) is resolved anew.
            auto result = drv->cuCtxSetCurrent(m_ctx);
            if(result == CUDA_SUCCESS) result = drv->cuCtxSynchronize();
            lock.lock();
            m_result = result;
            m_completed.store(target, std::memory_order_release);
            m_done.notify_all();
        }
    }

    CUcontext               m_ctx       = nullptr;
    std::mutex              m_mutex     = {};
    std::condition_variable m_wake      = {};
    std::condition_variable m_done      = {};
    std::atomic<uint64_t>   m_requested = 0;
    std::atomic<uint64_t>   m_completed = 0;
    CUresult                m_result    = CUDA_SUCCESS; // of the last completed synchronize
};

drain_worker*
worker_of(CUcontext ctx)
{
    static std::mutex mutex;
    static std::mutex start_mutex; // one start at a time, so each start is announced once
    struct workers_tag;
    static auto* workers = &common::static_object<std::unordered_map<CUcontext, drain_worker*>,
                                                  common::reset_order::never,
                                                  workers_tag>::get();
    auto         find    = [ctx]() -> drain_worker*
    {
        auto lock = std::lock_guard{mutex};
        auto itr  = workers->find(ctx);
        return itr == workers->end() ? nullptr : itr->second;
    };
    if(auto* worker = find()) return worker;
    auto start_lock = std::lock_guard{start_mutex};
    if(auto* worker = find()) return worker;
    // The tools' rocprofiler_at_internal_thread_create callbacks run around the start, outside
    // the map's lock.
    common::thread_hooks::before_create();
    auto* worker = common::guarded(
        "kernel-replay drain thread start",
        [ctx] { return new drain_worker{ctx}; }, // never destroyed (its thread uses it)
        [](common::caught) -> drain_worker* { return nullptr; });
    common::thread_hooks::after_create();
    auto lock       = std::lock_guard{mutex};
    (*workers)[ctx] = worker;
    return worker;
}
} // namespace

std::optional<CUresult>
synchronize_context(CUcontext ctx, uint64_t timeout_ns)
{
    auto* worker = worker_of(ctx);
    return worker ? worker->synchronize(timeout_ns) : std::optional<CUresult>{};
}
} // namespace rocprofiler::cuda
