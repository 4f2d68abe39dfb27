// SPM of the host device: the agent offers an interval range and the counters it samples over
// time; configurations and services check their arguments; a spinning kernel's samples arrive in
// time order, one record per counter per sample, then one DISPATCH_END call, and its CPU_TIME_NS
// samples add up to the CPU time dispatch counting measured for the same execution; under kernel
// replay SPM follows the local mask (a pass of its own).
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/rocprofiler.h>
#include <rocprofiler-sdk/spm.h>

#include <gtest/gtest.h>

#include "dispatch/spm.hpp"
#include "sdk_test.hpp"

#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace
{
constexpr uint64_t interval_cycles = 1'000;      // 1 ms: the host's SPM clock ticks at 1 MHz
constexpr uint64_t spin_ns         = 30'000'000; // CPU time each work-item spins
constexpr uint64_t user_value      = 7;          // the SPM dispatch callback's user data

struct spin_args
{
    uint64_t ns = 0;
};

uint64_t
thread_cpu_ns()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// Spins for args->ns of CPU time (not wall time: a loaded machine still gives it its samples).
void
spin(const rocprofiler_host_work_item_t*, void* args)
{
    const auto until = thread_cpu_ns() + static_cast<const spin_args*>(args)->ns;
    auto       x     = uint64_t{1};
    while(thread_cpu_ns() < until)
        for(int i = 0; i < (1 << 12); ++i)
        {
            x = x * 6364136223846793005ULL + 1442695040888963407ULL;
            asm volatile("" : "+r"(x));
        }
}

// One call of the SPM record callback.
struct record_call
{
    uint64_t                                      dispatch_id = 0;
    uint64_t                                      internal_id = 0;
    int                                           flags       = 0;
    uint64_t                                      user        = 0;
    std::vector<rocprofiler_spm_counter_record_t> records     = {};
};

struct recorded
{
    std::mutex                                  mutex        = {};
    std::map<std::string, rocprofiler_status_t> seen         = {};
    std::vector<record_call>                    calls        = {};
    std::map<uint64_t, double>                  counted_cpu  = {}; // dispatch -> CPU_TIME_NS
    std::map<uint64_t, uint64_t>                started      = {}; // dispatch -> start ns
    std::vector<std::pair<uint64_t, uint64_t>>  spm_asked    = {}; // (dispatch, pass + 1)
    rocprofiler_counter_config_id_t             spm_config   = {};
    rocprofiler_counter_config_id_t             count_config = {};
    rocprofiler_context_id_t                    spm_context  = {};
    rocprofiler_context_id_t                    counting     = {};
    rocprofiler_context_id_t spare           = {}; // created in initialize, never configured
    uint64_t                 replayed_kernel = 0;
    int                      global_changes  = 0;
};

recorded&
rec()
{
    static auto* value = new recorded{};
    return *value;
}

// The replay pass running on this thread, between PASS ENTER and EXIT.
thread_local std::optional<uint64_t> current_pass = std::nullopt;

void
choose_spm(const rocprofiler_spm_dispatch_counting_service_data_t* data,
           rocprofiler_counter_config_id_t*                        config,
           rocprofiler_user_data_t*                                user_data,
           void*)
{
    auto lock = std::lock_guard{rec().mutex};
    rec().spm_asked.emplace_back(data->dispatch_info.dispatch_id,
                                 current_pass ? *current_pass + 1 : 0);
    *config          = rec().spm_config;
    user_data->value = user_value;
}

void
on_spm_records(const rocprofiler_spm_dispatch_counting_service_data_t* data,
               const rocprofiler_spm_counter_record_t**                records,
               size_t                                                  count,
               rocprofiler_spm_record_flag_t                           flags,
               rocprofiler_user_data_t                                 user_data,
               void*)
{
    auto call        = record_call{};
    call.dispatch_id = data->dispatch_info.dispatch_id;
    call.internal_id = data->correlation_id.internal;
    call.flags       = static_cast<int>(flags);
    call.user        = user_data.value;
    for(size_t i = 0; i < count; ++i)
        call.records.push_back(*records[i]);
    auto lock = std::lock_guard{rec().mutex};
    rec().calls.push_back(std::move(call));
}

void
choose_counters(rocprofiler_dispatch_counting_service_data_t,
                rocprofiler_counter_config_id_t* config,
                rocprofiler_user_data_t*,
                void*)
{
    *config = rec().count_config;
}

void
on_counters(rocprofiler_dispatch_counting_service_data_t data,
            rocprofiler_counter_record_t*                records,
            size_t                                       count,
            rocprofiler_user_data_t,
            void*)
{
    auto lock = std::lock_guard{rec().mutex};
    for(size_t i = 0; i < count; ++i)
        rec().counted_cpu[data.dispatch_info.dispatch_id] += records[i].counter_value;
    rec().started[data.dispatch_info.dispatch_id] = data.start_timestamp;
}

std::map<std::string, rocprofiler_counter_id_t>
counters()
{
    return sdk_test::counters_by_name(sdk_test::gpu_agent());
}

rocprofiler_spm_parameters_t
interval(uint64_t                         value,
         rocprofiler_spm_parameter_type_t type =
             ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES)
{
    return rocprofiler_spm_parameters_t{sizeof(rocprofiler_spm_parameters_t), type, value};
}

void
reset_records()
{
    auto lock            = std::lock_guard{rec().mutex};
    rec().seen           = {};
    rec().calls          = {};
    rec().counted_cpu    = {};
    rec().started        = {};
    rec().spm_asked      = {};
    rec().global_changes = 0;
}

// The SPM configuration of CPU_TIME_NS and WORKERS_ACTIVE at 1 ms, and a context that samples
// with it; also checks what the configuration calls refuse.
void
configure_spm()
{
    reset_records();
    const auto agent  = sdk_test::gpu_agent();
    auto       named  = counters();
    auto&      seen   = rec().seen;
    auto       good   = interval(interval_cycles);
    auto       short_ = interval(99);
    auto       long_  = interval(1'000'001);
    auto       none   = interval(interval_cycles, ROCPROFILER_SPM_PARAMETER_TYPE_NONE);
    rocprofiler_spm_parameters_t* good_list[]  = {&good};
    rocprofiler_spm_parameters_t* short_list[] = {&short_};
    rocprofiler_spm_parameters_t* long_list[]  = {&long_};
    rocprofiler_spm_parameters_t* none_list[]  = {&none};
    rocprofiler_spm_parameters_t* null_entry[] = {nullptr};
    rocprofiler_counter_id_t      sampled[] = {named.at("CPU_TIME_NS"), named.at("WORKERS_ACTIVE")};
    rocprofiler_counter_id_t      not_sampled[] = {named.at("WORK_ITEMS")};

    auto untouched           = rocprofiler_counter_config_id_t{};
    seen["create bad agent"] = rocprofiler_spm_create_counter_config(
        rocprofiler_agent_id_t{0xdead}, sampled, 2, good_list, 1, &untouched);
    seen["create null entry"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 2, null_entry, 1, &untouched);
    seen["create not sampled"] =
        rocprofiler_spm_create_counter_config(agent, not_sampled, 1, good_list, 1, &untouched);
    seen["create no counter"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 0, good_list, 1, &untouched);
    seen["create too short"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 2, short_list, 1, &untouched);
    seen["create too long"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 2, long_list, 1, &untouched);
    seen["create bad type"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 2, none_list, 1, &untouched);
    seen["untouched"] =
        untouched.handle == 0 ? ROCPROFILER_STATUS_SUCCESS : ROCPROFILER_STATUS_ERROR;
    seen["create good"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 2, good_list, 1, &rec().spm_config);
    auto defaulted = rocprofiler_counter_config_id_t{};
    seen["create default"] =
        rocprofiler_spm_create_counter_config(agent, sampled, 1, nullptr, 0, &defaulted);
    seen["destroy default"] = rocprofiler_spm_destroy_counter_config(defaulted);
    seen["destroy again"]   = rocprofiler_spm_destroy_counter_config(defaulted);

    rec().spm_context            = sdk_test::create_context();
    seen["callback null record"] = rocprofiler_spm_configure_callback_dispatch_service(
        rec().spm_context, choose_spm, nullptr, nullptr, nullptr);
    seen["callback good"] = rocprofiler_spm_configure_callback_dispatch_service(
        rec().spm_context, choose_spm, nullptr, on_spm_records, nullptr);
    seen["callback again"] = rocprofiler_spm_configure_callback_dispatch_service(
        rec().spm_context, choose_spm, nullptr, on_spm_records, nullptr);
    auto other          = sdk_test::create_context();
    auto buffer         = sdk_test::create_buffer(other,
                                          4096,
                                          1024,
                                          [](rocprofiler_context_id_t,
                                             rocprofiler_buffer_id_t,
                                             rocprofiler_record_header_t**,
                                             size_t,
                                             void*,
                                             uint64_t) {});
    seen["buffer form"] = rocprofiler_spm_configure_buffer_dispatch_service(
        other,
        buffer,
        [](const rocprofiler_spm_dispatch_counting_service_data_t*,
           rocprofiler_counter_config_id_t*,
           rocprofiler_user_data_t*,
           void*) {},
        nullptr);
    seen["device form"] = rocprofiler_configure_spm_device_counting_service(
        other,
        buffer,
        agent,
        [](rocprofiler_context_id_t,
           rocprofiler_agent_id_t,
           rocprofiler_device_counting_agent_cb_t,
           void*) {},
        nullptr);
    seen["1.0 form bad buffer"] =
        rocprofiler_configure_spm_service(other, {0xdead}, rec().spm_config, 1000);
    seen["1.0 form"] = rocprofiler_configure_spm_service(other, buffer, rec().spm_config, 1000);
}

// SPM and, in a context of its own, dispatch counting of CPU_TIME_NS on the same executions.
void
initialize_spm_and_counting()
{
    configure_spm();
    rec().count_config = sdk_test::make_config(sdk_test::gpu_agent(), {"CPU_TIME_NS"});
    rec().counting     = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
        rec().counting, choose_counters, nullptr, on_counters, nullptr));
    sdk_test::start({rec().spm_context, rec().counting});
}

