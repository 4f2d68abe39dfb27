#include "session/flusher.hpp"
#include "capture/callback_guard.hpp"

namespace rocprofiler::tool
{
void
flusher::start(std::function<void()> tick, std::chrono::milliseconds interval)
{
    m_tick     = std::move(tick);
    m_interval = interval;
    m_thread   = std::thread{[this] { loop(); }};
}

void
flusher::loop()
{
    guarded("the flusher thread",
            [this]
            {
                auto lock = std::unique_lock{m_mutex};
                while(!m_stop)
                {
                    m_wake.wait_for(lock, m_interval);
                    if(m_stop) break;
                    lock.unlock();
                    m_tick();
                    lock.lock();
                }
            });
}

void
flusher::stop()
{
    {
        auto lock = std::lock_guard{m_mutex};
        m_stop    = true;
    }
    m_wake.notify_all();
    if(m_thread.joinable() && m_thread.get_id() != std::this_thread::get_id()) m_thread.join();
}
} // namespace rocprofiler::tool
