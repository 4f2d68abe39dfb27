#include "cuda/launch/completion_thread.hpp"

#include "common/logging.hpp"
#include "common/thread_hooks.hpp"
#include "common/time.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/timing/cupti_activity.hpp"

#include <algorithm>
#include <optional>
#include <thread>
#include <vector>

namespace rocprofiler::cuda::timing
{
namespace
{
// How long a finished kernel may wait for its CUPTI record before event times are used (cupti):
// ROCPROFILER_CUDA_RECORD_WAIT_MS, default 500.
uint64_t
record_wait_ns()
{
    static const uint64_t value = settings::read_record_wait_ms() * 1000000ULL;
    return value;
}

dispatch::execution_result
result_of(pending& p)
{
    auto result = dispatch::execution_result{};
    if(p.gpu_status != CUDA_SUCCESS)
    {
        result.ok    = false;
        result.error = error_name(p.gpu_status);
    }
    if(timestamp_source() == source::events)
    {
        if(result.ok) event_times(p, result);
        return result;
    }
    auto times = std::optional<kernel_times>{};
    if(activity_on())
    {
        auto& st   = get_state();
        auto  lock = std::lock_guard{st.records_mutex};
        times      = st.records.take(p.driver_id, p.runtime_id);
    }
    if(times && times->start_ns != 0 && times->end_ns > times->start_ns)
    {
        result.start_ns = times->start_ns;
        result.end_ns   = times->end_ns;
    }
    else
    {
        auto ms = 0.0f;
        driver()->cuEventElapsedTime_v2(&ms, p.start, p.end);
        result.end_ns   = p.done_ns;
        result.start_ns = p.done_ns - static_cast<uint64_t>(static_cast<double>(ms) * 1.0e6);
    }
    return result;
}
} // namespace

bool
ready(pending& p)
{
    if(!p.gpu_done) return false;
    if(timestamp_source() == source::events) return true;
    if(!activity_on() || p.gpu_status != CUDA_SUCCESS) return true;
    auto&      st     = get_state();
    const auto waited = common::timestamp_ns() - p.done_ns;
    {
        auto lock = std::lock_guard{st.records_mutex};
        if(st.records.has(p.driver_id, p.runtime_id))
        {
            st.stats.record_wait_max_ns = std::max(st.stats.record_wait_max_ns, waited);
            return true;
        }
    }
    if(waited > record_wait_ns())
    {
        {
            auto lock = std::lock_guard{st.records_mutex};
            st.stats.record_timeouts += 1;
        }
        common::log::warn_once("cuda-no-cupti-record",
                               "cuda: a kernel's CUPTI record did not arrive in time; its "
                               "timestamps come from CUDA events");
        return true;
    }
    return false;
}

uint64_t
delivered_buffers()
{
    auto& st   = get_state();
    auto  lock = std::lock_guard{st.records_mutex};
    return st.buffers_delivered;
}

void
wait_for_buffer(uint64_t seen, std::chrono::microseconds timeout)
{
    auto& st   = get_state();
    auto  lock = std::unique_lock{st.records_mutex};
    st.records_cv.wait_for(lock, timeout, [&st, seen] { return st.buffers_delivered != seen; });
}

void
deliver(const std::shared_ptr<pending>& p)
{
    auto result = result_of(*p);
    give_event(p->ctx, p->start);
    give_event(p->ctx, p->end);
    p->on_complete(result);
}

namespace
{
// Waits for the end event of the oldest queued execution `front`; returns every queued execution,
// those that finished meanwhile marked done (they are delivered together).
std::vector<std::shared_ptr<pending>>
wait_for_front(completion_state& st, const driver_table* drv, pending& front)
{
    drv->cuCtxSetCurrent(front.ctx);
    if(!front.gpu_done)
    {
        front.gpu_status = drv->cuEventSynchronize(front.end);
        front.done_ns    = common::timestamp_ns();
        front.gpu_done   = true;
    }
    auto batch = std::vector<std::shared_ptr<pending>>{};
    {
        auto lock = std::lock_guard{st.mutex};
        batch.assign(st.queue.begin(), st.queue.end());
    }
    for(auto& p : batch)
        if(!p->gpu_done && drv->cuEventQuery(p->end) == CUDA_SUCCESS)
        {
            p->done_ns  = common::timestamp_ns();
            p->gpu_done = true;
        }
    return batch;
}

// Takes `delivered` off the queue and delivers them; they count as delivering meanwhile (drain()
// waits for them).
void
deliver_batch(completion_state& st, const std::vector<std::shared_ptr<pending>>& delivered)
{
    {
        auto lock = std::lock_guard{st.mutex};
        for(const auto& p : delivered)
            std::erase(st.queue, p);
        st.delivering += delivered.size();
    }
    for(const auto& p : delivered)
        deliver(p);
    {
        auto lock = std::lock_guard{st.mutex};
        st.delivering -= delivered.size();
    }
}

void
worker_loop()
{
    auto&       st    = get_state();
    auto        scope = internal_call_scope{};
    const auto* drv   = driver();
    // It waits on launch events while the application may be capturing a stream.
    relax_stream_capture_on_this_thread();
    for(;;)
    {
        auto front = std::shared_ptr<pending>{};
        {
            auto lock = std::unique_lock{st.mutex};
            if(!st.cv.wait_for(
                   lock, std::chrono::milliseconds{50}, [&st] { return !st.queue.empty(); }))
            {
                lock.unlock();
                maybe_background_flush();
                continue;
            }
            front = st.queue.front();
        }
        auto batch = wait_for_front(st, drv, *front);
        // Only the diagnostic `loop` policy flushes here: a flush on this thread can hold up the
        // application's next launch call (docs/cuda.md). Otherwise CUPTI's worker delivers.
        const auto loop = timestamp_source() == source::cupti && flush_policy() == flush_mode::loop;
        if(loop) flush_records();
        const auto seen = delivered_buffers();

        auto delivered = std::vector<std::shared_ptr<pending>>{};
        for(auto& p : batch)
            if(ready(*p)) delivered.push_back(p);
        if(delivered.empty())
        {
            if(loop)
                std::this_thread::sleep_for(std::chrono::microseconds{50});
            else
                wait_for_buffer(seen, std::chrono::microseconds{1000});
            continue;
        }
        deliver_batch(st, delivered);
        if(timestamp_source() == source::events)
        {
            anchor_for(front->ctx, true);
            maybe_background_flush();
        }
        {
            auto lock = std::lock_guard{st.mutex};
            if(st.queue.empty() && st.delivering == 0) st.idle_cv.notify_all();
        }
    }
}
} // namespace

void
hand_over(std::shared_ptr<pending> p)
{
    auto& st    = get_state();
    auto  start = false;
    {
        auto lock  = std::lock_guard{st.mutex};
        start      = !st.started;
        st.started = true; // later callers only queue; the worker takes what it finds
    }
    if(start)
    {
        // The tools' rocprofiler_at_internal_thread_create callbacks run around the start, with no
        // lock of this module held (a callback that ends up here again only queues).
        common::thread_hooks::before_create();
        {
            auto lock = std::lock_guard{st.mutex};
            st.worker = std::thread{worker_loop};
            st.worker.detach(); // lives until exit; drain() empties it at finalization
        }
        common::thread_hooks::after_create();
    }
    auto lock = std::lock_guard{st.mutex};
    st.queue.emplace_back(std::move(p));
    st.cv.notify_all();
}
} // namespace rocprofiler::cuda::timing
