// Kernel replay reproductions of issue 17 (CTest label `reliability`): a pass count far beyond
// any use (replay_pass_count returning UINT64_MAX) and a pass that cannot finish while the replay
// window holds the application back.
#include "harness.hpp"
#include "replay_env.hpp"

#include "common/logging.hpp"
#include "dispatch/decline_reason.hpp"
#include "kernel_replay/plan.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <string>

namespace replay_test
{
namespace
{
using reliability = replay_fixture;
using namespace std::chrono_literals;

constexpr auto enter   = ROCPROFILER_CALLBACK_PHASE_ENTER;
constexpr auto exit_   = ROCPROFILER_CALLBACK_PHASE_EXIT;
constexpr auto config  = ROCPROFILER_KERNEL_REPLAY_CONFIG;
constexpr auto pass_op = ROCPROFILER_KERNEL_REPLAY_PASS;

size_t
passes_run()
{
    return log().replay_of(pass_op, enter).size();
}

// Issue 17: replay_pass_count returning UINT64_MAX without replay_continue ran a 2^64-pass loop
// without a word. A fixed count above ROCPROFILER_REPLAY_MAX_PASSES is declined with a warning.
TEST_F(reliability, pass_count_above_the_limit_is_declined_with_a_warning)
{
    auto p = targeted_add(UINT64_MAX);
    setenv("ROCPROFILER_LOG_LEVEL", "debug", 1);
    rocprofiler::common::log::reset_level_from_environment();
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    unsetenv("ROCPROFILER_LOG_LEVEL");
    rocprofiler::common::log::reset_level_from_environment();
    EXPECT_NE(err.find("outcome=declined reason=pass_limit"), std::string::npos) << err;
    EXPECT_NE(err.find("replay_pass_count returned more than ROCPROFILER_REPLAY_MAX_PASSES=1024"),
              std::string::npos)
        << err;
    EXPECT_EQ(passes_run(), 0u);
    EXPECT_EQ(log().replay_of(config, exit_).size(), 1u);
    EXPECT_TRUE(p.one_run());
}

TEST_F(reliability, the_pass_limit_is_configurable_and_inclusive)
{
    replay_test::set_replay_env("ROCPROFILER_REPLAY_MAX_PASSES", "4");
    auto p = targeted_add(4);
    p.run();
    EXPECT_EQ(passes_run(), 4u) << "a count equal to the limit is replayed in full";
    EXPECT_TRUE(p.one_run());

    log().clear();
    auto q = targeted_add(5);
    q.run();
    EXPECT_EQ(passes_run(), 0u) << "one pass more than the limit is declined";
    EXPECT_TRUE(q.one_run());

    // An indefinite loop is the tool's to end (spec): the limit does not cut it short.
    log().clear();
    auto r             = targeted_add(0);
    tool().continue_fn = [](uint64_t pass, uint64_t, rocprofiler_user_data_t)
    { return pass + 1 < 6 ? 1 : 0; };
    r.run();
    EXPECT_EQ(passes_run(), 6u);
    EXPECT_TRUE(r.one_run());
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_MAX_PASSES");
}

TEST(plan_table, pass_limit)
{
    using rocprofiler::dispatch::decline_reason;
    using rocprofiler::kernel_replay::loop_kind;
    using rocprofiler::kernel_replay::make_plan;
    EXPECT_EQ(make_plan(1024, false, 1024).kind, loop_kind::fixed);
    EXPECT_EQ(make_plan(1024, false, 1024).total_passes, 1024u);
    EXPECT_EQ(make_plan(1025, false, 1024).kind, loop_kind::none);
    EXPECT_EQ(make_plan(1025, false, 1024).reason, decline_reason::pass_limit);
    EXPECT_EQ(make_plan(UINT64_MAX, true, 1024).reason, decline_reason::pass_limit);
    EXPECT_TRUE(rocprofiler::kernel_replay::is_rejected(make_plan(UINT64_MAX, false, 1024)));
    EXPECT_EQ(make_plan(0, true, 2).kind, loop_kind::indefinite) << "no cap on an indefinite loop";
    EXPECT_EQ(make_plan(2, false, 2).kind, loop_kind::fixed);

    // The limit comes from ROCPROFILER_REPLAY_MAX_PASSES; a bad value keeps the default.
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_MAX_PASSES");
    EXPECT_EQ(rocprofiler::kernel_replay::max_passes(),
              rocprofiler::kernel_replay::max_passes_default);
    replay_test::set_replay_env("ROCPROFILER_REPLAY_MAX_PASSES", "7");
    EXPECT_EQ(rocprofiler::kernel_replay::max_passes(), 7u);
    EXPECT_EQ(make_plan(8, false).reason, decline_reason::pass_limit);
    for(const auto* bad : {"1", "-5", "18446744073709551616", "abc"})
    {
        replay_test::set_replay_env("ROCPROFILER_REPLAY_MAX_PASSES", bad);
        EXPECT_EQ(rocprofiler::kernel_replay::max_passes(),
                  rocprofiler::kernel_replay::max_passes_default)
            << bad;
    }
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_MAX_PASSES");
}

// Issue 17: a replayed kernel that waits for work of another queue (the gate kernel spins until
// a flag is set) cannot finish while the replay window holds the application back. Each pass
// used to spin out the gate's own 5 s bound, silently. The pass wait is bounded
// (ROCPROFILER_REPLAY_PASS_TIMEOUT_MS): the replay ends with pass_drain_stuck and a message, the
// launch returns, and the still-running pass signals the application when it finishes.
TEST_F(reliability, a_pass_that_does_not_finish_ends_the_replay_with_a_message)
{
    replay_test::set_replay_env("ROCPROFILER_REPLAY_PASS_TIMEOUT_MS", "200");
    // The gate's flag lives in host memory: replay it anyway (the kernel only reads it).
    replay_test::set_replay_env("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY", "1");
    tool().targets = {device().gate.handle};
    replay_fixed(3);
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

    ::testing::internal::CaptureStderr();
    auto t0 = std::chrono::steady_clock::now();
    ASSERT_EQ(rocprofiler_host_dispatch(device().queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto returned_after = std::chrono::steady_clock::now() - t0;
    auto err            = ::testing::internal::GetCapturedStderr();
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_PASS_TIMEOUT_MS");
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_ALLOW_HOST_MEMORY");

    EXPECT_GE(returned_after, 200ms);
    EXPECT_LT(returned_after, 2s) << "the launch waited for the gate's own bound";
    EXPECT_EQ(signal_value(sig), 1) << "the pass still runs: the application is not signalled";
    EXPECT_NE(err.find("pass 0 did not finish within 200 ms (ROCPROFILER_REPLAY_PASS_TIMEOUT_MS)"),
              std::string::npos)
        << err;
    EXPECT_NE(err.find("waits for work of another queue"), std::string::npos) << err;
    EXPECT_NE(err.find("outcome=replayed reason=pass_drain_stuck"), std::string::npos) << err;

    // What the other queue's kernel would do once the application could submit it.
    open.store(true);
    EXPECT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, nullptr),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_LT(std::chrono::steady_clock::now() - t0, 4s);
    EXPECT_EQ(signal_value(sig), 0) << "the application is signalled exactly once";
    rocprofiler_host_destroy_signal(sig);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_ENTER).size(),
        1u);
    EXPECT_EQ(
        log().replay_of(ROCPROFILER_KERNEL_REPLAY_PASS, ROCPROFILER_CALLBACK_PHASE_EXIT).size(),
        1u);
    // The late pass still delivers its completion record.
    auto completes = traced_completes();
    EXPECT_EQ(std::count_if(completes.begin(),
                            completes.end(),
                            [](const auto& c) { return c.kernel_id == device().gate.handle; }),
              1);
}

} // namespace
} // namespace replay_test
