// Device (agent-wide) counting on the host reference device through the public API: the sums of
// every dispatch on the agent since the context started (from any thread, every pass of a replayed
// dispatch), synchronous and asynchronous samples, stop and start, two contexts, derived counters
// over the sums, the set_config callback's statuses, and the documented statuses of bad input.
// Every value is checked against what the test program knows its dispatches did.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "dispatch/device_counting.hpp"
#include "sdk_test.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace
{
// Two derived metrics of the test's own, in a directory of their own given as
// ROCPROFILER_METRICS_PATH: one over counters that add up, one over WORKERS_ACTIVE, which does not.
// The counter registry reads them once, on its first use, so before any test.
const char* const test_metrics = R"({ "version": 1, "derived": [
    { "name": "WORK_ITEMS_PER_WORKGROUP", "expression": "WORK_ITEMS / WORKGROUPS" },
    { "name": "WORKERS_PER_WORKGROUP", "expression": "WORKERS_ACTIVE / WORKGROUPS" } ] })";

const bool metrics_path_set = []
{
    static auto dir = std::string{"/tmp/device-counting-tests-XXXXXX"};
    if(mkdtemp(dir.data()) == nullptr) std::abort();
    static const auto file = dir + "/metrics.json";
    std::ofstream{file} << test_metrics;
    setenv("ROCPROFILER_METRICS_PATH", dir.c_str(), 1);
    std::atexit(
        []
        {
            std::remove(file.c_str());
            std::remove(dir.c_str());
        });
    return true;
}();

constexpr uint32_t spin_us = 100; // CPU time each work-item burns

struct tool_state
{
    rocprofiler_agent_id_t   agent      = {};
    rocprofiler_context_id_t counting   = {}; // device counting with a buffer
    rocprofiler_context_id_t second     = {}; // device counting, another context
    rocprofiler_context_id_t unbuffered = {}; // device counting without a buffer
    rocprofiler_context_id_t tracing    = {}; // no device counting
    rocprofiler_context_id_t replay     = {}; // KERNEL_REPLAY callbacks (replay fixture)
    rocprofiler_buffer_id_t  buffer     = {};
    uint64_t                 replayed   = 0; // kernel id replayed in three passes
    std::mutex               mutex      = {};
    std::map<uint64_t, rocprofiler_counter_config_id_t> chosen   = {}; // context -> config
    std::map<uint64_t, int>                             asked    = {}; // context -> callback calls
    std::vector<rocprofiler_counter_record_t>           buffered = {};
    std::map<std::string, rocprofiler_status_t>         seen     = {};
    rocprofiler_device_counting_agent_cb_t              kept_set_config = nullptr;
    bool                                                throw_in_choose = false;
    std::vector<rocprofiler_status_t>                   local_stops     = {};
};

tool_state&
state()
{
    static auto* value = new tool_state{};
    return *value;
}

void
reset_state()
{
    auto  lock = std::lock_guard{state().mutex};
    auto& st   = state();
    st.chosen.clear();
    st.asked.clear();
    st.buffered.clear();
    st.seen.clear();
    st.kept_set_config = nullptr;
    st.throw_in_choose = false;
    st.local_stops.clear();
}

// The tool's choice at each start: the config the test put in `chosen` for the context (none when
// absent). Also tries set_config with what must be refused, once per start.
void
choose(rocprofiler_context_id_t               ctx,
       rocprofiler_agent_id_t                 agent,
       rocprofiler_device_counting_agent_cb_t set_config,
       void*                                  data)
{
    auto  lock = std::lock_guard{state().mutex};
    auto& st   = state();
    ++st.asked[ctx.handle];
    if(st.throw_in_choose) throw std::runtime_error{"the tool's device counting callback threw"};
    st.kept_set_config = set_config;
    st.seen["agent is the configured one"] =
        agent.handle == st.agent.handle ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR;
    st.seen["user data"]      = data == &st ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR;
    st.seen["unknown config"] = set_config(ctx, rocprofiler_counter_config_id_t{987654});
    st.seen["unknown context"] =
        set_config(rocprofiler_context_id_t{999}, rocprofiler_counter_config_id_t{1});
    st.seen["context without device counting"] =
        set_config(st.tracing, rocprofiler_counter_config_id_t{1});
    if(auto itr = st.chosen.find(ctx.handle); itr != st.chosen.end())
        st.seen["chosen"] = set_config(ctx, itr->second);
}