uint64_t
two_passes(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    return info.kernel_id == rec().replayed_kernel ? 2 : 1;
}

// SPM on pass 1 only: stopped locally on pass 0, started again on pass 1.
void
on_replay(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    auto* p = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) p->replay_pass_count = two_passes;
        return;
    }
    if(record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        current_pass.reset();
        return;
    }
    current_pass = p->current_pass;
    auto status  = p->current_pass == 0 ? p->replay_stop_context(rec().spm_context)
                                        : p->replay_start_context(rec().spm_context);
    auto active  = 0;
    rocprofiler_context_is_active(rec().spm_context, &active);
    auto lock                                                    = std::lock_guard{rec().mutex};
    rec().seen["toggle pass " + std::to_string(p->current_pass)] = status;
    if(active != 1) ++rec().global_changes;
}

void
initialize_spm_under_replay()
{
    configure_spm();
    auto replay =
        sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, on_replay);
    sdk_test::start({rec().spm_context, replay});
}

constexpr char spm_tool[]    = "spm-host";
constexpr char replay_tool[] = "spm-host-replay";
using spm_host               = sdk_test::tool_test<spm_tool, initialize_spm_and_counting>;
constexpr char limit_tool[]  = "spm-host-small-limit";
using spm_small_limit        = sdk_test::tool_test<limit_tool, initialize_spm_and_counting>;
using spm_replay             = sdk_test::tool_test<replay_tool, initialize_spm_under_replay>;

