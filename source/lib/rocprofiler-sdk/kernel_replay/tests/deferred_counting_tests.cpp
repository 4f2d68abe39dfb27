// Deferred counter values under kernel replay (dispatch/dispatch.hpp: execution_request::replayed,
// pass, pass_count, execution; execution_result::counters_deferred and resolved;
// launch_backend::finish_counting).
//
// A fake backend sits behind dispatch::intercept, as an adapter's would, on the host reference
// device's agent (it has counters, so counter configurations of that agent match the dispatch's
// agent). Its executions complete on a thread of their own, with made-up timestamps that differ
// per execution. How it hands back counter values is set per test:
// - none:          plain values with every execution (the control);
// - in_last_pass:  every execution deferred, all of them resolved by the last pass's execution;
// - at_finish:     every execution deferred, all of them resolved by finish_counting();
// - finish_fails:  every execution deferred; finish_counting() resolves execution 0, reports an
//                  error for execution 1 and says nothing of execution 2.
// A value is value_of(execution, counter), so a record holding another execution's values fails.
//
// The tool (configured by the fixture before every test):
// - replay:   KERNEL_REPLAY callback tracing; the target kernel replays `passes` times; the current
//             pass is published in a thread-local at PASS ENTER and cleared at PASS EXIT;
// - counting: callback dispatch counting; pass p collects groups[p], user_data = p + 1;
// - buffered: buffer dispatch counting (LOSSLESS buffer); group 0 on every pass,
//             user_data = 100 + p + 1.
#include "agent/agent.hpp"
#include "common/logging.hpp"
#include "dispatch/dispatch.hpp"
#include "fake_memory.hpp"
#include "host/backend.hpp"
#include "sdk_test.hpp"

