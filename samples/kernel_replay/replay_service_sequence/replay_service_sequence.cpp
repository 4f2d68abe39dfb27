// replay_service_sequence: one service per replay pass, in a fixed sequence, each in a context of
// its own: counter group 0 .. G-1 of the dispatch's agent, then PC sampling, then SPM, then thread
// trace. A service the agent does not offer is left out of the sequence with one line saying so
// (the query answers no configuration, or configuring answers that the agent cannot do it), so
// the tool runs unchanged on any agent and never treats "not offered" as an error.
//
// Which service runs on which pass:
// - Services that consult the replay loop's override map (dispatch counting, SPM, dispatch thread
//   trace) are switched with the local toggles at PASS ENTER: the pass's own context is started,
//   every other one stopped. Their global state never changes.
// - PC sampling is agent-wide and ignores the local toggles (spec: "Service combination limits"):
//   its context stays started and every pass of the dispatch is sampled. The tool keeps the samples
//   whose timestamp falls inside the PC sampling pass (between its PASS ENTER and PASS EXIT), the
//   pass on which no counters are collected, and counts the others as taken outside it.
//
// Every k-th dispatch is replayed (REPLAY_EVERY, default 2); the others run once with the contexts
// as they are globally (counter group 0, sampled). Output: REPLAY_SEQUENCE_OUTPUT (CSV, default
// replay_service_sequence.csv): one row per pass of each replayed dispatch:
//   dispatch_id,kernel,pass,service,detail
// with detail "NAME=value;..." for a counter pass, "samples=N" for the PC sampling pass and
// "samples=N;NAME.sum=..;NAME.max=.." for the SPM pass. At the end one line on stderr sums up:
// passes per service, samples in and outside their pass, and the services left out.
//
// Threading: replay callbacks and the counting dispatch callback run on the submitting thread;
// counter records on the completion thread; PC samples on an SDK buffer thread.
#include "common/sample_common.hpp"

#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace
{
using namespace replay_sample;

enum class service
{
    counters,
    pc_sampling,
    spm,
    thread_trace,
};

const char*
service_name(service s)
{
    switch(s)
    {
    case service::counters:
        return "counters";
    case service::pc_sampling:
        return "pc_sampling";
    case service::spm:
        return "spm";
    case service::thread_trace:
        return "thread_trace";
    }
    return "?";
}

// The passes of one agent's replayed dispatches: pass i runs sequence[i] (a counter pass carries
// its group's index).
struct pass_plan
{
    service  what  = service::counters;
    uint64_t group = 0;
};

struct agent_plan
{
    std::vector<counter_group> groups   = {};
    std::vector<pass_plan>     sequence = {};
};

// One pass of one replayed dispatch, as the report shows it.
struct pass_row
{
    rocprofiler_kernel_id_t kernel_id = 0;
    service                 what      = service::counters;
    uint64_t                enter_ns  = 0;
    uint64_t                exit_ns   = 0;
    std::string             detail    = {};
    uint64_t                samples   = 0; // PC samples inside this pass's window
};

struct tool_state
{
    uint64_t                 replay_every = 2;
    std::string              output_path  = "replay_service_sequence.csv";
    rocprofiler_context_id_t counting     = {};
    rocprofiler_context_id_t sampling     = {};
    rocprofiler_context_id_t spm          = {};
    rocprofiler_context_id_t tracing      = {};
    rocprofiler_context_id_t replay       = {};
    rocprofiler_buffer_id_t  sample_buf   = {};
    kernel_names             names        = {};

    // Written in initialize only, read-only afterwards.
    std::unordered_map<uint64_t, agent_plan>  plans         = {}; // by agent handle
    std::unordered_map<uint64_t, std::string> counter_names = {}; // by counter id
    std::vector<std::string>                  left_out      = {}; // "spm (agent 1): ..."
    std::unordered_map<uint64_t, rocprofiler_counter_config_id_t> spm_configs = {}; // by agent

    std::atomic<uint64_t> misplaced_counting = 0; // counting asked off a counter pass: stays 0

    std::mutex mutex = {};
    // Guarded by mutex: the passes of replayed dispatches, and the PC samples whose dispatch was
    // not yet matched to a window (attributed at the end, when every window is known).
    std::map<std::pair<rocprofiler_dispatch_id_t, uint64_t>, pass_row> passes  = {};
    std::vector<std::pair<rocprofiler_dispatch_id_t, uint64_t>>        samples = {};
    // What the SPM records of each dispatch add up to.
    struct spm_totals
    {
        uint64_t                      samples = 0;
        bool                          lost    = false;
        std::map<std::string, double> sum     = {};
        std::map<std::string, double> max     = {};
    };
    std::map<rocprofiler_dispatch_id_t, spm_totals> spm_seen = {};
};

tool_state* state = nullptr; // leaked on purpose: finalize may run during process exit

// The counter group of the pass running on this thread, between PASS ENTER and PASS EXIT.
thread_local std::optional<uint64_t> current_group = std::nullopt;

const agent_plan*
plan_of(rocprofiler_agent_id_t agent)
{
    auto it = state->plans.find(agent.handle);
    return it != state->plans.end() ? &it->second : nullptr;
}

uint64_t
now()
{
    auto ts = rocprofiler_timestamp_t{};
    return check(rocprofiler_get_timestamp(&ts), "rocprofiler_get_timestamp") ? ts : 0;
}

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    return guarded("pass count",
                   uint64_t{1},
                   [&]
                   {
                       const auto* plan = plan_of(info.agent_id);
                       if(plan == nullptr || (info.dispatch_id - 1) % state->replay_every != 0)
                           return uint64_t{1};
                       return uint64_t{plan->sequence.size()};
                   });
}

