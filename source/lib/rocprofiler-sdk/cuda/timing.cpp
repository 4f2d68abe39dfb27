#include "cuda/timing.hpp"

#include "context/context.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/cupti_loader.hpp"
#include "cuda/driver.hpp"
#include "cuda/memory.hpp"
#include "cuda/record_matcher.hpp"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <unordered_map>
#include <vector>

namespace rocprofiler::cuda::timing
{
namespace
{
// Correlation ids of the launch the calling thread is making, written by CUPTI's API callbacks,
// which run on the launching thread inside the driver call.
thread_local uint32_t this_thread_driver_id  = 0;
thread_local uint32_t this_thread_runtime_id = 0;

#define ROCP_CUPTI_FUNCTIONS(X)                                                                    \
    X(cuptiGetResultString)                                                                        \
    X(cuptiActivityRegisterTimestampCallback)                                                      \
    X(cuptiActivityRegisterCallbacks)                                                              \
    X(cuptiActivityEnable)                                                                         \
    X(cuptiActivityFlushAll)                                                                       \
    X(cuptiActivityFlushPeriod)                                                                    \
    X(cuptiActivitySetAttribute)                                                                   \
    X(cuptiActivityGetNextRecord)                                                                  \
    X(cuptiSubscribe)                                                                              \
    X(cuptiEnableCallback)

struct cupti_table
{
#define ROCP_CUPTI_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUPTI_FUNCTIONS(ROCP_CUPTI_DECLARE)
#undef ROCP_CUPTI_DECLARE
};

cupti_table*      cupti    = nullptr; // set once by initialize(), never freed
std::atomic<bool> cupti_on = false;

enum class source
{
    events, // event times, calibrated against CUPTI records that arrive later (experimental)
    cupti,  // wait for every execution's CUPTI record (default: the only one within 1 us)
};

source
timestamp_source()
{
    static const auto value = []
    {
        const char* env = std::getenv("ROCPROFILER_CUDA_TIMESTAMPS");
        return (env != nullptr && std::string_view{env} == "events") ? source::events
                                                                     : source::cupti;
    }();
    return value;
}

// An unsigned number from the environment, or `fallback`.
uint64_t
env_number(const char* name, uint64_t fallback)
{
    const char* env = std::getenv(name);
    if(env == nullptr || *env == '\0') return fallback;
    char* end   = nullptr;
    auto  value = std::strtoull(env, &end, 10);
    return (end != nullptr && *end == '\0') ? value : fallback;
}

// Who flushes CUPTI's activity buffers (cupti mode).
//   owner (default): never a background thread while the application may launch. CUPTI's own
//     worker delivers buffers (a flush period, one record per buffer); a replay pass flushes on the
//     replaying thread, inside the application's launch call, after the pass's end event; drain()
//     flushes at exit.
//   loop (diagnostic, the former design): the completion thread flushes every 50 us until the
//     record arrives. Measured on the H200: its flushes hold a CUPTI lock the application's launch
//     needs (a launch call of 22 ms, a kernel started 582 us late).
enum class flush_mode
{
    owner,
    loop,
};

flush_mode
flush_policy()
{
    static const auto value = []
    {
        const char* env = std::getenv("ROCPROFILER_CUDA_FLUSH");
        return (env != nullptr && std::string_view{env} == "loop") ? flush_mode::loop
                                                                   : flush_mode::owner;
    }();
    return value;
}

// CUPTI's worker flush period (ms, 0: CUPTI's heuristics). Periodic flushes return only full
// buffers, hence one record per buffer by default.
uint32_t
flush_period_ms()
{
    static const auto value = static_cast<uint32_t>(env_number(
        "ROCPROFILER_CUDA_FLUSH_PERIOD_MS", flush_policy() == flush_mode::owner ? 1 : 0));
    return value;
}

// Records per activity buffer (0: as many as fit).
size_t
buffer_records()
{
    static const auto value = static_cast<size_t>(
        env_number("ROCPROFILER_CUDA_BUFFER_RECORDS", flush_policy() == flush_mode::owner ? 1 : 0));
    return value;
}

bool
stats_enabled()
{
    static const bool value = []
    {
        const char* env = std::getenv("ROCPROFILER_CUDA_TIMING_STATS");
        return env != nullptr && std::string_view{env} == "1";
    }();
    return value;
}

// Medians of the last samples of a quantity (ns).
class sample_window
{
public:
    void add(int64_t value)
    {
        m_values.push_back(value);
        if(m_values.size() > 63) m_values.pop_front();
        ++m_count;
    }
    bool     empty() const { return m_values.empty(); }
    uint64_t count() const { return m_count; }
    int64_t  median() const
    {
        if(m_values.empty()) return 0;
        auto copy = std::vector<int64_t>{m_values.begin(), m_values.end()};
        std::nth_element(copy.begin(), copy.begin() + copy.size() / 2, copy.end());
        return copy[copy.size() / 2];
    }

private:
    std::deque<int64_t> m_values = {};
    uint64_t            m_count  = 0;
};

// Absolute errors (ns) of reported times against CUPTI's, for the statistics.
struct error_stats
{
    std::vector<int64_t> values = {};
    void                 add(int64_t v)
    {
        if(values.size() < 100000) values.push_back(v < 0 ? -v : v);
    }
    int64_t quantile(double q) const
    {
        if(values.empty()) return -1;
        auto copy = values;
        std::sort(copy.begin(), copy.end());
        return copy[std::min(copy.size() - 1, static_cast<size_t>(q * copy.size()))];
    }
};
} // namespace

// An event whose time on the SDK clock is known: recorded on the SDK's own (idle) stream between
// two reads of the SDK clock.
struct clock_anchor
{
    CUevent  event          = nullptr;
    uint64_t ns             = 0; // the event's time on the SDK clock (midpoint of the bracket)
    uint64_t taken_ns       = 0; // when it was taken
    uint64_t uncertainty_ns = 0; // half the bracket
};

// One execution whose CUPTI record, when it arrives, calibrates event times (and checks them).
struct calibration_entry
{
    uint32_t  driver_id   = 0;
    uint32_t  runtime_id  = 0;
    int64_t   event_start = 0;     // the start event's time through the anchor
    int64_t   event_dur   = 0;     // elapsed(start event, end event)
    bool      calibrating = false; // waited for: not counted in the error statistics
    bool      matched     = false;
    bool      reported    = false;
    CUcontext ctx         = nullptr;
    int64_t   cupti_start = 0, cupti_end = 0;
    int64_t   rep_start = 0, rep_end = 0;
};

namespace
{
struct pending
{
    CUcontext                     ctx         = nullptr;
    CUevent                       start       = nullptr;
    CUevent                       end         = nullptr;
    uint32_t                      driver_id   = 0;
    uint32_t                      runtime_id  = 0;
    dispatch::completion_fn       on_complete = {};
    std::shared_ptr<clock_anchor> anchor      = {};
    bool                          gpu_done    = false;
    CUresult                      gpu_status  = CUDA_SUCCESS;
    uint64_t                      done_ns     = 0; // when the end event was seen complete
};

// Per context: the SDK's anchor stream, the current anchor, the calibration.
struct context_clock
{
    CUstream                      stream     = nullptr;
    std::shared_ptr<clock_anchor> current    = {};
    sample_window                 overhead   = {}; // event duration - CUPTI duration
    sample_window                 shift      = {}; // CUPTI start - start event (current anchor)
    uint64_t                      executions = 0;
};

struct timing_stats
{
    uint64_t    flushes = 0, flush_total_ns = 0, flush_max_ns = 0;
    uint64_t    cal_waits = 0, cal_wait_total_ns = 0, cal_wait_timeouts = 0;
    uint64_t    anchors = 0, anchor_uncertainty_max_ns = 0;
    uint64_t    pass_syncs = 0, records = 0;
    uint64_t    pass_flushes       = 0; // flushes on a replaying thread
    uint64_t    record_wait_max_ns = 0; // end event seen -> record there (async path)
    uint64_t    record_timeouts    = 0; // records not there in time: event times
    error_stats dur_err            = {};
    error_stats start_err          = {};
};

struct completion_state
{
    std::mutex                           mutex      = {};
    std::condition_variable              cv         = {};
    std::condition_variable              idle_cv    = {};
    std::deque<std::shared_ptr<pending>> queue      = {};
    std::thread                          worker     = {};
    bool                                 started    = false;
    uint64_t                             delivering = 0; // taken off the queue, not yet delivered