#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace
{
namespace dispatch = rocprofiler::dispatch;
using payload_t    = rocprofiler_callback_tracing_kernel_replay_data_t;

constexpr uint64_t target_kernel   = 0xDEFE001;
constexpr uint64_t passes          = 3;
constexpr uint64_t buffered_bias   = 100; // the buffered context's user_data: bias + pass + 1
const char* const  counter_names[] = {"WORK_ITEMS", "DURATION_NS", "WORKGROUPS"};

double
value_of(uint64_t execution, uint64_t counter)
{
    return static_cast<double>(1000 * (execution + 1) + counter);
}

// The counter registry reads the metric files once per process, on first use: name the shipped
// file before any test runs (derived_values_are_computed_from_the_resolved_values_of_their_pass).
const bool metrics_path_set =
    ::setenv("ROCPROFILER_METRICS_PATH", ROCPROFILER_BUILD_METRICS, 0) == 0;

// --- the tool ------------------------------------------------------------------------------------

// One dispatch counting record set: a callback record, or a buffer header with its values.
struct counter_set
{
    uint64_t                   dispatch_id     = 0;
    uint64_t                   correlation     = 0; // internal correlation id
    uint64_t                   start           = 0;
    uint64_t                   end             = 0;
    uint64_t                   user_data       = 0;  // record callback's user_data argument
    std::vector<uint64_t>      value_user_data = {}; // rocprofiler_counter_record_t::user_data
    std::map<uint64_t, double> values          = {}; // counter id -> value
    size_t                     num_records     = 0;
    int64_t                    pass            = -1;    // published on the delivering thread
    bool                       in_intercept    = false; // on the submitting thread, inside it
};

struct tool_state
{
    rocprofiler_context_id_t                     replay      = {};
    rocprofiler_context_id_t                     counting    = {};
    rocprofiler_context_id_t                     buffered    = {};
    rocprofiler_buffer_id_t                      buffer      = {};
    rocprofiler_agent_id_t                       agent       = {};
    std::vector<rocprofiler_counter_config_id_t> groups      = {}; // callback context: pass p
    std::vector<std::vector<uint64_t>>           group_ids   = {}; // counter ids of each group
    int64_t                                      continue_to = -1; // >= 0: replay_continue set
    uint64_t derived_config = 0; // nonzero: the callback context collects it on every pass

    std::mutex               mutex       = {};
    uint64_t                 dispatch_id = 0; // at CONFIG ENTER
    std::vector<counter_set> callback    = {};
    std::vector<counter_set> buffer_sets = {};
};

tool_state&
tool()
{
    static auto* value = new tool_state{}; // never destroyed: buffer callbacks may run at exit
    return *value;
}

thread_local int64_t this_thread_pass         = -1;
thread_local bool    this_thread_in_intercept = false;
int                  buffered_marker          = 1; // the buffered service's callback argument

uint64_t
pass_count_cb(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return passes;
}

int
continue_cb(rocprofiler_kernel_dispatch_info_t, uint64_t pass, uint64_t, rocprofiler_user_data_t)
{
    return static_cast<int64_t>(pass) < tool().continue_to ? 1 : 0;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    auto* payload = static_cast<payload_t*>(record.payload);
    if(payload->dispatch_info.kernel_id != target_kernel) return;
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        if(record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return;
        payload->replay_pass_count = pass_count_cb;
        if(tool().continue_to >= 0) payload->replay_continue = continue_cb;
        auto lock          = std::lock_guard{tool().mutex};
        tool().dispatch_id = payload->dispatch_info.dispatch_id;
        return;
    }
    this_thread_pass = record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER
                           ? static_cast<int64_t>(payload->current_pass)
                           : -1;
}

void
choose_config(rocprofiler_dispatch_counting_service_data_t data,
              rocprofiler_counter_config_id_t*             config,
              rocprofiler_user_data_t*                     user_data,
              void*                                        args)
{
    if(data.dispatch_info.kernel_id != target_kernel || this_thread_pass < 0) return;
    const auto pass     = static_cast<uint64_t>(this_thread_pass);
    const bool buffered = args == &buffered_marker;
    *config             = tool().groups.at(buffered ? 0 : pass);
    if(!buffered && tool().derived_config != 0) config->handle = tool().derived_config;
    user_data->value = (buffered ? buffered_bias : 0) + pass + 1;
}

uint64_t
counter_of(rocprofiler_counter_instance_id_t instance)
{
    auto id = rocprofiler_counter_id_t{};
    EXPECT_EQ(rocprofiler_query_record_counter_id(instance, &id), ROCPROFILER_STATUS_SUCCESS);
    return id.handle;
}

// A callback record's data or a buffer header: what every counter set starts from.
template <typename DispatchT>
counter_set
set_of(const DispatchT& data, size_t num_records)
{
    auto set        = counter_set{};
    set.dispatch_id = data.dispatch_info.dispatch_id;
    set.correlation = data.correlation_id.internal;
    set.start       = data.start_timestamp;
    set.end         = data.end_timestamp;
    set.num_records = num_records;
    return set;
}

void
record_callback(rocprofiler_dispatch_counting_service_data_t data,
                rocprofiler_counter_record_t*                records,
                size_t                                       count,
                rocprofiler_user_data_t                      user_data,
                void*)
{
    if(data.dispatch_info.kernel_id != target_kernel) return;
    auto set         = set_of(data, count);
    set.user_data    = user_data.value;
    set.pass         = this_thread_pass;
    set.in_intercept = this_thread_in_intercept;
    for(size_t i = 0; i < count; ++i)
    {
        set.values[counter_of(records[i].id)] = records[i].counter_value;
        set.value_user_data.push_back(records[i].user_data.value);
        EXPECT_EQ(records[i].dispatch_id, set.dispatch_id);
    }
    auto lock = std::lock_guard{tool().mutex};
    tool().callback.push_back(set);
}

// The buffered context's counter records: a header starts a set, values join the last one.
const auto* const buffered_records =
    new sdk_test::counter_sink{[](const rocprofiler_dispatch_counting_service_record_t& h)
                               {
                                   auto set  = set_of(h, h.num_records);
                                   auto lock = std::lock_guard{tool().mutex};
                                   tool().buffer_sets.push_back(set);
                               },
                               [](const rocprofiler_counter_record_t& v)
                               {
                                   auto  lock = std::lock_guard{tool().mutex};
                                   auto& sets = tool().buffer_sets;
                                   if(sets.empty()) return;
                                   sets.back().values[counter_of(v.id)] = v.counter_value;
                                   sets.back().value_user_data.push_back(v.user_data.value);
                                   sets.back().user_data = v.user_data.value;
                               }}; // never destroyed: exit-time finalization delivers

// Counter configurations on the host agent: groups[0] = {WORK_ITEMS, DURATION_NS},
// groups[1] = {WORKGROUPS}, groups[2] = {DURATION_NS, WORKGROUPS}.
void
make_groups(tool_state& t)
{
    t.groups.clear();
    t.group_ids.clear();
    const auto by_name = sdk_test::counters_by_name(t.agent);
    const auto layout  = std::vector<std::vector<int>>{{0, 1}, {2}, {1, 2}};
    for(const auto& group : layout)
    {
        auto members = std::vector<rocprofiler_counter_id_t>{};
        auto handles = std::vector<uint64_t>{};
        for(auto index : group)
        {
            if(by_name.count(counter_names[index]) == 0) std::abort();
            members.push_back(by_name.at(counter_names[index]));
            handles.push_back(members.back().handle);
        }
        auto cfg = rocprofiler_counter_config_id_t{};
        SDK_TEST_CHECK(
            rocprofiler_create_counter_config(t.agent, members.data(), members.size(), &cfg));
        t.groups.push_back(cfg);
        t.group_ids.push_back(handles);
    }
}

void
initialize_tool()
{
    auto& t        = tool();
    auto  agent_id = rocprofiler::agent::id_of(rocprofiler::host::get_device_backend(), 0);
    if(!agent_id) std::abort();
    t.agent = *agent_id;
    make_groups(t);

    t.replay   = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                  replay_callback);
    t.counting = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
        t.counting, choose_config, nullptr, record_callback, nullptr));
    t.buffered = sdk_test::create_context();
    t.buffer   = sdk_test::create_counter_buffer(t.buffered, 65536, 32768, buffered_records);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_dispatch_counting_service(
        t.buffered, t.buffer, choose_config, &buffered_marker));
    sdk_test::start({t.replay, t.counting, t.buffered});
}