std::vector<record_call>
calls_of(uint64_t dispatch_id)
{
    auto out  = std::vector<record_call>{};
    auto lock = std::lock_guard{rec().mutex};
    for(const auto& c : rec().calls)
        if(c.dispatch_id == dispatch_id) out.push_back(c);
    return out;
}

uint64_t
last_dispatch()
{
    auto lock = std::lock_guard{rec().mutex};
    return rec().calls.empty() ? 0 : rec().calls.back().dispatch_id;
}

// Runs the spinning kernel on @p workgroups workers and returns its dispatch id.
uint64_t
run_spin(rocprofiler_host_kernel_t kernel, uint32_t workgroups)
{
    auto queue = rocprofiler_host_queue_t{};
    EXPECT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto args = spin_args{spin_ns};
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &args, sizeof(args), workgroups, 1}), 0);
    EXPECT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    return last_dispatch();
}
} // namespace

TEST_F(spm_host, configurations_and_services_check_their_arguments)
{
    auto& seen = rec().seen;
    EXPECT_EQ(seen["create bad agent"], ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND);
    EXPECT_EQ(seen["create null entry"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["create not sampled"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["create no counter"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["create too short"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["create too long"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["create bad type"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["untouched"], ROCPROFILER_STATUS_SUCCESS) << "a refused config sets no id";
    EXPECT_EQ(seen["create good"], ROCPROFILER_STATUS_SUCCESS);
    EXPECT_NE(rec().spm_config.handle, 0u);
    EXPECT_EQ(seen["create default"], ROCPROFILER_STATUS_SUCCESS) << "no parameter: the shortest";
    EXPECT_EQ(seen["destroy default"], ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(seen["destroy again"], ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
    EXPECT_EQ(seen["callback null record"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["callback good"], ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(seen["callback again"], ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
    EXPECT_EQ(seen["buffer form"], ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
    EXPECT_EQ(seen["device form"], ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
    EXPECT_EQ(seen["1.0 form bad buffer"], ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    EXPECT_EQ(seen["1.0 form"], ROCPROFILER_STATUS_ERROR_NOT_IMPLEMENTED);
    // An SPM configuration is no dispatch counting configuration.
    EXPECT_EQ(rocprofiler_destroy_counter_config(rec().spm_config),
              ROCPROFILER_STATUS_ERROR_PROFILE_NOT_FOUND);
    // After initialization, configuring is locked as for every service.
    EXPECT_EQ(rocprofiler_spm_configure_callback_dispatch_service(
                  rec().spare, choose_spm, nullptr, on_spm_records, nullptr),
              ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);
}

TEST_F(spm_host, the_host_agent_offers_an_interval_of_its_1_mhz_clock_and_two_counters)
{
    struct offer
    {
        int                                                    calls   = 0;
        std::vector<rocprofiler_spm_available_configuration_t> configs = {};
    } got;
    EXPECT_EQ(rocprofiler_spm_query_agent_configurations(
                  sdk_test::gpu_agent(),
                  [](const rocprofiler_spm_available_configuration_t** list, size_t n, void* data)
                  {
                      auto* out = static_cast<offer*>(data);
                      ++out->calls;
                      for(size_t i = 0; i < n; ++i)
                          out->configs.push_back(*list[i]);
                      return ROCPROFILER_STATUS_SUCCESS;
                  },
                  &got),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(got.calls, 1);
    ASSERT_EQ(got.configs.size(), 1u);
    EXPECT_EQ(got.configs[0].type, ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES);
    EXPECT_EQ(got.configs[0].interval.min_interval, 100u);
    EXPECT_EQ(got.configs[0].interval.max_interval, 1'000'000u);

    auto ids = std::vector<rocprofiler_counter_id_t>{};
    EXPECT_EQ(rocprofiler_spm_iterate_agent_supported_counters(
                  sdk_test::gpu_agent(),
                  [](rocprofiler_agent_id_t, rocprofiler_counter_id_t* list, size_t n, void* data)
                  {
                      auto* out = static_cast<std::vector<rocprofiler_counter_id_t>*>(data);
                      out->insert(out->end(), list, list + n);
                      return ROCPROFILER_STATUS_SUCCESS;
                  },
                  &ids),
              ROCPROFILER_STATUS_SUCCESS);
    auto names = std::vector<std::string>{};
    for(auto id : ids)
        names.push_back(sdk_test::counter_name(id.handle));
    EXPECT_EQ(names, (std::vector<std::string>{"CPU_TIME_NS", "WORKERS_ACTIVE"}));
}

TEST_F(spm_host, samples_arrive_in_time_order_and_add_up_to_the_dispatchs_cpu_time)
{
    const auto kernel   = sdk_test::register_kernel("spm_spin", spin);
    const auto dispatch = run_spin(kernel, 2);
    ASSERT_NE(dispatch, 0u);
    const auto calls = calls_of(dispatch);
    ASSERT_GE(calls.size(), 2u) << "the samples, then DISPATCH_END";
    EXPECT_EQ(calls.back().flags, ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END);
    EXPECT_TRUE(calls.back().records.empty());

    auto       cpu_sum = 0.0, peak_workers = 0.0;
    auto       samples = size_t{0};
    auto       last_ts = uint64_t{0};
    auto       lock    = std::unique_lock{rec().mutex};
    const auto counted = rec().counted_cpu[dispatch];
    const auto start   = rec().started[dispatch];
    lock.unlock();
    const auto names = std::vector<std::string>{"CPU_TIME_NS", "WORKERS_ACTIVE"};
    for(size_t c = 0; c + 1 < calls.size(); ++c)
    {
        const auto& call = calls[c];
        EXPECT_EQ(call.flags & ROCPROFILER_SPM_RECORD_FLAG_DATA, ROCPROFILER_SPM_RECORD_FLAG_DATA);
        EXPECT_EQ(call.flags & ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS, 0);
        EXPECT_EQ(call.user, user_value);
        EXPECT_NE(call.internal_id, 0u);
        ASSERT_EQ(call.records.size() % 2, 0u) << "two counters per sample";
        for(size_t i = 0; i < call.records.size(); ++i)
        {
            const auto& r = call.records[i];
            EXPECT_EQ(r.size, sizeof(r));
            EXPECT_EQ(r.dispatch_id, dispatch);
            EXPECT_EQ(r.agent_id.handle, sdk_test::gpu_agent().handle);
            EXPECT_EQ(sdk_test::counter_name(r.id), names[i % 2]);
            EXPECT_GE(r.value, 0.0);
            if(i % 2 == 1) continue;
            // A sample's two records share its timestamp; samples come in time order, after the
            // execution started.
            EXPECT_EQ(call.records[i + 1].timestamp, r.timestamp);
            EXPECT_GE(r.timestamp, last_ts);
            EXPECT_GE(r.timestamp, start);
            last_ts = r.timestamp;
            cpu_sum += r.value;
            peak_workers = std::max(peak_workers, call.records[i + 1].value);
            EXPECT_LE(call.records[i + 1].value, 2.0) << "two workgroups, two workers at most";
            ++samples;
        }
    }
    std::cout << "dispatch " << dispatch << ": " << samples << " samples, CPU time " << cpu_sum
              << " ns sampled, " << counted << " ns counted, peak workers " << peak_workers << "\n";
    // 30 ms of CPU per worker at a 1 ms interval: many samples (the count depends on the load).
    EXPECT_GE(samples, 5u);
    EXPECT_GE(peak_workers, 1.0);
    // Both are the workers' CPU-time clocks around the same work: the samples' sum is the
    // dispatch's CPU time, less what the counting hooks around the sampler's took.
    ASSERT_GT(counted, 2.0 * static_cast<double>(spin_ns) * 0.99);
    EXPECT_LE(cpu_sum, counted);
    EXPECT_GE(cpu_sum, counted * 0.95) << "samples " << cpu_sum << " ns, counted " << counted;
}

// Past the limit (ROCPROFILER_HOST_SPM_SAMPLES=3: two samples and the last), samples are dropped:
// the batch is flagged DATA_LOSS, a warning counts them, and the kept samples still add up to the
// execution's CPU time (a dropped sample's share goes to the next kept one).
TEST_F(spm_small_limit, dropped_samples_are_flagged_and_their_cpu_time_is_kept)
{
    const char* limit = std::getenv("ROCPROFILER_HOST_SPM_SAMPLES");
    if(limit == nullptr || std::string{limit} != "3")
        GTEST_SKIP() << "runs with ROCPROFILER_HOST_SPM_SAMPLES=3 only";
    const auto kernel = sdk_test::register_kernel("spm_spin_limited", spin);
    ::testing::internal::CaptureStderr();
    const auto dispatch = run_spin(kernel, 1);
    const auto err      = ::testing::internal::GetCapturedStderr();
    ASSERT_NE(dispatch, 0u);
    const auto calls = calls_of(dispatch);
    ASSERT_EQ(calls.size(), 2u) << "the samples, then DISPATCH_END";
    const auto& data = calls.front();
    EXPECT_EQ(data.flags, ROCPROFILER_SPM_RECORD_FLAG_DATA | ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS);
    EXPECT_EQ(data.records.size(), 3u * 2u) << "three samples of two counters";
    EXPECT_EQ(calls.back().flags, ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END);
    EXPECT_NE(err.find("sample(s) of dispatch " + std::to_string(dispatch) + " were dropped"),
              std::string::npos)
        << err;
    auto cpu_sum = 0.0;
    for(size_t i = 0; i < data.records.size(); i += 2)
        cpu_sum += data.records[i].value;
    auto       lock    = std::lock_guard{rec().mutex};
    const auto counted = rec().counted_cpu[dispatch];
    ASSERT_GT(counted, static_cast<double>(spin_ns) * 0.99);
    EXPECT_LE(cpu_sum, counted);
    EXPECT_GE(cpu_sum, counted * 0.95) << "samples " << cpu_sum << " ns, counted " << counted;
}

TEST_F(spm_replay, spm_follows_the_local_mask_on_its_own_pass)
{
    const auto kernel     = sdk_test::register_kernel("spm_replayed", spin);
    rec().replayed_kernel = kernel.handle;
    const auto replayed   = run_spin(kernel, 1);
    ASSERT_NE(replayed, 0u);
    const auto other = run_spin(sdk_test::register_kernel("spm_once", spin), 1);
    ASSERT_NE(other, 0u);
    ASSERT_NE(other, replayed);

    auto lock = std::lock_guard{rec().mutex};
    EXPECT_EQ(rec().seen["toggle pass 0"], ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rec().seen["toggle pass 1"], ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(rec().global_changes, 0) << "the local toggles never reach the global state";
    // Asked once for the replayed dispatch, on its pass 1 (pass + 1 = 2), and once for the other,
    // outside replay (0).
    EXPECT_EQ(rec().spm_asked,
              (std::vector<std::pair<uint64_t, uint64_t>>{{replayed, 2}, {other, 0}}));
    auto ends = std::map<uint64_t, int>{};
    for(const auto& c : rec().calls)
        if(c.flags == ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END) ++ends[c.dispatch_id];
    EXPECT_EQ(ends, (std::map<uint64_t, int>{{replayed, 1}, {other, 1}}));
}

// The records of a batch: one per counter per sample, sample by sample, the sample's timestamp
// on each.
TEST(spm_records, one_record_per_counter_per_sample)
{
    auto a         = rocprofiler::counters::counter_definition{};
    a.id           = rocprofiler_counter_id_t{11};
    auto b         = rocprofiler::counters::counter_definition{};
    b.id           = rocprofiler_counter_id_t{12};
    auto cfg       = rocprofiler::spm::config{};
    cfg.agent      = rocprofiler_agent_id_t{3};
    cfg.counters   = {&a, &b};
    auto batch     = rocprofiler::dispatch::spm_sample_batch{};
    batch.samples  = {{100, {1.0, 2.0}}, {200, {3.0, 4.0}}};
    const auto out = rocprofiler::dispatch::make_spm_records(cfg, 9, batch);
    ASSERT_EQ(out.size(), 4u);
    const auto ids   = std::vector<uint64_t>{11, 12, 11, 12};
    const auto times = std::vector<uint64_t>{100, 100, 200, 200};
    for(size_t i = 0; i < out.size(); ++i)
    {
        EXPECT_EQ(out[i].size, sizeof(out[i]));
        EXPECT_EQ(out[i].dispatch_id, 9u);
        EXPECT_EQ(out[i].agent_id.handle, 3u);
        EXPECT_EQ(out[i].id, ids[i]);
        EXPECT_EQ(out[i].timestamp, times[i]);
        EXPECT_EQ(out[i].value, static_cast<double>(i + 1));
    }
}