    // records_mutex: CUPTI records (cupti mode), calibration entries, clocks' calibration, stats.
    std::mutex                                     records_mutex     = {};
    std::condition_variable                        records_cv        = {}; // a buffer was delivered
    uint64_t                                       buffers_delivered = 0;
    record_matcher                                 records           = {};
    std::deque<std::shared_ptr<calibration_entry>> calibration       = {};
    std::unordered_map<CUcontext, context_clock>   clocks            = {};
    timing_stats                                   stats             = {};
    uint64_t                                       last_flush_ns     = 0;

    std::mutex                                          pool_mutex = {};
    std::unordered_map<CUcontext, std::vector<CUevent>> pool       = {};
};

completion_state&
get_state()
{
    static auto* value = new completion_state{}; // never destroyed: used at exit
    return *value;
}

// --- CUPTI ---------------------------------------------------------------------------------------

uint64_t CUPTIAPI
sdk_timestamp()
{
    return common::timestamp_ns();
}

// 4 MiB when buffers fill up; 16 KiB (many kernel records' worth) when each holds a few.
size_t
activity_buffer_bytes()
{
    static const size_t value = buffer_records() == 0 ? (size_t{4} << 20) : (size_t{16} << 10);
    return value;
}

void CUPTIAPI
buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records)
{
    const auto bytes = activity_buffer_bytes();
    *buffer          = static_cast<uint8_t*>(std::aligned_alloc(8, bytes));
    *size            = (*buffer != nullptr) ? bytes : 0;
    *max_records     = buffer_records();
}

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

void CUPTIAPI
buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid)
{
    auto& st     = get_state();
    auto* record = static_cast<CUpti_Activity*>(nullptr);
    {
        auto lock = std::lock_guard{st.records_mutex};
        while(valid > 0 &&
              cupti->cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        {
            if(record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
               record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
                continue;
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            ++st.stats.records;
            if(timestamp_source() == source::cupti)
                st.records.add(kernel->correlationId, kernel_times{kernel->start, kernel->end});
            if(kernel->start == 0 || kernel->end <= kernel->start) continue;
            const auto id = kernel->correlationId;
            for(auto itr = st.calibration.begin(); itr != st.calibration.end(); ++itr)
            {
                auto& e = **itr;
                if(id == 0 || (e.driver_id != id && e.runtime_id != id)) continue;
                e.matched     = true;
                e.cupti_start = static_cast<int64_t>(kernel->start);
                e.cupti_end   = static_cast<int64_t>(kernel->end);
                add_calibration_sample(st, e);
                add_error_sample(st, e);
                st.calibration.erase(itr);
                break;
            }
        }
    }
    std::free(buffer);
    {
        auto lock = std::lock_guard{st.records_mutex};
        st.buffers_delivered += 1;
    }
    st.records_cv.notify_all();
}

void CUPTIAPI
on_api_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId, const void* data)
{
    const auto* info = static_cast<const CUpti_CallbackData*>(data);
    if(domain == CUPTI_CB_DOMAIN_DRIVER_API)
    {
        if(info->callbackSite == CUPTI_API_ENTER) this_thread_driver_id = info->correlationId;
    }
    else if(domain == CUPTI_CB_DOMAIN_RUNTIME_API)
    {
        this_thread_runtime_id = (info->callbackSite == CUPTI_API_ENTER) ? info->correlationId : 0;
    }
}

std::string
cupti_error(CUptiResult result)
{
    const char* text = nullptr;
    if(cupti != nullptr && cupti->cuptiGetResultString != nullptr)
        cupti->cuptiGetResultString(result, &text);
    return text != nullptr ? text : "CUptiResult " + std::to_string(static_cast<int>(result));
}

// CUPTI_CALL: a failing call is logged with its text and the CUPTI result string.
#define ROCP_CUPTI_CALL(CALL)                                                                      \
    [&]                                                                                            \
    {                                                                                              \
        auto rocp_result_ = (CALL);                                                                \
        if(rocp_result_ != CUPTI_SUCCESS)                                                          \
            ROCP_LOG(warning) << "cuda: " #CALL " failed: " << cupti_error(rocp_result_);          \
        return rocp_result_ == CUPTI_SUCCESS;                                                      \
    }()

// True when some context counts dispatches. CUPTI's kernel activity records change what the
// hardware counts (on the H200, 8 more warp instructions per warp of a kernel and a few dozen in
// all, from the timestamps CUPTI adds around the kernel), so counting runs take kernel timestamps
// from CUDA events instead.
bool
counting_configured()
{
    auto any = false;
    context::for_each(
        [&any](context::context& ctx)
        {
            if(ctx.dispatch_counter) any = true;
        });
    return any;
}

bool
start_cupti()
{
    if(const char* env = std::getenv("ROCPROFILER_CUDA_CUPTI");
       env != nullptr && std::string{env} == "0")
        return false;
    if(counting_configured())
    {
        ROCP_LOG(info) << "cuda: dispatch counting is configured: kernel timestamps come from CUDA "
                          "events (CUPTI's kernel records would change the counted values)";
        return false;
    }
    void* handle = cupti_library();
    if(handle == nullptr)
    {
        ROCP_LOG(warning) << "cuda: CUPTI not found (set ROCPROFILER_CUPTI_LIBRARY); kernel "
                             "timestamps come from CUDA events";
        return false;
    }
    auto* table = new cupti_table{};
#define ROCP_CUPTI_LOAD(NAME)                                                                      \
    table->NAME = reinterpret_cast<decltype(table->NAME)>(real_dlsym(handle, #NAME));              \
    if(table->NAME == nullptr) return false;
    ROCP_CUPTI_FUNCTIONS(ROCP_CUPTI_LOAD)
#undef ROCP_CUPTI_LOAD
    cupti = table;

    auto subscriber = CUpti_SubscriberHandle{};
    if(!ROCP_CUPTI_CALL(cupti->cuptiSubscribe(&subscriber, on_api_callback, nullptr))) return false;
    for(auto cbid : {CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
                     CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
                     CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
                     CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
                     CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
                     CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz})
        if(!ROCP_CUPTI_CALL(
               cupti->cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid)))
            return false;
    for(auto cbid : {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
                     CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                     CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000})
        ROCP_CUPTI_CALL(
            cupti->cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid));

    // Per-thread activity buffers (CUPTI's default: 1) can be switched off for comparison; the
    // attribute must be set before the buffer callbacks are registered.
    if(const char* env = std::getenv("ROCPROFILER_CUDA_PER_THREAD_BUFFERS"); env != nullptr && *env)
    {
        auto value = static_cast<uint8_t>(std::string_view{env} == "1" ? 1 : 0);
        auto size  = sizeof(value);
        ROCP_CUPTI_CALL(cupti->cuptiActivitySetAttribute(
            CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, &size, &value));
    }
    // The timestamp callback must be in place before any activity kind is enabled.
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityRegisterTimestampCallback(sdk_timestamp))) return false;
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)))
        return false;
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)))
        return false;
    if(flush_period_ms() > 0) ROCP_CUPTI_CALL(cupti->cuptiActivityFlushPeriod(flush_period_ms()));
    ROCP_LOG(debug) << "cuda: CUPTI kernel activity enabled, timestamps on CLOCK_MONOTONIC";
    return true;
}

