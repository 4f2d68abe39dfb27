// The domain, the pass-count table, state across the loop and the application's completion.
#include "harness.hpp"

#include "common/logging.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/plan.hpp"

#include <cstdlib>
#include <cstring>
#include <set>
#include <string>

namespace replay_test
{
namespace
{
using loop_tests = replay_fixture;

constexpr auto enter   = ROCPROFILER_CALLBACK_PHASE_ENTER;
constexpr auto exit_   = ROCPROFILER_CALLBACK_PHASE_EXIT;
constexpr auto config  = ROCPROFILER_KERNEL_REPLAY_CONFIG;
constexpr auto pass_op = ROCPROFILER_KERNEL_REPLAY_PASS;

size_t
passes_run()
{
    return log().replay_of(pass_op, enter).size();
}

std::vector<uint64_t>
continue_passes()
{
    auto lock = std::lock_guard{log().mutex};
    auto out  = std::vector<uint64_t>{};
    for(const auto& c : log().continues)
        out.push_back(c.pass);
    return out;
}

// --- domain -----------------------------------------------------------------------------------

TEST_F(loop_tests, second_context_cannot_configure_the_domain)
{
    EXPECT_EQ(contexts().second_status, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
}

TEST_F(loop_tests, operation_names_are_queryable)
{
    const char* name = nullptr;
    uint64_t    len  = 0;
    ASSERT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                  ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, config, &name, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_STREQ(name, "CONFIG");
    ASSERT_EQ(rocprofiler_query_callback_tracing_kind_operation_name(
                  ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, pass_op, &name, &len),
              ROCPROFILER_STATUS_SUCCESS);
    EXPECT_STREQ(name, "PASS");
}

TEST_F(loop_tests, config_and_pass_fire_enter_and_exit_in_order)
{
    auto p = targeted_add(3);
    p.run();
    auto lock     = std::lock_guard{log().mutex};
    auto expected = std::vector<std::string>{"config-enter",
                                             "config-exit",
                                             "pass-enter 0",
                                             "complete 0",
                                             "pass-exit 0",
                                             "pass-enter 1",
                                             "complete 1",
                                             "pass-exit 1",
                                             "pass-enter 2",
                                             "complete 2",
                                             "pass-exit 2"};
    EXPECT_EQ(log().order, expected);
}

// --- the pass-count table ----------------------------------------------------------------------

TEST_F(loop_tests, pass_count_left_null_is_not_replayed)
{
    auto p = targeted_add();
    p.run();
    EXPECT_EQ(log().replay_of(config, enter).size(), 1u);
    EXPECT_EQ(log().replay_of(config, exit_).size(), 1u);
    EXPECT_EQ(passes_run(), 0u);
    EXPECT_TRUE(p.one_run());
    EXPECT_EQ(traced_completes().size(), 1u);
}

TEST_F(loop_tests, pass_count_one_is_not_replayed_and_continue_is_ignored)
{
    auto p             = targeted_add(1);
    tool().continue_fn = [](uint64_t, uint64_t, auto) { return 1; };
    p.run();
    EXPECT_EQ(log().pass_count.size(), 1u);
    EXPECT_EQ(passes_run(), 0u);
    EXPECT_TRUE(continue_passes().empty());
    EXPECT_TRUE(p.one_run());
}

class fixed_loop : public replay_fixture, public ::testing::WithParamInterface<uint64_t>
{
};

TEST_P(fixed_loop, runs_exactly_n_passes_without_continue)
{
    auto p = targeted_add();
    replay_fixed(GetParam());
    p.run();
    auto passes = log().replay_of(pass_op, enter);
    ASSERT_EQ(passes.size(), GetParam());
    for(uint64_t i = 0; i < passes.size(); ++i)
    {
        EXPECT_EQ(passes[i].current_pass, i);
        EXPECT_EQ(passes[i].total_passes, GetParam());
    }
    EXPECT_EQ(log().replay_of(pass_op, exit_).size(), GetParam());
    EXPECT_EQ(log().pass_count.size(), 1u) << "replay_pass_count is called once per dispatch";
    EXPECT_TRUE(p.one_run());
}

INSTANTIATE_TEST_SUITE_P(passes, fixed_loop, ::testing::Values(2, 3, 7));

TEST_F(loop_tests, fixed_loop_consults_continue_for_passes_0_to_n_minus_2)
{
    auto p             = targeted_add(4);
    tool().continue_fn = [](uint64_t, uint64_t total, auto)
    {
        EXPECT_EQ(total, 4u);
        return 1;
    };
    p.run();
    EXPECT_EQ(passes_run(), 4u);
    EXPECT_EQ(continue_passes(), (std::vector<uint64_t>{0, 1, 2}));
}

TEST_F(loop_tests, continue_ends_a_fixed_loop_early)
{
    auto p             = targeted_add(5);
    tool().continue_fn = [](uint64_t pass, uint64_t, auto) { return pass < 1 ? 1 : 0; };
    p.run();
    EXPECT_EQ(passes_run(), 2u);
    EXPECT_EQ(log().replay_of(pass_op, exit_).size(), 2u) << "PASS EXIT fires for every pass";
    EXPECT_EQ(continue_passes(), (std::vector<uint64_t>{0, 1}));
    EXPECT_TRUE(p.one_run());
}

TEST_F(loop_tests, continue_cannot_extend_a_fixed_loop)
{
    auto p             = targeted_add(3);
    tool().continue_fn = [](uint64_t, uint64_t, auto) { return 1; };
    p.run();
    EXPECT_EQ(passes_run(), 3u);
    EXPECT_EQ(continue_passes(), (std::vector<uint64_t>{0, 1}));
}

TEST_F(loop_tests, zero_with_continue_is_an_indefinite_loop)
{
    auto p             = targeted_add(0);
    tool().continue_fn = [](uint64_t pass, uint64_t total, auto)
    {
        EXPECT_EQ(total, 0u);
        return pass < 4 ? 1 : 0;
    };
    p.run();
    auto passes = log().replay_of(pass_op, enter);
    ASSERT_EQ(passes.size(), 5u);
    for(const auto& ev : passes)
        EXPECT_EQ(ev.total_passes, 0u) << "total_passes is 0 for an indefinite loop";
    EXPECT_EQ(continue_passes(), (std::vector<uint64_t>{0, 1, 2, 3, 4}))
        << "an indefinite loop consults replay_continue after every pass";
    EXPECT_TRUE(p.one_run());
}

TEST_F(loop_tests, zero_without_continue_warns_and_runs_once)
{
    auto p = targeted_add(0);
    setenv("ROCPROFILER_LOG_LEVEL", "debug", 1);
    rocprofiler::common::log::reset_level_from_environment();
    ::testing::internal::CaptureStderr();
    p.run();
    auto err = ::testing::internal::GetCapturedStderr();
    unsetenv("ROCPROFILER_LOG_LEVEL");
    rocprofiler::common::log::reset_level_from_environment();
    EXPECT_NE(err.find("outcome=declined reason=indefinite_without_continue"), std::string::npos)
        << err;
    // Warned once per process: only the first such decline is a warning. ctest runs every test in
    // its own process; a whole-binary run may have warned in an earlier test.
    if(::testing::GTEST_FLAG(filter) != "*")
    {
        EXPECT_NE(err.find("[warning] [kernel-replay]"), std::string::npos) << err;
    }
    EXPECT_EQ(passes_run(), 0u);
    EXPECT_EQ(log().replay_of(config, exit_).size(), 1u);
    EXPECT_TRUE(p.one_run());
}

TEST(plan_table, rows)
{
    using rocprofiler::kernel_replay::loop_kind;
    using rocprofiler::kernel_replay::make_plan;
    EXPECT_EQ(make_plan(std::nullopt, true).kind, loop_kind::none);
    EXPECT_EQ(make_plan(1, true).kind, loop_kind::none);
    EXPECT_EQ(make_plan(3, false).kind, loop_kind::fixed);
    EXPECT_EQ(make_plan(3, false).total_passes, 3u);
    EXPECT_EQ(make_plan(3, true).kind, loop_kind::fixed);
    EXPECT_EQ(make_plan(0, true).kind, loop_kind::indefinite);
    EXPECT_EQ(make_plan(0, true).total_passes, 0u);
    EXPECT_EQ(make_plan(0, false).kind, loop_kind::none);
    EXPECT_TRUE(rocprofiler::kernel_replay::is_rejected(make_plan(0, false)));
    EXPECT_FALSE(rocprofiler::kernel_replay::is_rejected(make_plan(1, false)));
}

TEST_F(loop_tests, pass_fields_are_zero_during_config)
{
    auto p           = targeted_add(2);
    tool().on_config = [](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            payload.current_pass = 77; // the SDK must not carry these into CONFIG EXIT
            payload.total_passes = 77;
        }
    };
    p.run();
    for(auto phase : {enter, exit_})
    {
        auto evs = log().replay_of(config, phase);
        ASSERT_EQ(evs.size(), 1u);
        EXPECT_FALSE(evs[0].has_start_stop);
        if(phase == enter)
        {
            EXPECT_EQ(evs[0].current_pass, 0u);
        }
        if(phase == exit_)
        {
            EXPECT_EQ(evs[0].current_pass, 0u);
            EXPECT_EQ(evs[0].total_passes, 0u);
            EXPECT_TRUE(evs[0].has_pass_count) << "CONFIG EXIT shows what the tool set at ENTER";
        }
    }
}

uint64_t
one_pass(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return 1;
}

int
never_continue(rocprofiler_kernel_dispatch_info_t, uint64_t, uint64_t, rocprofiler_user_data_t)
{
    return 0;
}

TEST_F(loop_tests, config_pointers_are_zero_during_pass_and_writes_are_ignored)
{
    auto p         = targeted_add(3);
    tool().on_pass = [](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return; // EXIT is recorded after on_pass
        payload.replay_pass_count = &one_pass;
        payload.replay_continue   = &never_continue;
        payload.current_pass      = 99;
        payload.total_passes      = 99;
    };
    p.run();
    auto passes = log().replay_of(pass_op, enter);
    ASSERT_EQ(passes.size(), 3u);
    for(uint64_t i = 0; i < passes.size(); ++i)
    {
        EXPECT_FALSE(passes[i].has_pass_count);
        EXPECT_FALSE(passes[i].has_continue);
        EXPECT_TRUE(passes[i].has_start_stop);
        EXPECT_EQ(passes[i].current_pass, i);
        EXPECT_EQ(passes[i].total_passes, 3u);
    }
    auto exits = log().replay_of(pass_op, exit_);
    ASSERT_EQ(exits.size(), 3u);
    for(uint64_t i = 0; i < exits.size(); ++i)
    {
        EXPECT_FALSE(exits[i].has_pass_count || exits[i].has_continue);
        EXPECT_EQ(exits[i].current_pass, i) << "PASS EXIT gets a fresh payload";
    }
    EXPECT_TRUE(p.one_run());
}

// --- state across the loop ---------------------------------------------------------------------

TEST_F(loop_tests, one_user_data_for_the_whole_sequence)
{
    auto p             = targeted_add(0);
    tool().continue_fn = [](uint64_t pass, uint64_t, rocprofiler_user_data_t ud)
    {
        EXPECT_EQ(ud.value, 0xC0FFEEu);
        return pass < 2 ? 1 : 0;
    };
    tool().on_config =
        [](payload_t&, rocprofiler_user_data_t* ud, rocprofiler_callback_phase_t phase)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            EXPECT_EQ(ud->value, 0u);
            ud->value = 0xC0FFEE;
        }
    };
    p.run();
    auto lock = std::lock_guard{log().mutex};
    ASSERT_EQ(log().replay.size(), 2u + 2u * 3u);
    for(size_t i = 1; i < log().replay.size();
        ++i) // all but CONFIG ENTER (recorded before the write)
        EXPECT_EQ(log().replay[i].user_data, 0xC0FFEEu) << "callback " << i;
    ASSERT_EQ(log().pass_count.size(), 1u);
    EXPECT_EQ(log().pass_count[0].user_data, 0xC0FFEEu);
    ASSERT_EQ(log().continues.size(), 3u);
    for(const auto& c : log().continues)
        EXPECT_EQ(c.user_data, 0xC0FFEEu);
}

