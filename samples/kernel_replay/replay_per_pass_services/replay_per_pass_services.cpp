// replay_per_pass_services: a different service on different passes of one replayed dispatch,
// with localized context control. Two contexts are started globally in initialize and stay
// started for the whole run:
//   counting context: dispatch counter collection;
//   timing context:   kernel-dispatch buffer tracing (start/end timestamps).
// A replayed dispatch gets N = G + 1 passes, G being the number of counter groups of its agent.
// On passes 0..N-2 the timing context is stopped locally and pass i collects counter group i; on
// the last pass the counting context is stopped locally and the timing context started again, so
// the timestamps come from a pass that no counter collection perturbed.
//
// The local toggles (payload->replay_stop_context / replay_start_context, legal only at PASS
// ENTER) mask contexts for the rest of this one loop on this thread. They never change the global
// state: rocprofiler_context_is_active() stays 1 for both contexts, which the tool checks at every
// CONFIG and PASS ENTER, and dispatches that are not replayed (every other one here) see both
// contexts exactly as before.
//
// Environment: REPLAY_EVERY (replay every k-th dispatch, default 2), REPLAY_COUNTERS
// (comma-separated counter names, default all of the agent's), REPLAY_PER_PASS_OUTPUT (CSV path,
// default replay_per_pass_services.csv).
//
// Threading: replay callbacks, the counting dispatch callback and the correlation request run on
// the submitting thread; counter records on the completion thread; buffer records on an SDK
// thread.
#include "common/sample_common.hpp"

#include <atomic>
#include <cstdio>
#include <fstream>
#include <map>
#include <mutex>
#include <optional>
#include <rocprofiler-sdk/rocprofiler.h>
#include <sstream>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace
{
using namespace replay_sample;

// One record of one pass of one dispatch, from either service.
struct pass_row
{
    rocprofiler_dispatch_id_t dispatch_id = 0;
    uint64_t                  pass        = 0;
    std::string               service     = {}; // "counters" or "timing"
    rocprofiler_kernel_id_t   kernel_id   = 0;
    uint64_t                  start_ns    = 0;
    uint64_t                  end_ns      = 0;
    std::string               values      = {}; // NAME=value;... for counters
};

struct tool_state
{
    uint64_t                 replay_every     = 2;
    std::string              output_path      = "replay_per_pass_services.csv";
    rocprofiler_context_id_t counting_context = {};
    rocprofiler_context_id_t timing_context   = {};
    rocprofiler_context_id_t replay_context   = {};
    rocprofiler_buffer_id_t  timing_buffer    = {};
    kernel_names             names            = {};

    // Written in initialize only, read-only afterwards.
    std::unordered_map<uint64_t, std::vector<counter_group>> groups        = {}; // by agent
    std::unordered_map<uint64_t, std::string>                counter_names = {}; // by counter

    std::atomic<uint64_t> global_checks      = 0;
    std::atomic<uint64_t> global_changes     = 0; // a context found inactive: must stay 0
    std::atomic<uint64_t> misplaced_counting = 0; // counting asked on the timing pass: stays 0

    std::mutex                                    mutex         = {};
    std::vector<pass_row>                         rows          = {}; // guarded by mutex
    std::map<rocprofiler_dispatch_id_t, uint64_t> replay_passes = {}; // guarded by mutex
};

tool_state* state = nullptr; // leaked on purpose: finalize may run during process exit

// The replay pass running on this thread, between PASS ENTER and PASS EXIT.
thread_local std::optional<uint64_t> current_pass = std::nullopt;

const std::vector<counter_group>*
groups_of(rocprofiler_agent_id_t agent)
{
    auto it = state->groups.find(agent.handle);
    return it != state->groups.end() ? &it->second : nullptr;
}

// Both contexts must be globally active whatever a loop masked locally.
void
check_global_state()
{
    for(auto ctx : {state->counting_context, state->timing_context})
    {
        auto active = 0;
        if(!REPLAY_SAMPLE_CHECK(rocprofiler_context_is_active(ctx, &active)) || active != 1)
            ++state->global_changes;
        ++state->global_checks;
    }
}

// G counter passes plus one timing pass for every k-th dispatch; 1 (no replay) for the others.
uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    return guarded("pass count",
                   uint64_t{1},
                   [&]
                   {
                       const auto* groups = groups_of(info.agent_id);
                       if(groups == nullptr || (info.dispatch_id - 1) % state->replay_every != 0)
                           return uint64_t{1};
                       return uint64_t{groups->size() + 1};
                   });
}