// At PASS ENTER: the pass's own context on, the other per-dispatch services off.
void
select_service(const rocprofiler_callback_tracing_kernel_replay_data_t& payload, const pass_plan& p)
{
    auto toggle = [&](rocprofiler_context_id_t ctx, bool on)
    {
        if(ctx.handle == 0) return;
        REPLAY_SAMPLE_CHECK(on ? payload.replay_start_context(ctx)
                               : payload.replay_stop_context(ctx));
    };
    toggle(state->counting, p.what == service::counters);
    toggle(state->spm, p.what == service::spm);
    toggle(state->tracing, p.what == service::thread_trace);
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    guarded(
        "replay callback",
        [&]
        {
            if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
            auto* payload =
                static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
            if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
               record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
            {
                payload->replay_pass_count = pass_count;
                return;
            }
            if(record.operation != ROCPROFILER_KERNEL_REPLAY_PASS) return;
            const auto* plan = plan_of(payload->dispatch_info.agent_id);
            if(plan == nullptr || payload->current_pass >= plan->sequence.size()) return;
            const auto& step = plan->sequence[payload->current_pass];
            const auto  key  = std::pair{payload->dispatch_info.dispatch_id, payload->current_pass};
            if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
            {
                select_service(*payload, step);
                if(step.what == service::counters) current_group = step.group;
                auto  lock    = std::lock_guard{state->mutex};
                auto& row     = state->passes[key];
                row.kernel_id = payload->dispatch_info.kernel_id;
                row.what      = step.what;
                row.enter_ns  = now();
            }
            else
            {
                current_group.reset();
                auto lock                  = std::lock_guard{state->mutex};
                state->passes[key].exit_ns = now();
            }
        });
}

// A counter pass collects its group; a dispatch that is not replayed collects group 0.
void
counting_dispatch_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                           rocprofiler_counter_config_id_t*             config,
                           rocprofiler_user_data_t*                     user_data,
                           void*)
{
    guarded("counting dispatch callback",
            [&]
            {
                const auto* plan = plan_of(dispatch_data.dispatch_info.agent_id);
                if(plan == nullptr || plan->groups.empty()) return;
                auto group = current_group.value_or(0);
                if(group >= plan->groups.size())
                {
                    ++state->misplaced_counting;
                    return;
                }
                *config          = plan->groups[group].config;
                user_data->value = group;
            });
}