const auto* const sink =
    new sdk_test::counter_sink{{},
                               [](const rocprofiler_counter_record_t& v)
                               {
                                   auto lock = std::lock_guard{state().mutex};
                                   state().buffered.push_back(v);
                               }}; // never destroyed: exit-time finalization delivers

void
noop_dispatch(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
}

void
counting_cb(rocprofiler_dispatch_counting_service_data_t,
            rocprofiler_counter_config_id_t*,
            rocprofiler_user_data_t*,
            void*)
{
}

void
initialize_tool()
{
    auto& st    = state();
    st.agent    = sdk_test::gpu_agent();
    st.tracing  = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                    noop_dispatch);
    st.counting = sdk_test::create_context();
    st.buffer   = sdk_test::create_counter_buffer(st.counting, 4096, 0, sink);
    SDK_TEST_CHECK(rocprofiler_configure_device_counting_service(
        st.counting, st.buffer, st.agent, choose, &st));
    st.second = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_device_counting_service(
        st.second, rocprofiler_buffer_id_t{0}, st.agent, choose, &st));
    st.unbuffered = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_device_counting_service(
        st.unbuffered, rocprofiler_buffer_id_t{0}, st.agent, choose, &st));

    // Configuration statuses, checked by a test.
    auto& seen              = st.seen;
    seen["configure twice"] = rocprofiler_configure_device_counting_service(
        st.counting, st.buffer, st.agent, choose, &st);
    seen["configure null callback"] = rocprofiler_configure_device_counting_service(
        st.counting, st.buffer, st.agent, nullptr, &st);
    seen["configure unknown buffer"] = rocprofiler_configure_device_counting_service(
        sdk_test::create_context(), rocprofiler_buffer_id_t{424242}, st.agent, choose, &st);
    seen["configure unknown agent"] = rocprofiler_configure_device_counting_service(
        sdk_test::create_context(), st.buffer, rocprofiler_agent_id_t{999}, choose, &st);
    seen["configure unknown context"] = rocprofiler_configure_device_counting_service(
        rocprofiler_context_id_t{999}, st.buffer, st.agent, choose, &st);
    auto dispatch_first = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
        dispatch_first,
        counting_cb,
        nullptr,
        [](rocprofiler_dispatch_counting_service_data_t,
           rocprofiler_counter_record_t*,
           size_t,
           rocprofiler_user_data_t,
           void*) {},
        nullptr));
    seen["device after dispatch counting"] = rocprofiler_configure_device_counting_service(
        dispatch_first, st.buffer, st.agent, choose, &st);
    seen["dispatch after device counting"] = rocprofiler_configure_buffer_dispatch_counting_service(
        st.counting, st.buffer, counting_cb, nullptr);
    seen["pc sampling after device counting"] =
        rocprofiler_configure_pc_sampling_service(st.counting,
                                                  st.agent,
                                                  ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,
                                                  ROCPROFILER_PC_SAMPLING_UNIT_TIME,
                                                  1000 * 1000,
                                                  st.buffer,
                                                  0);
}

// Each work-item burns spin_us of its thread's CPU time.
struct spin_args
{
    uint32_t us = spin_us;
};

std::chrono::nanoseconds
thread_cpu_time()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return std::chrono::seconds{ts.tv_sec} + std::chrono::nanoseconds{ts.tv_nsec};
}