// Called at PASS ENTER, the only place where the local toggles are legal.
void
select_services(const rocprofiler_callback_tracing_kernel_replay_data_t& payload)
{
    auto last = payload.current_pass + 1 == payload.total_passes;
    // Sticky: stopped once on pass 0, the timing context stays stopped until the last pass.
    if(payload.current_pass == 0 && !last)
        REPLAY_SAMPLE_CHECK(payload.replay_stop_context(state->timing_context));
    if(last)
    {
        REPLAY_SAMPLE_CHECK(payload.replay_stop_context(state->counting_context));
        REPLAY_SAMPLE_CHECK(payload.replay_start_context(state->timing_context));
    }
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
                {
                    check_global_state(); // after any earlier loop on this thread
                    payload->replay_pass_count = pass_count;
                }
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS &&
                        record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
                {
                    select_services(*payload);
                    check_global_state(); // after this pass's toggles
                    current_pass = payload->current_pass;
                }
                else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
                {
                    current_pass.reset();
                    auto lock = std::lock_guard{state->mutex};
                    ++state->replay_passes[payload->dispatch_info.dispatch_id];
                }
            });
}

// Pass i of a replayed dispatch collects group i; a dispatch that is not replayed collects group
// 0. The pass travels to the record callback in the user data.
void
counting_dispatch_callback(rocprofiler_dispatch_counting_service_data_t dispatch_data,
                           rocprofiler_counter_config_id_t*             config,
                           rocprofiler_user_data_t*                     user_data,
                           void*)
{
    guarded("counting dispatch callback",
            [&]
            {
                const auto* groups = groups_of(dispatch_data.dispatch_info.agent_id);
                auto        pass   = current_pass.value_or(0);
                if(groups == nullptr || groups->empty()) return;
                if(pass >= groups->size())
                {
                    ++state->misplaced_counting; // the timing pass: the context should be masked
                    return;
                }
                *config          = (*groups)[pass].config;
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
            auto row  = pass_row{dispatch_data.dispatch_info.dispatch_id,
                                user_data.value,
                                "counters",
                                dispatch_data.dispatch_info.kernel_id,
                                dispatch_data.start_timestamp,
                                dispatch_data.end_timestamp,
                                values.str()};
            auto lock = std::lock_guard{state->mutex};
            state->rows.push_back(std::move(row));
        });
}

// Stamps the pass into the timing records' external correlation id: pass + 1, 0 outside replay.
int
external_correlation_request(rocprofiler_thread_id_t,
                             rocprofiler_context_id_t,
                             rocprofiler_external_correlation_id_request_kind_t,
                             rocprofiler_tracing_operation_t,
                             uint64_t,
                             rocprofiler_user_data_t* external,
                             void*)
{
    external->value = current_pass ? *current_pass + 1 : 0;
    return 0;
}

void
timing_buffer_callback(rocprofiler_context_id_t,
                       rocprofiler_buffer_id_t,
                       rocprofiler_record_header_t** headers,
                       size_t                        num_headers,
                       void*,
                       uint64_t drop_count)
{
    guarded("timing buffer callback",
            [&]
            {
                if(drop_count > 0)
                    std::fprintf(stderr,
                                 "[%s] warning: %llu timing records dropped\n",
                                 tool_name,
                                 static_cast<unsigned long long>(drop_count));
                auto lock = std::lock_guard{state->mutex};
                for(size_t i = 0; i < num_headers; ++i)
                {
                    if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
                       headers[i]->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
                        continue;
                    const auto* rec =
                        static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
                            headers[i]->payload);
                    auto stamp = rec->correlation_id.external.value;
                    state->rows.push_back(pass_row{rec->dispatch_info.dispatch_id,
                                                   stamp > 0 ? stamp - 1 : 0,
                                                   "timing",
                                                   rec->dispatch_info.kernel_id,
                                                   rec->start_timestamp,
                                                   rec->end_timestamp,
                                                   {}});
                }
            });
}

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
        auto groups = build_counter_groups(agent.id, select_counters(available, wanted));
        if(groups.empty()) continue;
        std::fprintf(stderr,
                     "[%s] agent %s: %zu counter passes + 1 timing pass\n",
                     tool_name,
                     agent.product_name,
                     groups.size());
        state->groups.emplace(agent.id.handle, std::move(groups));
    }
    if(state->groups.empty())
        std::fprintf(stderr, "[%s] error: no agent has any of the requested counters\n", tool_name);
    return !state->groups.empty();
}

