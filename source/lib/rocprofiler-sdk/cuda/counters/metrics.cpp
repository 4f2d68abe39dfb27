#include "cuda/counters/metrics.hpp"

#include "common/logging.hpp"
#include "counters/counters.hpp"
#include "cuda/counters/counter_batch.hpp"
#include "cuda/counters/counter_schedule.hpp"
#include "cuda/counters/counting_stats.hpp"
#include "cuda/counters/range_profiler.hpp"
#include "cuda/cupti/cupti_errors.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"

namespace rocprofiler::cuda::metrics
{
namespace
{
// The per-pass schedule: the execution measures the configuration of its own request, which must
// fit in one CUPTI pass. Called with the profiler's lock held, after enable() succeeded.
CUresult
measure_own_config(context_profiler& prof, const counted_execution& exec)
{
    const auto& [device, stream, request, launch, out] = exec;
    auto& cfg                                          = config_for(prof, names_of(request));
    if(cfg.error.empty() && cfg.passes != 1)
        out.error = "the configuration needs " + std::to_string(cfg.passes) +
                    " CUPTI passes, and this execution is " +
                    (request.replayed ? "a pass of a dispatch with fewer passes left"
                                      : "a dispatch that is not replayed") +
                    " (a configuration of several passes is collected over that many passes of a "
                    "replayed dispatch)";
    else
        out.error = cfg.error;
    if(!out.error.empty()) return launch();
    auto set = false;
    {
        auto timer = phase_timer{phases().set_config};
        set        = set_config(prof, cfg, out.error);
    }
    if(!set) return launch();
    const auto run = run_counted(prof, device, stream, launch);
    if(run.started != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerStart", run.started);
        return launch();
    }
    const auto launched = run.launched;
    auto       scope    = internal_call_scope{}; // the wait and CUPTI's decoding below
    if(launched != CUDA_SUCCESS) return launched;
    if(run.stopped != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerStop", run.stopped);
        return launched;
    }
    // The values exist once the kernel finished; a kernel that faults reports its error through
    // the application's next synchronizing call, as without counters.
    auto waited = CUDA_SUCCESS;
    {
        auto timer = phase_timer{phases().wait};
        waited     = driver()->cuStreamSynchronize(stream);
    }
    if(auto rc = waited; rc != CUDA_SUCCESS)
    {
        out.error = "the counted kernel failed (" + error_name(rc) + ")";
        return launched;
    }
    auto result = std::vector<double>{};
    if(decode_and_evaluate(prof, cfg, result, out.error))
        for(size_t i = 0; i < request.counters.size() && i < result.size(); ++i)
            out.values.push_back(dispatch::counter_value{request.counters[i]->id, result[i]});
    return launched;
}
// Another dispatch's cycle in progress here (only possible without isolation) ends without values
// when it next runs: this execution sets a configuration of its own.
void
interrupt_other_cycle(context_profiler& prof)
{
    if(prof.cycle_owner == nullptr) return;
    prof.cycle_owner->phase = next_phase(prof.cycle_owner->phase, cycle_event::interrupt);
    prof.cycle_owner        = nullptr;
    prof.needs_reset        = true;
}
} // namespace

dispatch_counting::dispatch_counting() = default; // the state is made by the first measure()

dispatch_counting::~dispatch_counting()
{
    if(!impl || impl->phase == cycle_phase::idle) return; // never owned a cycle: nothing to clear
    auto lock = std::lock_guard{impl->prof->mutex};
    if(impl->prof->cycle_owner != impl.get()) return;
    impl->prof->cycle_owner = nullptr;
    impl->prof->needs_reset = true;
}

CUresult
measure(CUcontext                          ctx,
        int                                device,
        CUstream                           stream,
        const dispatch::execution_request& request,
        const std::function<CUresult()>&   launch,
        dispatch_counting&                 counting,
        measurement&                       out)
{
    auto& prof  = profiler_of(ctx);
    auto  later = batch_release{}; // closed batches reach their tools after the lock is dropped
    // One counted execution at a time per context: the range profiler has one configuration.
    auto lock  = std::lock_guard{prof.mutex};
    auto total = phase_timer{phases().total};
    {
        auto timer = phase_timer{phases().enable};
        enable(prof, ctx, device);
    }
    if(!prof.error.empty())
    {
        out.error = prof.error;
        return launch();
    }
    if(!counting.impl) counting.impl = std::make_unique<dispatch_counting::state>();
    auto& st               = *counting.impl;
    st.prof                = &prof;
    const auto exec        = counted_execution{device, stream, request, launch, out};
    const auto capacity    = settings::read_once<settings::read_counter_batch>();
    const auto device_side = real_batch_device(prof, ctx, device, stream);
    if(!request.replayed)
    {
        auto& cfg = config_for(prof, names_of(request));
        if(choose_path(request, cfg, prof.range == CUPTI_UserRange, capacity) ==
           counting_path::batched)
        {
            interrupt_other_cycle(prof);
            return measure_batched(prof, cfg, exec, capacity, device_side, later);
        }
    }
    // Every other path sets its own configuration: the batch running here is decoded first.
    close_batch(prof, device_side, "a counted execution outside the batch", later);
    // User ranges (ROCPROFILER_CUDA_RANGE_MODE=user) push a range per counted execution, which
    // only the per-pass path does.
    if(request.replayed && !prof.cycles_off && prof.range != CUPTI_UserRange)
    {
        // The per-pass schedule still needs a cycle for a configuration of several CUPTI passes.
        if(schedule_per_dispatch())
        {
            if(auto launched = measure_in_cycle(prof, st, exec, cycle_scope::agent_union))
                return *launched;
        }
        else if(is_open(st.phase) || config_for(prof, union_names({}, request)).passes > 1)
        {
            if(auto launched = measure_in_cycle(prof, st, exec, cycle_scope::own)) return *launched;
        }
    }
    interrupt_other_cycle(prof);
    return measure_own_config(prof, exec);
}

dispatch::completion_fn
complete_batched(std::shared_ptr<batched_execution> entry,
                 dispatch::completion_fn            next,
                 CUcontext                          ctx)
{
    return
        [entry = std::move(entry), next = std::move(next), ctx](const dispatch::execution_result& r)
    {
        entry->complete(r, next);
        auto& prof  = profiler_of(ctx);
        auto  later = batch_release{}; // released after the lock below
        auto  lock  = std::lock_guard{prof.mutex};
        close_if_last(prof,
                      real_batch_device(prof, ctx, 0, nullptr),
                      entry,
                      application_wait_scope::any(),
                      later);
    };
}

void
release_for_sampling(CUcontext ctx)
{
    auto& prof  = profiler_of(ctx);
    auto  later = batch_release{}; // released after the lock below
    auto  lock  = std::lock_guard{prof.mutex};
    if(prof.batch.running)
        close_batch(prof, real_batch_device(prof, ctx, 0, nullptr), "a sampled execution", later);
    suspend(prof);
}

void
close_batches_at_exit()
{
    close_all_batches("exit");
}

std::vector<dispatch::deferred_counters>
finish(dispatch_counting& counting)
{
    auto out = std::vector<dispatch::deferred_counters>{};
    if(!counting.impl || counting.impl->prof == nullptr) return out;
    auto& st   = *counting.impl;
    auto  lock = std::lock_guard{st.prof->mutex};
    if(!is_open(st.phase)) return out;
    const auto why = "the dispatch ended after " + std::to_string(st.run) + " of the " +
                     std::to_string(st.cycle->passes) +
                     " CUPTI passes its counters need (later passes did not count, or the replay "
                     "ended early)";
    // A configuration of several passes can be collected in a cycle only, so the cycles stay on
    // while the agent has one.
    auto multi_pass = false;
    if(!st.waiting.empty() && !st.waiting.front().counters.empty())
        for(const auto& c : counters::configs_of(st.waiting.front().counters.front()->agent))
            multi_pass = multi_pass || c->passes > 1;
    if(!multi_pass) st.prof->cycles_off = true;
    if(multi_pass)
        common::log::warn_once("cuda-cycle-unfinished-multi",
                               "cuda: " + why +
                                   "; its counter values are not reported (a configuration of "
                                   "several passes is collected only over that many passes)");
    else
        common::log::warn_once("cuda-cycle-unfinished",
                               "cuda: " + why +
                                   "; from now on each pass on this context measures its own "
                                   "configuration (ROCPROFILER_CUDA_COUNTER_SCHEDULE=pass does so "
                                   "from the start)");
    end_cycle(*st.prof, st, why, out);
    return out;
}
} // namespace rocprofiler::cuda::metrics
