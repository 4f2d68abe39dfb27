// Where the signal handler of the host device's PC sampling writes: one ring per worker thread,
// bounded, lock-free and async-signal-safe (atomics that are always lock-free, no allocation).
//
// Threading: push() runs in the signal handler on the worker thread that owns the ring; arm(),
// disarm() and drain() run on that same thread outside the handler. A signal may interrupt any of
// them, hence the atomics; nothing else touches a ring.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace rocprofiler::host
{
class pc_sample_ring
{
public:
    struct entry
    {
        uint64_t pc           = 0;
        uint64_t timestamp_ns = 0;
    };

    explicit pc_sample_ring(size_t capacity)
        : m_entries(capacity)
    {
        static_assert(std::atomic<uint64_t>::is_always_lock_free);
        static_assert(std::atomic<bool>::is_always_lock_free);
    }

    // Starts an execution's samples: empty, nothing dropped, accepting.
    void arm() noexcept
    {
        m_count.store(0, std::memory_order_relaxed);
        m_dropped.store(0, std::memory_order_relaxed);
        m_armed.store(true, std::memory_order_release);
    }

    // Stops accepting. A signal that arrives afterwards (a sanitizer may defer one) is not a
    // sample of the execution and is ignored.
    void disarm() noexcept { m_armed.store(false, std::memory_order_release); }

    bool armed() const noexcept { return m_armed.load(std::memory_order_acquire); }

    // Async-signal-safe. A full ring counts the sample as dropped rather than overwriting one:
    // the execution's profile stays unbiased in time and the loss is reported.
    void push(uint64_t pc, uint64_t timestamp_ns) noexcept
    {
        if(!m_armed.load(std::memory_order_acquire)) return;
        const auto n = m_count.load(std::memory_order_relaxed);
        if(n >= m_entries.size())
        {
            m_dropped.fetch_add(1, std::memory_order_relaxed);
            return;
        }
        m_entries[n] = entry{pc, timestamp_ns};
        m_count.store(n + 1, std::memory_order_release);
    }

    // Copies the samples out; call after disarm().
    template <typename FuncT> void drain(FuncT&& func) const
    {
        const auto n = m_count.load(std::memory_order_acquire);
        for(uint64_t i = 0; i < n; ++i)
            func(m_entries[i]);
    }

    uint64_t dropped() const noexcept { return m_dropped.load(std::memory_order_relaxed); }
    size_t   capacity() const noexcept { return m_entries.size(); }

private:
    std::vector<entry>    m_entries;
    std::atomic<uint64_t> m_count   = 0;
    std::atomic<uint64_t> m_dropped = 0;
    std::atomic<bool>     m_armed   = false;
};
} // namespace rocprofiler::host
