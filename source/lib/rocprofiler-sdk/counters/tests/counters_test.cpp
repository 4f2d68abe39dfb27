// Counters of the host reference device through the public API: listing, info, configurations
// and slot limits, and the dispatch counting service in callback and buffer form. Every value is
// checked against what the test program knows it did.
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace
{
struct counted
{
    rocprofiler_dispatch_counting_service_data_t data   = {};
    std::map<std::string, double>                values = {};
    uint64_t                                     user   = 0;
};

struct tool_state
{
    rocprofiler_context_id_t callback_ctx     = {};
    rocprofiler_context_id_t buffer_ctx       = {};
    rocprofiler_buffer_id_t  buffer           = {};
    rocprofiler_agent_id_t   host_agent       = {};
    std::atomic<uint64_t>    config           = 0; // what the dispatch callback chooses
    std::atomic<uint64_t>    buffer_config    = 0;
    std::mutex               mutex            = {};
    std::vector<counted>     callback_records = {};
    std::vector<rocprofiler_dispatch_counting_service_record_t> headers = {};
    std::vector<rocprofiler_counter_record_t>                   values  = {};
};

tool_state&
state()
{
    static auto* value = new tool_state{};
    return *value;
}

void
choose_config(rocprofiler_dispatch_counting_service_data_t,
              rocprofiler_counter_config_id_t* config,
              rocprofiler_user_data_t*         user_data,
              void*                            args)
{
    auto* which      = static_cast<std::atomic<uint64_t>*>(args);
    config->handle   = which->load();
    user_data->value = 42;
}

void
record_callback(rocprofiler_dispatch_counting_service_data_t data,
                rocprofiler_counter_record_t*                records,
                size_t                                       count,
                rocprofiler_user_data_t                      user_data,
                void*)
{
    auto entry = counted{data, {}, user_data.value};
    for(size_t i = 0; i < count; ++i)
        entry.values[sdk_test::counter_name(records[i].id)] = records[i].counter_value;
    auto lock = std::lock_guard{state().mutex};
    state().callback_records.push_back(entry);
}

// The buffer context's counter records, as they arrive.
const auto* const buffered_records =
    new sdk_test::counter_sink{[](const rocprofiler_dispatch_counting_service_record_t& h)
                               {
                                   auto lock = std::lock_guard{state().mutex};
                                   state().headers.push_back(h);
                               },
                               [](const rocprofiler_counter_record_t& v)
                               {
                                   auto lock = std::lock_guard{state().mutex};
                                   state().values.push_back(v);
                               }}; // never destroyed: exit-time finalization delivers

// The tool: dispatch counting in callback form and in buffer form, one context each.
void
initialize_tool()
{
    auto& st        = state();
    st.callback_ctx = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
        st.callback_ctx, choose_config, &st.config, record_callback, nullptr));
    st.buffer_ctx = sdk_test::create_context();
    st.buffer     = sdk_test::create_counter_buffer(st.buffer_ctx, 4096, 0, buffered_records);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_dispatch_counting_service(
        st.buffer_ctx, st.buffer, choose_config, &st.buffer_config));
    sdk_test::start({st.callback_ctx, st.buffer_ctx});
}

std::map<std::string, rocprofiler_counter_id_t>
host_counters()
{
    return sdk_test::counters_by_name(state().host_agent);
}

rocprofiler_counter_config_id_t
make_config(const std::vector<std::string>& names)
{
    return sdk_test::make_config(state().host_agent, names);
}

// Each work-item burns `args->spin_us` microseconds of its thread's CPU time (measured on the
// thread's CPU clock, so that preemption on a loaded machine cannot shorten it).
struct spin_args
{
    uint32_t spin_us;
};

std::chrono::nanoseconds
thread_cpu_time()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return std::chrono::seconds{ts.tv_sec} + std::chrono::nanoseconds{ts.tv_nsec};
}

void
spin_kernel(const rocprofiler_host_work_item_t*, void* raw)
{
    const auto* args  = static_cast<const spin_args*>(raw);
    auto        until = thread_cpu_time() + std::chrono::microseconds{args->spin_us};
    while(thread_cpu_time() < until)
    {
    }
}