void
counting_record_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                         rocprofiler_counter_record_t*                records,
                         size_t                                       record_count,
                         rocprofiler_user_data_t                      user_data,
                         void*)
{
    guarded(
        "counting record callback",
        [&]
        {
            auto values = std::ostringstream{};
            for(size_t i = 0; i < record_count; ++i)
            {
                auto id = rocprofiler_counter_id_t{};
                if(!REPLAY_SAMPLE_CHECK(rocprofiler_query_record_counter_id(records[i].id, &id)))
                    continue;
                auto name = state->counter_names.find(id.handle);
                if(name == state->counter_names.end()) continue;
                values << (values.tellp() > 0 ? ";" : "") << name->second << '='
                       << records[i].counter_value;
            }
            // The pass of a replayed dispatch that collects this group.
            const auto* plan = plan_of(dispatch_data.dispatch_info.agent_id);
            if(plan == nullptr) return;
            auto lock = std::lock_guard{state->mutex};
            for(uint64_t pass = 0; pass < plan->sequence.size(); ++pass)
            {
                const auto& step = plan->sequence[pass];
                if(step.what != service::counters || step.group != user_data.value) continue;
                auto it = state->passes.find({dispatch_data.dispatch_info.dispatch_id, pass});
                if(it != state->passes.end()) it->second.detail = values.str();
            }
        });
}

// SPM of a dispatch: its SPM pass (the context is stopped on the others) or its single run.
void
choose_spm(const rocprofiler_spm_dispatch_counting_service_data_t* data,
           rocprofiler_counter_config_id_t*                        config,
           rocprofiler_user_data_t*,
           void*)
{
    guarded("SPM dispatch callback",
            [&]
            {
                auto it = state->spm_configs.find(data->dispatch_info.agent_id.handle);
                if(it != state->spm_configs.end()) *config = it->second;
            });
}

// Per sample, the records of each counter; kept per dispatch as: samples, and per counter the sum
// (and the largest value, for counters of a level such as WORKERS_ACTIVE).
void
spm_records(const rocprofiler_spm_dispatch_counting_service_data_t* data,
            const rocprofiler_spm_counter_record_t**                records,
            size_t                                                  count,
            rocprofiler_spm_record_flag_t                           flags,
            rocprofiler_user_data_t,
            void*)
{
    guarded("SPM record callback",
            [&]
            {
                auto  lock = std::lock_guard{state->mutex};
                auto& acc  = state->spm_seen[data->dispatch_info.dispatch_id];
                if((flags & ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS) != 0) acc.lost = true;
                auto timestamps = std::set<uint64_t>{};
                for(size_t i = 0; i < count; ++i)
                {
                    timestamps.insert(records[i]->timestamp);
                    auto name = state->counter_names.find(records[i]->id);
                    auto key  = name != state->counter_names.end() ? name->second : "?";
                    acc.sum[key] += records[i]->value;
                    acc.max[key] = std::max(acc.max[key], records[i]->value);
                }
                acc.samples += timestamps.size();
            });
}

void
sample_buffer_callback(rocprofiler_context_id_t,
                       rocprofiler_buffer_id_t,
                       rocprofiler_record_header_t** headers,
                       size_t                        count,
                       void*,
                       uint64_t drop_count)
{
    guarded("PC sample buffer callback",
            [&]
            {
                if(drop_count > 0)
                    std::fprintf(stderr,
                                 "[%s] warning: %llu PC sample records dropped\n",
                                 tool_name,
                                 static_cast<unsigned long long>(drop_count));
                auto lock = std::lock_guard{state->mutex};
                for(size_t i = 0; i < count; ++i)
                {
                    if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING ||
                       headers[i]->kind != ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE)
                        continue;
                    const auto* s =
                        static_cast<const rocprofiler_pc_sampling_record_host_trap_v0_t*>(
                            headers[i]->payload);
                    state->samples.emplace_back(s->dispatch_id, s->timestamp);
                }
            });
}

// ---- the optional services -------------------------------------------------------------------

