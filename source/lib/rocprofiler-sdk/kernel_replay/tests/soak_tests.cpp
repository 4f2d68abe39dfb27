// Soak: 8 threads on 4 queues submit replayed dispatches (2 passes each) of a non-idempotent
// kernel with callback and buffer kernel dispatch tracing and dispatch counting on the host
// device, for SOAK_SECONDS (default 1800). Checks that every dispatch leaves memory as one run,
// that no record is lost (one COMPLETE callback, one buffer record and one counter record per
// pass; the buffer reports no drops) and that the resident set size does not keep growing
// (SOAK_MAX_RSS_GROWTH_MB, default 64, from the end of the first tenth of the run to the end;
// not checked under a sanitizer).
// Prints one "[soak]" summary line. CTest label `soak` (excluded from the default test command);
// a 3-second run of the same test is part of the `reliability` label.
#include "replay_env.hpp"
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include <unistd.h>

namespace
{
// Under AddressSanitizer (its quarantine of freed memory) or ThreadSanitizer the resident set grows
// by design: the growth is reported but not checked.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
constexpr bool rss_is_checked = false;
#elif defined(__has_feature)
#    if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
constexpr bool rss_is_checked = false;
#    else
constexpr bool rss_is_checked = true;
#    endif
#else
constexpr bool rss_is_checked = true;
#endif

constexpr uint32_t threads_count = 8;
constexpr uint32_t queues_count  = 4;
constexpr uint32_t elements      = 256;
constexpr uint64_t passes        = 2;

struct counts
{
    std::atomic<uint64_t> pass_exits      = 0;
    std::atomic<uint64_t> completes       = 0;
    std::atomic<uint64_t> buffer_records  = 0;
    std::atomic<uint64_t> buffer_dropped  = 0;
    std::atomic<uint64_t> counter_records = 0;
};

counts&
seen()
{
    static auto* value = new counts{}; // never destroyed: the SDK may deliver at exit
    return *value;
}

std::atomic<uint64_t> g_config = 0; // rocprofiler_counter_config_id_t::handle, once made

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    auto* payload = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
       record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        payload->replay_pass_count = pass_count;
    else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS &&
            record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
        ++seen().pass_exits;
}

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE) ++seen().completes;
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        count,
                void*,
                uint64_t drop_count)
{
    seen().buffer_dropped += drop_count;
    for(size_t i = 0; i < count; ++i)
        if(headers[i]->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
           headers[i]->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
            ++seen().buffer_records;
}

void
choose_config(rocprofiler_dispatch_counting_service_data_t,
              rocprofiler_counter_config_id_t* config,
              rocprofiler_user_data_t*,
              void*)
{
    config->handle = g_config.load();
}

void
record_callback(rocprofiler_dispatch_counting_service_data_t,
                rocprofiler_counter_record_t*,
                size_t,
                rocprofiler_user_data_t,
                void*)
{
    ++seen().counter_records;
}

rocprofiler_buffer_id_t g_buffer = {};

void
initialize_tool()
{
    auto traced = sdk_test::create_context();
    g_buffer    = sdk_test::create_buffer(traced, 1 << 16, 1 << 15, buffer_callback);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
        traced, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, g_buffer));
    auto counting = sdk_test::create_context();
    SDK_TEST_CHECK(rocprofiler_configure_callback_dispatch_counting_service(
        counting, choose_config, nullptr, record_callback, nullptr));
    sdk_test::start({sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                        replay_callback),
                     sdk_test::callback_tracing_context(
                         ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, dispatch_callback),
                     traced,
                     counting});
}

constexpr char tool_name[] = "kernel-replay-soak";
using replay_soak          = sdk_test::tool_test<tool_name, initialize_tool>;

struct accumulate_args
{
    float*       a;
    const float* b;
};

void
accumulate(const rocprofiler_host_work_item_t* item, void* raw)
{
    auto* args = static_cast<accumulate_args*>(raw);
    args->a[item->global_linear_id] += args->b[item->global_linear_id];
}

uint64_t
env_number(const char* name, uint64_t fallback)
{
    const auto* text = std::getenv(name);
    if(text == nullptr || *text == '\0') return fallback;
    char* end   = nullptr;
    auto  value = std::strtoull(text, &end, 10);
    if(end == text || *end != '\0')
    {
        ADD_FAILURE() << name << "='" << text << "' is not a number";
        return fallback;
    }
    return value;
}

// Resident set size in bytes (/proc/self/statm), 0 when unknown.
uint64_t
rss_bytes()
{
    auto in    = std::ifstream{"/proc/self/statm"};
    auto size  = uint64_t{0};
    auto pages = uint64_t{0};
    if(!(in >> size >> pages)) return 0;
    return pages * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}
} // namespace