void
write_report()
{
    auto& rows = state->rows;
    std::sort(rows.begin(),
              rows.end(),
              [](const pass_row& a, const pass_row& b)
              {
                  return std::tie(a.dispatch_id, a.pass, a.service) <
                         std::tie(b.dispatch_id, b.pass, b.service);
              });
    auto out = std::ofstream{state->output_path};
    out << "dispatch_id,kernel,replay_passes,pass,service,start_ns,end_ns,values\n";
    for(const auto& row : rows)
    {
        auto it     = state->replay_passes.find(row.dispatch_id);
        auto passes = it != state->replay_passes.end() ? it->second : 0; // 0: not replayed
        out << row.dispatch_id << ',' << csv_field(state->names.lookup(row.kernel_id)) << ','
            << passes << ',' << row.pass << ',' << row.service << ',' << row.start_ns << ','
            << row.end_ns << ',' << csv_field(row.values) << '\n';
    }
    out.flush();
    std::fprintf(stderr,
                 "[%s] global state checks: %llu, contexts found inactive: %llu, counting "
                 "requests on a timing pass: %llu\n",
                 tool_name,
                 static_cast<unsigned long long>(state->global_checks.load()),
                 static_cast<unsigned long long>(state->global_changes.load()),
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
            auto& counting = state->counting_context;
            auto& timing   = state->timing_context;
            auto& replay   = state->replay_context;
            auto  kinds    = rocprofiler_external_correlation_id_request_kind_t{
                ROCPROFILER_EXTERNAL_CORRELATION_REQUEST_KERNEL_DISPATCH};

            auto ok = plan_counter_groups() &&
                      REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&counting)) &&
                      REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
                          counting,
                          counting_dispatch_callback,
                          nullptr,
                          counting_record_callback,
                          nullptr));

            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&timing)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_create_buffer(timing,
                                                               1U << 20U,
                                                               1U << 19U,
                                                               ROCPROFILER_BUFFER_POLICY_LOSSLESS,
                                                               timing_buffer_callback,
                                                               nullptr,
                                                               &state->timing_buffer)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_buffer_tracing_service(
                     timing,
                     ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH,
                     nullptr,
                     0,
                     state->timing_buffer)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_external_correlation_id_request_service(
                     timing, &kinds, 1, external_correlation_request, nullptr));

            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_create_context(&replay)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_configure_callback_tracing_service(
                     replay,
                     ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                     nullptr,
                     0,
                     replay_callback,
                     nullptr));
            if(ok) state->names.subscribe(replay); // optional: only names depend on it

            // Started globally, once: from here on only local masks change per pass.
            ok = ok && REPLAY_SAMPLE_CHECK(rocprofiler_start_context(counting)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_start_context(timing)) &&
                 REPLAY_SAMPLE_CHECK(rocprofiler_start_context(replay));
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
                if(state->timing_buffer.handle != 0)
                    REPLAY_SAMPLE_CHECK(rocprofiler_flush_buffer(state->timing_buffer));
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
                       tool_name = "replay_per_pass_services";
                       if(client_id != nullptr) client_id->name = tool_name;
                       state               = new tool_state{};
                       state->replay_every = env_uint("REPLAY_EVERY", 2, 1, 1000000);
                       if(auto path = env_string("REPLAY_PER_PASS_OUTPUT"))
                           state->output_path = *path;
                       static auto result = rocprofiler_tool_configure_result_t{
                           sizeof(rocprofiler_tool_configure_result_t),
                           tool_initialize,
                           tool_finalize,
                           nullptr};
                       return &result;
                   });
}
