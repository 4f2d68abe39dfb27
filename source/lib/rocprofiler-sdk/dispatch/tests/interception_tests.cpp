// The dispatch pipeline's interception point and the explicit data a backend receives. Each test
// runs in its own process (gtest_discover_tests), so an installed interceptor never leaks into
// another test.
#include "dispatch/dispatch.hpp"
#include "dispatch/interception.hpp"

#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

namespace dp = rocprofiler::dispatch;

namespace
{
// What happened, in order, across the fake backend and the fake interceptor.
std::vector<std::string> events = {};

class fake_launch final : public dp::launch_backend
{
public:
    void enqueue(dp::completion_fn                            on_complete,
                 std::shared_ptr<const dp::execution_request> request) override
    {
        ASSERT_NE(request, nullptr);
        events.emplace_back(std::string{"enqueue replayed="} + (request->replayed ? "1" : "0") +
                            " counters=" + std::to_string(request->counters.size()));
        auto result     = dp::execution_result{};
        result.start_ns = 10;
        result.end_ns   = 20;
        on_complete(result);
    }

    void signal_application(const dp::execution_result& last) override
    {
        events.emplace_back("signal end=" + std::to_string(last.end_ns));
    }
};

class fake_interceptor final : public dp::dispatch_interceptor
{
public:
    explicit fake_interceptor(bool takes)
        : m_takes{takes}
    {
    }

    bool take(const dp::logical_dispatch&          dispatch,
              std::shared_ptr<dp::launch_backend>& backend) override
    {
        seen = dispatch;
        events.emplace_back("take");
        if(!m_takes) return false;
        // A taker runs the dispatch itself, through the pipeline, and signals once.
        auto outcome = dp::run_execution_sync(dispatch, *backend);
        backend->signal_application(outcome.result);
        return true;
    }

    dp::ordinary_hold begin_ordinary(const dp::logical_dispatch&,
                                     const dp::launch_backend&) override
    {
        events.emplace_back("begin");
        m_lock.lock_shared();
        return dp::ordinary_hold{&m_lock, true};
    }

    void end_ordinary(const dp::ordinary_hold& hold) override
    {
        EXPECT_EQ(hold.shared_lock, &m_lock);
        EXPECT_TRUE(hold.counted);
        hold.shared_lock->unlock_shared();
        events.emplace_back("end");
    }

    void report_excluded(std::string_view       kernel_name,
                         dp::decline_reason     reason,
                         rocprofiler_agent_id_t agent) override
    {
        events.emplace_back("excluded " + std::string{kernel_name} + " " +
                            std::string{dp::name(reason)} +
                            " agent=" + std::to_string(agent.handle));
    }

    void hold_for_release(std::vector<rocprofiler_agent_id_t> agents,
                          std::vector<std::shared_mutex*>&    taken) override
    {
        events.emplace_back("hold " + std::to_string(agents.size()));
        m_lock.lock_shared();
        taken.emplace_back(&m_lock);
    }

    // True when no shared hold is outstanding (an exclusive lock can be taken at once).
    bool unheld()
    {
        if(!m_lock.try_lock()) return false;
        m_lock.unlock();
        return true;
    }

    dp::logical_dispatch seen = {};

private:
    bool              m_takes;
    std::shared_mutex m_lock = {};
};

dp::launch_info
make_info(const std::array<uint64_t, 2>& args)
{
    auto info        = dp::launch_info{};
    info.agent       = rocprofiler_agent_id_t{7};
    info.kernel_name = "kernel_x";
    info.arguments   = {args.data(), sizeof(args)};
    return info;
}
} // namespace

TEST(dispatch_interception, without_an_interceptor_the_pipeline_runs_the_dispatch_once)
{
    events.clear();
    EXPECT_FALSE(dp::any_consumer());
    const auto args = std::array<uint64_t, 2>{1, 2};
    dp::intercept(make_info(args), std::make_shared<fake_launch>());
    EXPECT_EQ(events, (std::vector<std::string>{"enqueue replayed=0 counters=0", "signal end=20"}));
}

TEST(dispatch_interception, a_dispatch_left_to_the_pipeline_is_bracketed_by_the_interceptor)
{
    events.clear();
    auto interceptor = fake_interceptor{false};
    ASSERT_TRUE(dp::install_interceptor(interceptor));
    EXPECT_TRUE(dp::any_consumer());
    const auto args = std::array<uint64_t, 2>{3, 4};
    dp::intercept(make_info(args), std::make_shared<fake_launch>());
    EXPECT_EQ(events,
              (std::vector<std::string>{
                  "take", "begin", "enqueue replayed=0 counters=0", "signal end=20", "end"}));
    EXPECT_TRUE(interceptor.unheld()) << "the ordinary bracket released its hold";
    // The kernel arguments travel with the dispatch, as the adapter described them.
    EXPECT_EQ(interceptor.seen.arguments.data, args.data());
    EXPECT_EQ(interceptor.seen.arguments.size, sizeof(args));
    EXPECT_STREQ(interceptor.seen.kernel_name, "kernel_x");
    EXPECT_EQ(interceptor.seen.info.agent_id.handle, 7u);
}

TEST(dispatch_interception, a_taken_dispatch_is_run_by_the_interceptor_alone)
{
    events.clear();
    auto interceptor = fake_interceptor{true};
    ASSERT_TRUE(dp::install_interceptor(interceptor));
    const auto args = std::array<uint64_t, 2>{5, 6};
    dp::intercept(make_info(args), std::make_shared<fake_launch>());
    EXPECT_EQ(events,
              (std::vector<std::string>{"take", "enqueue replayed=0 counters=0", "signal end=20"}));
}