TEST_F(loop_tests, one_dispatch_id_for_every_pass_and_the_counter_moves_once)
{
    auto p      = targeted_add(3);
    auto before = rocprofiler::dispatch::dispatch_count();
    p.run();
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), before + 1);
    auto id   = before + 1;
    auto buf  = flushed_buffer();
    auto lock = std::lock_guard{log().mutex};
    ASSERT_EQ(log().pass_count.size(), 1u);
    EXPECT_EQ(log().pass_count[0].dispatch_id, id);
    for(const auto& ev : log().replay)
        EXPECT_EQ(ev.dispatch_id, id);
    EXPECT_EQ(log().dispatches.size(), 3u * 3u); // ENQUEUE ENTER, EXIT, COMPLETE per pass
    for(const auto& ev : log().dispatches)
        EXPECT_EQ(ev.dispatch_id, id);
    ASSERT_EQ(buf.size(), 3u);
    for(const auto& ev : buf)
        EXPECT_EQ(ev.dispatch_id, id);
}

TEST_F(loop_tests, fall_through_run_carries_the_reserved_dispatch_id)
{
    auto p      = targeted_add(); // replay_pass_count left NULL
    auto before = rocprofiler::dispatch::dispatch_count();
    p.run();
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), before + 1);
    auto completes = traced_completes();
    auto configs   = log().replay_of(config, enter);
    ASSERT_EQ(completes.size(), 1u);
    ASSERT_EQ(configs.size(), 1u);
    EXPECT_EQ(completes[0].dispatch_id, configs[0].dispatch_id);
    EXPECT_EQ(completes[0].dispatch_id, before + 1);
}