// Runs `workgroups` x `workgroup_size` work-items and waits for the completion.
void
run_spin(uint32_t workgroups, uint32_t workgroup_size, uint32_t spin_us)
{
    static auto kernel = []
    {
        auto k = rocprofiler_host_kernel_t{};
        EXPECT_EQ(rocprofiler_host_register_kernel("spin", spin_kernel, 0, 0, &k),
                  ROCPROFILER_HOST_STATUS_SUCCESS);
        return k;
    }();
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto args             = spin_args{spin_us};
    auto params           = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = kernel;
    params.grid           = {workgroups, 1, 1};
    params.workgroup_size = {workgroup_size, 1, 1};
    params.args           = &args;
    params.args_size      = sizeof(args);
    ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_queue_synchronize(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
}

void
reset_records()
{
    auto lock = std::lock_guard{state().mutex};
    state().callback_records.clear();
    state().headers.clear();
    state().values.clear();
}
} // namespace

TEST(host_counters, the_host_agent_lists_its_measurements)
{
    auto all = host_counters();
    for(const auto* name :
        {"DURATION_NS", "CPU_TIME_NS", "WORKERS_ACTIVE", "WORK_ITEMS", "WORKGROUPS"})
        EXPECT_EQ(all.count(name), 1u) << name;
    for(const auto& [name, id] : all)
    {
        auto v1 = rocprofiler_counter_info_v1_t{};
        ASSERT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_1, &v1),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(name, v1.name);
        EXPECT_GT(std::string{v1.description}.size(), 0u) << name;
        EXPECT_GT(std::string{v1.block}.size(), 0u) << name;
        // One dimension of one instance, never a NULL list: AMD's tools read *v1.dimensions.
        ASSERT_EQ(v1.dimensions_count, 1u) << name;
        ASSERT_NE(v1.dimensions, nullptr);
        ASSERT_NE(v1.dimensions[0], nullptr);
        EXPECT_STREQ(v1.dimensions[0]->name, "DIMENSION_INSTANCE");
        EXPECT_EQ(v1.dimensions[0]->instance_size, 1u);
        ASSERT_EQ(v1.dimensions_instances_count, 1u) << name;
        ASSERT_NE(v1.dimensions_instances, nullptr);
        const auto* inst = v1.dimensions_instances[0];
        ASSERT_NE(inst, nullptr);
        EXPECT_EQ(inst->counter_id, id.handle);
        EXPECT_EQ(inst->instance_id, id.handle);
        ASSERT_EQ(inst->dimensions_count, 1u);
        EXPECT_STREQ(inst->dimensions[0]->dimension_name, "DIMENSION_INSTANCE");
        EXPECT_EQ(inst->dimensions[0]->index, 0u);
        // A second query answers the same tables.
        auto again = rocprofiler_counter_info_v1_t{};
        ASSERT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_1, &again),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(again.dimensions[0], v1.dimensions[0]);
        auto from_record = rocprofiler_counter_id_t{};
        ASSERT_EQ(rocprofiler_query_record_counter_id(id.handle, &from_record),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(from_record.handle, id.handle);
        auto pos = size_t{7};
        EXPECT_EQ(rocprofiler_query_record_dimension_position(
                      inst->instance_id, v1.dimensions[0]->id, &pos),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(pos, 0u);
        EXPECT_EQ(
            rocprofiler_query_record_dimension_position(id.handle, v1.dimensions[0]->id + 1, &pos),
            ROCPROFILER_STATUS_ERROR_DIM_NOT_FOUND);
    }
}

