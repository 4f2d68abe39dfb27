// What the PASS payload and the sequence's user_data hold in each callback: the localized
// start/stop callbacks only during PASS ENTER, and user_data as CONFIG left it at every PASS ENTER
// (a pass's writes last until that pass's replay_continue call, not into the next pass).
#include "harness.hpp"

#include <vector>

namespace replay_test
{
namespace
{
using payload_lifetime = replay_fixture;

constexpr uint64_t config_value = 0xC0FFEE;
constexpr uint64_t pass_bias    = 1000; // a pass writes pass_bias + current_pass

// CONFIG ENTER writes config_value; PASS ENTER writes pass_bias + pass.
void
write_in_config_and_every_pass_enter()
{
    tool().on_config = [](payload_t&, rocprofiler_user_data_t* ud, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_enter) ud->value = config_value;
    };
    tool().on_pass =
        [](payload_t& payload, rocprofiler_user_data_t* ud, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_enter) ud->value = pass_bias + payload.current_pass;
    };
}

TEST_F(payload_lifetime, start_and_stop_context_are_set_only_in_pass_enter)
{
    auto p = targeted_add(3);
    p.run();
    auto enters = log().replay_of(pass_operation, phase_enter);
    auto exits  = log().replay_of(pass_operation, phase_exit);
    ASSERT_EQ(enters.size(), 3u);
    ASSERT_EQ(exits.size(), 3u);
    for(uint64_t i = 0; i < 3; ++i)
    {
        EXPECT_TRUE(enters[i].has_start_stop) << "PASS ENTER " << i;
        EXPECT_FALSE(exits[i].has_start_stop) << "PASS EXIT " << i;
    }
    for(auto phase : {phase_enter, phase_exit})
        for(const auto& ev : log().replay_of(config_operation, phase))
            EXPECT_FALSE(ev.has_start_stop) << "CONFIG phase " << phase;
    EXPECT_TRUE(p.one_run());
}

// A tool that keeps the pointers it saw at PASS ENTER and looks again at EXIT finds NULL there,
// whichever pass it is.
TEST_F(payload_lifetime, pass_exit_payload_has_null_context_callbacks_in_an_indefinite_loop)
{
    auto p = targeted_add(0);
    continue_until(1);
    auto seen_at_exit = std::vector<bool>{};
    tool().on_pass    = [&seen_at_exit](payload_t& payload, auto*, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_exit)
            seen_at_exit.push_back(payload.replay_start_context != nullptr ||
                                   payload.replay_stop_context != nullptr);
    };
    p.run();
    EXPECT_EQ(seen_at_exit, (std::vector<bool>{false, false}));
    EXPECT_TRUE(p.one_run());
}

// Every PASS ENTER and replay_pass_count see CONFIG's value; a pass's write is seen by its EXIT
// and by the replay_continue call after it, and is gone at the next PASS ENTER.
TEST_F(payload_lifetime, a_pass_write_lasts_until_that_pass_continue_call)
{
    auto p = targeted_add(0);
    continue_until(2);
    write_in_config_and_every_pass_enter();
    p.run();

    auto lock = std::lock_guard{log().mutex};
    ASSERT_EQ(log().pass_count.size(), 1u);
    EXPECT_EQ(log().pass_count[0].user_data, config_value);
    auto enters = std::vector<uint64_t>{};
    auto exits  = std::vector<uint64_t>{};
    for(const auto& ev : log().replay)
    {
        if(ev.operation != pass_operation) continue;
        (ev.phase == phase_enter ? enters : exits).push_back(ev.user_data);
    }
    // PASS ENTER is recorded before the tool's write, PASS EXIT after the tool's EXIT callback.
    EXPECT_EQ(enters, (std::vector<uint64_t>(3, config_value)));
    EXPECT_EQ(exits, (std::vector<uint64_t>{pass_bias, pass_bias + 1, pass_bias + 2}));
    ASSERT_EQ(log().continues.size(), 3u);
    for(uint64_t i = 0; i < 3; ++i)
        EXPECT_EQ(log().continues[i].user_data, pass_bias + i)
            << "replay_continue after pass " << i;
    EXPECT_TRUE(p.one_run());
}

// A write at PASS EXIT of a fixed loop does not reach the next pass either.
TEST_F(payload_lifetime, a_write_at_pass_exit_is_gone_at_the_next_pass_enter)
{
    auto p           = targeted_add(3);
    tool().on_config = [](payload_t&, rocprofiler_user_data_t* ud, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_enter) ud->value = config_value;
    };
    tool().on_pass = [](payload_t&, rocprofiler_user_data_t* ud, rocprofiler_callback_phase_t ph)
    {
        if(ph == phase_exit) ud->value = 0xDEAD;
    };
    p.run();
    auto enters = log().replay_of(pass_operation, phase_enter);
    ASSERT_EQ(enters.size(), 3u);
    for(const auto& ev : enters)
        EXPECT_EQ(ev.user_data, config_value) << "PASS ENTER " << ev.current_pass;
    EXPECT_TRUE(p.one_run());
}

// "The value CONFIG left" is the one in user_data when CONFIG EXIT returns.
TEST_F(payload_lifetime, a_write_at_config_exit_is_what_every_pass_starts_from)
{
    auto p           = targeted_add(2);
    tool().on_config = [](payload_t&, rocprofiler_user_data_t* ud, rocprofiler_callback_phase_t ph)
    { ud->value = (ph == phase_enter ? 1u : 2u); };
    p.run();
    auto lock = std::lock_guard{log().mutex};
    ASSERT_EQ(log().pass_count.size(), 1u);
    EXPECT_EQ(log().pass_count[0].user_data, 2u);
    for(const auto& ev : log().replay)
    {
        if(ev.operation == pass_operation)
        {
            EXPECT_EQ(ev.user_data, 2u);
        }
    }
    EXPECT_TRUE(p.one_run());
}
} // namespace
} // namespace replay_test
