#include "cuda/counters/counter_schedule.hpp"

#include "common/logging.hpp"
#include "cuda/counters/counting_stats.hpp"
#include "cuda/cupti/cupti_errors.hpp"
#include "cuda/cupti/settings_cupti.hpp"
#include "cuda/interpose/driver.hpp"

#include <algorithm>

namespace rocprofiler::cuda::metrics
{
namespace
{
using counting_state = dispatch_counting::state;

// The values of `counters` out of a finished cycle of `cfg` (its names are sorted).
std::vector<dispatch::counter_value>
pick(const collection_config&                                cfg,
     const std::vector<double>&                              values,
     const std::vector<const counters::counter_definition*>& counters)
{
    auto out = std::vector<dispatch::counter_value>{};
    out.reserve(counters.size());
    for(const auto* def : counters)
    {
        auto itr   = std::lower_bound(cfg.names.begin(), cfg.names.end(), def->spec.name);
        auto index = static_cast<size_t>(itr - cfg.names.begin());
        out.push_back(
            dispatch::counter_value{def->id, index < values.size() ? values[index] : 0.0});
    }
    return out;
}

enum class cycle_start
{
    opened,   // the cycle's configuration is set: run its next pass
    per_pass, // no cycle: the execution measures its own configuration
    not_set,  // setting the configuration failed (out.error): launch without counters
};

// Opens a cycle of `scope`'s configuration, when it fits in the passes left.
cycle_start
open_cycle(context_profiler&                  prof,
           counting_state&                    st,
           const dispatch::execution_request& request,
           cycle_scope                        scope,
           measurement&                       out)
{
    const auto remaining =
        request.pass_count > request.pass ? request.pass_count - request.pass : 0;
    if(remaining == 0 || request.counters.empty()) return cycle_start::per_pass;
    const auto configs = counters::configs_of(request.counters.front()->agent);
    // A cycle's names are sorted (pick() and covers() search them).
    auto& cfg = config_for(prof,
                           union_names(scope == cycle_scope::agent_union
                                           ? configs
                                           : std::vector<std::shared_ptr<const counters::config>>{},
                                       request));
    // CUPTI's passes must fit in the passes left, and for the union in no more passes than the
    // configurations take one by one: a tool that counts each of its configurations in as many
    // passes as it takes per dispatch then always finishes the cycle, whatever it does in its
    // other passes.
    auto limit = remaining;
    if(scope == cycle_scope::agent_union)
    {
        auto planned = uint64_t{0};
        for(const auto& c : configs)
            planned += std::max<uint32_t>(c->passes, 1);
        limit = std::min<uint64_t>(remaining, std::max<uint64_t>(planned, 1));
    }
    if(!cfg.error.empty() || cfg.passes == 0 || cfg.passes > limit)
    {
        const auto what = scope == cycle_scope::agent_union
                              ? "the union of the agent's counter configurations (" +
                                    std::to_string(cfg.names.size()) + " metrics)"
                              : "the configuration of this pass (" +
                                    std::to_string(cfg.names.size()) + " metrics)";
        const auto why =
            what + (cfg.error.empty() ? " needs " + std::to_string(cfg.passes) +
                                            " CUPTI passes, more than " + std::to_string(limit)
                                      : " cannot be collected: " + cfg.error);
        common::log::warn_once("cuda-cycle-unused:" + std::to_string(cfg.passes),
                               "cuda: counters are measured pass by pass (slower): " + why);
        ROCP_LOG(debug) << "cuda: no CUPTI replay cycle for pass " << request.pass << ": " << why
                        << " (" << remaining << " passes left)";
        return cycle_start::per_pass;
    }
    if(prof.cycle_owner != nullptr && prof.cycle_owner != &st)
    {
        // Another dispatch's cycle is in progress here (only possible without isolation).
        prof.cycle_owner->phase = next_phase(prof.cycle_owner->phase, cycle_event::interrupt);
        prof.needs_reset        = true;
    }
    auto error = std::string{};
    auto set   = false;
    {
        auto timer = phase_timer{phases().set_config};
        set        = set_config(prof, cfg, error);
    }
    if(!set)
    {
        out.error = error;
        return cycle_start::not_set;
    }
    st.cycle         = &cfg;
    st.phase         = next_phase(st.phase, cycle_event::open);
    st.run           = 0;
    prof.cycle_owner = &st;
    return cycle_start::opened;
}

// Runs the next CUPTI pass of the open cycle; after the last one, decodes the cycle and answers
// every waiting execution.
CUresult
run_cycle_pass(context_profiler& prof, counting_state& st, const counted_execution& exec)
{
    const auto& [device, stream, request, launch, out] = exec;
    auto       timer                                   = phase_timer{phases().cycle_pass};
    const auto run                                     = run_counted(prof, device, stream, launch);
    if(run.started != CUPTI_SUCCESS)
    {
        out.error = explain("cuptiRangeProfilerStart", run.started);
        end_cycle(prof, st, out.error, out.resolved);
        return launch();
    }
    const auto launched = run.launched;
    auto       scope    = internal_call_scope{}; // the wait and CUPTI's decoding below
    st.waiting.push_back(counting_state::waiting_execution{request.execution, request.counters});
    st.run += 1;
    out.deferred = true;
    ROCP_LOG(debug) << "cuda: range profiler: dispatch pass " << request.pass << " ran CUPTI pass "
                    << st.run << " of " << st.cycle->passes;
    if(launched != CUDA_SUCCESS)
    {
        end_cycle(
            prof, st, "the counted kernel failed (" + error_name(launched) + ")", out.resolved);
        return launched;
    }
    if(run.stopped != CUPTI_SUCCESS)
    {
        end_cycle(prof, st, explain("cuptiRangeProfilerStop", run.stopped), out.resolved);
        return launched;
    }
    if(!run.all_submitted) return launched;

    auto waited = CUDA_SUCCESS;
    {
        auto phase = phase_timer{phases().wait};
        waited     = driver()->cuStreamSynchronize(stream);
    }
    auto error = std::string{};
    if(waited != CUDA_SUCCESS)
        error = "the counted kernel failed (" + error_name(waited) + ")";
    else
        decode_and_evaluate(prof, *st.cycle, st.values, error);
    if(!error.empty())
    {
        end_cycle(prof, st, error, out.resolved);
        return launched;
    }
    for(auto& w : st.waiting)
        out.resolved.push_back(
            dispatch::deferred_counters{w.execution, pick(*st.cycle, st.values, w.counters), {}});
    st.waiting.clear();
    st.phase         = next_phase(st.phase, cycle_event::complete);
    prof.cycle_owner = nullptr;
    phases().cycles.calls += 1;
    return launched;
}
} // namespace

bool
schedule_per_dispatch()
{
    return settings::read_once<settings::read_counter_schedule_per_dispatch>();
}

bool
covers(const std::vector<std::string>& set, const std::vector<std::string>& names)
{
    return std::all_of(names.begin(),
                       names.end(),
                       [&set](const std::string& name)
                       { return std::binary_search(set.begin(), set.end(), name); });
}

std::vector<std::string>
union_names(const std::vector<std::shared_ptr<const counters::config>>& configs,
            const dispatch::execution_request&                          request)
{
    auto names = names_of(request);
    for(const auto& cfg : configs)
        for(const auto* def : cfg->counters)
            names.emplace_back(def->spec.name);
    std::sort(names.begin(), names.end());
    names.erase(std::unique(names.begin(), names.end()), names.end());
    return names;
}

void
end_cycle(context_profiler&                         prof,
          counting_state&                           st,
          const std::string&                        why,
          std::vector<dispatch::deferred_counters>& resolved)
{
    for(auto& w : st.waiting)
        resolved.push_back(dispatch::deferred_counters{w.execution, {}, why});
    st.waiting.clear();
    if(is_open(st.phase)) prof.needs_reset = true; // the range profiler is mid-cycle
    st.phase = next_phase(st.phase, cycle_event::abandon);
    if(prof.cycle_owner == &st) prof.cycle_owner = nullptr;
}

std::optional<CUresult>
measure_in_cycle(context_profiler&        prof,
                 counting_state&          st,
                 const counted_execution& exec,
                 cycle_scope              scope)
{
    const auto& [device, stream, request, launch, out] = exec;
    auto names                                         = names_of(request);
    if(st.phase == cycle_phase::interrupted)
        end_cycle(prof,
                  st,
                  "another counted execution on the context interrupted the CUPTI replay cycle "
                  "of this dispatch",
                  out.resolved);
    if(st.phase == cycle_phase::complete && covers(st.cycle->names, names))
    {
        // Every metric of this pass was measured in the cycle: the kernel runs without counting.
        auto timer = phase_timer{phases().from_cycle};
        out.values = pick(*st.cycle, st.values, request.counters);
        return launch();
    }
    if(is_open(st.phase) && !covers(st.cycle->names, names))
    {
        common::log::warn_once(
            "cuda-cycle-outside",
            "cuda: a pass asked for counters that no counter configuration had when its "
            "dispatch's CUPTI replay cycle began; the earlier passes of that dispatch report no "
            "values, and such passes measure their own configuration");
        end_cycle(prof,
                  st,
                  "pass " + std::to_string(request.pass) +
                      " asked for counters outside the CUPTI replay cycle of this dispatch",
                  out.resolved);
        return std::nullopt;
    }
    if(!is_open(st.phase))
    {
        switch(open_cycle(prof, st, request, scope, out))
        {
        case cycle_start::opened:
            break;
        case cycle_start::per_pass:
            return std::nullopt;
        case cycle_start::not_set:
            return launch();
        }
    }
    return run_cycle_pass(prof, st, exec);
}
} // namespace rocprofiler::cuda::metrics