TEST(host_counters, bad_queries_return_the_documented_status)
{
    auto info = rocprofiler_counter_info_v0_t{};
    EXPECT_EQ(rocprofiler_query_counter_info(
                  rocprofiler_counter_id_t{999999}, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
              ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
    auto any = host_counters().begin()->second;
    EXPECT_EQ(rocprofiler_query_counter_info(any, ROCPROFILER_COUNTER_INFO_VERSION_0, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_query_counter_info(any, ROCPROFILER_COUNTER_INFO_VERSION_LAST, &info),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(
        rocprofiler_iterate_agent_supported_counters(rocprofiler_agent_id_t{999}, nullptr, nullptr),
        ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_iterate_agent_supported_counters(
                  rocprofiler_agent_id_t{999},
                  [](rocprofiler_agent_id_t, rocprofiler_counter_id_t*, size_t, void*)
                  { return ROCPROFILER_STATUS_SUCCESS; },
                  nullptr),
              ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    auto id = rocprofiler_counter_id_t{};
    EXPECT_EQ(rocprofiler_query_record_counter_id(0, &id),
              ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
    EXPECT_EQ(rocprofiler_query_record_counter_id(1, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
}

TEST(host_counters, a_configuration_that_does_not_fit_one_pass_exceeds_the_hardware_limit)
{
    // The test runs with ROCPROFILER_HOST_COUNTER_SLOTS=4 (set in main).
    auto all  = host_counters();
    auto five = std::vector<rocprofiler_counter_id_t>{all.at("DURATION_NS"),
                                                      all.at("CPU_TIME_NS"),
                                                      all.at("WORKERS_ACTIVE"),
                                                      all.at("WORK_ITEMS"),
                                                      all.at("WORKGROUPS")};
    auto cfg  = rocprofiler_counter_config_id_t{};
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, five.data(), 5, &cfg),
              ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
    EXPECT_EQ(cfg.handle, 0u);
    ASSERT_EQ(rocprofiler_create_counter_config(state().host_agent, five.data(), 4, &cfg),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_NE(cfg.handle, 0u);
    // Extending a full configuration by one more counter does not fit either.
    auto extended = cfg;
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &five[4], 1, &extended),
              ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
}

TEST(host_counters, a_configuration_reports_the_passes_it_takes)
{
    // Slot-limited agents take one pass per configuration: larger ones are refused above.
    auto all  = host_counters();
    auto four = std::vector<rocprofiler_counter_id_t>{
        all.at("DURATION_NS"), all.at("CPU_TIME_NS"), all.at("WORK_ITEMS"), all.at("WORKGROUPS")};
    auto cfg = rocprofiler_counter_config_id_t{};
    ASSERT_EQ(rocprofiler_create_counter_config(state().host_agent, four.data(), 4, &cfg),
              ROCPROFILER_STATUS_SUCCESS);
    auto passes = uint64_t{0};
    EXPECT_EQ(rocprofiler_query_counter_config_pass_count(cfg, &passes),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(passes, 1u);
    EXPECT_EQ(rocprofiler_query_counter_config_pass_count(cfg, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    ASSERT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
    passes = 7;
    EXPECT_EQ(rocprofiler_query_counter_config_pass_count(cfg, &passes),
              ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
    EXPECT_EQ(passes, 7u);
}

TEST(host_counters, bad_configurations_return_the_documented_status)
{
    auto id  = host_counters().at("WORK_ITEMS");
    auto cfg = rocprofiler_counter_config_id_t{};
    EXPECT_EQ(rocprofiler_create_counter_config(rocprofiler_agent_id_t{999}, &id, 1, &cfg),
              ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, nullptr, 1, &cfg),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &id, 0, &cfg),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &id, 1, nullptr),
              ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    auto unknown = rocprofiler_counter_id_t{999999};
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &unknown, 1, &cfg),
              ROCPROFILER_STATUS_ERROR_COUNTER_NOT_FOUND);
    auto stale = rocprofiler_counter_config_id_t{123456};
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &id, 1, &stale),
              ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
}

TEST(host_counters, callback_counting_reports_what_the_dispatch_did)
{
    reset_records();
    auto cfg       = make_config({"DURATION_NS", "CPU_TIME_NS", "WORK_ITEMS", "WORKGROUPS"});
    state().config = cfg.handle;
    run_spin(6, 4, 500); // 24 work-items of 0.5 ms each: at least 12 ms of CPU time
    state().config = 0;

    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().callback_records.size(), 1u);
    const auto& rec = state().callback_records.front();
    EXPECT_EQ(rec.user, 42u); // the dispatch callback's user data reaches the records
    EXPECT_EQ(rec.values.size(), 4u);
    EXPECT_EQ(rec.values.at("WORK_ITEMS"), 24.0);
    EXPECT_EQ(rec.values.at("WORKGROUPS"), 6.0);
    EXPECT_EQ(rec.values.at("DURATION_NS"),
              static_cast<double>(rec.data.end_timestamp - rec.data.start_timestamp));
    EXPECT_GE(rec.values.at("DURATION_NS"), 500e3 * 4); // one workgroup runs its items serially
    EXPECT_GE(rec.values.at("CPU_TIME_NS"), 24 * 500e3);
    EXPECT_EQ(rec.data.dispatch_info.grid_size.x, 24u);
    EXPECT_EQ(rec.data.dispatch_info.agent_id.handle, state().host_agent.handle);
    EXPECT_NE(rec.data.correlation_id.internal, 0u);
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
}

TEST(host_counters, workers_active_is_between_one_and_the_worker_count)
{
    reset_records();
    auto cfg       = make_config({"WORKERS_ACTIVE"});
    state().config = cfg.handle;
    run_spin(16, 1, 2000);
    state().config = 0;
    auto workers   = uint32_t{0};
    ASSERT_EQ(rocprofiler_host_get_worker_count(&workers), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().callback_records.size(), 1u);
    auto active = state().callback_records.front().values.at("WORKERS_ACTIVE");
    EXPECT_GE(active, 1.0);
    EXPECT_LE(active, static_cast<double>(workers));
}

TEST(host_counters, buffer_counting_writes_a_header_then_its_values)
{
    reset_records();
    auto cfg              = make_config({"WORK_ITEMS", "WORKGROUPS"});
    state().buffer_config = cfg.handle;
    run_spin(3, 5, 10);
    run_spin(2, 7, 10);
    state().buffer_config = 0;
    ASSERT_EQ(rocprofiler_flush_buffer(state().buffer), ROCPROFILER_STATUS_SUCCESS);

    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().headers.size(), 2u);
    ASSERT_EQ(state().values.size(), 4u);
    for(size_t i = 0; i < 2; ++i)
    {
        const auto& header = state().headers[i];
        EXPECT_EQ(header.num_records, 2u);
        EXPECT_LE(header.start_timestamp, header.end_timestamp);
        auto items  = static_cast<double>(header.dispatch_info.grid_size.x);
        auto groups = items / header.dispatch_info.workgroup_size.x;
        auto seen   = 0;
        for(const auto& value : state().values)
        {
            if(value.dispatch_id != header.dispatch_info.dispatch_id) continue;
            ++seen;
            EXPECT_EQ(value.user_data.value, 42u);
            EXPECT_EQ(value.agent_id.handle, state().host_agent.handle);
            auto name = sdk_test::counter_name(value.id);
            if(name == "WORK_ITEMS")
                EXPECT_EQ(value.counter_value, items);
            else if(name == "WORKGROUPS")
                EXPECT_EQ(value.counter_value, groups);
            else
                ADD_FAILURE() << "unexpected counter " << name;
        }
        EXPECT_EQ(seen, 2);
    }
}

TEST(host_counters, a_dispatch_without_a_configuration_is_not_counted)
{
    reset_records();
    run_spin(2, 2, 10);
    ASSERT_EQ(rocprofiler_flush_buffer(state().buffer), ROCPROFILER_STATUS_SUCCESS);
    auto lock = std::lock_guard{state().mutex};
    EXPECT_TRUE(state().callback_records.empty());
    EXPECT_TRUE(state().headers.empty());
}

TEST(host_counters, perf_task_clock_measures_the_workers_when_the_kernel_permits_it)
{
    auto all = host_counters();
    if(all.count("PERF_TASK_CLOCK_NS") == 0)
        GTEST_SKIP() << "perf events are not permitted for this process";
    reset_records();
    auto cfg       = make_config({"PERF_TASK_CLOCK_NS", "CPU_TIME_NS"});
    state().config = cfg.handle;
    run_spin(4, 2, 1000);
    state().config = 0;
    auto lock      = std::lock_guard{state().mutex};
    ASSERT_EQ(state().callback_records.size(), 1u);
    const auto& values = state().callback_records.front().values;
    EXPECT_GE(values.at("PERF_TASK_CLOCK_NS"), 8 * 1000e3 * 0.95);
    // Two independent clocks of the same threads agree to within a quarter.
    EXPECT_NEAR(
        values.at("PERF_TASK_CLOCK_NS"), values.at("CPU_TIME_NS"), 0.25 * values.at("CPU_TIME_NS"));
}

// Derived metrics come from the shipped metrics file, which main() names through
// ROCPROFILER_METRICS_PATH (this statically linked test has no library beside the file).
TEST(host_counters, derived_metrics_follow_the_base_counters_and_describe_themselves)
{
    auto ids = std::vector<rocprofiler_counter_id_t>{};
    ASSERT_EQ(rocprofiler_iterate_agent_supported_counters(
                  state().host_agent,
                  [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t n, void* out)
                  {
                      auto* v = static_cast<std::vector<rocprofiler_counter_id_t>*>(out);
                      v->assign(list, list + n);
                      return ROCPROFILER_STATUS_SUCCESS;
                  },
                  &ids),
              ROCPROFILER_STATUS_SUCCESS);
    auto seen_derived = false;
    auto found        = false;
    for(auto id : ids)
    {
        auto info = rocprofiler_counter_info_v0_t{};
        ASSERT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_0, &info),
                  ROCPROFILER_STATUS_SUCCESS);
        if(info.is_derived == 0)
        {
            EXPECT_FALSE(seen_derived) << info.name << " (a base counter) after a derived one";
            EXPECT_STREQ(info.expression, "");
            continue;
        }
        seen_derived = true;
        EXPECT_STREQ(info.block, "derived");
        EXPECT_GT(std::string{info.expression}.size(), 0u) << info.name;
        if(std::string{info.name} != "NS_PER_WORK_ITEM") continue;
        found = true;
        EXPECT_STREQ(info.expression, "DURATION_NS / WORK_ITEMS");
        EXPECT_NE(std::string{info.description}.find("(ns)"), std::string::npos)
            << info.description;
        auto v1 = rocprofiler_counter_info_v1_t{};
        ASSERT_EQ(rocprofiler_query_counter_info(id, ROCPROFILER_COUNTER_INFO_VERSION_1, &v1),
                  ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(v1.is_derived, 1u);
        EXPECT_STREQ(v1.expression, "DURATION_NS / WORK_ITEMS");
    }
    EXPECT_TRUE(found) << "NS_PER_WORK_ITEM is listed on the host agent";
    // The metrics of other agents are not listed here.
    EXPECT_EQ(host_counters().count("SM_INST_PER_CYCLE"), 0u);
}

TEST(host_counters, a_derived_counter_is_computed_from_the_base_values_of_its_dispatch)
{
    reset_records();
    auto cfg       = make_config({"DURATION_NS", "WORK_ITEMS", "NS_PER_WORK_ITEM"});
    state().config = cfg.handle;
    run_spin(6, 4, 200);
    run_spin(3, 2, 200);
    state().config = 0;

    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().callback_records.size(), 2u);
    for(const auto& rec : state().callback_records)
    {
        ASSERT_EQ(rec.values.size(), 3u);
        auto duration = rec.values.at("DURATION_NS");
        auto items    = rec.values.at("WORK_ITEMS");
        EXPECT_EQ(items, static_cast<double>(rec.data.dispatch_info.grid_size.x));
        EXPECT_GT(duration, 0.0);
        EXPECT_EQ(rec.values.at("NS_PER_WORK_ITEM"), duration / items);
    }
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
}

TEST(host_counters, a_derived_counter_over_derived_counters_uses_their_values)
{
    reset_records();
    // CPU_NS_PER_WORKGROUP = CPU_NS_PER_WORK_ITEM * WORK_ITEMS_PER_WORKGROUP, both derived.
    auto cfg = make_config({"CPU_NS_PER_WORKGROUP", "CPU_TIME_NS", "WORK_ITEMS", "WORKGROUPS"});
    state().config = cfg.handle;
    run_spin(5, 3, 200);
    state().config = 0;

    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().callback_records.size(), 1u);
    const auto& values = state().callback_records.front().values;
    ASSERT_EQ(values.size(), 4u);
    auto cpu    = values.at("CPU_TIME_NS");
    auto items  = values.at("WORK_ITEMS");
    auto groups = values.at("WORKGROUPS");
    EXPECT_EQ(items, 15.0);
    EXPECT_EQ(groups, 5.0);
    EXPECT_GT(cpu, 0.0);
    EXPECT_EQ(values.at("CPU_NS_PER_WORKGROUP"), (cpu / items) * (items / groups));
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
}

TEST(host_counters, only_the_requested_counters_are_reported_not_the_bases_behind_them)
{
    reset_records();
    auto cfg       = make_config({"WORK_ITEMS_PER_WORKGROUP", "NS_PER_WORK_ITEM"});
    state().config = cfg.handle;
    run_spin(6, 4, 100);
    state().config = 0;

    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().callback_records.size(), 1u);
    const auto& rec = state().callback_records.front();
    EXPECT_EQ(rec.values.size(), 2u);
    EXPECT_EQ(rec.values.count("WORK_ITEMS"), 0u);
    EXPECT_EQ(rec.values.count("DURATION_NS"), 0u);
    EXPECT_EQ(rec.values.at("WORK_ITEMS_PER_WORKGROUP"), 4.0);
    // DURATION_NS is the record's end minus its start (callback_counting_reports_what_...).
    auto duration = static_cast<double>(rec.data.end_timestamp - rec.data.start_timestamp);
    EXPECT_EQ(rec.values.at("NS_PER_WORK_ITEM"), duration / 24.0);
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
}