// --- the fake backend ----------------------------------------------------------------------------

enum class deferral
{
    none,
    in_last_pass,
    at_finish,
    finish_fails,
};

// An execution_request as the backend saw it, and the timestamps it gave that execution.
struct seen_request
{
    bool                  replayed   = false;
    uint64_t              pass       = 0;
    uint64_t              pass_count = 0;
    uint64_t              execution  = 0;
    std::vector<uint64_t> counters   = {};
    uint64_t              start      = 0;
    uint64_t              end        = 0;
};

class fake_memory final : public replay_test::memoryless_backend
{
public:
    bool drain(uint64_t) override { return true; }
    std::optional<dispatch::decline_reason>
    snapshot(const std::vector<dispatch::memory_range>&) override
    {
        return std::nullopt;
    }
    bool restore() override { return true; }
    void release() override {}
};

class fake_launch final : public dispatch::launch_backend
{
public:
    explicit fake_launch(deferral mode)
        : m_mode{mode}
    {
    }
    ~fake_launch() override
    {
        for(auto& t : m_threads)
            t.join();
    }
    fake_launch(const fake_launch&)            = delete;
    fake_launch& operator=(const fake_launch&) = delete;

    void enqueue(dispatch::completion_fn                            on_complete,
                 std::shared_ptr<const dispatch::execution_request> request) override
    {
        // Not used by these tests (every pass is counted); runs the kernel without counters.
        if(request->counters.empty())
        {
            ++plain_enqueues;
            complete(std::move(on_complete), timestamps(m_executions++));
            return;
        }
        auto result = timestamps(m_executions++);
        auto seen   = seen_request{request->replayed,
                                 request->pass,
                                 request->pass_count,
                                 request->execution,
                                 {},
                                 result.start_ns,
                                 result.end_ns};
        for(const auto* def : request->counters)
            seen.counters.push_back(def->id.handle);
        requests.push_back(seen);

        if(m_mode == deferral::none)
            result.counters = values(requests.back());
        else
        {
            result.counters_deferred = true;
            if(m_mode == deferral::in_last_pass && request->pass_count != 0 &&
               request->pass + 1 == request->pass_count)
                result.resolved = resolve_all();
        }
        complete(std::move(on_complete), result);
    }

    std::vector<dispatch::deferred_counters> finish_counting() override
    {
        ++finish_calls;
        if(m_mode == deferral::at_finish) return resolve_all();
        if(m_mode != deferral::finish_fails) return {};
        auto out = std::vector<dispatch::deferred_counters>{};
        for(const auto& r : requests)
        {
            if(r.execution == 0) out.push_back({r.execution, values(r), {}});
            if(r.execution == 1) out.push_back({r.execution, {}, "counter session lost"});
        }
        return out;
    }

    void signal_application(const dispatch::execution_result& last) override
    {
        ++signals;
        signalled_start = last.start_ns;
        auto lock       = std::lock_guard{tool().mutex};
        sets_at_signal  = tool().callback.size();
    }

    dispatch::memory_backend* memory() override { return &m_memory; }