void
spin(const rocprofiler_host_work_item_t*, void* raw)
{
    const auto until =
        thread_cpu_time() + std::chrono::microseconds{static_cast<spin_args*>(raw)->us};
    while(thread_cpu_time() < until)
    {
    }
}

rocprofiler_host_kernel_t
spin_kernel()
{
    static auto kernel = sdk_test::register_kernel("device_counting_spin", spin);
    return kernel;
}

// Runs `workgroups` x `workgroup_size` work-items and waits for the completion.
void
run_spin(uint32_t workgroups, uint32_t workgroup_size, rocprofiler_host_kernel_t kernel = {})
{
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto args = spin_args{};
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue,
                                          {kernel.handle != 0 ? kernel : spin_kernel(),
                                           &args,
                                           sizeof(args),
                                           workgroups,
                                           workgroup_size}),
              0);
    ASSERT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
}

// A synchronous sample of @p ctx into an array of @p capacity, by counter name.
std::map<std::string, double>
sample(rocprofiler_context_id_t ctx, uint64_t user = 7, size_t capacity = 8)
{
    auto records = std::vector<rocprofiler_counter_record_t>(capacity);
    auto count   = records.size();
    auto status  = rocprofiler_sample_device_counting_service(ctx,
                                                             rocprofiler_user_data_t{.value = user},
                                                             ROCPROFILER_COUNTER_FLAG_NONE,
                                                             records.data(),
                                                             &count);
    EXPECT_EQ(status, ROCPROFILER_STATUS_SUCCESS) << rocprofiler_get_status_name(status);
    auto out = std::map<std::string, double>{};
    if(status != ROCPROFILER_STATUS_SUCCESS) return out;
    EXPECT_LE(count, capacity);
    for(size_t i = 0; i < count; ++i)
    {
        EXPECT_EQ(records[i].dispatch_id, 0u) << "agent-wide records belong to no dispatch";
        EXPECT_EQ(records[i].user_data.value, user);
        EXPECT_EQ(records[i].agent_id.handle, state().agent.handle);
        auto name = sdk_test::counter_name(records[i].id);
        EXPECT_EQ(out.count(name), 0u) << name << " reported twice";
        out[name] = records[i].counter_value;
    }
    return out;
}

void
choose_for(rocprofiler_context_id_t ctx, const std::vector<std::string>& names)
{
    auto cfg                   = sdk_test::make_config(state().agent, names);
    auto lock                  = std::lock_guard{state().mutex};
    state().chosen[ctx.handle] = cfg;
}

rocprofiler_status_t
seen(const std::string& what)
{
    auto lock = std::lock_guard{state().mutex};
    auto itr  = state().seen.find(what);
    return itr != state().seen.end() ? itr->second : ROCPROFILER_STATUS_LAST;
}

// The reset before a test finalizes the previous tool, whose buffer delivers what the previous
// test sampled into it.
void
forget_earlier_records()
{
    auto lock = std::lock_guard{state().mutex};
    state().buffered.clear();
}

class device_counting : public sdk_test::tool_fixture
{
protected:
    device_counting()
        : tool_fixture{"device-counting", initialize_tool}
    {
    }
    void SetUp() override
    {
        reset_state();
        tool_fixture::SetUp();
        forget_earlier_records();
    }
};

// ---- kernel replay: every pass counts, whatever the local toggles -----------------------------

uint64_t
three_passes(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    return info.kernel_id == state().replayed ? 3 : 1;
}

void
on_replay(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY ||
       record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER)
        return;
    auto* p = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        p->replay_pass_count = three_passes;
        return;
    }
    // A local stop of the counting context on every pass: device counting is agent-wide and
    // ignores it.
    auto status = p->replay_stop_context(state().counting);
    auto lock   = std::lock_guard{state().mutex};
    state().local_stops.push_back(status);
}

void
initialize_replay_tool()
{
    initialize_tool();
    state().replay =
        sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, on_replay);
}

