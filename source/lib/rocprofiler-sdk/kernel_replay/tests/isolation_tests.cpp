// Isolation (REPLAY_RULES): re-entrant dispatches, the isolation lock, the bounded drain, a failed
// restore, and per-agent windows. The last two use a scripted backend that stands in for a
// device through the backend-neutral dispatch pipeline.
#include "fake_memory.hpp"
#include "harness.hpp"
#include "replay_env.hpp"

#include "common/logging.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/engine.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <future>
#include <thread>

namespace replay_test
{
namespace
{
using isolation = replay_fixture;
using namespace std::chrono_literals;

size_t
configs_of(uint64_t kernel)
{
    auto lock = std::lock_guard{log().mutex};
    return static_cast<size_t>(
        std::count(log().config_kernels.begin(), log().config_kernels.end(), kernel));
}

// Dispatches count_kernel on the other queue and waits for it (from inside a replay callback).
void
count_on_other_queue(std::atomic<int>& counter)
{
    auto args = count_args{&counter};
    run_kernel(device().count, &args, sizeof(args), 1, 1, device().other);
}

TEST_F(isolation, reentrant_dispatch_from_replay_callbacks_runs_once_without_deadlock)
{
    auto p           = targeted_add(2);
    auto counter     = std::atomic<int>{0};
    tool().on_config = [&](payload_t&, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER) count_on_other_queue(counter);
    };
    tool().on_pass = [&](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(payload.current_pass == 0) count_on_other_queue(counter); // ENTER and EXIT
        (void)phase;
    };
    p.run();
    EXPECT_EQ(counter.load(), 3);
    EXPECT_EQ(configs_of(device().count.handle), 0u) << "re-entrant dispatches are not candidates";
    EXPECT_EQ(configs_of(device().add.handle), 1u);
    EXPECT_TRUE(p.one_run());
}

TEST_F(isolation, dispatch_from_inside_a_replayed_kernel_is_not_a_candidate)
{
    tool().targets = {device().spawn.handle};
    replay_fixed(3);
    // The counter lives in host memory, which the child's executions count in: replay it anyway
    // (by default an argument pointing to untracked memory declines the replay).
    replay_test::set_replay_env("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", "1");
    auto counter = std::atomic<int>{0};
    auto args    = spawn_args{device().count, device().other, &counter};
    run_kernel(device().spawn, &args, sizeof(args), 1, 1);
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY");
    ASSERT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_ENTER).size(),
        3u);
    EXPECT_EQ(counter.load(), 3) << "a launch from a device thread repeats per pass (documented)";
    EXPECT_EQ(configs_of(device().count.handle), 0u);
}

TEST_F(isolation, ordinary_dispatch_from_another_thread_waits_for_the_window)
{
    auto p                  = targeted_add(3);
    auto counter            = std::atomic<int>{0};
    auto other              = std::thread{};
    auto seen_during_window = std::vector<int>{};
    tool().on_pass          = [&](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER && payload.current_pass == 0)
            other = std::thread{[&] { count_on_other_queue(counter); }};
        if(phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
        {
            std::this_thread::sleep_for(20ms); // ample time for an unblocked dispatch to run
            seen_during_window.push_back(counter.load());
        }
    };
    p.run();
    other.join();
    EXPECT_EQ(seen_during_window, (std::vector<int>{0, 0, 0}))
        << "no ordinary dispatch runs on the agent during the replay window";
    EXPECT_EQ(counter.load(), 1);
    EXPECT_TRUE(p.one_run());
}

