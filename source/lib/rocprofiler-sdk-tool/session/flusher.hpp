// What survives the application's end is paced here: a flusher thread runs the tool's flush every
// interval (200 ms: the SDK buffer is flushed, streamed rows written), and the whole-file outputs
// are rewritten at checkpoints no more often than checkpoint_pacing allows.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace rocprofiler::tool
{
// Checkpoints of the whole-file outputs, when the data changed: at most every
// max(1 s, 20 x the last checkpoint's duration), so that they cost at most 5% of the run. Pure.
class checkpoint_pacing
{
public:
    using clock = std::chrono::steady_clock;

    bool due(clock::time_point now) const { return now - m_last >= m_every; }
    // A checkpoint ran from @p start to @p stop.
    void done(clock::time_point start, clock::time_point stop)
    {
        m_last  = stop;
        m_every = std::max<clock::duration>(std::chrono::seconds{1}, 20 * (stop - start));
    }
    clock::duration every() const { return m_every; }

private:
    clock::time_point m_last  = {};
    clock::duration   m_every = std::chrono::seconds{1};
};

// A thread that runs @p tick every interval until stop().
class flusher
{
public:
    flusher()  = default;
    ~flusher() = default; // the tool's state is leaked: stop() is called by finalization
    flusher(const flusher&)            = delete;
    flusher& operator=(const flusher&) = delete;

    void start(std::function<void()> tick, std::chrono::milliseconds interval);
    // Wakes the thread and joins it (unless called on it). Safe when never started.
    void stop();

private:
    void loop();

    std::function<void()>     m_tick     = {};
    std::chrono::milliseconds m_interval = std::chrono::milliseconds{200};
    std::thread               m_thread   = {};
    std::mutex                m_mutex    = {};
    std::condition_variable   m_wake     = {};
    bool                      m_stop     = false;
};
} // namespace rocprofiler::tool
