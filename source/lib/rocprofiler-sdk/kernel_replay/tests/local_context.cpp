// Localized context control: replay_start_context / replay_stop_context.
#include "harness.hpp"

#include "context/context.hpp"

#include <thread>

namespace replay_test
{
namespace
{
using local_context = replay_fixture;

using toggle_fn = rocprofiler_kernel_replay_context_cb_t;

int
is_active(rocprofiler_context_id_t id)
{
    auto status = -1;
    EXPECT_EQ(rocprofiler_context_is_active(id, &status), ROCPROFILER_STATUS_SUCCESS);
    return status;
}

// Passes (by index of the traced context's COMPLETE records' pass_on_thread) that `traced` saw.
std::vector<int64_t>
traced_passes()
{
    auto out = std::vector<int64_t>{};
    for(const auto& ev : traced_completes())
        out.push_back(ev.pass_on_thread);
    return out;
}

// Toggles at PASS ENTER: pass -> (start?, context).
struct toggle
{
    uint64_t                 pass;
    bool                     start;
    rocprofiler_context_id_t ctx;
};

void
toggle_at_pass_enter(std::vector<toggle> toggles)
{
    tool().on_pass = [toggles](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return;
        for(const auto& t : toggles)
        {
            if(t.pass != payload.current_pass) continue;
            auto fn = t.start ? payload.replay_start_context : payload.replay_stop_context;
            EXPECT_EQ(fn(t.ctx), ROCPROFILER_STATUS_SUCCESS);
        }
    };
}

TEST_F(local_context, stop_is_sticky_scoped_to_the_loop_and_never_global)
{
    auto p              = targeted_add(3);
    auto active_in_pass = std::vector<int>{};
    toggle_at_pass_enter({{0, false, contexts().traced}});
    auto inner     = tool().on_pass;
    tool().on_pass = [&](payload_t& payload, auto* ud, rocprofiler_callback_phase_t phase)
    {
        inner(payload, ud, phase);
        active_in_pass.push_back(is_active(contexts().traced));
    };
    p.run();
    EXPECT_TRUE(traced_passes().empty()) << "stopped at pass 0, stays stopped for passes 1 and 2";
    EXPECT_EQ(flushed_buffer().size(), 3u) << "other contexts are unaffected";
    for(auto a : active_in_pass)
        EXPECT_EQ(a, 1) << "a localized stop never touches global state";
    EXPECT_EQ(is_active(contexts().traced), 1);

    // After the loop the pre-replay state is back: the next dispatch is traced again.
    log().clear();
    tool().pass_count = {};
    tool().on_pass    = {};
    p.run();
    EXPECT_EQ(traced_passes().size(), 1u);
}

TEST_F(local_context, start_within_the_loop_undoes_a_stop)
{
    auto p = targeted_add(3);
    toggle_at_pass_enter({{0, false, contexts().traced}, {2, true, contexts().traced}});
    p.run();
    EXPECT_EQ(traced_passes(), (std::vector<int64_t>{2}));
}

TEST_F(local_context, buffer_tracing_honours_the_mask)
{
    auto p = targeted_add(3);
    toggle_at_pass_enter({{1, false, contexts().buffered}, {2, true, contexts().buffered}});
    p.run();
    auto buf       = flushed_buffer();
    auto completes = traced_completes();
    ASSERT_EQ(completes.size(), 3u);
    ASSERT_EQ(buf.size(), 2u);
    EXPECT_EQ(buf[0].start, completes[0].start) << "pass 0 recorded";
    EXPECT_EQ(buf[1].start, completes[2].start) << "pass 1 masked, pass 2 recorded";
}

TEST_F(local_context, return_codes_in_pass_enter)
{
    auto p         = targeted_add(2);
    tool().on_pass = [](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase != ROCPROFILER_CALLBACK_PHASE_ENTER || payload.current_pass != 0) return;
        auto unknown = rocprofiler_context_id_t{9999};
        EXPECT_EQ(payload.replay_stop_context(unknown), ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
        EXPECT_EQ(payload.replay_start_context(unknown),
                  ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
        EXPECT_EQ(payload.replay_start_context(contexts().idle),
                  ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);
        EXPECT_EQ(payload.replay_stop_context(contexts().idle),
                  ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_STARTED);
        EXPECT_EQ(payload.replay_start_context(contexts().traced), ROCPROFILER_STATUS_SUCCESS)
            << "start of a participating context";
        EXPECT_EQ(payload.replay_stop_context(contexts().traced), ROCPROFILER_STATUS_SUCCESS);
        EXPECT_EQ(payload.replay_stop_context(contexts().traced), ROCPROFILER_STATUS_SUCCESS)
            << "stop of a stopped context";
    };
    p.run();
    EXPECT_TRUE(traced_passes().empty());
    EXPECT_EQ(is_active(contexts().idle), 0) << "NOT_STARTED records nothing";
    EXPECT_TRUE(
        log().dispatches_of(contexts().idle.handle, ROCPROFILER_KERNEL_DISPATCH_COMPLETE).empty());
}

TEST_F(local_context, illegal_outside_pass_enter_and_records_nothing)
{
    auto      p                   = targeted_add(3);
    toggle_fn start               = nullptr;
    toggle_fn stop                = nullptr;
    auto      other_thread_status = ROCPROFILER_STATUS_SUCCESS;
    tool().on_pass = [&](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        // Only the ENTER payload carries the callbacks; later calls go through the kept pointers.
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            start = payload.replay_start_context;
            stop  = payload.replay_stop_context;
        }
        if(phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
        {
            EXPECT_EQ(stop(contexts().traced), ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR)
                << "PASS EXIT";
            EXPECT_EQ(start(contexts().traced), ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR)
                << "PASS EXIT";
        }
        else if(payload.current_pass == 1)
        {
            auto th = std::thread{[&] { other_thread_status = stop(contexts().traced); }};
            th.join();
        }
    };
    p.run();
    EXPECT_EQ(other_thread_status, ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR) << "another thread";
    ASSERT_NE(stop, nullptr);
    EXPECT_EQ(stop(contexts().traced), ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR) << "after the loop";
    EXPECT_EQ(traced_passes(), (std::vector<int64_t>{0, 1, 2})) << "nothing was recorded";

    // During CONFIG of the next dispatch.
    log().clear();
    tool().on_pass   = {};
    tool().on_config = [&](payload_t&, auto*, rocprofiler_callback_phase_t)
    { EXPECT_EQ(stop(contexts().traced), ROCPROFILER_STATUS_ERROR_CONTEXT_ERROR) << "CONFIG"; };
    p.run();
    EXPECT_EQ(traced_passes(), (std::vector<int64_t>{0, 1, 2}));
}

TEST_F(local_context, override_is_thread_local)
{
    auto p         = targeted_add(2);
    auto here      = true;
    auto there     = false;
    tool().on_pass = [&](payload_t& payload, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase != ROCPROFILER_CALLBACK_PHASE_ENTER || payload.current_pass != 0) return;
        EXPECT_EQ(payload.replay_stop_context(contexts().traced), ROCPROFILER_STATUS_SUCCESS);
        const auto* ctx = rocprofiler::context::get(contexts().traced);
        here            = rocprofiler::context::is_active_for_this_thread(*ctx);
        auto th =
            std::thread{[&] { there = rocprofiler::context::is_active_for_this_thread(*ctx); }};
        th.join();
    };
    p.run();
    EXPECT_FALSE(here);
    EXPECT_TRUE(there) << "only the replaying thread sees the mask";
    EXPECT_EQ(rocprofiler::context::thread_local_override(), nullptr) << "removed after the loop";
}

TEST_F(local_context, pass_services_run_on_the_submitting_thread_within_the_pass)
{
    auto p               = targeted_add(3);
    auto flushed_at_exit = std::vector<size_t>{};
    tool().on_pass       = [&](payload_t&, auto*, rocprofiler_callback_phase_t phase)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_EXIT)
            flushed_at_exit.push_back(flushed_buffer().size());
    };
    p.run();
    const auto me   = os_thread_id();
    auto       lock = std::unique_lock{log().mutex};
    auto       n    = 0;
    for(const auto& ev : log().dispatches)
    {
        if(ev.context != contexts().traced.handle) continue;
        ++n;
        EXPECT_EQ(ev.thread_id, me) << "operation " << ev.operation;
        EXPECT_GE(ev.pass_on_thread, 0) << "ran between PASS ENTER and PASS EXIT on this thread";
    }
    EXPECT_EQ(n, 9);
    for(const auto& ev : log().replay)
        EXPECT_EQ(ev.thread_id, me);
    lock.unlock();
    EXPECT_EQ(flushed_at_exit, (std::vector<size_t>{1, 2, 3}))
        << "each pass's buffer record is written before its PASS EXIT";
}
} // namespace
} // namespace replay_test
