// The SDK's reset between tests (registration::reset_for_tests): a tool configured after a reset
// starts from the just-loaded state (ids from 1, the replay domain free, configuration open again),
// and a reset finalizes the previous tool as process exit would.
#include "buffer/buffer.hpp"
#include "context/context.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/engine.hpp"
#include "kernel_replay/plan.hpp"
#include "kernel_replay/settings.hpp"
#include "registration/registration.hpp"
#include "sdk_test.hpp"

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace
{
// What one configuration of the tool got from the SDK.
struct handles
{
    std::map<std::string, uint64_t> ids           = {}; // by what was created
    rocprofiler_status_t            replay_status = ROCPROFILER_STATUS_ERROR;
    rocprofiler_status_t            second_replay = ROCPROFILER_STATUS_SUCCESS;
};

handles                 g_handles        = {};
std::atomic<uint64_t>   g_buffer_batches = 0;
std::vector<uint64_t>   g_dispatch_ids   = {};
rocprofiler_buffer_id_t g_buffer         = {};
uint64_t                g_traced         = 0;

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.operation != ROCPROFILER_KERNEL_DISPATCH_COMPLETE) return;
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    g_dispatch_ids.push_back(payload->dispatch_info.dispatch_id);
}

void
replay_callback(rocprofiler_callback_tracing_record_t, rocprofiler_user_data_t*, void*)
{
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t**,
                size_t,
                void*,
                uint64_t)
{
    ++g_buffer_batches;
}

// Creates one of everything a tool can own.
void
initialize_tool()
{
    auto& h = g_handles;
    h       = handles{};

    auto replay             = sdk_test::create_context();
    h.ids["replay context"] = replay.handle;
    h.replay_status         = rocprofiler_configure_callback_tracing_service(
        replay, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, nullptr, 0, replay_callback, nullptr);
    auto other      = sdk_test::create_context();
    h.second_replay = rocprofiler_configure_callback_tracing_service(
        other, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, nullptr, 0, replay_callback, nullptr);

    auto traced = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                     dispatch_callback);
    g_traced    = traced.handle;
    h.ids["traced context"] = traced.handle;
    g_buffer                = sdk_test::create_buffer(traced, 4096, 4096, buffer_callback);
    h.ids["buffer"]         = g_buffer.handle;
    auto thread             = rocprofiler_callback_thread_t{};
    SDK_TEST_CHECK(rocprofiler_create_callback_thread(&thread));
    h.ids["callback thread"] = thread.handle;

    auto agent   = sdk_test::gpu_agent();
    auto counter = sdk_test::counters_by_name(agent).begin()->second;
    auto config  = rocprofiler_counter_config_id_t{};
    SDK_TEST_CHECK(rocprofiler_create_counter_config(agent, &counter, 1, &config));
    h.ids["counter configuration"] = config.handle;
    sdk_test::start({replay, traced});
}

void
count_kernel(const rocprofiler_host_work_item_t*, void* args)
{
    static_cast<std::atomic<int>*>(args)->fetch_add(1);
}

// Configures the tool and runs one dispatch; returns what the SDK handed out.
handles
configure_and_dispatch()
{
    g_dispatch_ids.clear();
    EXPECT_EQ(sdk_test::configure_tool("reset-test", initialize_tool), ROCPROFILER_STATUS_SUCCESS);
    static const auto kernel = sdk_test::register_kernel("reset_count", count_kernel);
    auto              queue  = rocprofiler_host_queue_t{};
    EXPECT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto counter = std::atomic<int>{0};
    auto args    = &counter;
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &args, sizeof(args), 1, 1}), 0);
    EXPECT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto out = g_handles;
    if(!g_dispatch_ids.empty()) out.ids["first dispatch"] = g_dispatch_ids.front();
    return out;
}