class device_counting_replay : public sdk_test::tool_fixture
{
protected:
    device_counting_replay()
        : tool_fixture{"device-counting-replay", initialize_replay_tool}
    {
    }
    void SetUp() override
    {
        reset_state();
        tool_fixture::SetUp();
        forget_earlier_records();
    }
};
} // namespace

TEST_F(device_counting, a_sync_sample_sums_every_dispatch_since_the_start)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS", "WORKGROUPS", "CPU_TIME_NS"});
    sdk_test::start({st.counting});
    EXPECT_EQ(seen("chosen"), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(seen("agent is the configured one"), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(seen("user data"), ROCPROFILER_STATUS_SUCCESS);

    auto before = sample(st.counting);
    EXPECT_EQ(before,
              (std::map<std::string, double>{
                  {"WORK_ITEMS", 0.0}, {"WORKGROUPS", 0.0}, {"CPU_TIME_NS", 0.0}}));

    run_spin(6, 4); // 24 work-items in 6 workgroups
    run_spin(3, 5); // 15 work-items in 3 workgroups
    auto after = sample(st.counting, 11);
    ASSERT_EQ(after.size(), 3u);
    EXPECT_EQ(after.at("WORK_ITEMS"), 39.0);
    EXPECT_EQ(after.at("WORKGROUPS"), 9.0);
    EXPECT_GE(after.at("CPU_TIME_NS"), 39 * spin_us * 1e3) << "every work-item burnt spin_us";

    // A synchronous sample writes its records to the agent's buffer too (as rocprofiler-sdk's
    // does): the two samples above, three records each.
    ASSERT_EQ(rocprofiler_flush_buffer(st.buffer), ROCPROFILER_STATUS_SUCCESS);
    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().buffered.size(), 6u);
    for(size_t i = 3; i < 6; ++i)
    {
        const auto& r = state().buffered[i];
        EXPECT_EQ(r.user_data.value, 11u);
        EXPECT_EQ(r.dispatch_id, 0u);
        EXPECT_EQ(r.counter_value, after.at(sdk_test::counter_name(r.id)));
    }
}

TEST_F(device_counting, dispatches_of_every_thread_and_queue_count)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    auto other = std::thread{[] { run_spin(2, 3); }};
    other.join();
    run_spin(1, 4);
    EXPECT_EQ(sample(st.counting).at("WORK_ITEMS"), 10.0);
}

TEST_F(device_counting, each_start_asks_again_and_counts_from_zero)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    run_spin(2, 2);
    EXPECT_EQ(sample(st.counting).at("WORK_ITEMS"), 4.0);
    ASSERT_EQ(rocprofiler_stop_context(st.counting), ROCPROFILER_STATUS_SUCCESS);

    auto record = rocprofiler_counter_record_t{};
    auto count  = size_t{1};
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, &record, &count),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);
    run_spin(5, 1); // not counted: the context is stopped

    choose_for(st.counting, {"WORKGROUPS"}); // the tool may choose differently at each start
    sdk_test::start({st.counting});
    EXPECT_EQ(sample(st.counting), (std::map<std::string, double>{{"WORKGROUPS", 0.0}}));
    run_spin(3, 2);
    EXPECT_EQ(sample(st.counting), (std::map<std::string, double>{{"WORKGROUPS", 3.0}}));
    // Starting an active context changes nothing: no new question, no reset.
    sdk_test::start({st.counting});
    EXPECT_EQ(sample(st.counting), (std::map<std::string, double>{{"WORKGROUPS", 3.0}}));
    auto lock = std::lock_guard{state().mutex};
    EXPECT_EQ(state().asked[st.counting.handle], 2);
}