bool
setup_pc_sampling(const rocprofiler_agent_v0_t& agent)
{
    auto configs = std::vector<rocprofiler_pc_sampling_configuration_t>{};
    auto copy    = [](const rocprofiler_pc_sampling_configuration_t* list, size_t n, void* data)
    {
        auto* out = static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data);
        out->insert(out->end(), list, list + n);
        return ROCPROFILER_STATUS_SUCCESS;
    };
    if(!REPLAY_SAMPLE_CHECK(
           rocprofiler_query_pc_sampling_agent_configurations(agent.id, copy, &configs)))
        return false;
    const rocprofiler_pc_sampling_configuration_t* pick = nullptr;
    for(const auto& c : configs)
        if(c.unit == ROCPROFILER_PC_SAMPLING_UNIT_TIME &&
           (pick == nullptr || c.method == ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP))
            pick = &c;
    if(pick == nullptr)
    {
        state->left_out.push_back(std::string{"pc_sampling (agent "} + agent.name +
                                  "): no configuration in time units");
        return false;
    }
    if(state->sampling.handle == 0 &&
       !(REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&state->sampling)) &&
         REPLAY_SAMPLE_CHECK(rocprofiler_create_buffer(state->sampling,
                                                       1U << 20U,
                                                       1U << 19U,
                                                       ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                       sample_buffer_callback,
                                                       nullptr,
                                                       &state->sample_buf))))
        return false;
    return REPLAY_SAMPLE_CHECK(rocprofiler_configure_pc_sampling_service(state->sampling,
                                                                         agent.id,
                                                                         pick->method,
                                                                         pick->unit,
                                                                         pick->min_interval,
                                                                         state->sample_buf,
                                                                         0));
}

// SPM: offered when the agent answers a configuration. The sample asks for every counter the
// agent samples over time, at the shortest interval, in a context of its own.
bool
setup_spm(const rocprofiler_agent_v0_t& agent)
{
    auto offered = std::vector<rocprofiler_spm_available_configuration_t>{};
    auto copy    = [](const rocprofiler_spm_available_configuration_t** list, size_t n, void* data)
    {
        auto* out = static_cast<std::vector<rocprofiler_spm_available_configuration_t>*>(data);
        for(size_t i = 0; i < n; ++i)
            out->push_back(*list[i]);
        return ROCPROFILER_STATUS_SUCCESS;
    };
    if(!REPLAY_SAMPLE_CHECK(rocprofiler_spm_query_agent_configurations(agent.id, copy, &offered)))
        return false;
    if(offered.empty())
    {
        state->left_out.push_back(std::string{"spm (agent "} + agent.name +
                                  "): the agent offers no SPM configuration");
        return false;
    }
    auto ids  = std::vector<rocprofiler_counter_id_t>{};
    auto list = [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* c, size_t n, void* data)
    {
        auto* out = static_cast<std::vector<rocprofiler_counter_id_t>*>(data);
        out->insert(out->end(), c, c + n);
        return ROCPROFILER_STATUS_SUCCESS;
    };
    auto status = rocprofiler_spm_iterate_agent_supported_counters(agent.id, list, &ids);
    if(status != ROCPROFILER_STATUS_SUCCESS || ids.empty())
    {
        state->left_out.push_back(std::string{"spm (agent "} + agent.name +
                                  "): no SPM counter: " + rocprofiler_get_status_name(status));
        return false;
    }
    auto interval =
        rocprofiler_spm_parameters_t{sizeof(rocprofiler_spm_parameters_t),
                                     ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES,
                                     offered.front().interval.min_interval};
    rocprofiler_spm_parameters_t* parameters[] = {&interval};
    auto                          config       = rocprofiler_counter_config_id_t{};
    if(!REPLAY_SAMPLE_CHECK(rocprofiler_spm_create_counter_config(
           agent.id, ids.data(), ids.size(), parameters, 1, &config)))
        return false;
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v0_t{};
        if(REPLAY_SAMPLE_CHECK(
               rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info)))
            state->counter_names[id.handle] = info.name != nullptr ? info.name : "?";
    }
    if(state->spm.handle == 0 &&
       !(REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&state->spm)) &&
         REPLAY_SAMPLE_CHECK(rocprofiler_spm_configure_callback_dispatch_service(
             state->spm, choose_spm, nullptr, spm_records, nullptr))))
    {
        state->spm = {};
        return false;
    }
    state->spm_configs[agent.id.handle] = config;
    return true;
}

// Thread trace: configuring is the only way to ask; an agent that cannot trace says so.
rocprofiler_thread_trace_control_flags_t
trace_every_dispatch(rocprofiler_agent_id_t,
                     rocprofiler_queue_id_t,
                     rocprofiler_async_correlation_id_t,
                     rocprofiler_kernel_id_t,
                     rocprofiler_dispatch_id_t,
                     void*,
                     rocprofiler_user_data_t*)
{
    return ROCPROFILER_THREAD_TRACE_CONTROL_START_AND_STOP;
}

