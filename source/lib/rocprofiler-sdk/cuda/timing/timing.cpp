#include "cuda/timing/timing.hpp"

#include "common/environment.hpp"
#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/settings_driver.hpp"
#include "cuda/launch/completion_thread.hpp"
#include "cuda/timing/cupti_activity.hpp"
#include "cuda/timing/timing_state.hpp"
#include "cuda/timing/timing_stats.hpp"

#include <cupti.h>

#include <algorithm>
#include <chrono>
#include <memory>
#include <mutex>
#include <thread>

namespace rocprofiler::cuda::timing
{
namespace
{
// The execution's completion, with the calling thread's correlation ids (its launch just ran).
std::shared_ptr<pending>
new_pending(CUcontext                     ctx,
            CUevent                       start,
            CUevent                       end,
            std::shared_ptr<clock_anchor> anchor,
            dispatch::completion_fn       on_complete)
{
    auto p         = std::make_shared<pending>();
    p->ctx         = ctx;
    p->start       = start;
    p->end         = end;
    p->driver_id   = launch_driver_id();
    p->runtime_id  = launch_runtime_id();
    p->anchor      = std::move(anchor);
    p->on_complete = std::move(on_complete);
    return p;
}

// Records the end event after the launch. Without it there is no way to observe the kernel's end:
// the execution is then reported finished now, without times, and false returned. Called inside an
// internal call scope.
bool
record_end_or_report(pending& p, CUstream stream)
{
    if(p.end != nullptr && driver()->cuEventRecord(p.end, stream) == CUDA_SUCCESS) return true;
    auto result = dispatch::execution_result{};
    p.on_complete(result);
    return false;
}

// cupti mode, on the replaying thread: flushes until the pass's record is there (or waited for
// long enough). This thread is inside the application's launch call, which waits for the pass
// anyway: a flush here delays nothing but the replay. The pass's end event has completed, so its
// record completes as soon as CUPTI has read the kernel's timestamps.
void
flush_until_ready(pending& p)
{
    while(!ready(p))
    {
        const auto seen = delivered_buffers();
        flush_records();
        {
            auto& st   = get_state();
            auto  lock = std::lock_guard{st.records_mutex};
            st.stats.pass_flushes += 1;
        }
        if(ready(p)) break;
        wait_for_buffer(seen, std::chrono::microseconds{50});
    }
}

// Whether the pass that ends with @p end finished (or failed) within
// ROCPROFILER_REPLAY_PASS_TIMEOUT_MS: polls the event, spinning for the first
// ROCPROFILER_REPLAY_DRAIN_SPIN_US, then 50 us apart. A bound of 0 waits in cuEventSynchronize.
bool
pass_finished_in_time(CUevent end)
{
    const auto timeout_ns =
        common::env::get(common::env::settings::replay_pass_timeout_ms) * 1000 * 1000;
    if(timeout_ns == 0) return true;
    const auto start = std::chrono::steady_clock::now();
    const auto spin_until =
        start +
        std::chrono::nanoseconds{std::min<uint64_t>(timeout_ns, cuda::settings::drain_spin_ns())};
    const auto deadline = start + std::chrono::nanoseconds{timeout_ns};
    for(;;)
    {
        if(driver()->cuEventQuery(end) != CUDA_ERROR_NOT_READY) return true;
        const auto now = std::chrono::steady_clock::now();
        if(now >= deadline) return false;
        if(now >= spin_until) std::this_thread::sleep_for(std::chrono::microseconds{50});
    }
}
} // namespace

void
initialize()
{
    start_activity();
}

bool
cupti_active()
{
    return activity_on();
}

execution_marks::execution_marks(CUcontext ctx, CUstream stream)
    : m_ctx{ctx}
    , m_stream{stream}
{
    auto scope = internal_call_scope{};
    reset_launch_driver_id();
    if(timestamp_source() == source::events) m_anchor = anchor_for(ctx, false);
    m_start = take_event(ctx);
    m_end   = take_event(ctx);
    if(m_start != nullptr) driver()->cuEventRecord(m_start, stream);
}

execution_marks::~execution_marks()
{
    if(m_handed) return;
    give_event(m_ctx, m_start);
    give_event(m_ctx, m_end);
}

void
execution_marks::complete_after_kernel(dispatch::completion_fn on_complete)
{
    auto p = new_pending(m_ctx, m_start, m_end, m_anchor, std::move(on_complete));
    {
        auto scope = internal_call_scope{};
        if(!record_end_or_report(*p, m_stream)) return;
    }
    m_handed = true;
    hand_over(std::move(p));
}

void
execution_marks::complete_pass(dispatch::completion_fn on_complete)
{
    const auto cupti_mode = timestamp_source() == source::cupti;
    if(cupti_mode && flush_policy() == flush_mode::loop)
    {
        complete_after_kernel(std::move(on_complete));
        return;
    }
    auto p     = new_pending(m_ctx, m_start, m_end, m_anchor, std::move(on_complete));
    auto scope = internal_call_scope{};
    if(!record_end_or_report(*p, m_stream)) return;
    m_handed = true;
    // A pass still running after the bound goes to the completion thread, as an ordinary launch
    // does; the replay engine then ends the replay (pass_drain_stuck).
    if(!pass_finished_in_time(m_end))
    {
        hand_over(std::move(p));
        return;
    }
    p->gpu_status = driver()->cuEventSynchronize(m_end);
    p->done_ns    = common::timestamp_ns();
    p->gpu_done   = true;
    {
        auto& st   = get_state();
        auto  lock = std::lock_guard{st.records_mutex};
        st.stats.pass_syncs += 1;
    }
    if(cupti_mode)
    {
        flush_until_ready(*p);
        deliver(p);
        return;
    }
    deliver(p);
    // The device is drained inside a replay window: a stale anchor is cheap to replace here.
    anchor_for(m_ctx, true);
}

void
drain(uint64_t timeout_ns)
{
    // At exit the application launches no more: flushing here (every millisecond while
    // completions wait for their records) holds nobody up.
    auto&      st       = get_state();
    const auto deadline = common::timestamp_ns() + timeout_ns;
    auto       lock     = std::unique_lock{st.mutex};
    // Idle: nothing queued and nothing being delivered (a completion taken off the queue has not
    // necessarily reached the tool yet).
    const auto idle = [&st] { return st.queue.empty() && st.delivering == 0; };
    while(!idle() && common::timestamp_ns() < deadline)
    {
        lock.unlock();
        if(timestamp_source() == source::cupti) flush_records();
        lock.lock();
        st.idle_cv.wait_for(lock, std::chrono::milliseconds{1}, idle);
    }
    if(!idle())
        ROCP_LOG(warning) << "cuda: " << st.queue.size()
                          << " kernel completions still pending at exit; their records are missing";
    lock.unlock();
    flush_records(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
    if(stats_enabled()) print_stats();
}
} // namespace rocprofiler::cuda::timing
