// replay_counter_groups: collects more counters than fit in one pass, in one run of the
// application. The counters are packed into groups that each fit the agent's counter slots (one
// counter configuration per group); every dispatch is replayed once per group, and pass i collects
// group i. The values of all passes are merged into one row per dispatch.
//
// How pass i picks group i: the PASS ENTER callback publishes the pass index in a thread-local;
// the dispatch counting callback of that pass runs on the same thread, inside the pass, reads it
// and chooses configuration i. The pass count comes from the dispatch's own agent
// (dispatch_info.agent_id), so pass i maps to group i of that agent with no wrap or skip.
//
// Environment: REPLAY_COUNTERS (comma-separated counter names; default every counter of the
// agent), REPLAY_COUNTER_GROUPS_OUTPUT (CSV path, default replay_counter_groups.csv).
//
// Threading: replay and counting dispatch callbacks run on the submitting thread; the counter
// record callback on the thread that observes the kernel's completion.
#include "common/sample_common.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace
{
using namespace replay_sample;

// The counter groups of one agent, in pass order.
struct agent_plan
{
    std::vector<counter_group> groups   = {};
    std::vector<std::string>   counters = {}; // every counter of the groups, in group order
};

// What one dispatch collected over all of its passes.
struct dispatch_row
{
    rocprofiler_kernel_id_t       kernel_id = 0;
    uint64_t                      agent     = 0;
    std::set<uint64_t>            passes    = {}; // passes that delivered values
    std::map<std::string, double> values    = {}; // by counter name
};

struct tool_state
{
    std::string              output_path = "replay_counter_groups.csv";
    rocprofiler_context_id_t context     = {};
    kernel_names             names       = {};

    // Written in initialize only, read-only afterwards: no lock needed.
    std::unordered_map<uint64_t, agent_plan>  plans         = {}; // by agent handle
    std::unordered_map<uint64_t, std::string> counter_names = {}; // by counter handle
    std::vector<std::string>                  columns       = {}; // counters of every agent

    std::mutex                                        mutex = {};
    std::map<rocprofiler_dispatch_id_t, dispatch_row> rows  = {}; // guarded by mutex
};

tool_state* state = nullptr; // leaked on purpose: finalize may run during process exit

// The replay pass running on this thread, between PASS ENTER and PASS EXIT.
thread_local std::optional<uint64_t> current_pass = std::nullopt;

const agent_plan*
plan_of(rocprofiler_agent_id_t agent)
{
    auto it = state->plans.find(agent.handle);
    return it != state->plans.end() ? &it->second : nullptr;
}

// One pass per group of the dispatch's agent; 1 (no replay) when a single group holds everything
// or the agent has no counters.
uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t dispatch_info, rocprofiler_user_data_t)
{
    return guarded("pass count",
                   uint64_t{1},
                   [&]
                   {
                       const auto* plan = plan_of(dispatch_info.agent_id);
                       return (plan != nullptr && !plan->groups.empty())
                                  ? uint64_t{plan->groups.size()}
                                  : uint64_t{1};
                   });
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    guarded("replay callback",
            [&]
            {
                if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
                auto* payload =
                    static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
                if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
                   record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                    payload->replay_pass_count = pass_count;
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
                {
                    // Cleared at EXIT so that ordinary dispatches never see a stale pass.
                    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                        current_pass = payload->current_pass;
                    else
                        current_pass.reset();
                }
            });
}

// Chooses group i on pass i; a dispatch that is not replayed (a single group) collects group 0.
// The pass travels to the record callback in the dispatch's user data.
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
                auto        pass = current_pass.value_or(0);
                if(plan == nullptr || pass >= plan->groups.size())
                    return; // leave config 0: not counted
                *config          = plan->groups[pass].config;
                user_data->value = pass;
            });
}

void
counting_record_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                         rocprofiler_counter_record_t*                records,
                         size_t                                       record_count,
                         rocprofiler_user_data_t                      user_data,
                         void*)
{
    guarded("counting record callback",
            [&]
            {
                auto  lock    = std::lock_guard{state->mutex};
                auto& row     = state->rows[dispatch_data.dispatch_info.dispatch_id];
                row.kernel_id = dispatch_data.dispatch_info.kernel_id;
                row.agent     = dispatch_data.dispatch_info.agent_id.handle;
                row.passes.insert(user_data.value);
                for(size_t i = 0; i < record_count; ++i)
                {
                    auto counter_id = rocprofiler_counter_id_t{};
                    if(!REPLAY_SAMPLE_CHECK(
                           rocprofiler_query_record_counter_id(records[i].id, &counter_id)))
                        continue;
                    auto name = state->counter_names.find(counter_id.handle);
                    if(name == state->counter_names.end()) continue;
                    // A counter with several instances (dimensions) is summed into one value.
                    row.values[name->second] += records[i].counter_value;
                }
            });
}