void
ignore_shader_data(rocprofiler_thread_trace_shader_data_t, rocprofiler_user_data_t)
{
}

bool
setup_thread_trace(const rocprofiler_agent_v0_t& agent)
{
    if(state->tracing.handle == 0 &&
       !REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&state->tracing)))
        return false;
    auto status = rocprofiler_configure_dispatch_thread_trace_service(
        state->tracing, agent.id, nullptr, 0, trace_every_dispatch, ignore_shader_data, nullptr);
    if(status == ROCPROFILER_STATUS_SUCCESS)
    {
        state->left_out.push_back(std::string{"thread_trace (agent "} + agent.name +
                                  "): offered, but this sample does not decode traces yet");
        state->tracing = {};
        return false;
    }
    state->left_out.push_back(std::string{"thread_trace (agent "} + agent.name +
                              "): " + rocprofiler_get_status_name(status) + ": " +
                              rocprofiler_get_status_string(status));
    // A context without a service is never started: the PASS toggles must leave it alone.
    state->tracing = {};
    return false;
}

bool
plan_agents()
{
    auto wanted = split_list(env_string("REPLAY_COUNTERS").value_or(""));
    for(const auto& agent : gpu_agents())
    {
        auto plan      = agent_plan{};
        auto status    = ROCPROFILER_STATUS_SUCCESS;
        auto available = agent_counters(agent.id, status);
        if(status == ROCPROFILER_STATUS_SUCCESS)
        {
            for(const auto& c : available)
                state->counter_names[c.id.handle] = c.name;
            plan.groups = build_counter_groups(agent.id, select_counters(available, wanted));
        }
        for(uint64_t g = 0; g < plan.groups.size(); ++g)
            plan.sequence.push_back({service::counters, g});
        if(setup_pc_sampling(agent)) plan.sequence.push_back({service::pc_sampling, 0});
        if(setup_spm(agent)) plan.sequence.push_back({service::spm, 0});
        if(setup_thread_trace(agent)) plan.sequence.push_back({service::thread_trace, 0});
        if(plan.sequence.size() < 2) continue; // nothing to replay for
        auto line = std::string{};
        for(const auto& p : plan.sequence)
            line += std::string{line.empty() ? "" : ", "} + service_name(p.what) +
                    (p.what == service::counters ? " " + std::to_string(p.group) : "");
        std::fprintf(stderr, "[%s] agent %s: passes %s\n", tool_name, agent.name, line.c_str());
        state->plans.emplace(agent.id.handle, std::move(plan));
    }
    for(const auto& why : state->left_out)
        std::fprintf(stderr, "[%s] left out: %s\n", tool_name, why.c_str());
    if(state->plans.empty())
        std::fprintf(stderr,
                     "[%s] error: no agent has two services to sequence (counters, PC sampling, "
                     "SPM, thread trace)\n",
                     tool_name);
    return !state->plans.empty();
}

// PC samples go to the pass of their dispatch whose window holds them.
void
attribute_samples(uint64_t& inside, uint64_t& outside, uint64_t& unreplayed)
{
    for(const auto& [dispatch, ts] : state->samples)
    {
        auto first = state->passes.lower_bound({dispatch, 0});
        if(first == state->passes.end() || first->first.first != dispatch)
        {
            ++unreplayed; // a dispatch that ran once
            continue;
        }
        auto found = false;
        for(auto it = first; it != state->passes.end() && it->first.first == dispatch; ++it)
        {
            auto& row = it->second;
            if(ts < row.enter_ns || ts > row.exit_ns) continue;
            found = true;
            if(row.what == service::pc_sampling)
            {
                ++row.samples;
                ++inside;
            }
            else
                ++outside;
            break;
        }
        if(!found) ++outside;
    }
}