// A free of device memory (the CUDA backend's wrappers) from another thread waits until the
// window is released, since the window's snapshot may cover that memory; on the replaying thread
// itself (a free from inside its replay callbacks) it does not wait.
TEST_F(isolation, memory_release_from_another_thread_waits_for_the_window)
{
    namespace kr            = rocprofiler::kernel_replay;
    auto p                  = targeted_add(3);
    auto released           = std::atomic<bool>{false};
    auto own_thread_guarded = false;
    auto other              = std::thread{};
    auto seen_during_window = std::vector<bool>{};
    tool().on_pass          = [&](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        const auto agent = payload.dispatch_info.agent_id;
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER && payload.current_pass == 0)
        {
            {
                auto own =
                    rocprofiler::dispatch::memory_release_scope{{agent}}; // must not deadlock
                own_thread_guarded = true;
            }
            other = std::thread{
                [&released, agent]
                {
                    auto guard = rocprofiler::dispatch::memory_release_scope{{agent, agent}};
                    released   = true;
                }};
        }
        if(phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
        {
            std::this_thread::sleep_for(20ms); // ample time for an unblocked release
            seen_during_window.push_back(released.load());
        }
    };
    p.run();
    other.join();
    EXPECT_TRUE(own_thread_guarded);
    EXPECT_EQ(seen_during_window, (std::vector<bool>{false, false, false}))
        << "no release of memory on the agent during its replay window";
    EXPECT_TRUE(released.load());
    EXPECT_TRUE(p.one_run());
}

// main() sets ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS=100.
TEST_F(isolation, drain_that_does_not_finish_declines)
{
    auto p    = targeted_add(3);
    auto open = std::atomic<bool>{false};
    auto gate = gate_args{&open};
    auto sig  = rocprofiler_host_signal_t{};
    ASSERT_EQ(rocprofiler_host_create_signal(1, &sig), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = device().gate;
    params.grid              = {1, 1, 1};
    params.workgroup_size    = {1, 1, 1};
    params.args              = &gate;
    params.args_size         = sizeof(gate);
    params.completion_signal = sig;
    ASSERT_EQ(rocprofiler_host_dispatch(device().other, &params), ROCPROFILER_HOST_STATUS_SUCCESS);

    setenv("ROCPROFILER_LOG_LEVEL", "debug", 1); // the warning is once per process
    rocprofiler::common::log::reset_level_from_environment();
    ::testing::internal::CaptureStderr();
    auto t0 = std::chrono::steady_clock::now();
    p.run(); // a different queue: the fall-through run is not behind the gate
    auto waited = std::chrono::steady_clock::now() - t0;
    auto err    = ::testing::internal::GetCapturedStderr();
    unsetenv("ROCPROFILER_LOG_LEVEL");
    rocprofiler::common::log::reset_level_from_environment();
    open.store(true);
    EXPECT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, nullptr),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    rocprofiler_host_destroy_signal(sig);

    EXPECT_NE(err.find("outcome=declined reason=agent_drain_stuck"), std::string::npos) << err;
    EXPECT_GE(waited, 100ms);
    EXPECT_LT(waited, 2s);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_CONFIG, ROCPROFILER_CALLBACK_PHASE_EXIT).size(),
        1u);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_ENTER).size(),
        0u);
    EXPECT_TRUE(p.one_run());
}

// --- a scripted backend ------------------------------------------------------------------------

struct script
{
    std::atomic<int> snapshots      = 0;
    std::atomic<int> restores       = 0;
    std::atomic<int> executions     = 0;
    std::atomic<int> app_signals    = 0;
    bool             restore_result = true;
    // Called inside every execution (on the submitting thread for passes).
    std::function<void()> on_execute = {};
};

class scripted_memory final : public replay_test::memoryless_backend
{
public:
    explicit scripted_memory(script& s)
        : m_script{s}
    {
    }
    bool drain(uint64_t) override { return true; }
    std::optional<rocprofiler::dispatch::decline_reason>
    snapshot(const std::vector<rocprofiler::dispatch::memory_range>&) override
    {
        ++m_script.snapshots;
        return std::nullopt;
    }
    bool restore() override
    {
        ++m_script.restores;
        return m_script.restore_result;
    }
    void release() override {}

private:
    script& m_script;
};

class scripted_launch final : public rocprofiler::dispatch::launch_backend
{
public:
    explicit scripted_launch(script& s)
        : m_script{s}
        , m_memory{s}
    {
    }
    void enqueue(rocprofiler::dispatch::completion_fn on_complete,
                 std::shared_ptr<const rocprofiler::dispatch::execution_request>) override
    {
        ++m_script.executions;
        if(m_script.on_execute) m_script.on_execute();
        auto result     = rocprofiler::dispatch::execution_result{};
        result.start_ns = 1000 * m_script.executions;
        result.end_ns   = result.start_ns + 10;
        on_complete(result);
    }
    void signal_application(const rocprofiler::dispatch::execution_result&) override
    {
        ++m_script.app_signals;
    }
    rocprofiler::dispatch::memory_backend* memory() override { return &m_memory; }

private:
    script&         m_script;
    scripted_memory m_memory;
};