// The backends' side of the interception point: nothing happens before an interceptor exists;
// afterwards each request reaches it, and a tracking hook runs at installation (or at once).
TEST(dispatch_interception, backend_requests_reach_the_interceptor_once_installed)
{
    events.clear();
    auto hook_runs = 0;
    dp::on_interception_installed([&hook_runs] { ++hook_runs; });
    EXPECT_FALSE(dp::interception_active());
    dp::report_excluded_launch("k", dp::decline_reason::stream_capture);
    {
        auto scope = dp::memory_release_scope{{rocprofiler_agent_id_t{7}}};
    }
    EXPECT_TRUE(events.empty()) << "no interceptor: the requests do nothing";
    EXPECT_EQ(hook_runs, 0);

    auto interceptor = fake_interceptor{false};
    ASSERT_TRUE(dp::install_interceptor(interceptor));
    EXPECT_TRUE(dp::interception_active());
    EXPECT_EQ(hook_runs, 1) << "the hook runs when the interceptor is installed";
    auto late_runs = 0;
    dp::on_interception_installed([&late_runs] { ++late_runs; });
    EXPECT_EQ(late_runs, 1) << "a hook registered afterwards runs at once";

    dp::report_excluded_launch("k", dp::decline_reason::stream_capture, rocprofiler_agent_id_t{3});
    {
        auto scope =
            dp::memory_release_scope{{rocprofiler_agent_id_t{7}, rocprofiler_agent_id_t{8}}};
        EXPECT_FALSE(interceptor.unheld()) << "the scope holds what the interceptor took";
    }
    EXPECT_TRUE(interceptor.unheld()) << "and releases it at its end";
    EXPECT_EQ(events, (std::vector<std::string>{"excluded k stream_capture agent=3", "hold 2"}));
}

TEST(dispatch_interception, one_interceptor_per_process)
{
    auto first  = fake_interceptor{false};
    auto second = fake_interceptor{false};
    EXPECT_TRUE(dp::install_interceptor(first));
    EXPECT_TRUE(dp::install_interceptor(first)) << "installing the same one again is harmless";
    EXPECT_FALSE(dp::install_interceptor(second));
}

// A replay pass says so in its request, with its numbers; the counted-execution number moves only
// for counted executions.
TEST(dispatch_interception, a_replay_pass_request_says_it_is_one)
{
    events.clear();
    auto backend    = fake_launch{};
    auto dispatch   = dp::make_logical_dispatch(make_info({7, 8}));
    auto pass       = dp::replay_pass{};
    pass.pass       = 2;
    pass.pass_count = 3;
    auto outcome    = dp::run_execution_sync(dispatch, backend, &pass);
    EXPECT_EQ(events, (std::vector<std::string>{"enqueue replayed=1 counters=0"}));
    EXPECT_EQ(outcome.result.end_ns, 20u);
    EXPECT_FALSE(outcome.counted.has_value());
    EXPECT_EQ(pass.next_execution, 0u);
}

namespace
{
// A backend whose execution finishes when the test says so.
class held_launch final : public dp::launch_backend
{
public:
    void enqueue(dp::completion_fn on_complete,
                 std::shared_ptr<const dp::execution_request>) override
    {
        m_complete = std::move(on_complete);
    }
    void signal_application(const dp::execution_result&) override {}
    void finish(uint64_t end_ns)
    {
        auto result   = dp::execution_result{};
        result.end_ns = end_ns;
        m_complete(result);
    }

private:
    dp::completion_fn m_complete = {};
};
} // namespace

// A pass wait with a bound returns a failure and a late_execution; the late execution runs what it
// was handed exactly once, whether it finishes after the hand-off or before it.
TEST(dispatch_interception, a_pass_that_outlives_its_bound_is_handed_off)
{
    for(const bool finish_first : {false, true})
    {
        SCOPED_TRACE(finish_first ? "finished before the hand-off" : "finished after it");
        auto backend    = held_launch{};
        auto dispatch   = dp::make_logical_dispatch(make_info({7, 8}));
        auto pass       = dp::replay_pass{};
        pass.pass_count = 2;
        pass.timeout_ns = 1000000; // 1 ms
        auto outcome    = dp::run_execution_sync(dispatch, backend, &pass);
        ASSERT_NE(outcome.late, nullptr);
        EXPECT_FALSE(outcome.result.ok);
        EXPECT_EQ(outcome.result.error, "the execution did not finish within 1 ms");

        auto ends = std::vector<uint64_t>{};
        if(finish_first) backend.finish(42);
        outcome.late->hand_off([&ends](const dp::execution_result& r)
                               { ends.push_back(r.end_ns); });
        EXPECT_EQ(ends.size(), finish_first ? 1u : 0u);
        if(!finish_first) backend.finish(42);
        EXPECT_EQ(ends, (std::vector<uint64_t>{42}));
    }

    // Without a bound (0), the wait is unbounded and nothing is late.
    auto backend  = fake_launch{};
    auto dispatch = dp::make_logical_dispatch(make_info({7, 8}));
    auto pass     = dp::replay_pass{};
    auto outcome  = dp::run_execution_sync(dispatch, backend, &pass);
    EXPECT_EQ(outcome.late, nullptr);
    EXPECT_TRUE(outcome.result.ok);
}