void
write_report()
{
    auto inside = uint64_t{0}, outside = uint64_t{0}, unreplayed = uint64_t{0};
    attribute_samples(inside, outside, unreplayed);
    auto per_service = std::map<std::string, uint64_t>{};
    auto spm_samples = uint64_t{0};
    auto out         = std::ofstream{state->output_path};
    out << "dispatch_id,kernel,pass,service,detail\n";
    for(const auto& [key, row] : state->passes)
    {
        const auto* name = service_name(row.what);
        ++per_service[name];
        auto detail = row.detail;
        if(row.what == service::pc_sampling) detail = "samples=" + std::to_string(row.samples);
        if(row.what == service::spm)
        {
            const auto& acc = state->spm_seen[key.first];
            detail          = "samples=" + std::to_string(acc.samples);
            for(const auto& [counter, sum] : acc.sum)
                detail += ";" + counter + ".sum=" + std::to_string(sum) + ";" + counter +
                          ".max=" + std::to_string(acc.max.at(counter));
            if(acc.lost) detail += ";data_loss";
            spm_samples += acc.samples;
        }
        out << key.first << ',' << csv_field(state->names.lookup(row.kernel_id)) << ','
            << key.second << ',' << name << ',' << csv_field(detail) << '\n';
    }
    out.flush();
    auto passes = std::string{};
    for(const auto& [name, n] : per_service)
        passes += (passes.empty() ? "" : ", ") + name + "=" + std::to_string(n);
    std::fprintf(stderr,
                 "[%s] passes: %s; PC samples: %llu in the sampling pass, %llu in other passes, "
                 "%llu of dispatches not replayed; SPM samples in SPM passes: %llu; counting "
                 "requests off a counter pass: %llu\n",
                 tool_name,
                 passes.empty() ? "none" : passes.c_str(),
                 static_cast<unsigned long long>(inside),
                 static_cast<unsigned long long>(outside),
                 static_cast<unsigned long long>(unreplayed),
                 static_cast<unsigned long long>(spm_samples),
                 static_cast<unsigned long long>(state->misplaced_counting.load()));
    if(!out)
        std::fprintf(
            stderr, "[%s] error: cannot write %s\n", tool_name, state->output_path.c_str());
    else
        std::fprintf(stderr, "[%s] wrote %s\n", tool_name, state->output_path.c_str());
}

int
tool_initialize(rocprofiler_client_finalize_t, void*)
{
    return guarded(
        "initialize",
        1,
        []
        {
            auto ok = REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&state->counting)) &&
                      REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
                          state->counting,
                          counting_dispatch_callback,
                          nullptr,
                          counting_record_callback,
                          nullptr)) &&
                      plan_agents();
            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&state->replay)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
                     state->replay,
                     ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                     nullptr,
                     0,
                     replay_callback,
                     nullptr));
            if(ok) state->names.subscribe(state->replay);
            // Started globally once; per pass only the local toggles change.
            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_start_context(state->counting)) &&
                 (state->sampling.handle == 0 ||
                  REPLAY_SAMPLE_CHECK(rocprofiler_start_context(state->sampling))) &&
                 (state->spm.handle == 0 ||
                  REPLAY_SAMPLE_CHECK(rocprofiler_start_context(state->spm))) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_start_context(state->replay));
            if(!ok) std::fprintf(stderr, "[%s] error: the tool is disabled\n", tool_name);
            return ok ? 0 : 1;
        });
}

void
tool_finalize(void*)
{
    guarded("finalize",
            []
            {
                if(state->sample_buf.handle != 0)
                    REPLAY_SAMPLE_CHECK(rocprofiler_flush_buffer(state->sample_buf));
                auto lock = std::lock_guard{state->mutex};
                write_report();
            });
}
} // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t* client_id)
{
    return guarded("configure",
                   static_cast<rocprofiler_tool_configure_result_t*>(nullptr),
                   [&]
                   {
                       tool_name = "replay_service_sequence";
                       if(client_id != nullptr) client_id->name = tool_name;
                       state               = new tool_state{};
                       state->replay_every = env_uint("REPLAY_EVERY", 2, 1, 1000000);
                       if(auto path = env_string("REPLAY_SEQUENCE_OUTPUT"))
                           state->output_path = *path;
                       static auto result = rocprofiler_tool_configure_result_t{
                           sizeof(rocprofiler_tool_configure_result_t),
                           tool_initialize,
                           tool_finalize,
                           nullptr};
                       return &result;
                   });
}