TEST_F(loop_tests, correlation_ids_captured_once_external_ids_per_submit)
{
    auto p = targeted_add(3);
    p.run();
    auto buf     = flushed_buffer();
    auto configs = log().replay_of(config, enter);
    ASSERT_EQ(configs.size(), 1u);
    const auto corr = configs[0].correlation;
    EXPECT_NE(corr.internal, 0u);
    auto lock = std::lock_guard{log().mutex};
    for(const auto& ev : log().replay)
    {
        EXPECT_EQ(ev.correlation.internal, corr.internal);
        EXPECT_EQ(ev.correlation.ancestor, corr.ancestor);
    }
    auto externals = std::set<uint64_t>{};
    for(const auto& ev : log().dispatches)
    {
        EXPECT_EQ(ev.correlation.internal, corr.internal);
        EXPECT_EQ(ev.correlation.ancestor, corr.ancestor);
        if(ev.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
            externals.insert(ev.correlation.external.value);
    }
    EXPECT_EQ(externals.size(), 3u) << "external ids are requested per submit";
    for(const auto& ev : buf)
        EXPECT_EQ(ev.internal, corr.internal);
}

TEST_F(loop_tests, each_pass_has_its_own_timestamps)
{
    auto p = targeted_add(3);
    p.run();
    auto buf       = flushed_buffer();
    auto completes = traced_completes();
    ASSERT_EQ(completes.size(), 3u);
    ASSERT_EQ(buf.size(), 3u);
    for(size_t i = 0; i < 3; ++i)
    {
        EXPECT_LE(completes[i].start, completes[i].end);
        EXPECT_EQ(buf[i].start, completes[i].start);
        EXPECT_EQ(buf[i].end, completes[i].end);
        if(i > 0)
        {
            EXPECT_GT(completes[i].start, completes[i - 1].end) << "passes run one after another";
            EXPECT_NE(buf[i].start, buf[i - 1].start);
        }
    }
}

// --- completion --------------------------------------------------------------------------------

struct completion_case
{
    const char* name;
    uint64_t    pass_count;
    int         stop_after; // replay_continue returns 0 after this pass; -1: no replay_continue
    size_t      expected_passes;
};

class completion : public replay_fixture, public ::testing::WithParamInterface<completion_case>
{
};

TEST_P(completion, application_signal_fires_once_after_the_loop)
{
    const auto c = GetParam();
    auto       p = targeted_add(c.pass_count);
    continue_until(c.stop_after);

    auto sig = rocprofiler_host_signal_t{};
    ASSERT_EQ(rocprofiler_host_create_signal(1, &sig), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto seen      = std::vector<int64_t>{};
    tool().on_pass = [&seen, sig](payload_t&, auto*, rocprofiler_callback_phase_t)
    { seen.push_back(signal_value(sig)); };
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = device().add;
    params.grid              = {add_problem::n / 64, 1, 1};
    params.workgroup_size    = {64, 1, 1};
    params.args              = &p.args;
    params.args_size         = sizeof(p.args);
    params.completion_signal = sig;
    ASSERT_EQ(rocprofiler_host_dispatch(device().queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, nullptr),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(signal_value(sig), 0) << "exactly one completion, never -1";
    EXPECT_EQ(passes_run(), c.expected_passes);
    EXPECT_EQ(seen.size(), 2 * c.expected_passes);
    for(auto v : seen)
        EXPECT_EQ(v, 1) << "the completion is not fired while a PASS callback runs";
    EXPECT_TRUE(p.one_run());
    rocprofiler_host_destroy_signal(sig);
}

INSTANTIATE_TEST_SUITE_P(loops,
                         completion,
                         ::testing::Values(completion_case{"fixed", 3, -1, 3},
                                           completion_case{"early_exit", 5, 1, 2},
                                           completion_case{"indefinite", 0, 3, 4},
                                           completion_case{"declined", 1, -1, 0}),
                         [](const auto& info) { return std::string{info.param.name}; });
} // namespace
} // namespace replay_test
