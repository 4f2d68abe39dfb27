#include "cuda/timing/event_calibration.hpp"

#include "common/time.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/timing/cupti_activity.hpp"
#include "cuda/timing/timing_state.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace rocprofiler::cuda::timing
{
namespace
{
// An anchor older than this is replaced (cuEventElapsedTime is a float of milliseconds: its step
// stays under 0.1 us up to about 1 s).
constexpr uint64_t anchor_refresh_ns = 500ULL * 1000 * 1000;
// Executions of a context whose CUPTI record is waited for before event times are trusted.
constexpr uint64_t calibration_waits = 2;
// How long such a wait may last.
constexpr uint64_t calibration_wait_ns = 50ULL * 1000 * 1000;
// Background flushes (calibration samples) at most this often.
constexpr uint64_t background_flush_ns = 50ULL * 1000 * 1000;

// Under records_mutex: a record of an execution that calibrates event times.
void
add_calibration_sample(completion_state& st, calibration_entry& e)
{
    auto& clock = st.clocks[e.ctx];
    clock.overhead.add(e.event_dur - (e.cupti_end - e.cupti_start));
    clock.shift.add(e.cupti_start - e.event_start);
}

// Under records_mutex: once both the record and the reported times are known.
void
add_error_sample(completion_state& st, const calibration_entry& e)
{
    if(e.calibrating || !e.matched || !e.reported) return;
    st.stats.dur_err.add((e.rep_end - e.rep_start) - (e.cupti_end - e.cupti_start));
    st.stats.start_err.add(e.rep_start - e.cupti_start);
}

// Takes an anchor on `stream`, the SDK's stream of the current context. Outside records_mutex.
std::shared_ptr<clock_anchor>
take_anchor(CUstream stream)
{
    const auto* drv   = driver();
    auto        scope = internal_call_scope{};
    auto        event = CUevent{};
    if(stream == nullptr || drv->cuEventCreate(&event, CU_EVENT_DEFAULT) != CUDA_SUCCESS)
        return nullptr;
    const auto before = common::timestamp_ns();
    auto       ok     = drv->cuEventRecord(event, stream) == CUDA_SUCCESS &&
              drv->cuEventSynchronize(event) == CUDA_SUCCESS;
    const auto after = common::timestamp_ns();
    if(!ok)
    {
        drv->cuEventDestroy_v2(event);
        return nullptr;
    }
    auto* anchor           = new clock_anchor{};
    anchor->event          = event;
    anchor->ns             = before + (after - before) / 2;
    anchor->taken_ns       = after;
    anchor->uncertainty_ns = (after - before) / 2;
    return std::shared_ptr<clock_anchor>{anchor,
                                         [](clock_anchor* a)
                                         {
                                             if(const auto* d = driver(false); d != nullptr)
                                             {
                                                 auto inner = internal_call_scope{};
                                                 d->cuEventDestroy_v2(a->event);
                                             }
                                             delete a;
                                         }};
}

float
elapsed_ms(CUevent from, CUevent to)
{
    auto ms = 0.0f;
    if(driver()->cuEventElapsedTime_v2(&ms, from, to) != CUDA_SUCCESS) return -1.0f;
    return ms;
}

// Registers an execution for calibration (every execution while few samples exist, then one in
// eight). Returns it, or nullptr.
std::shared_ptr<calibration_entry>
register_calibration(const pending& p, int64_t event_start, int64_t event_dur, bool& wait)
{
    wait = false;
    if(!activity_on() || (p.driver_id == 0 && p.runtime_id == 0)) return nullptr;
    auto&      st    = get_state();
    auto       lock  = std::lock_guard{st.records_mutex};
    auto&      clock = st.clocks[p.ctx];
    const auto n     = clock.executions++;
    wait             = clock.overhead.count() < calibration_waits && n < 2 * calibration_waits;
    if(!wait && clock.overhead.count() >= 64 && n % 8 != 0) return nullptr;
    auto e         = std::make_shared<calibration_entry>();
    e->ctx         = p.ctx;
    e->driver_id   = p.driver_id;
    e->runtime_id  = p.runtime_id;
    e->event_start = event_start;
    e->event_dur   = event_dur;
    e->calibrating = wait;
    st.calibration.push_back(e);
    while(st.calibration.size() > 4096)
        st.calibration.pop_front();
    return e;
}

// Waits (bounded) for the record of a calibrating execution. Flushes every 200 us meanwhile.
void
wait_for_record(const std::shared_ptr<calibration_entry>& e)
{
    auto&      st      = get_state();
    const auto started = common::timestamp_ns();
    auto       found   = false;
    while(common::timestamp_ns() - started < calibration_wait_ns)
    {
        flush_records();
        {
            auto lock = std::lock_guard{st.records_mutex};
            found     = e->matched;
        }
        if(found) break;
        std::this_thread::sleep_for(std::chrono::microseconds{200});
    }
    auto lock = std::lock_guard{st.records_mutex};
    st.stats.cal_waits += 1;
    st.stats.cal_wait_total_ns += common::timestamp_ns() - started;
    if(!found) st.stats.cal_wait_timeouts += 1;
}
} // namespace

// The current anchor of `ctx` (current on the calling thread); taken when there is none, or
// replaced when `refresh` and it is stale.
std::shared_ptr<clock_anchor>
anchor_for(CUcontext ctx, bool refresh)
{
    auto& st     = get_state();
    auto  stream = CUstream{};
    {
        auto  lock  = std::lock_guard{st.records_mutex};
        auto& clock = st.clocks[ctx];
        if(clock.current &&
           (!refresh || common::timestamp_ns() - clock.current->taken_ns < anchor_refresh_ns))
            return clock.current;
        stream = clock.stream;
    }
    if(stream == nullptr)
    {
        auto scope = internal_call_scope{};
        if(driver()->cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) != CUDA_SUCCESS)
            stream = nullptr;
    }
    auto  anchor = take_anchor(stream);
    auto  lock   = std::lock_guard{st.records_mutex};
    auto& clock  = st.clocks[ctx];
    if(clock.stream == nullptr) clock.stream = stream;
    if(anchor)
    {
        clock.current = anchor;
        clock.shift   = sample_window{}; // the start shift belongs to one anchor
        st.stats.anchors += 1;
        st.stats.anchor_uncertainty_max_ns =
            std::max(st.stats.anchor_uncertainty_max_ns, anchor->uncertainty_ns);
    }
    return clock.current;
}