TEST_F(device_counting, two_contexts_count_the_agent_each_from_its_own_start)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    choose_for(st.second, {"WORK_ITEMS", "WORKGROUPS"});
    sdk_test::start({st.counting});
    run_spin(2, 2);
    sdk_test::start({st.second});
    run_spin(3, 3);
    EXPECT_EQ(sample(st.counting), (std::map<std::string, double>{{"WORK_ITEMS", 13.0}}));
    EXPECT_EQ(sample(st.second),
              (std::map<std::string, double>{{"WORK_ITEMS", 9.0}, {"WORKGROUPS", 3.0}}));
}

TEST_F(device_counting, derived_counters_are_evaluated_over_the_sums)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS_PER_WORKGROUP"});
    sdk_test::start({st.counting});
    run_spin(6, 4);
    run_spin(3, 5);
    // (24 + 15) / (6 + 3), not the mean of 4 and 5.
    EXPECT_DOUBLE_EQ(sample(st.counting).at("WORK_ITEMS_PER_WORKGROUP"), 39.0 / 9.0);
}

TEST_F(device_counting, an_async_sample_writes_to_the_buffer_only)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    run_spin(4, 2);
    auto record = rocprofiler_counter_record_t{};
    auto count  = size_t{1};
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {.value = 5}, ROCPROFILER_COUNTER_FLAG_ASYNC, &record, &count),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT)
        << "an output array is for synchronous samples";
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {.value = 5}, ROCPROFILER_COUNTER_FLAG_ASYNC, nullptr, nullptr),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_flush_buffer(st.buffer), ROCPROFILER_STATUS_SUCCESS);
    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().buffered.size(), 1u);
    EXPECT_EQ(sdk_test::counter_name(state().buffered[0].id), "WORK_ITEMS");
    EXPECT_EQ(state().buffered[0].counter_value, 8.0);
    EXPECT_EQ(state().buffered[0].user_data.value, 5u);
    EXPECT_EQ(state().buffered[0].agent_id.handle, st.agent.handle);
}

TEST_F(device_counting, a_small_array_is_refused_with_the_size_it_needs_and_nothing_written)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS", "WORKGROUPS", "DURATION_NS"});
    sdk_test::start({st.counting});
    run_spin(2, 2);
    auto records             = std::vector<rocprofiler_counter_record_t>(3);
    records[0].counter_value = -1.0;
    auto count               = size_t{2};
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, records.data(), &count),
              ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
    EXPECT_EQ(count, 3u);
    EXPECT_EQ(records[0].counter_value, -1.0) << "nothing written to the array";
    count = 0;
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, records.data(), &count),
              ROCPROFILER_STATUS_ERROR_OUT_OF_RESOURCES);
    EXPECT_EQ(count, 3u);
    ASSERT_EQ(rocprofiler_flush_buffer(st.buffer), ROCPROFILER_STATUS_SUCCESS);
    {
        auto lock = std::lock_guard{state().mutex};
        EXPECT_TRUE(state().buffered.empty()) << "nor to the buffer";
    }
    count = 3;
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, records.data(), &count),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(count, 3u);
}

TEST_F(device_counting, an_agent_without_a_chosen_configuration_reports_nothing)
{
    const auto& st = state();
    sdk_test::start({st.counting}); // `chosen` is empty: the callback sets nothing
    run_spin(2, 2);
    EXPECT_TRUE(sample(st.counting).empty());
    auto lock = std::lock_guard{state().mutex};
    EXPECT_EQ(state().asked[st.counting.handle], 1);
}

