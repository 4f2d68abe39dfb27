// Replay-domain tool code that throws (CONFIG, replay_pass_count, PASS, replay_continue): the
// exception is reported once with the callback's name, the dispatch ends as cleanly as it can, and
// the application sees exactly one run and one completion (run_kernel checks the signal).
#include "harness.hpp"

#include <memory>
#include <stdexcept>
#include <string>

namespace replay_test
{
namespace
{
using tool_exception = replay_fixture;

size_t
count(const std::string& text, const std::string& what)
{
    size_t n = 0;
    for(auto pos = text.find(what); pos != std::string::npos; pos = text.find(what, pos + 1))
        ++n;
    return n;
}

// Runs two targeted dispatches (each on fresh memory) and returns what the SDK wrote to stderr.
// Each must have run exactly once as the application sees it.
std::string
run_twice()
{
    ::testing::internal::CaptureStderr();
    for(int i = 0; i < 2; ++i)
    {
        auto p = add_problem{};
        p.run();
        EXPECT_TRUE(p.one_run()) << "dispatch " << i;
    }
    return ::testing::internal::GetCapturedStderr();
}

TEST_F(tool_exception, config_enter_throws_the_dispatch_is_declined_and_runs_once)
{
    tool().targets = {device().add.handle};
    replay_fixed(3);
    tool().on_config = [](payload_t&, auto*, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_enter) throw std::runtime_error{"config boom"};
    };
    auto err = run_twice();
    EXPECT_EQ(count(err, "config boom"), 1u) << err;
    EXPECT_NE(err.find("KERNEL_REPLAY CONFIG callback"), std::string::npos) << err;
    EXPECT_NE(err.find("reason=tool_exception"), std::string::npos) << err;
    EXPECT_TRUE(log().replay_of(pass_operation, phase_enter).empty()) << "not replayed";
    auto lock = std::lock_guard{log().mutex};
    EXPECT_TRUE(log().pass_count.empty()) << "replay_pass_count is not asked after CONFIG threw";
}

TEST_F(tool_exception, config_exit_throws_the_dispatch_is_declined_and_runs_once)
{
    tool().targets = {device().add.handle};
    replay_fixed(3);
    tool().on_config = [](payload_t&, auto*, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_exit) throw 42; // not a std::exception
    };
    auto err = run_twice();
    EXPECT_EQ(count(err, "KERNEL_REPLAY CONFIG callback"), 1u) << err;
    EXPECT_NE(err.find("reason=tool_exception"), std::string::npos) << err;
    EXPECT_TRUE(log().replay_of(pass_operation, phase_enter).empty());
}

TEST_F(tool_exception, pass_count_throws_the_dispatch_is_declined_and_runs_once)
{
    tool().targets    = {device().add.handle};
    tool().pass_count = [](const auto&, auto) -> uint64_t
    { throw std::runtime_error{"count boom"}; };
    auto err = run_twice();
    EXPECT_EQ(count(err, "count boom"), 1u) << err;
    EXPECT_NE(err.find("replay_pass_count"), std::string::npos) << err;
    EXPECT_NE(err.find("reason=tool_exception"), std::string::npos) << err;
    EXPECT_TRUE(log().replay_of(pass_operation, phase_enter).empty());
}

TEST_F(tool_exception, pass_enter_throws_replay_ends_after_that_pass)
{
    auto p         = targeted_add(4);
    tool().on_pass = [](payload_t& payload, auto*, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_enter && payload.current_pass == 1) throw std::runtime_error{"pass boom"};
    };
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(p.one_run()) << "the application gets the results of the pass that ran";
    EXPECT_EQ(count(err, "pass boom"), 1u) << err;
    EXPECT_NE(err.find("KERNEL_REPLAY PASS callback"), std::string::npos) << err;
    EXPECT_NE(err.find("passes=2 outcome=replayed reason=tool_exception"), std::string::npos)
        << err;
    EXPECT_EQ(log().replay_of(pass_operation, phase_enter).size(), 2u);
    EXPECT_EQ(log().replay_of(pass_operation, phase_exit).size(), 2u)
        << "the pass that ran still gets EXIT";
    EXPECT_EQ(traced_completes().size(), 2u);
}

TEST_F(tool_exception, pass_exit_throws_replay_ends_after_that_pass)
{
    auto p = targeted_add(0);
    continue_until(5);
    tool().on_pass = [](payload_t&, auto*, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_exit) throw std::runtime_error{"exit boom"};
    };
    auto err = std::string{};
    ::testing::internal::CaptureStderr();
    p.run();
    err = ::testing::internal::GetCapturedStderr();
    EXPECT_TRUE(p.one_run());
    EXPECT_EQ(count(err, "exit boom"), 1u) << err;
    EXPECT_EQ(log().replay_of(pass_operation, phase_enter).size(), 1u);
    auto lock = std::lock_guard{log().mutex};
    EXPECT_TRUE(log().continues.empty()) << "replay_continue is not asked after a throwing pass";
}

TEST_F(tool_exception, replay_continue_throws_replay_ends_after_that_pass)
{
    tool().targets = {device().add.handle};
    replay_fixed(0);
    tool().continue_fn = [](uint64_t pass, uint64_t, auto) -> int
    {
        if(pass == 2) throw std::runtime_error{"continue boom"};
        return 1;
    };
    auto err = run_twice();
    EXPECT_EQ(count(err, "continue boom"), 1u) << err;
    EXPECT_NE(err.find("replay_continue"), std::string::npos) << err;
    EXPECT_NE(err.find("passes=3 outcome=replayed reason=tool_exception"), std::string::npos)
        << err;
    EXPECT_EQ(log().replay_of(pass_operation, phase_enter).size(), 6u)
        << "3 passes for each dispatch";
    EXPECT_EQ(traced_completes().size(), 6u);
}

// After a throwing dispatch, the next dispatch whose callbacks do not throw replays normally.
TEST_F(tool_exception, the_next_dispatch_replays_normally)
{
    tool().targets = {device().add.handle};
    replay_fixed(3);
    auto throw_once  = std::make_shared<bool>(true);
    tool().on_config = [throw_once](payload_t&, auto*, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_enter && *throw_once)
        {
            *throw_once = false;
            throw std::runtime_error{"once"};
        }
    };
    run_twice();
    EXPECT_EQ(log().replay_of(pass_operation, phase_enter).size(), 3u);
}
} // namespace
} // namespace replay_test