void
match_calibration_record(completion_state& st, uint32_t id, int64_t start, int64_t end)
{
    for(auto itr = st.calibration.begin(); itr != st.calibration.end(); ++itr)
    {
        auto& e = **itr;
        if(id == 0 || (e.driver_id != id && e.runtime_id != id)) continue;
        e.matched     = true;
        e.cupti_start = start;
        e.cupti_end   = end;
        add_calibration_sample(st, e);
        add_error_sample(st, e);
        st.calibration.erase(itr);
        break;
    }
}

// Event times of a finished execution, on the SDK clock, calibrated.
void
event_times(pending& p, dispatch::execution_result& result)
{
    const auto dur_ms = elapsed_ms(p.start, p.end);
    auto       dur    = static_cast<int64_t>(static_cast<double>(std::max(dur_ms, 0.0f)) * 1.0e6);
    auto       start  = int64_t{0};
    if(p.anchor)
    {
        const auto from_anchor = elapsed_ms(p.anchor->event, p.start);
        start                  = static_cast<int64_t>(p.anchor->ns) +
                static_cast<int64_t>(static_cast<double>(from_anchor) * 1.0e6);
    }
    else
        start = static_cast<int64_t>(p.done_ns) - dur;

    auto wait  = false;
    auto entry = register_calibration(p, start, dur, wait);
    if(wait) wait_for_record(entry);

    auto&      st       = get_state();
    auto       lock     = std::lock_guard{st.records_mutex};
    auto&      clock    = st.clocks[p.ctx];
    const auto overhead = clock.overhead.empty() ? 0 : clock.overhead.median();
    // The start shift is per anchor; without one for this anchor, half the overhead.
    const auto shift =
        (!clock.shift.empty() && p.anchor == clock.current) ? clock.shift.median() : overhead / 2;
    auto rep_start  = start + shift;
    auto rep_end    = rep_start + std::max<int64_t>(1, dur - overhead);
    result.start_ns = static_cast<uint64_t>(rep_start);
    result.end_ns   = static_cast<uint64_t>(rep_end);
    if(entry)
    {
        entry->rep_start = rep_start;
        entry->rep_end   = rep_end;
        entry->reported  = true;
        add_error_sample(st, *entry);
    }
}

// events mode: a flush now and then, so that calibration samples keep arriving, never more often
// than background_flush_ns and only while samples are wanted.
void
maybe_background_flush()
{
    if(timestamp_source() != source::events || !activity_on()) return;
    auto& st = get_state();
    {
        auto lock = std::lock_guard{st.records_mutex};
        if(st.calibration.empty() ||
           common::timestamp_ns() - st.last_flush_ns < background_flush_ns)
            return;
    }
    flush_records();
}
} // namespace rocprofiler::cuda::timing