TEST(host_counters, the_pass_limit_counts_the_measured_base_counters)
{
    // ROCPROFILER_HOST_COUNTER_SLOTS=4: six requested counters over four base counters fit.
    auto all = host_counters();
    auto six = std::vector<rocprofiler_counter_id_t>{all.at("DURATION_NS"),
                                                     all.at("WORK_ITEMS"),
                                                     all.at("NS_PER_WORK_ITEM"),
                                                     all.at("CPU_NS_PER_WORK_ITEM"),
                                                     all.at("CPU_PARALLELISM"),
                                                     all.at("WORK_ITEMS_PER_WORKGROUP")};
    auto cfg = rocprofiler_counter_config_id_t{};
    ASSERT_EQ(rocprofiler_create_counter_config(state().host_agent, six.data(), six.size(), &cfg),
              ROCPROFILER_STATUS_SUCCESS);
    // A fifth base counter does not, whether it is asked for directly ...
    auto extended = cfg;
    auto workers  = all.at("WORKERS_ACTIVE");
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &workers, 1, &extended),
              ROCPROFILER_STATUS_ERROR_EXCEEDS_HW_LIMIT);
    // ... while a derived counter over bases already measured adds nothing to measure.
    extended  = cfg;
    auto rate = all.at("WORK_ITEMS_PER_SECOND");
    EXPECT_EQ(rocprofiler_create_counter_config(state().host_agent, &rate, 1, &extended),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_destroy_counter_config(extended), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_destroy_counter_config(cfg), ROCPROFILER_STATUS_SUCCESS);
}

