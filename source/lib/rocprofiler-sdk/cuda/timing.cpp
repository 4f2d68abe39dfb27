#include "cuda/timing.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/driver.hpp"
#include "cuda/record_matcher.hpp"

#include <cupti.h>
#include <dlfcn.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <memory>
#include <mutex>
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
    X(cuptiActivityGetNextRecord)                                                                  \
    X(cuptiSubscribe)                                                                              \
    X(cuptiEnableCallback)

struct cupti_table
{
#define ROCP_CUPTI_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUPTI_FUNCTIONS(ROCP_CUPTI_DECLARE)
#undef ROCP_CUPTI_DECLARE
};

cupti_table* cupti          = nullptr;  // set once by initialize(), never freed
std::atomic<bool> cupti_on  = false;

struct pending
{
    CUcontext               ctx        = nullptr;
    CUevent                 start      = nullptr;
    CUevent                 end        = nullptr;
    uint32_t                driver_id  = 0;
    uint32_t                runtime_id = 0;
    dispatch::completion_fn on_complete = {};
    bool                    gpu_done   = false;
    CUresult                gpu_status = CUDA_SUCCESS;
    uint64_t                done_ns    = 0;  // when the completion thread saw the end event
};

struct completion_state
{
    std::mutex                           mutex   = {};
    std::condition_variable              cv      = {};
    std::condition_variable              idle_cv = {};
    std::deque<std::shared_ptr<pending>> queue   = {};
    std::thread                          worker  = {};
    bool                                 started = false;

    std::mutex     records_mutex = {};
    record_matcher records       = {};

    std::mutex                                         pool_mutex = {};
    std::unordered_map<CUcontext, std::vector<CUevent>> pool      = {};
};

completion_state&
get_state()
{
    static auto* value = new completion_state{};  // never destroyed: used at exit
    return *value;
}

// --- CUPTI ---------------------------------------------------------------------------------------

uint64_t CUPTIAPI
sdk_timestamp()
{
    return common::timestamp_ns();
}

constexpr size_t activity_buffer_bytes = size_t{4} << 20;

void CUPTIAPI
buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records)
{
    *buffer      = static_cast<uint8_t*>(std::aligned_alloc(8, activity_buffer_bytes));
    *size        = (*buffer != nullptr) ? activity_buffer_bytes : 0;
    *max_records = 0;
}

void CUPTIAPI
buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid)
{
    auto& st     = get_state();
    auto* record = static_cast<CUpti_Activity*>(nullptr);
    {
        auto lock = std::lock_guard{st.records_mutex};
        while(valid > 0 && cupti->cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS)
        {
            if(record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL &&
               record->kind != CUPTI_ACTIVITY_KIND_KERNEL)
                continue;
            const auto* kernel = reinterpret_cast<const CUpti_ActivityKernel10*>(record);
            st.records.add(kernel->correlationId, kernel_times{kernel->start, kernel->end});
        }
    }
    std::free(buffer);
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

void*
open_cupti()
{
    auto candidates = std::vector<std::string>{};
    if(const char* env = std::getenv("ROCPROFILER_CUPTI_LIBRARY"); env != nullptr && *env)
        candidates.emplace_back(env);
    candidates.emplace_back("libcupti.so.13");
    candidates.emplace_back("libcupti.so");
#if defined(ROCPROFILER_CUPTI_DEFAULT_LIBRARY)
    if(std::string_view{ROCPROFILER_CUPTI_DEFAULT_LIBRARY}.size() > 0)
        candidates.emplace_back(ROCPROFILER_CUPTI_DEFAULT_LIBRARY);
#endif
#if defined(ROCPROFILER_CUPTI_DEFAULT_DIR)
    candidates.emplace_back(std::string{ROCPROFILER_CUPTI_DEFAULT_DIR} + "/libcupti.so.13");
    candidates.emplace_back(std::string{ROCPROFILER_CUPTI_DEFAULT_DIR} + "/libcupti.so");
#endif
    candidates.emplace_back("/usr/local/cuda/lib64/libcupti.so");
    candidates.emplace_back("/usr/local/cuda/extras/CUPTI/lib64/libcupti.so");
    for(const auto& path : candidates)
        if(void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL); handle != nullptr)
        {
            ROCP_LOG(debug) << "cuda: CUPTI from " << path;
            return handle;
        }
    return nullptr;
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
    [&] {                                                                                          \
        auto rocp_result_ = (CALL);                                                                \
        if(rocp_result_ != CUPTI_SUCCESS)                                                          \
            ROCP_LOG(warning) << "cuda: " #CALL " failed: " << cupti_error(rocp_result_);          \
        return rocp_result_ == CUPTI_SUCCESS;                                                      \
    }()

bool
start_cupti()
{
    if(const char* env = std::getenv("ROCPROFILER_CUDA_CUPTI"); env != nullptr && std::string{env} == "0")
        return false;
    void* handle = open_cupti();
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
        if(!ROCP_CUPTI_CALL(cupti->cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_DRIVER_API, cbid)))
            return false;
    for(auto cbid : {CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
                     CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
                     CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
                     CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000})
        ROCP_CUPTI_CALL(cupti->cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, cbid));

    // The timestamp callback must be in place before any activity kind is enabled.
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityRegisterTimestampCallback(sdk_timestamp))) return false;
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed)))
        return false;
    if(!ROCP_CUPTI_CALL(cupti->cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)))
        return false;
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
    auto scope = internal_call_scope{};
    cupti->cuptiActivityFlushAll(flags);
}