// A default flush delivers only buffers whose records are complete; a forced one also delivers
// records whose timestamps are not written yet (they read 0 and are never updated), so it is kept
// for exit.
void
flush_records(uint32_t flags = 0)
{
    if(!cupti_on.load()) return;
    const auto started = common::timestamp_ns();
    {
        auto scope = internal_call_scope{};
        cupti->cuptiActivityFlushAll(flags);
    }
    const auto took = common::timestamp_ns() - started;
    auto&      st   = get_state();
    auto       lock = std::lock_guard{st.records_mutex};
    st.stats.flushes += 1;
    st.stats.flush_total_ns += took;
    st.stats.flush_max_ns = std::max(st.stats.flush_max_ns, took);
    st.last_flush_ns      = common::timestamp_ns();
}

// --- events ------------------------------------------------------------------------------------

CUevent
take_event(CUcontext ctx)
{
    auto& st = get_state();
    {
        auto  lock        = std::lock_guard{st.pool_mutex};
        auto& free_events = st.pool[ctx];
        if(!free_events.empty())
        {
            auto* event = free_events.back();
            free_events.pop_back();
            return event;
        }
    }
    auto event = CUevent{};
    if(driver()->cuEventCreate(&event, CU_EVENT_DEFAULT) != CUDA_SUCCESS) return nullptr;
    return event;
}