    // Submitting thread only.
    std::vector<seen_request> requests        = {};
    int                       plain_enqueues  = 0;
    int                       finish_calls    = 0;
    int                       signals         = 0;
    uint64_t                  signalled_start = 0;
    size_t                    sets_at_signal  = 0;

private:
    static dispatch::execution_result timestamps(uint64_t n)
    {
        auto result     = dispatch::execution_result{};
        result.start_ns = 1'000'000 * (n + 1);
        result.end_ns   = result.start_ns + 5'000 + 17 * n;
        return result;
    }

    static std::vector<dispatch::counter_value> values(const seen_request& r)
    {
        auto out = std::vector<dispatch::counter_value>{};
        for(auto id : r.counters)
            out.push_back({rocprofiler_counter_id_t{id}, value_of(r.execution, id)});
        return out;
    }

    std::vector<dispatch::deferred_counters> resolve_all() const
    {
        auto out = std::vector<dispatch::deferred_counters>{};
        for(const auto& r : requests)
            out.push_back({r.execution, values(r), {}});
        return out;
    }

    // The kernel "runs" on a thread of its own, which reports its completion.
    void complete(dispatch::completion_fn on_complete, dispatch::execution_result result)
    {
        m_threads.emplace_back([fn = std::move(on_complete), result] { fn(result); });
    }

    deferral                 m_mode;
    uint64_t                 m_executions = 0;
    fake_memory              m_memory     = {};
    std::vector<std::thread> m_threads    = {};
};

// --- running one dispatch ------------------------------------------------------------------------

struct outcome
{
    std::shared_ptr<fake_launch> backend      = {};
    uint64_t                     dispatch_id  = 0;
    size_t                       sets_on_exit = 0; // callback sets when intercept returned
    std::vector<counter_set>     callback     = {};
    std::vector<counter_set>     buffer_sets  = {};
};

// One launch of the target kernel through the pipeline, as an adapter submits it.
outcome
run(deferral mode)
{
    auto out            = outcome{};
    out.backend         = std::make_shared<fake_launch>(mode);
    auto info           = dispatch::launch_info{};
    info.agent          = tool().agent;
    info.queue          = rocprofiler_queue_id_t{0xDEFE};
    info.kernel_id      = target_kernel;
    info.kernel_name    = "deferred_counting_kernel";
    info.workgroup_size = {64, 1, 1};
    info.grid_size      = {256, 1, 1};

    this_thread_in_intercept = true;
    dispatch::intercept(info, out.backend);
    this_thread_in_intercept = false;
    {
        auto lock        = std::lock_guard{tool().mutex};
        out.sets_on_exit = tool().callback.size();
    }
    EXPECT_EQ(rocprofiler_flush_buffer(tool().buffer), ROCPROFILER_STATUS_SUCCESS);
    auto lock       = std::lock_guard{tool().mutex};
    out.dispatch_id = tool().dispatch_id;
    out.callback    = tool().callback;
    out.buffer_sets = tool().buffer_sets;
    return out;
}

std::set<uint64_t>
ids_of(const std::map<uint64_t, double>& values)
{
    auto out = std::set<uint64_t>{};
    for(const auto& [id, value] : values)
        out.insert(id);
    return out;
}

// A record set for execution `e` (= pass e): its pass's timestamps, the user_data its dispatch
// callback set, the counters of `group` with execution e's values.
void
expect_set(const counter_set&           set,
           const outcome&               out,
           uint64_t                     e,
           uint64_t                     user_data,
           const std::vector<uint64_t>& group)
{
    SCOPED_TRACE("execution " + std::to_string(e));
    ASSERT_LT(e, out.backend->requests.size());
    const auto& req = out.backend->requests[e];
    EXPECT_EQ(set.dispatch_id, out.dispatch_id);
    EXPECT_EQ(set.start, req.start) << "the timestamps of the record's own pass";
    EXPECT_EQ(set.end, req.end);
    EXPECT_EQ(set.user_data, user_data);
    EXPECT_EQ(set.num_records, group.size());
    EXPECT_EQ(set.value_user_data, std::vector<uint64_t>(group.size(), user_data));
    EXPECT_EQ(ids_of(set.values), std::set<uint64_t>(group.begin(), group.end()));
    for(const auto& [id, value] : set.values)
        EXPECT_EQ(value, value_of(e, id)) << "counter " << id;
}