TEST(sdk_reset, a_tool_configured_after_a_reset_gets_the_first_ids_again)
{
    const auto first  = configure_and_dispatch();
    const auto second = configure_and_dispatch();
    for(const auto* h : {&first, &second})
    {
        // The second context tried to claim the replay domain too; the callback thread is the
        // first one after the default thread.
        const auto first_ids = std::map<std::string, uint64_t>{{"replay context", 1},
                                                               {"traced context", 3},
                                                               {"buffer", 1},
                                                               {"callback thread", 1},
                                                               {"counter configuration", 1},
                                                               {"first dispatch", 1}};
        EXPECT_EQ(h->ids, first_ids);
        EXPECT_EQ(h->replay_status, ROCPROFILER_STATUS_SUCCESS) << "the replay domain is free";
        EXPECT_EQ(h->second_replay, ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
    }
}

TEST(sdk_reset, reset_finalizes_and_returns_to_the_just_loaded_state)
{
    (void)configure_and_dispatch();
    auto status = 0;
    EXPECT_EQ(rocprofiler_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(status, 1);
    EXPECT_TRUE(rocprofiler::kernel_replay::is_configured());
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), 1u);
    // A record left in the buffer is delivered by the reset's finalization.
    auto ctx  = rocprofiler_context_id_t{g_traced};
    auto flag = int{0};
    EXPECT_EQ(rocprofiler_context_is_active(ctx, &flag), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(flag, 1);
    g_buffer_batches = 0;
    uint64_t record  = 7;
    ASSERT_TRUE(rocprofiler::buffer::emplace(g_buffer, 0, 0, record));

    rocprofiler::registration::reset_for_tests();

    EXPECT_EQ(g_buffer_batches.load(), 1u) << "the buffer was flushed before it went";
    EXPECT_EQ(rocprofiler_is_initialized(&status), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(status, 0);
    EXPECT_EQ(rocprofiler_is_finalized(&status), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(status, 0);
    EXPECT_FALSE(rocprofiler::kernel_replay::is_configured());
    EXPECT_EQ(rocprofiler::dispatch::dispatch_count(), 0u);
    EXPECT_EQ(rocprofiler::context::count(), 0u);
    EXPECT_EQ(rocprofiler_context_is_active(ctx, &flag),
              ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND);
    EXPECT_EQ(rocprofiler_flush_buffer(g_buffer), ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND);
    // Configuration is open again.
    EXPECT_EQ(rocprofiler_force_configure(nullptr), ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    auto fresh = rocprofiler_context_id_t{};
    EXPECT_EQ(rocprofiler_create_context(&fresh), ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(fresh.handle, 1u);
}
} // namespace

// Kernel replay reads its settings once per session: a variable changed while a session runs
// does not reach its windows; the session after a reset reads it.
TEST(sdk_reset, replay_settings_are_read_once_per_session)
{
    namespace kr = rocprofiler::kernel_replay;
    unsetenv("ROCPROFILER_REPLAY_MAX_PASSES");
    unsetenv("ROCPROFILER_REPLAY_VERIFY");
    rocprofiler::registration::reset_for_tests();
    EXPECT_EQ(kr::settings().max_passes, kr::max_passes_default);
    EXPECT_EQ(kr::settings().write_set.verify, kr::verify_scope::all);

    setenv("ROCPROFILER_REPLAY_MAX_PASSES", "7", 1);
    setenv("ROCPROFILER_REPLAY_VERIFY", "off", 1);
    EXPECT_EQ(kr::settings().max_passes, kr::max_passes_default) << "not read again mid-session";
    EXPECT_EQ(kr::max_passes(), kr::max_passes_default);
    EXPECT_EQ(kr::settings().write_set.verify, kr::verify_scope::all);

    rocprofiler::registration::reset_for_tests();
    EXPECT_EQ(kr::settings().max_passes, 7u) << "the next session reads the environment";
    EXPECT_EQ(kr::settings().write_set.verify, kr::verify_scope::off);

    unsetenv("ROCPROFILER_REPLAY_MAX_PASSES");
    unsetenv("ROCPROFILER_REPLAY_VERIFY");
    kr::reread_settings();
    EXPECT_EQ(kr::max_passes(), kr::max_passes_default);
}