TEST_F(replay_soak, threads_replay_with_tracing_and_counters_without_loss_or_growth)
{
    const auto seconds        = env_number("SOAK_SECONDS", 1800);
    const auto max_growth_mib = env_number("SOAK_MAX_RSS_GROWTH_MB", 64);
    ASSERT_GT(seconds, 0u);
    // The threads write their own buffers from the host between dispatches (see stress_tests).
    replay_test::set_replay_env("ROCPROFILER_REPLAY_VERIFY", "reachable");
    g_config = sdk_test::make_config(sdk_test::gpu_agent(), {"DURATION_NS", "WORK_ITEMS"}).handle;
    ASSERT_NE(g_config.load(), 0u);

    auto kernel = sdk_test::register_kernel("soak_accumulate", accumulate);
    auto queues = std::vector<rocprofiler_host_queue_t>(queues_count);
    for(auto& q : queues)
        ASSERT_EQ(rocprofiler_host_create_queue(&q), ROCPROFILER_HOST_STATUS_SUCCESS);

    using clock           = std::chrono::steady_clock;
    const auto start      = clock::now();
    const auto deadline   = start + std::chrono::seconds{seconds};
    const auto warmed     = start + std::chrono::seconds{seconds} / 10;
    auto       failures   = std::atomic<uint64_t>{0};
    auto       dispatches = std::atomic<uint64_t>{0};
    auto       workers    = std::vector<std::thread>{};
    for(uint32_t t = 0; t < threads_count; ++t)
    {
        workers.emplace_back(
            [&, t]
            {
                float* a = nullptr;
                float* b = nullptr;
                if(rocprofiler_host_malloc(elements * sizeof(float),
                                           reinterpret_cast<void**>(&a)) !=
                       ROCPROFILER_HOST_STATUS_SUCCESS ||
                   rocprofiler_host_malloc(elements * sizeof(float),
                                           reinterpret_cast<void**>(&b)) !=
                       ROCPROFILER_HOST_STATUS_SUCCESS)
                {
                    ++failures;
                    return;
                }
                for(uint32_t i = 0; i < elements; ++i)
                    b[i] = static_cast<float>((i % 7) + t + 1);
                auto args   = accumulate_args{a, b};
                auto signal = rocprofiler_host_signal_t{};
                if(rocprofiler_host_create_signal(1, &signal) != ROCPROFILER_HOST_STATUS_SUCCESS)
                {
                    ++failures;
                    return;
                }
                while(clock::now() < deadline && failures.load() == 0)
                {
                    for(uint32_t i = 0; i < elements; ++i)
                        a[i] = 0.0f;
                    rocprofiler_host_signal_store(signal, 1);
                    auto params              = rocprofiler_host_dispatch_params_t{};
                    params.size              = sizeof(params);
                    params.kernel            = kernel;
                    params.grid              = {elements / 64, 1, 1};
                    params.workgroup_size    = {64, 1, 1};
                    params.args              = &args;
                    params.args_size         = sizeof(args);
                    params.completion_signal = signal;
                    if(rocprofiler_host_dispatch(queues[t % queues_count], &params) !=
                           ROCPROFILER_HOST_STATUS_SUCCESS ||
                       rocprofiler_host_signal_wait(signal,
                                                    ROCPROFILER_HOST_SIGNAL_CONDITION_LT,
                                                    1,
                                                    60ULL * 1000 * 1000 * 1000,
                                                    nullptr) != ROCPROFILER_HOST_STATUS_SUCCESS)
                    {
                        ++failures;
                        break;
                    }
                    ++dispatches;
                    for(uint32_t i = 0; i < elements; ++i)
                        if(a[i] != b[i]) // one run, whatever the passes did
                        {
                            ++failures;
                            break;
                        }
                }
                rocprofiler_host_destroy_signal(signal);
                rocprofiler_host_free(a);
                rocprofiler_host_free(b);
            });
    }
    std::this_thread::sleep_until(warmed);
    const auto rss_warm = rss_bytes();
    for(auto& w : workers)
        w.join();
    ASSERT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_SUCCESS);
    const auto rss_end = rss_bytes();
    const auto growth  = rss_end > rss_warm ? rss_end - rss_warm : 0;
    const auto total   = dispatches.load();
    const auto runs    = total * passes;
    const auto lost    = [runs](uint64_t got) { return got < runs ? runs - got : 0; };

    std::printf("[soak] %llu s, %u threads: %llu dispatches, %llu passes; records lost: "
                "complete %llu, buffer %llu (dropped %llu), counters %llu; RSS %.1f MiB after "
                "warm-up, %.1f MiB at the end (growth %.1f MiB%s)\n",
                static_cast<unsigned long long>(seconds),
                threads_count,
                static_cast<unsigned long long>(total),
                static_cast<unsigned long long>(runs),
                static_cast<unsigned long long>(lost(seen().completes.load())),
                static_cast<unsigned long long>(lost(seen().buffer_records.load())),
                static_cast<unsigned long long>(seen().buffer_dropped.load()),
                static_cast<unsigned long long>(lost(seen().counter_records.load())),
                static_cast<double>(rss_warm) / (1 << 20),
                static_cast<double>(rss_end) / (1 << 20),
                static_cast<double>(growth) / (1 << 20),
                rss_is_checked ? "" : ", not checked under a sanitizer");
    std::fflush(stdout);

    EXPECT_EQ(failures.load(), 0u) << "a dispatch failed, timed out, or left memory unlike one run";
    EXPECT_GT(total, uint64_t{threads_count});
    EXPECT_EQ(seen().pass_exits.load(), runs);
    EXPECT_EQ(seen().completes.load(), runs);
    EXPECT_EQ(seen().buffer_records.load(), runs);
    EXPECT_EQ(seen().buffer_dropped.load(), 0u);
    EXPECT_EQ(seen().counter_records.load(), runs);
    EXPECT_NE(rss_warm, 0u);
    if(rss_is_checked)
    {
        EXPECT_LE(growth, max_growth_mib << 20) << "the resident set kept growing";
    }
    for(auto& q : queues)
        rocprofiler_host_destroy_queue(q);
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_VERIFY");
}