TEST_F(device_counting, set_config_refuses_what_cannot_be_counted)
{
    const auto& st = state();
    // WORKERS_ACTIVE counts the workers of one dispatch: a sum over dispatches means nothing.
    choose_for(st.counting, {"WORKERS_ACTIVE"});
    sdk_test::start({st.counting});
    EXPECT_EQ(seen("chosen"), ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT);
    EXPECT_EQ(seen("unknown config"), ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
    EXPECT_EQ(seen("unknown context"), ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
    EXPECT_EQ(seen("context without device counting"), ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
    EXPECT_TRUE(sample(st.counting).empty()) << "the refused configuration is not counted";
    ASSERT_EQ(rocprofiler_stop_context(st.counting), ROCPROFILER_STATUS_SUCCESS);
    // Nor a derived counter built on it.
    choose_for(st.counting, {"WORKERS_PER_WORKGROUP"});
    sdk_test::start({st.counting});
    EXPECT_EQ(seen("chosen"), ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT);

    // Outside the context's start, set_config is locked.
    auto set_config = rocprofiler_device_counting_agent_cb_t{};
    {
        auto lock  = std::lock_guard{state().mutex};
        set_config = state().kept_set_config;
    }
    ASSERT_NE(set_config, nullptr);
    EXPECT_EQ(set_config(st.counting, sdk_test::make_config(st.agent, {"WORK_ITEMS"})),
              ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

// The rule set_config applies to a configuration, on hand-built ones: an agent that schedules
// passes itself (CUDA agents: CUPTI) may need several passes of one execution for a set of
// counters, and agent-wide counting measures each execution once, so such a configuration is
// refused with EXCEEDS_HW_LIMIT; one pass of additive counters is accepted; a counter that does not
// add up is refused first. The host device's configurations always fit one pass, so this is where
// the several-pass refusal is checked without a GPU (cuda.device_counting checks it on one).
TEST(device_counting_rule, several_passes_are_refused_and_one_pass_of_additive_counters_accepted)
{
    namespace dc                = rocprofiler::dispatch::device_counting;
    auto additive               = rocprofiler::counters::counter_definition{};
    additive.spec.name          = "warps";
    additive.spec.additive      = true;
    auto per_execution          = rocprofiler::counters::counter_definition{};
    per_execution.spec.name     = "occupancy";
    per_execution.spec.additive = false;

    auto cfg     = rocprofiler::counters::config{};
    cfg.counters = {&additive};
    cfg.passes   = 1;
    EXPECT_EQ(dc::check_countable(cfg), ROCPROFILER_STATUS_SUCCESS);
    for(uint32_t passes : {2U, 3U, 40U})
    {
        cfg.passes = passes;
        EXPECT_EQ(dc::check_countable(cfg), ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT) << passes;
    }
    cfg.counters = {&additive, &per_execution};
    cfg.passes   = 1;
    EXPECT_EQ(dc::check_countable(cfg), ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT);
    cfg.passes = 2;
    EXPECT_EQ(dc::check_countable(cfg), ROCPROFILER_STATUS_ERROR_METRIC_NOT_VALID_FOR_AGENT);
}

TEST_F(device_counting, configuration_returns_the_documented_statuses)
{
    EXPECT_EQ(seen("configure twice"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen("configure null callback"), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen("configure unknown buffer"), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(seen("configure unknown agent"), ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(seen("configure unknown context"), ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(seen("device after dispatch counting"),
              ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT);
    EXPECT_EQ(seen("dispatch after device counting"),
              ROCPROFILER_STATUS_ERROR_AGENT_DISPATCH_CONFLICT);
    // The conflict is checked once the PC sampling request itself is valid: where the host agent
    // offers no PC sampling (an architecture or a kernel without its timers), it is refused first.
    const auto pc = seen("pc sampling after device counting");
    if(pc != ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE)
    {
        EXPECT_EQ(pc, ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);
    }
    // After the configuration lock.
    EXPECT_EQ(rocprofiler_configure_device_counting_service(
                  state().counting, state().buffer, state().agent, choose, nullptr),
              ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST_F(device_counting, coverage_returns_the_documented_statuses_and_outlives_a_stop)
{
    const auto& st       = state();
    auto        coverage = rocprofiler_device_counting_coverage_t{};
    EXPECT_EQ(rocprofiler_query_device_counting_coverage(st.counting, st.agent, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_query_device_counting_coverage({999}, st.agent, &coverage),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_device_counting_coverage(st.tracing, st.agent, &coverage),
              ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
    EXPECT_EQ(rocprofiler_query_device_counting_coverage(st.counting, {12345}, &coverage),
              ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_device_counting_coverage(st.counting, st.agent, &coverage),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED)
        << "no window before the first start";
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    run_spin(2, 2);
    run_spin(1, 3);
    ASSERT_EQ(rocprofiler_stop_context(st.counting), ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_query_device_counting_coverage(st.counting, st.agent, &coverage),
              ROCPROFILER_STATUS_SUCCESS)
        << "the last window stays readable after the stop";
    EXPECT_EQ(coverage.counted, 2u);
    EXPECT_EQ(coverage.unmeasured, 0u);
}

TEST_F(device_counting, samples_return_the_documented_statuses)
{
    const auto& st        = state();
    auto        record    = rocprofiler_counter_record_t{};
    auto        count     = size_t{1};
    auto        sample_of = [&](rocprofiler_context_id_t ctx, int flags, bool array, bool counted)
    {
        return rocprofiler_sample_device_counting_service(
            ctx,
            {},
            static_cast<rocprofiler_counter_flag_t>(flags),
            array ? &record : nullptr,
            counted ? &count : nullptr);
    };
    EXPECT_EQ(sample_of({999}, 0, true, true), ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(sample_of(st.counting, ROCPROFILER_COUNTER_FLAG_APPEND_DEFINITION, true, true),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sample_of(st.counting, 0, true, false), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sample_of(st.tracing, 0, true, true), ROCPROFILER_STATUS_ERROR_CONTEXT_INVALID);
    EXPECT_EQ(sample_of(st.counting, 0, true, true), ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);
    // No buffer and no array: nowhere to put the records.
    sdk_test::start({st.unbuffered});
    EXPECT_EQ(sample_of(st.unbuffered, 0, false, false), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sample_of(st.unbuffered, ROCPROFILER_COUNTER_FLAG_ASYNC, false, false),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(sample_of(st.unbuffered, 0, true, true), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(count, 0u) << "nothing chosen, nothing reported";
}

TEST_F(device_counting_replay, every_pass_of_a_replayed_dispatch_counts_despite_a_local_stop)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting, st.replay});
    const auto kernel = sdk_test::register_kernel("device_counting_replayed", spin);
    state().replayed  = kernel.handle;
    run_spin(2, 3, kernel); // 6 work-items, three passes
    run_spin(1, 2);         // 2 work-items, not replayed
    {
        auto lock = std::lock_guard{state().mutex};
        EXPECT_EQ(state().local_stops,
                  (std::vector<rocprofiler_status_t>(3, ROCPROFILER_STATUS_SUCCESS)));
    }
    EXPECT_EQ(sample(st.counting).at("WORK_ITEMS"), 3 * 6.0 + 2.0);
}

// An execution that failed, or whose counters the backend did not measure, is left out of the
// sums, and the next sample says how many were left out and why. (The host device measures every
// execution it runs, so such results are handed to the pipeline's accounting directly.)
TEST_F(device_counting, unmeasured_executions_are_left_out_and_reported)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    run_spin(2, 2);

    auto dispatch          = rocprofiler::dispatch::logical_dispatch{};
    dispatch.info.agent_id = st.agent;
    const auto shares      = rocprofiler::dispatch::device_counting::shares_of(dispatch);
    ASSERT_EQ(shares.size(), 1u) << "the started context counts the agent";
    auto failed  = rocprofiler::dispatch::execution_result{};
    failed.ok    = false;
    failed.error = "a failure made up by the test";
    rocprofiler::dispatch::device_counting::account(shares, failed);
    auto unmeasured           = rocprofiler::dispatch::execution_result{};
    unmeasured.counters_error = "no counters today";
    rocprofiler::dispatch::device_counting::account(shares, unmeasured);
    auto missing = rocprofiler::dispatch::execution_result{}; // ok, but no value for WORK_ITEMS
    rocprofiler::dispatch::device_counting::account(shares, missing);

    testing::internal::CaptureStderr();
    const auto values = sample(st.counting);
    const auto log    = testing::internal::GetCapturedStderr();
    EXPECT_EQ(values, (std::map<std::string, double>{{"WORK_ITEMS", 4.0}}));
    EXPECT_NE(log.find("3 execution(s) since the context started could not be measured"),
              std::string::npos)
        << log;
    EXPECT_NE(log.find("did not measure WORK_ITEMS"), std::string::npos) << log;
    // The tool can ask how complete the sums are (experimental/device_counting.h).
    auto coverage = rocprofiler_device_counting_coverage_t{};
    ASSERT_EQ(rocprofiler_query_device_counting_coverage(st.counting, st.agent, &coverage),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(coverage.size, sizeof(coverage));
    EXPECT_EQ(coverage.counted, 1u) << "the one dispatch run";
    EXPECT_EQ(coverage.unmeasured, 3u) << "the failed, the unmeasured and the incomplete one";
    // Said once per batch: a second sample adds nothing new to report.
    testing::internal::CaptureStderr();
    sample(st.counting);
    EXPECT_EQ(testing::internal::GetCapturedStderr().find("could not be measured"),
              std::string::npos);
}

// A device counting callback that throws: the start reports it and the context is stopped (the
// tool's other callbacks are not called any more), as for any callback of a tool that throws.
TEST_F(device_counting, a_throwing_callback_fails_the_start_and_stops_the_context)
{
    const auto& st = state();
    {
        auto lock               = std::lock_guard{state().mutex};
        state().throw_in_choose = true;
    }
    EXPECT_EQ(rocprofiler_start_context(st.counting), ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR);
    auto active = -1;
    EXPECT_EQ(rocprofiler_context_is_active(st.counting, &active), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(active, 0);
    auto record = rocprofiler_counter_record_t{};
    auto count  = size_t{1};
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, &record, &count),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);
}

// Dispatches from several threads while another thread samples: every sample is at least the one
// before (the sums only grow while the context runs), and the last one holds every dispatch once.
TEST_F(device_counting, concurrent_dispatches_and_samples_add_up)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    constexpr int threads = 4;
    constexpr int each    = 10;
    auto          done    = std::atomic<int>{0};
    auto          workers = std::vector<std::thread>{};
    for(int t = 0; t < threads; ++t)
        workers.emplace_back(
            [&done]
            {
                for(int i = 0; i < each; ++i)
                    run_spin(3, 2);
                ++done;
            });
    auto previous  = 0.0;
    auto samples   = 0;
    auto went_down = 0;
    while(done.load() < threads)
    {
        auto now = sample(st.counting).at("WORK_ITEMS");
        if(now < previous) ++went_down;
        previous = now;
        ++samples;
    }
    for(auto& w : workers)
        w.join();
    EXPECT_EQ(went_down, 0) << "of " << samples << " samples";
    EXPECT_EQ(sample(st.counting).at("WORK_ITEMS"), threads * each * 6.0);
}

// A sample whose agent's buffer was destroyed writes nothing, not even to the caller's array.
TEST_F(device_counting, a_destroyed_buffer_fails_the_sample_and_nothing_is_written)
{
    const auto& st = state();
    choose_for(st.counting, {"WORK_ITEMS"});
    sdk_test::start({st.counting});
    run_spin(2, 2);
    ASSERT_EQ(rocprofiler_destroy_buffer(st.buffer), ROCPROFILER_STATUS_SUCCESS);
    auto record          = rocprofiler_counter_record_t{};
    record.counter_value = -1.0;
    auto count           = size_t{1};
    EXPECT_EQ(rocprofiler_sample_device_counting_service(
                  st.counting, {}, ROCPROFILER_COUNTER_FLAG_NONE, &record, &count),
              ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(record.counter_value, -1.0);
}