void
intercept_scripted(script& s, uint64_t agent, uint64_t kernel)
{
    auto info           = rocprofiler::dispatch::launch_info{};
    info.agent          = rocprofiler_agent_id_t{agent};
    info.queue          = rocprofiler_queue_id_t{agent};
    info.kernel_id      = kernel;
    info.kernel_name    = "scripted";
    info.workgroup_size = {1, 1, 1};
    info.grid_size      = {1, 1, 1};
    rocprofiler::dispatch::intercept(info, std::make_shared<scripted_launch>(s));
}

constexpr uint64_t scripted_kernel_a = 0x5C0001;
constexpr uint64_t scripted_kernel_b = 0x5C0002;

TEST_F(isolation, plan_declines_take_no_snapshot)
{
    tool().targets = {scripted_kernel_a};
    for(auto count :
        {std::optional<uint64_t>{}, std::optional<uint64_t>{1}, std::optional<uint64_t>{0}})
    {
        auto s = script{};
        if(count) replay_fixed(*count);
        intercept_scripted(s, 0xA1, scripted_kernel_a);
        EXPECT_EQ(s.snapshots.load(), 0);
        EXPECT_EQ(s.executions.load(), 1);
        EXPECT_EQ(s.app_signals.load(), 1);
    }
}

TEST_F(isolation, snapshot_once_restore_between_passes_only)
{
    tool().targets = {scripted_kernel_a};
    replay_fixed(4);
    auto s = script{};
    intercept_scripted(s, 0xA1, scripted_kernel_a);
    EXPECT_EQ(s.snapshots.load(), 1);
    EXPECT_EQ(s.executions.load(), 4);
    EXPECT_EQ(s.restores.load(), 3) << "before every further pass, never after the last";
    EXPECT_EQ(s.app_signals.load(), 1);
}

TEST_F(isolation, failed_restore_ends_the_replay_and_is_reported)
{
    tool().targets = {scripted_kernel_a};
    replay_fixed(3);
    auto s           = script{};
    s.restore_result = false;
    ::testing::internal::CaptureStderr();
    intercept_scripted(s, 0xA1, scripted_kernel_a);
    auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_EQ(s.executions.load(), 1) << "no pass runs on unrestored memory";
    EXPECT_EQ(s.restores.load(), 1);
    EXPECT_EQ(s.app_signals.load(), 1);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_EXIT).size(),
        1u);
    EXPECT_NE(err.find("[error] [kernel-replay]"), std::string::npos) << err;
    EXPECT_NE(err.find("reason=restore_failed"), std::string::npos) << err;
}

// Two agents, two threads: each pass waits until the other agent's pass is running. With one
// lock for all agents the second window could not open and both waits would time out.
TEST_F(isolation, different_agents_replay_concurrently)
{
    tool().targets = {scripted_kernel_a, scripted_kernel_b};
    replay_fixed(2);
    auto a          = script{};
    auto b          = script{};
    auto mutex      = std::mutex{};
    auto cv         = std::condition_variable{};
    auto running    = std::array<bool, 2>{false, false};
    auto met        = std::array<bool, 2>{false, false};
    auto rendezvous = [&](int me)
    {
        auto lock   = std::unique_lock{mutex};
        running[me] = true;
        cv.notify_all();
        met[me] = cv.wait_for(lock, 2s, [&] { return running[1 - me]; }) || met[me];
    };
    a.on_execute = [&]
    {
        if(a.executions == 1) rendezvous(0);
    };
    b.on_execute = [&]
    {
        if(b.executions == 1) rendezvous(1);
    };
    auto ta = std::thread{[&] { intercept_scripted(a, 0xA1, scripted_kernel_a); }};
    auto tb = std::thread{[&] { intercept_scripted(b, 0xB2, scripted_kernel_b); }};
    ta.join();
    tb.join();
    EXPECT_TRUE(met[0] && met[1]);
    EXPECT_EQ(a.executions.load(), 2);
    EXPECT_EQ(b.executions.load(), 2);
}
} // namespace
} // namespace replay_test
