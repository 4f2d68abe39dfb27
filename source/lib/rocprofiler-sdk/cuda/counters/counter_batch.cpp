#include "cuda/counters/counter_batch.hpp"

#include "common/logging.hpp"
#include "cuda/counters/cache_control.hpp"
#include "cuda/counters/counting_stats.hpp"
#include "cuda/cupti/cupti_errors.hpp"
#include "cuda/interpose/driver.hpp"

#include <atomic>
#include <map>
#include <utility>

namespace rocprofiler::cuda::metrics
{
namespace
{
// Contexts with a counting session open (running_batches()).
std::atomic<int> open_batches = 0;
} // namespace

batched_execution::batched_execution(std::string range, std::vector<rocprofiler_counter_id_t> ids)
    : m_range{std::move(range)}
    , m_ids{std::move(ids)}
{
}

void
batched_execution::complete(const dispatch::execution_result& result, dispatch::completion_fn next)
{
    auto lock = std::unique_lock{m_mutex};
    if(m_result) return;
    m_result = result;
    m_next   = std::move(next);
    deliver(lock);
}

void
batched_execution::resolve(std::vector<double> values, std::string error)
{
    auto lock = std::lock_guard{m_mutex};
    if(m_resolved) return;
    m_resolved = true;
    m_values   = std::move(values);
    m_error    = std::move(error);
}

void
batched_execution::release()
{
    auto lock = std::unique_lock{m_mutex};
    if(!m_resolved)
    {
        m_resolved = true;
        m_error    = "the batched counter session ended without a value for this dispatch";
    }
    m_released = true;
    deliver(lock);
}

bool
batched_execution::resolved() const
{
    auto lock = std::lock_guard{m_mutex};
    return m_resolved;
}

bool
batched_execution::finished() const
{
    auto lock = std::lock_guard{m_mutex};
    return m_result.has_value();
}

// Delivers once both halves are there, outside the lock (the completion reaches the tool).
void
batched_execution::deliver(std::unique_lock<std::mutex>& lock)
{
    if(!m_result || !m_released || m_delivered) return;
    m_delivered = true;
    auto copy   = *m_result;
    auto next   = std::move(m_next);
    if(copy.ok)
    {
        if(m_error.empty())
            for(size_t i = 0; i < m_ids.size() && i < m_values.size(); ++i)
                copy.counters.push_back(dispatch::counter_value{m_ids[i], m_values[i]});
        copy.counters_error = m_error;
    }
    lock.unlock();
    if(next) next(copy);
}

batch_release::~batch_release()
{
    for(auto& entry : m_entries)
        entry->release();
}

void
batch_release::add(std::vector<std::shared_ptr<batched_execution>>&& entries)
{
    for(auto& entry : entries)
        m_entries.push_back(std::move(entry));
    entries.clear();
}

counting_path
choose_path(const dispatch::execution_request& request,
            const collection_config&           cfg,
            bool                               user_range_mode,
            uint64_t                           capacity)
{
    if(request.replayed) return counting_path::cycle;
    if(user_range_mode || capacity == 0 || !cfg.error.empty() || cfg.passes != 1)
        return counting_path::execution;
    return counting_path::batched;
}

namespace
{
// Every execution of the batch not resolved yet gets `why`; returns how many did.
size_t
fail_unresolved(batch_session& batch, const std::string& why)
{
    auto failed = size_t{0};
    for(auto& entry : batch.ranges)
        if(!entry->resolved())
        {
            entry->resolve({}, why);
            ++failed;
        }
    return failed;
}

// The decode of a stopped session whose kernels finished: each range found in the image resolves
// the execution of its name. Returns the error of the whole decode, or empty.
std::string
decode_ranges(context_profiler& prof, batch_session& batch)
{
    const auto& t     = profiler_table();
    auto&       cfg   = *batch.cfg;
    auto        error = std::string{};
    const auto  image = decode_image(prof, cfg, error);
    if(!image) return error;
    ROCP_LOG(debug) << "cuda: counter batch: decoded " << image->ranges << " ranges of "
                    << batch.ranges.size() << " pushed (" << image->dropped << " dropped by CUPTI)";
    auto by_name = std::map<std::string_view, batched_execution*>{};
    for(auto& entry : batch.ranges)
        by_name.emplace(entry->range(), entry.get());
    for(size_t i = 0; i < image->ranges; ++i)
    {
        auto range = CUpti_RangeProfiler_CounterData_GetRangeInfo_Params{
            CUpti_RangeProfiler_CounterData_GetRangeInfo_Params_STRUCT_SIZE};
        range.pCounterDataImage    = cfg.counter_data.data();
        range.counterDataImageSize = cfg.counter_data.size();
        range.rangeIndex           = i;
        range.rangeDelimiter       = "/";
        auto why                   = std::string{};
        if(!succeeded(t.cuptiRangeProfilerCounterDataGetRangeInfo(&range),
                      "cuptiRangeProfilerCounterDataGetRangeInfo",
                      why) ||
           range.rangeName == nullptr)
            continue; // its execution, if any, is reported as missing below
        auto itr = by_name.find(range.rangeName);
        if(itr == by_name.end()) continue; // not one of ours (the SDK's ranges are all named)
        auto values = std::vector<double>{};
        auto timer  = phase_timer{phases().evaluate};
        if(evaluate_range(cfg, i, values, why))
            itr->second->resolve(std::move(values), {});
        else
            itr->second->resolve({}, why);
    }
    const auto missing =
        fail_unresolved(batch,
                        "CUPTI's counter data of the batched session has no range for this "
                        "dispatch (" +
                            std::to_string(image->dropped) + " of " +
                            std::to_string(batch.ranges.size()) + " ranges dropped)");
    if(missing > 0)
    {
        phases().batch_dropped.calls += missing;
        common::log::warn_once("cuda-batch-dropped",
                               "cuda: a batched counter session lost the ranges of " +
                                   std::to_string(missing) +
                                   " dispatches; their records carry the error (counted in "
                                   "[cuda-metrics] batch_dropped)");
    }
    return {};
}

// Opens a session of `cfg` for `capacity` ranges. False with `error` set on failure.
bool
open_batch(context_profiler& prof, collection_config& cfg, uint64_t capacity, std::string& error)
{
    auto timer = phase_timer{phases().batch_open};
    {
        auto set_timer = phase_timer{phases().set_config};
        if(!set_config(prof, cfg, error, range_shape{CUPTI_UserRange, capacity})) return false;
    }
    auto start = CUpti_RangeProfiler_Start_Params{CUpti_RangeProfiler_Start_Params_STRUCT_SIZE};
    start.pRangeProfilerObject = prof.object;
    auto started               = CUPTI_SUCCESS;
    {
        auto start_timer = phase_timer{phases().start};
        started          = profiler_table().cuptiRangeProfilerStart(&start);
    }
    if(!succeeded(started, "cuptiRangeProfilerStart", error))
    {
        prof.needs_reset = true;
        return false;
    }
    prof.batch.cfg     = &cfg;
    prof.batch.running = true;
    open_batches.fetch_add(1);
    return true;
}
} // namespace

void
close_batch(context_profiler&   prof,
            const batch_device& device,
            std::string_view    why,
            batch_release&      later)
{
    auto& batch = prof.batch;
    if(!batch.running) return;
    auto timer    = phase_timer{phases().batch_close};
    auto scope    = internal_call_scope{};
    batch.running = false;
    open_batches.fetch_sub(1);
    ROCP_LOG(debug) << "cuda: counter batch: closing " << batch.ranges.size() << " ranges (" << why
                    << ")";
    auto stop = CUpti_RangeProfiler_Stop_Params{CUpti_RangeProfiler_Stop_Params_STRUCT_SIZE};
    stop.pRangeProfilerObject = prof.object;
    auto stopped              = CUPTI_SUCCESS;
    {
        auto stop_timer = phase_timer{phases().stop};
        stopped         = profiler_table().cuptiRangeProfilerStop(&stop);
    }
    auto error = std::string{};
    if(succeeded(stopped, "cuptiRangeProfilerStop", error))
    {
        auto waited = CUDA_SUCCESS;
        {
            auto wait_timer = phase_timer{phases().wait};
            waited          = device.wait ? device.wait() : CUDA_SUCCESS;
        }
        if(waited != CUDA_SUCCESS)
            error = "the batched kernels could not be waited for (" + error_name(waited) + ")";
        else
            error = decode_ranges(prof, batch);
    }
    else
        prof.needs_reset = true; // the range profiler may be mid-session
    if(!error.empty())
    {
        const auto failed = fail_unresolved(batch, error);
        phases().batch_dropped.calls += failed;
        common::log::warn_once("cuda-batch-failed:" + error,
                               "cuda: a batched counter session could not be decoded (" + error +
                                   "); the records of its " + std::to_string(failed) +
                                   " dispatches carry the error");
    }
    later.add(std::move(batch.ranges));
    batch.ranges.clear();
    batch.cfg = nullptr;
}

CUresult
measure_batched(context_profiler&        prof,
                collection_config&       cfg,
                const counted_execution& exec,
                uint64_t                 capacity,
                const batch_device&      device,
                batch_release&           later)
{
    const auto& [dev, stream, request, launch, out] = exec;
    auto  timer                                     = phase_timer{phases().batched};
    auto& batch                                     = prof.batch;
    if(batch.running && batch.cfg != &cfg)
        close_batch(prof, device, "another configuration", later);
    if(batch.running && batch.ranges.size() >= capacity)
    {
        phases().batch_full.calls += 1;
        close_batch(prof, device, "counter data image full", later);
    }
    if(!batch.running && !open_batch(prof, cfg, capacity, out.error)) return launch();
    if(device.flush)
    {
        auto flush_timer = phase_timer{phases().flush};
        device.flush();
    }
    const auto& t   = profiler_table();
    auto        ids = std::vector<rocprofiler_counter_id_t>{};
    ids.reserve(request.counters.size());
    for(const auto* def : request.counters)
        ids.push_back(def->id);
    auto entry = std::make_shared<batched_execution>(
        "rocprofiler-dispatch-" + std::to_string(++batch.sequence), std::move(ids));
    auto scope = internal_call_scope{};
    auto push =
        CUpti_RangeProfiler_PushRange_Params{CUpti_RangeProfiler_PushRange_Params_STRUCT_SIZE};
    push.pRangeProfilerObject = prof.object;
    push.pRangeName           = entry->range().c_str();
    if(auto rc = t.cuptiRangeProfilerPushRange(&push); rc != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerPushRange", rc);
        close_batch(prof, device, "a range could not be pushed", later);
        prof.needs_reset = true;
        return launch();
    }
    auto launched = CUDA_SUCCESS;
    {
        auto launch_timer = phase_timer{phases().launch};
        launched          = launch();
    }
    auto pop = CUpti_RangeProfiler_PopRange_Params{CUpti_RangeProfiler_PopRange_Params_STRUCT_SIZE};
    pop.pRangeProfilerObject = prof.object;
    const auto popped        = t.cuptiRangeProfilerPopRange(&pop);
    batch.ranges.push_back(entry);
    out.batched = entry;
    if(launched != CUDA_SUCCESS)
        entry->resolve({}, "the counted kernel failed (" + error_name(launched) + ")");
    if(popped != CUPTI_SUCCESS)
    {
        // The session's ranges are no longer balanced: it ends here, and what it holds is decoded.
        entry->resolve({}, explain("cuptiRangeProfilerPopRange", popped));
        close_batch(prof, device, "a range could not be popped", later);
        prof.needs_reset = true;
    }
    return launched;
}

bool
close_if_last(context_profiler&                         prof,
              const batch_device&                       device,
              const std::shared_ptr<batched_execution>& entry,
              bool                                      application_waiting,
              batch_release&                            later)
{
    if(!application_waiting || !prof.batch.running || prof.batch.ranges.empty() ||
       prof.batch.ranges.back() != entry)
        return false;
    close_batch(prof, device, "its last kernel finished while the application waits", later);
    return true;
}

bool
close_if_finished(context_profiler& prof, const batch_device& device, batch_release& later)
{
    if(!prof.batch.running || prof.batch.ranges.empty()) return false;
    for(const auto& entry : prof.batch.ranges)
        if(!entry->finished()) return false;
    close_batch(prof, device, "the application synchronized", later);
    return true;
}

bool
close_after_context_wait(context_profiler& prof, const batch_device& device, batch_release& later)
{
    if(!prof.batch.running || prof.batch.ranges.empty()) return false;
    close_batch(prof, device, "the application synchronized the context", later);
    return true;
}

namespace
{
std::atomic<int> waiting_threads = 0;
} // namespace

application_wait_scope::application_wait_scope()
{
    waiting_threads.fetch_add(1);
}

application_wait_scope::~application_wait_scope()
{
    waiting_threads.fetch_sub(1);
}

bool
application_wait_scope::any()
{
    return waiting_threads.load() > 0;
}

batch_device
real_batch_device(context_profiler& prof, CUcontext ctx, int device, CUstream stream)
{
    auto out = batch_device{};
    out.wait = [ctx]
    {
        const auto* drv     = driver();
        auto        current = CUcontext{};
        if(drv->cuCtxGetCurrent(&current) != CUDA_SUCCESS) current = nullptr;
        if(current != ctx)
            if(auto rc = drv->cuCtxSetCurrent(ctx); rc != CUDA_SUCCESS) return rc;
        const auto waited = drv->cuCtxSynchronize();
        if(current != ctx) drv->cuCtxSetCurrent(current);
        return waited;
    };
    if(flush_before_counting())
        out.flush = [&prof, device, stream] { prof.flusher.flush(device, stream); };
    return out;
}

int
running_batches()
{
    return open_batches.load();
}

void
close_batches_after_wait(CUcontext synchronized)
{
    if(open_batches.load() == 0) return;
    for_each_profiler(
        [synchronized](context_profiler& prof)
        {
            auto later = batch_release{}; // released after the lock below
            auto lock  = std::lock_guard{prof.mutex};
            if(!prof.batch.running) return;
            const auto device = real_batch_device(prof, prof.ctx, 0, nullptr);
            if(synchronized != nullptr && prof.ctx == synchronized)
                close_after_context_wait(prof, device, later);
            else
                close_if_finished(prof, device, later);
        });
}

void
close_all_batches(std::string_view why)
{
    for_each_profiler(
        [why](context_profiler& prof)
        {
            auto later = batch_release{}; // released after the lock below
            auto lock  = std::lock_guard{prof.mutex};
            if(!prof.batch.running) return;
            close_batch(prof, real_batch_device(prof, prof.ctx, 0, nullptr), why, later);
        });
}
} // namespace rocprofiler::cuda::metrics