// What every mode shares: the requests the backend saw, one application signal, and record sets
// (callback and buffer) for exactly the executions in `delivered`, delivered inside intercept on
// the submitting thread.
void
expect_outcome(const outcome&               out,
               const std::vector<uint64_t>& delivered,
               uint64_t                     ran        = passes,
               uint64_t                     pass_count = passes)
{
    const auto& t  = tool();
    const auto& be = *out.backend;
    ASSERT_NE(out.dispatch_id, 0u) << "CONFIG fired for the target kernel";
    ASSERT_EQ(be.requests.size(), ran);
    for(uint64_t i = 0; i < ran; ++i)
    {
        SCOPED_TRACE("request " + std::to_string(i));
        const auto& r = be.requests[i];
        EXPECT_TRUE(r.replayed);
        EXPECT_EQ(r.pass, i);
        EXPECT_EQ(r.pass_count, pass_count);
        EXPECT_EQ(r.execution, i);
        auto want = std::set<uint64_t>(t.group_ids[i].begin(), t.group_ids[i].end());
        want.insert(t.group_ids[0].begin(), t.group_ids[0].end());
        EXPECT_EQ(std::set<uint64_t>(r.counters.begin(), r.counters.end()), want)
            << "the union of both contexts' configurations";
    }
    EXPECT_EQ(be.plain_enqueues, 0);
    EXPECT_EQ(be.finish_calls, 1) << "finish_counting() once, after the last pass";
    EXPECT_EQ(be.signals, 1) << "the application is signalled exactly once";
    EXPECT_EQ(be.signalled_start, be.requests.back().start) << "with the last pass's result";
    EXPECT_EQ(be.sets_at_signal, delivered.size()) << "records came before the signal";
    EXPECT_EQ(out.sets_on_exit, delivered.size()) << "records came before intercept returned";

    ASSERT_EQ(out.callback.size(), delivered.size());
    ASSERT_EQ(out.buffer_sets.size(), delivered.size());
    // Spec: record callbacks arrive once per pass with identical correlation and dispatch ids,
    // deferred or not.
    for(const auto* sets : {&out.callback, &out.buffer_sets})
        for(const auto& s : *sets)
        {
            EXPECT_NE(s.correlation, 0u);
            EXPECT_EQ(s.correlation, out.callback.front().correlation)
                << "the same internal correlation id on every pass";
        }
    for(uint64_t e : delivered)
    {
        auto cb = std::find_if(out.callback.begin(),
                               out.callback.end(),
                               [e](const counter_set& s) { return s.user_data == e + 1; });
        ASSERT_NE(cb, out.callback.end()) << "callback records of execution " << e;
        expect_set(*cb, out, e, e + 1, t.group_ids[e]);
        EXPECT_TRUE(cb->in_intercept) << "on the submitting thread, before intercept returned";
        auto buf = std::find_if(out.buffer_sets.begin(),
                                out.buffer_sets.end(),
                                [e](const counter_set& s)
                                { return s.user_data == buffered_bias + e + 1; });
        ASSERT_NE(buf, out.buffer_sets.end()) << "buffer records of execution " << e;
        expect_set(*buf, out, e, buffered_bias + e + 1, t.group_ids[0]);
    }
}

std::vector<int64_t>
delivery_passes(const outcome& out)
{
    auto result = std::vector<int64_t>{};
    for(const auto& s : out.callback)
        result.push_back(s.pass);
    return result;
}

class deferred_counting : public ::testing::Test
{
protected:
    void SetUp() override
    {
        clear();
        unsetenv("ROCPROFILER_LOG_LEVEL"); // warnings are printed (the failure test reads them)
        rocprofiler::common::log::reset_level_from_environment();
        ASSERT_EQ(sdk_test::configure_tool("kernel-replay-deferred-counting", initialize_tool),
                  ROCPROFILER_STATUS_SUCCESS);
    }
    void        TearDown() override { clear(); }
    static void clear()
    {
        auto lock             = std::lock_guard{tool().mutex};
        tool().dispatch_id    = 0;
        tool().continue_to    = -1;
        tool().derived_config = 0;
        tool().callback.clear();
        tool().buffer_sets.clear();
    }
};

// Control: values with every execution; each pass's records arrive within that pass.
TEST_F(deferred_counting, plain_values_arrive_in_their_own_pass)
{
    const auto out = run(deferral::none);
    expect_outcome(out, {0, 1, 2});
    EXPECT_EQ(delivery_passes(out), (std::vector<int64_t>{0, 1, 2}));
}