void
give_event(CUcontext ctx, CUevent event)
{
    if(event == nullptr) return;
    auto& st   = get_state();
    auto  lock = std::lock_guard{st.pool_mutex};
    st.pool[ctx].push_back(event);
}

// --- clock anchors and calibration ---------------------------------------------------------------

// An anchor older than this is replaced (cuEventElapsedTime is a float of milliseconds: its step
// stays under 0.1 us up to about 1 s).
constexpr uint64_t anchor_refresh_ns = 500ULL * 1000 * 1000;
// Executions of a context whose CUPTI record is waited for before event times are trusted.
constexpr uint64_t calibration_waits = 2;
// How long such a wait may last.
constexpr uint64_t calibration_wait_ns = 50ULL * 1000 * 1000;
// Background flushes (calibration samples) at most this often.
constexpr uint64_t background_flush_ns = 50ULL * 1000 * 1000;

// Takes an anchor on the SDK's stream of the current context `ctx`. Outside records_mutex.
std::shared_ptr<clock_anchor>
take_anchor(CUcontext ctx, CUstream stream)
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
    (void)ctx;
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
    auto  anchor = take_anchor(ctx, stream);
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
    if(!cupti_on.load() || (p.driver_id == 0 && p.runtime_id == 0)) return nullptr;
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