// Builds the counter groups of every agent that has counters. Returns false when none has any of
// the requested counters.
bool
plan_counter_groups()
{
    auto wanted = split_list(env_string("REPLAY_COUNTERS").value_or(""));
    for(const auto& agent : gpu_agents())
    {
        auto status    = ROCPROFILER_STATUS_SUCCESS;
        auto available = agent_counters(agent.id, status);
        if(status == ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED) continue; // no counter support
        if(!check(status, "rocprofiler_iterate_agent_supported_counters")) continue;
        for(const auto& c : available)
            state->counter_names[c.id.handle] = c.name;

        auto plan   = agent_plan{};
        plan.groups = build_counter_groups(agent.id, select_counters(available, wanted));
        if(plan.groups.empty()) continue;
        std::fprintf(stderr,
                     "[%s] agent %s: %zu counter groups\n",
                     tool_name,
                     agent.product_name,
                     plan.groups.size());
        for(size_t g = 0; g < plan.groups.size(); ++g)
        {
            auto list = std::string{};
            for(const auto& c : plan.groups[g].counters)
            {
                list += (list.empty() ? "" : ", ") + c.name;
                plan.counters.push_back(c.name);
                if(std::find(state->columns.begin(), state->columns.end(), c.name) ==
                   state->columns.end())
                    state->columns.push_back(c.name);
            }
            std::fprintf(stderr, "[%s]   pass %zu: %s\n", tool_name, g, list.c_str());
        }
        state->plans.emplace(agent.id.handle, std::move(plan));
    }
    if(state->plans.empty())
        std::fprintf(stderr, "[%s] error: no agent has any of the requested counters\n", tool_name);
    return !state->plans.empty();
}

void
write_report()
{
    auto out = std::ofstream{state->output_path};
    out << "dispatch_id,kernel,agent,passes";
    for(const auto& name : state->columns)
        out << ',' << csv_field(name);
    out << '\n';
    auto incomplete = uint64_t{0};
    for(const auto& [dispatch_id, row] : state->rows)
    {
        out << dispatch_id << ',' << csv_field(state->names.lookup(row.kernel_id)) << ','
            << row.agent << ',' << row.passes.size();
        for(const auto& name : state->columns)
        {
            out << ',';
            if(auto it = row.values.find(name); it != row.values.end()) out << it->second;
        }
        out << '\n';
        const auto& plan     = state->plans.at(row.agent);
        auto        complete = row.passes.size() == plan.groups.size();
        for(const auto& name : plan.counters)
            complete = complete && row.values.count(name) == 1;
        if(!complete) ++incomplete;
    }
    out.flush();
    std::fprintf(stderr,
                 "[%s] %zu dispatches, %zu counters; %llu dispatches are missing values\n",
                 tool_name,
                 state->rows.size(),
                 state->columns.size(),
                 static_cast<unsigned long long>(incomplete));
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
            auto& ctx = state->context;
            auto  ok =
                plan_counter_groups() && REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&ctx)) &&
                REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
                    ctx, counting_dispatch_callback, nullptr, counting_record_callback, nullptr)) &&
                REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
                    ctx,
                    ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                    nullptr,
                    0,
                    replay_callback,
                    nullptr));
            if(ok) state->names.subscribe(ctx); // optional: only names depend on it
            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_start_context(ctx));
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
                       tool_name = "replay_counter_groups";
                       if(client_id != nullptr) client_id->name = tool_name;
                       state = new tool_state{};
                       if(auto path = env_string("REPLAY_COUNTER_GROUPS_OUTPUT"))
                           state->output_path = *path;
                       static auto result = rocprofiler_tool_configure_result_t{
                           sizeof(rocprofiler_tool_configure_result_t),
                           tool_initialize,
                           tool_finalize,
                           nullptr};
                       return &result;
                   });
}