TEST(host_counters, buffered_records_carry_derived_values)
{
    reset_records();
    auto cfg              = make_config({"WORK_ITEMS_PER_WORKGROUP", "WORKGROUPS"});
    state().buffer_config = cfg.handle;
    run_spin(3, 5, 10);
    state().buffer_config = 0;
    ASSERT_EQ(rocprofiler_flush_buffer(state().buffer), ROCPROFILER_STATUS_SUCCESS);

    auto lock = std::lock_guard{state().mutex};
    ASSERT_EQ(state().headers.size(), 1u);
    EXPECT_EQ(state().headers.front().num_records, 2u);
    auto values = std::map<std::string, double>{};
    for(const auto& value : state().values)
        values[sdk_test::counter_name(value.id)] = value.counter_value;
    EXPECT_EQ(values.size(), 2u);
    EXPECT_EQ(values.at("WORK_ITEMS_PER_WORKGROUP"), 5.0);
    EXPECT_EQ(values.at("WORKGROUPS"), 3.0);
}

TEST(host_counters, configuring_dispatch_counting_twice_in_a_context_is_refused_after_lock)
{
    EXPECT_EQ(rocprofiler_configure_callback_dispatch_counting_service(
                  state().callback_ctx, choose_config, nullptr, record_callback, nullptr),
              ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

int
main(int argc, char** argv)
{
    ::testing::InitGoogleTest(&argc, argv);
    setenv("ROCPROFILER_HOST_COUNTER_SLOTS", "4", 1);
    setenv("ROCPROFILER_METRICS_PATH", ROCPROFILER_BUILD_METRICS, 1);
    if(sdk_test::configure_tool("counters-test", initialize_tool) != ROCPROFILER_STATUS_SUCCESS)
        return 2;
    state().host_agent = sdk_test::gpu_agent();
    if(state().host_agent.handle == 0) return 3;
    return RUN_ALL_TESTS();
}