// --- events ----------------------------------------------------------------------------------------

CUevent
take_event(CUcontext ctx)
{
    auto& st = get_state();
    {
        auto lock = std::lock_guard{st.pool_mutex};
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

// --- the completion thread ---------------------------------------------------------------------------

// How long a finished kernel may wait for its CUPTI record before event times are used.
constexpr auto record_wait = std::chrono::milliseconds{500};

dispatch::execution_result
result_of(pending& p)
{
    auto result = dispatch::execution_result{};
    if(p.gpu_status != CUDA_SUCCESS)
    {
        result.ok    = false;
        result.error = error_name(p.gpu_status);
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

bool
ready(pending& p)
{
    if(!p.gpu_done) return false;
    if(!cupti_on.load() || p.gpu_status != CUDA_SUCCESS) return true;
    {
        auto& st   = get_state();
        auto  lock = std::lock_guard{st.records_mutex};
        if(st.records.has(p.driver_id, p.runtime_id)) return true;
    }
    if(common::timestamp_ns() - p.done_ns >
       static_cast<uint64_t>(std::chrono::nanoseconds{record_wait}.count()))
    {
        common::log::warn_once("cuda-no-cupti-record",
                               "cuda: a kernel's CUPTI record did not arrive in time; its "
                               "timestamps come from CUDA events");
        return true;
    }
    return false;
}

void
worker_loop()
{
    auto& st    = get_state();
    auto  scope = internal_call_scope{};
    const auto* drv = driver();
    for(;;)
    {
        auto front = std::shared_ptr<pending>{};
        {
            auto lock = std::unique_lock{st.mutex};
            st.cv.wait(lock, [&st] { return !st.queue.empty(); });
            front = st.queue.front();
        }
        if(!front->gpu_done)
        {
            drv->cuCtxSetCurrent(front->ctx);
            front->gpu_status = drv->cuEventSynchronize(front->end);
            front->done_ns    = common::timestamp_ns();
            front->gpu_done   = true;
        }
        // Others that finished meanwhile share one flush.
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
        flush_records();

        auto delivered = std::vector<std::shared_ptr<pending>>{};
        for(auto& p : batch)
            if(ready(*p)) delivered.push_back(p);
        if(delivered.empty())
        {
            std::this_thread::sleep_for(std::chrono::microseconds{50});
            continue;
        }
        {
            auto lock = std::lock_guard{st.mutex};
            for(auto& p : delivered)
                std::erase(st.queue, p);
        }
        for(auto& p : delivered)
        {
            auto result = result_of(*p);
            give_event(p->ctx, p->start);
            give_event(p->ctx, p->end);
            p->on_complete(result);
        }
        {
            auto lock = std::lock_guard{st.mutex};
            if(st.queue.empty()) st.idle_cv.notify_all();
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
        st.worker.detach();  // lives until exit; drain() empties it at finalization
    }
    st.queue.emplace_back(std::move(p));
    st.cv.notify_all();
}
}  // namespace

void
initialize()
{
    static std::once_flag once;
    std::call_once(once, [] {
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
    auto scope             = internal_call_scope{};
    this_thread_driver_id  = 0;
    m_start                = take_event(ctx);
    m_end                  = take_event(ctx);
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
    auto p        = std::make_shared<pending>();
    p->ctx        = m_ctx;
    p->start      = m_start;
    p->end        = m_end;
    p->driver_id  = this_thread_driver_id;
    p->runtime_id = this_thread_runtime_id;
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
drain(uint64_t timeout_ns)
{
    flush_records();
    auto& st   = get_state();
    auto  lock = std::unique_lock{st.mutex};
    if(!st.idle_cv.wait_for(lock, std::chrono::nanoseconds{timeout_ns}, [&st] { return st.queue.empty(); }))
        ROCP_LOG(warning) << "cuda: " << st.queue.size()
                          << " kernel completions still pending at exit; their records are missing";
    lock.unlock();
    flush_records(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
}
}  // namespace rocprofiler::cuda::timing