// --- the completion thread ---------------------------------------------------------------------

// How long a finished kernel may wait for its CUPTI record before event times are used (cupti):
// ROCPROFILER_CUDA_RECORD_WAIT_MS, default 500.
uint64_t
record_wait_ns()
{
    static const uint64_t value = env_number("ROCPROFILER_CUDA_RECORD_WAIT_MS", 500) * 1000000ULL;
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
    if(cupti_on.load())
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

// cupti mode: whether the record is there (or waited for long enough).
bool
ready(pending& p)
{
    if(!p.gpu_done) return false;
    if(timestamp_source() == source::events) return true;
    if(!cupti_on.load() || p.gpu_status != CUDA_SUCCESS) return true;
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

// The number of buffers CUPTI delivered so far (records_cv waits for it to change).
uint64_t
delivered_buffers()
{
    auto& st   = get_state();
    auto  lock = std::lock_guard{st.records_mutex};
    return st.buffers_delivered;
}

// Waits until CUPTI delivers another buffer after `seen`, at most `timeout`.
void
wait_for_buffer(uint64_t seen, std::chrono::microseconds timeout)
{
    auto& st   = get_state();
    auto  lock = std::unique_lock{st.records_mutex};
    st.records_cv.wait_for(lock, timeout, [&st, seen] { return st.buffers_delivered != seen; });
}

// events mode: a flush now and then, so that calibration samples keep arriving, never more often
// than background_flush_ns and only while samples are wanted.
void
maybe_background_flush()
{
    if(timestamp_source() != source::events || !cupti_on.load()) return;
    auto& st = get_state();
    {
        auto lock = std::lock_guard{st.records_mutex};
        if(st.calibration.empty() ||
           common::timestamp_ns() - st.last_flush_ns < background_flush_ns)
            return;
    }
    flush_records();
}

void
deliver(const std::shared_ptr<pending>& p)
{
    auto result = result_of(*p);
    give_event(p->ctx, p->start);
    give_event(p->ctx, p->end);
    p->on_complete(result);
}

void
worker_loop()
{
    auto&       st    = get_state();
    auto        scope = internal_call_scope{};
    const auto* drv   = driver();
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
        drv->cuCtxSetCurrent(front->ctx);
        if(!front->gpu_done)
        {
            front->gpu_status = drv->cuEventSynchronize(front->end);
            front->done_ns    = common::timestamp_ns();
            front->gpu_done   = true;
        }
        // Others that finished meanwhile are delivered together.
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
        {
            auto lock = std::lock_guard{st.mutex};
            for(auto& p : delivered)
                std::erase(st.queue, p);
            st.delivering += delivered.size();
        }
        for(auto& p : delivered)
            deliver(p);
        {
            auto lock = std::lock_guard{st.mutex};
            st.delivering -= delivered.size();
        }
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

void
hand_over(std::shared_ptr<pending> p)
{
    auto& st   = get_state();
    auto  lock = std::lock_guard{st.mutex};
    if(!st.started)
    {
        st.started = true;
        st.worker  = std::thread{worker_loop};
        st.worker.detach(); // lives until exit; drain() empties it at finalization
    }
    st.queue.emplace_back(std::move(p));
    st.cv.notify_all();
}

void
print_stats()
{
    auto& st       = get_state();
    auto  lock     = std::lock_guard{st.records_mutex};
    auto  overhead = int64_t{0}, shift = int64_t{0};
    auto  samples = uint64_t{0};
    for(auto& [ctx, clock] : st.clocks)
    {
        overhead = clock.overhead.median();
        shift    = clock.shift.median();
        samples += clock.overhead.count();
    }
    const auto  mem = memory_stats();
    const auto& s   = st.stats;
    std::fprintf(stderr,
                 "[cuda-timing] source=%s records=%llu flushes=%llu flush_us_total=%.1f "
                 "flush_us_max=%.1f cal_samples=%llu overhead_ns=%lld shift_ns=%lld "
                 "dur_err_ns_p50=%lld dur_err_ns_max=%lld start_err_ns_p50=%lld "
                 "start_err_ns_max=%lld err_samples=%zu cal_waits=%llu cal_wait_us_total=%.1f "
                 "cal_wait_timeouts=%llu anchors=%llu anchor_uncertainty_us_max=%.1f "
                 "pass_syncs=%llu snapshot_bytes_max=%zu restores=%llu restore_us_mean=%.1f "
                 "restore_us_max=%.1f flush_policy=%s flush_period_ms=%u buffer_records=%zu "
                 "pass_flushes=%llu record_wait_us_max=%.1f record_timeouts=%llu\n",
                 timestamp_source() == source::events ? "events" : "cupti",
                 static_cast<unsigned long long>(s.records),
                 static_cast<unsigned long long>(s.flushes),
                 s.flush_total_ns / 1e3,
                 s.flush_max_ns / 1e3,
                 static_cast<unsigned long long>(samples),
                 static_cast<long long>(overhead),
                 static_cast<long long>(shift),
                 static_cast<long long>(s.dur_err.quantile(0.5)),
                 static_cast<long long>(s.dur_err.quantile(1.0)),
                 static_cast<long long>(s.start_err.quantile(0.5)),
                 static_cast<long long>(s.start_err.quantile(1.0)),
                 s.dur_err.values.size(),
                 static_cast<unsigned long long>(s.cal_waits),
                 s.cal_wait_total_ns / 1e3,
                 static_cast<unsigned long long>(s.cal_wait_timeouts),
                 static_cast<unsigned long long>(s.anchors),
                 s.anchor_uncertainty_max_ns / 1e3,
                 static_cast<unsigned long long>(s.pass_syncs),
                 mem.max_snapshot_bytes,
                 static_cast<unsigned long long>(mem.restores),
                 mem.restores ? mem.restore_total_ns / 1e3 / mem.restores : 0.0,
                 mem.restore_max_ns / 1e3,
                 flush_policy() == flush_mode::loop ? "loop" : "owner",
                 flush_period_ms(),
                 buffer_records(),
                 static_cast<unsigned long long>(s.pass_flushes),
                 s.record_wait_max_ns / 1e3,
                 static_cast<unsigned long long>(s.record_timeouts));
}
} // namespace

void
initialize()
{
    static std::once_flag once;
    std::call_once(once,
                   []
                   {
                       auto scope = internal_call_scope{};
                       cupti_on.store(start_cupti());
                   });
}

bool
cupti_active()
{
    return cupti_on.load();
}

execution_marks::execution_marks(CUcontext ctx, CUstream stream)
    : m_ctx{ctx}
    , m_stream{stream}
{
    auto scope            = internal_call_scope{};
    this_thread_driver_id = 0;
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
    auto p         = std::make_shared<pending>();
    p->ctx         = m_ctx;
    p->start       = m_start;
    p->end         = m_end;
    p->driver_id   = this_thread_driver_id;
    p->runtime_id  = this_thread_runtime_id;
    p->anchor      = m_anchor;
    p->on_complete = std::move(on_complete);
    {
        auto scope = internal_call_scope{};
        if(m_end == nullptr || driver()->cuEventRecord(m_end, m_stream) != CUDA_SUCCESS)
        {
            // No way to observe this kernel's end: report it finished now, without times.
            auto result = dispatch::execution_result{};
            p->on_complete(result);
            return;
        }
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
    auto p         = std::make_shared<pending>();
    p->ctx         = m_ctx;
    p->start       = m_start;
    p->end         = m_end;
    p->driver_id   = this_thread_driver_id;
    p->runtime_id  = this_thread_runtime_id;
    p->anchor      = m_anchor;
    p->on_complete = std::move(on_complete);
    auto scope     = internal_call_scope{};
    if(m_end == nullptr || driver()->cuEventRecord(m_end, m_stream) != CUDA_SUCCESS)
    {
        auto result = dispatch::execution_result{};
        p->on_complete(result);
        return;
    }
    m_handed      = true;
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
        // This thread is inside the application's launch call, which waits for the pass anyway:
        // a flush here delays nothing but the replay. The pass's end event has completed, so its
        // record completes as soon as CUPTI has read the kernel's timestamps.
        while(!ready(*p))
        {
            const auto seen = delivered_buffers();
            flush_records();
            {
                auto& st   = get_state();
                auto  lock = std::lock_guard{st.records_mutex};
                st.stats.pass_flushes += 1;
            }
            if(ready(*p)) break;
            wait_for_buffer(seen, std::chrono::microseconds{50});
        }
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
