#include "host/spm.hpp"

#include "common/environment.hpp"
#include "common/thread_hooks.hpp"
#include "host/counters.hpp"
#include "host/settings.hpp"

#include <pthread.h>

#include <algorithm>
#include <chrono>
#include <string>

namespace rocprofiler::host
{
namespace
{
// The host device's SPM clock ticks at 1 MHz: a cycle is a microsecond, so that the intervals
// tools written for AMD GPUs pass (around a thousand shader cycles) are milliseconds here.
constexpr uint64_t ns_per_cycle = 1'000;
constexpr uint64_t min_interval = 100;       // 100 us: below it the sampler is the load
constexpr uint64_t max_interval = 1'000'000; // 1 s

uint64_t
clock_ns(clockid_t clock)
{
    auto ts = timespec{};
    if(clock_gettime(clock, &ts) != 0) return 0;
    return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}
} // namespace

backend::spm_offer
spm_offer()
{
    return backend::spm_offer{min_interval, max_interval, {"CPU_TIME_NS", "WORKERS_ACTIVE"}};
}

spm_session::spm_session(std::shared_ptr<const dispatch::spm_request> request, uint32_t workers)
    : m_request{std::move(request)}
    , m_limit{static_cast<size_t>(common::env::get(settings::spm_samples))}
    , m_workers(workers)
{
    const auto& specs = device_counters().counters;
    for(auto index : m_request->counters)
    {
        const auto name = index < specs.size() ? specs[index].name : std::string{};
        if(name == "CPU_TIME_NS")
            m_counters.push_back(counter::cpu_time);
        else if(name == "WORKERS_ACTIVE")
            m_counters.push_back(counter::workers_active);
        else
        {
            // The configuration was checked against spm_offer(): this is a programming error.
            m_batch.error = "counter " + name + " is not sampled over time on the host device";
            return;
        }
    }
    // The sampler is the SDK's thread: the tools' internal-thread callbacks run around its start.
    common::thread_hooks::before_create();
    try
    {
        m_sampler = std::thread{[this] { run(); }};
    }
    catch(...)
    {
        common::thread_hooks::after_create();
        throw;
    }
    common::thread_hooks::after_create();
}

spm_session::~spm_session()
{
    finish();
}

void
spm_session::on_worker_begin(uint32_t worker_index)
{
    // Read on the worker itself, so that the start is exact; the sampler reads the same clock
    // through its id.
    auto       clock    = clockid_t{};
    const auto readable = pthread_getcpuclockid(pthread_self(), &clock) == 0;
    const auto start    = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    auto       lock     = std::lock_guard{m_mutex};
    if(worker_index >= m_workers.size()) return;
    auto& w    = m_workers[worker_index];
    w.clock    = clock;
    w.readable = readable;
    w.start_ns = start;
    w.active   = true;
    m_begun    = true;
}

void
spm_session::on_worker_end(uint32_t worker_index)
{
    const auto end  = clock_ns(CLOCK_THREAD_CPUTIME_ID);
    auto       lock = std::lock_guard{m_mutex};
    if(worker_index >= m_workers.size()) return;
    auto& w = m_workers[worker_index];
    if(!w.active) return;
    w.done_ns += end > w.start_ns ? end - w.start_ns : 0;
    w.active = false;
}

void
spm_session::take_sample(bool last)
{
    auto total  = uint64_t{0};
    auto active = uint64_t{0};
    for(const auto& w : m_workers)
    {
        total += w.done_ns;
        if(!w.active) continue;
        ++active;
        // Another thread's CPU-time clock: the worker is a pool thread that outlives the session.
        // A worker whose clock cannot be read from here counts when it ends.
        if(!w.readable) continue;
        const auto now = clock_ns(w.clock);
        total += now > w.start_ns ? now - w.start_ns : 0;
    }
    // The last sample is always kept, one slot being left for it; a dropped sample's CPU time
    // goes to the next kept one, so that the values still add up to the execution's CPU time.
    if(!last && m_batch.samples.size() + 1 >= m_limit)
    {
        ++m_batch.dropped;
        return;
    }
    const auto delta    = total > m_reported ? total - m_reported : 0;
    m_reported          = std::max(total, m_reported);
    auto sample         = dispatch::spm_sample{};
    sample.timestamp_ns = clock_ns(CLOCK_MONOTONIC); // the device's clock, as dispatch records
    for(auto c : m_counters)
        sample.values.push_back(c == counter::cpu_time ? static_cast<double>(delta)
                                                       : static_cast<double>(active));
    m_batch.samples.push_back(std::move(sample));
}

void
spm_session::run()
{
    const auto interval = std::chrono::nanoseconds{m_request->interval * ns_per_cycle};
    auto       lock     = std::unique_lock{m_mutex};
    auto       next     = std::chrono::steady_clock::now() + interval;
    while(!m_stop)
    {
        if(m_wake.wait_until(lock, next, [this] { return m_stop; })) break;
        // Behind (a loaded machine): the next sample one interval from now, not a burst.
        next += interval;
        if(const auto now = std::chrono::steady_clock::now(); next <= now) next = now + interval;
        // Before the first worker starts (the execution waits in its queue) there is nothing to
        // sample.
        if(m_begun) take_sample(false);
    }
}

void
spm_session::finish()
{
    {
        auto lock = std::lock_guard{m_mutex};
        if(m_delivered) return;
        m_stop = true;
    }
    m_wake.notify_all();
    if(m_sampler.joinable()) m_sampler.join();
    auto batch = dispatch::spm_sample_batch{};
    {
        auto lock = std::lock_guard{m_mutex};
        if(m_delivered) return;
        m_delivered = true;
        // The last sample: every worker has ended, so it carries the rest of the CPU time.
        if(m_begun && m_batch.error.empty()) take_sample(true);
        batch = std::move(m_batch);
    }
    // Outside the lock: the tool's record callback runs inside deliver.
    if(m_request->deliver) m_request->deliver(batch);
}
} // namespace rocprofiler::host
