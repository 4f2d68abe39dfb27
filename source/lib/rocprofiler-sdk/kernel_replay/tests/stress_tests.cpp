// Stress: 8 threads on 4 queues, each submitting 500 dispatches of a non-idempotent kernel with
// replay active (2 or 3 passes, and every fifth dispatch opted out). After every dispatch its
// thread checks its memory against a single run; at the end every application completion must
// have fired exactly once and every pass must have delivered exactly one COMPLETE record. Runs
// under ThreadSanitizer in scripts/test.sh.
#include "replay_env.hpp"
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>
#include <vector>

namespace
{
constexpr uint32_t threads_count   = 8;
constexpr uint32_t queues_count    = 4;
constexpr uint32_t dispatches_each = 500;
constexpr uint32_t elements        = 256;

struct observations
{
    std::mutex                   mutex          = {};
    std::map<uint64_t, uint64_t> planned_passes = {}; // dispatch id -> passes asked for
    std::map<uint64_t, uint64_t> pass_exits     = {}; // dispatch id -> PASS EXIT callbacks
    std::map<uint64_t, uint64_t> completes      = {}; // dispatch id -> COMPLETE records
    std::atomic<uint64_t>        configs        = 0;
};

observations&
seen()
{
    static auto* value = new observations{};
    return *value;
}

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t)
{
    // Every fifth dispatch opts out (runs once); the others get 2 or 3 passes.
    auto passes = (info.dispatch_id % 5 == 0) ? uint64_t{1} : 2 + (info.dispatch_id % 2);
    auto lock   = std::lock_guard{seen().mutex};
    seen().planned_passes[info.dispatch_id] = passes;
    return passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    auto* payload = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
       record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        ++seen().configs;
        payload->replay_pass_count = pass_count;
    }
    else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS &&
            record.phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
    {
        auto lock = std::lock_guard{seen().mutex};
        ++seen().pass_exits[payload->dispatch_info.dispatch_id];
    }
}

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.operation != ROCPROFILER_KERNEL_DISPATCH_COMPLETE) return;
    auto* payload =
        static_cast<rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    auto lock = std::lock_guard{seen().mutex};
    ++seen().completes[payload->dispatch_info.dispatch_id];
}

// The tool: a replay context and a context tracing dispatches.
void
initialize_tool()
{
    sdk_test::start({sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                        replay_callback),
                     sdk_test::callback_tracing_context(
                         ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH, dispatch_callback)});
}

constexpr char tool_name[] = "kernel-replay-stress";
using replay_stress        = sdk_test::tool_test<tool_name, initialize_tool>;

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
} // namespace

TEST_F(replay_stress, eight_threads_four_queues_every_dispatch_one_run_and_one_completion)
{
    // The threads write their own buffers from the host while other threads' kernels replay: with
    // the default verification (every tracked allocation outside the snapshot) those writes would
    // end replays early, correctly but by design of this test; verifying the allocations the
    // kernels reach is what such a program needs (docs/kernel_replay.md).
    replay_test::set_replay_env("ROCPROFILER_REPLAY_VERIFY", "reachable");
    auto kernel = sdk_test::register_kernel("stress_accumulate", accumulate);
    auto queues = std::vector<rocprofiler_host_queue_t>(queues_count);
    for(auto& q : queues)
        ASSERT_EQ(rocprofiler_host_create_queue(&q), ROCPROFILER_HOST_STATUS_SUCCESS);

    auto failures = std::atomic<uint64_t>{0};
    auto signals  = std::vector<std::vector<rocprofiler_host_signal_t>>(threads_count);
    auto workers  = std::vector<std::thread>{};
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
                {
                    a[i] = 0.0f;
                    b[i] = static_cast<float>((i % 7) + t + 1); // exact in float for these sums
                }
                auto queue = queues[t % queues_count];
                auto args  = accumulate_args{a, b};
                for(uint32_t d = 1; d <= dispatches_each; ++d)
                {
                    auto signal = rocprofiler_host_signal_t{};
                    if(rocprofiler_host_create_signal(1, &signal) !=
                       ROCPROFILER_HOST_STATUS_SUCCESS)
                    {
                        ++failures;
                        return;
                    }
                    signals[t].push_back(signal);
                    auto params              = rocprofiler_host_dispatch_params_t{};
                    params.size              = sizeof(params);
                    params.kernel            = kernel;
                    params.grid              = {elements / 64, 1, 1};
                    params.workgroup_size    = {64, 1, 1};
                    params.args              = &args;
                    params.args_size         = sizeof(args);
                    params.completion_signal = signal;
                    if(rocprofiler_host_dispatch(queue, &params) !=
                           ROCPROFILER_HOST_STATUS_SUCCESS ||
                       rocprofiler_host_signal_wait(signal,
                                                    ROCPROFILER_HOST_SIGNAL_CONDITION_LT,
                                                    1,
                                                    60ULL * 1000 * 1000 * 1000,
                                                    nullptr) != ROCPROFILER_HOST_STATUS_SUCCESS)
                    {
                        ++failures;
                        return;
                    }
                    // The state of exactly d single runs, whatever the pass counts were.
                    for(uint32_t i = 0; i < elements; ++i)
                    {
                        if(a[i] != static_cast<float>(d) * b[i])
                        {
                            ++failures;
                            return;
                        }
                    }
                }
            });
    }
    for(auto& w : workers)
        w.join();
    ASSERT_EQ(failures.load(), 0u) << "a dispatch failed, timed out, or left memory unlike one run";
    ASSERT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);

    // Every application completion fired exactly once: 1 -> 0, never -1.
    for(const auto& per_thread : signals)
    {
        ASSERT_EQ(per_thread.size(), dispatches_each);
        for(auto signal : per_thread)
        {
            auto value = int64_t{-99};
            ASSERT_EQ(rocprofiler_host_signal_load(signal, &value),
                      ROCPROFILER_HOST_STATUS_SUCCESS);
            EXPECT_EQ(value, 0);
        }
    }

    auto           lock  = std::lock_guard{seen().mutex};
    constexpr auto total = uint64_t{threads_count} * dispatches_each;
    EXPECT_EQ(seen().configs.load(), total);
    ASSERT_EQ(seen().planned_passes.size(), total);
    ASSERT_EQ(seen().completes.size(), total);
    auto replayed = uint64_t{0};
    for(const auto& [id, passes] : seen().planned_passes)
    {
        // One COMPLETE record per executed pass (one for a dispatch that opted out).
        EXPECT_EQ(seen().completes[id], passes) << "dispatch " << id;
        auto exits = seen().pass_exits.count(id) ? seen().pass_exits[id] : 0;
        EXPECT_EQ(exits, passes > 1 ? passes : 0) << "dispatch " << id;
        if(passes > 1) ++replayed;
    }
    EXPECT_GT(replayed, total / 2);
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_VERIFY");
}