// Every execution deferred and resolved by the last pass's execution: all records arrive in the
// last pass, each with its own pass's timestamps, user_data and values.
TEST_F(deferred_counting, values_resolved_in_the_last_pass_reach_every_pass)
{
    const auto out = run(deferral::in_last_pass);
    expect_outcome(out, {0, 1, 2});
    EXPECT_EQ(delivery_passes(out), (std::vector<int64_t>(passes, passes - 1)))
        << "delivered when the last pass resolved them, not earlier";
}

// Nothing resolved during the passes: finish_counting() resolves everything, after the last PASS
// EXIT and still before intercept returns.
TEST_F(deferred_counting, values_resolved_by_finish_counting_reach_every_pass)
{
    const auto out = run(deferral::at_finish);
    expect_outcome(out, {0, 1, 2});
    EXPECT_EQ(delivery_passes(out), (std::vector<int64_t>(passes, -1)))
        << "delivered by finish_counting(), after the last pass";
}

// finish_counting() resolves execution 0, fails execution 1 and forgets execution 2: records for
// execution 0 only, and a warning for each of the others. The warnings are logged once per
// process (warn_once), and only this test's fake backend ever causes them.
TEST_F(deferred_counting, failed_and_unresolved_executions_get_no_records)
{
    ::testing::internal::CaptureStderr();
    const auto out = run(deferral::finish_fails);
    const auto err = ::testing::internal::GetCapturedStderr();
    expect_outcome(out, {0});
    EXPECT_NE(err.find("counter session lost"), std::string::npos) << err;
    EXPECT_NE(err.find("pass 2 never arrived"), std::string::npos) << err;
    EXPECT_EQ(err.find("pass 0 never arrived"), std::string::npos) << err;
}

// replay_continue may end the loop early, so no pass count is certain: pass_count is 0. Here it
// ends the loop after pass 1 of 3; finish_counting() resolves the two executions that ran.
TEST_F(deferred_counting, replay_continue_makes_the_pass_count_uncertain)
{
    tool().continue_to = 1;
    const auto out     = run(deferral::at_finish);
    expect_outcome(out, {0, 1}, 2, 0);
}
// A derived counter's values take the deferred path like any other: each pass's record holds the
// expression evaluated on that pass's own resolved base values, and only the derived counter
// (the tool did not ask for its bases). Needs the shipped metrics file (metrics_path_set).
TEST_F(deferred_counting, derived_values_are_computed_from_the_resolved_values_of_their_pass)
{
    ASSERT_TRUE(metrics_path_set);
    const auto by_name = sdk_test::counters_by_name(tool().agent);
    ASSERT_EQ(by_name.count("WORK_ITEMS_PER_WORKGROUP"), 1u)
        << "the shipped metrics file was not read (ROCPROFILER_METRICS_PATH)";
    auto derived_id = by_name.at("WORK_ITEMS_PER_WORKGROUP");
    auto cfg        = rocprofiler_counter_config_id_t{};
    ASSERT_EQ(rocprofiler_create_counter_config(tool().agent, &derived_id, 1, &cfg),
              ROCPROFILER_STATUS_SUCCESS);
    tool().derived_config = cfg.handle;
    const auto out        = run(deferral::at_finish);
    const auto items      = by_name.at("WORK_ITEMS").handle;
    const auto groups     = by_name.at("WORKGROUPS").handle;

    ASSERT_EQ(out.backend->requests.size(), passes);
    for(const auto& r : out.backend->requests)
    {
        EXPECT_NE(std::find(r.counters.begin(), r.counters.end(), items), r.counters.end())
            << "the backend measures the derived counter's bases";
        EXPECT_NE(std::find(r.counters.begin(), r.counters.end(), groups), r.counters.end());
        EXPECT_EQ(std::find(r.counters.begin(), r.counters.end(), derived_id.handle),
                  r.counters.end())
            << "and never the derived counter itself";
    }
    ASSERT_EQ(out.callback.size(), passes);
    for(const auto& set : out.callback)
    {
        ASSERT_GE(set.user_data, 1u);
        const auto e = set.user_data - 1; // the pass, = the execution
        SCOPED_TRACE("execution " + std::to_string(e));
        EXPECT_EQ(set.pass, -1) << "delivered by finish_counting()";
        ASSERT_EQ(set.values.size(), 1u);
        ASSERT_EQ(set.values.count(derived_id.handle), 1u);
        EXPECT_EQ(set.values.at(derived_id.handle), value_of(e, items) / value_of(e, groups));
    }
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
}
} // namespace
