// What a host-device snapshot covers: the allocations a kernel can reach from its arguments,
// directly or through pointers stored in reached allocations. Allocations it cannot reach are
// never written back, so the application may use them during the replay window; with
// ROCPROFILER_REPLAY_SNAPSHOT=all every tracked allocation is restored instead.
#include "replay_env.hpp"
#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "sdk_test.hpp"

#include <atomic>
#include <cstdlib>
#include <functional>

namespace
{
constexpr uint64_t passes = 3;

// Runs on the submitting thread at every PASS ENTER, with the pass index.
std::function<void(uint64_t)> on_pass_enter = {};

uint64_t
pass_count(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return passes;
}

void
replay_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.phase != ROCPROFILER_CALLBACK_PHASE_ENTER) return;
    auto* payload = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
        payload->replay_pass_count = pass_count;
    else if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS && on_pass_enter)
        on_pass_enter(payload->current_pass);
}

// The tool: one context tracing the replay domain; every dispatch replays `passes` times.
class snapshot_scope : public sdk_test::tool_fixture
{
protected:
    snapshot_scope()
        : tool_fixture{"snapshot-scope-test",
                       []
                       {
                           on_pass_enter = {};
                           sdk_test::start({sdk_test::callback_tracing_context(
                               ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, replay_callback)});
                       }}
    {
    }
    void TearDown() override
    {
        on_pass_enter = {};
        replay_test::unset_replay_env("ROCPROFILER_REPLAY_SNAPSHOT");
    }
};

struct direct_args
{
    int* data;
};

void
increment_direct(const rocprofiler_host_work_item_t* item, void* raw)
{
    static_cast<direct_args*>(raw)->data[item->global_linear_id] += 1;
}

// The kernel's only argument is a table whose first entry points to the data.
struct table
{
    uint64_t tag;
    int*     data;
};

struct indirect_args
{
    const table* entries;
};

void
increment_indirect(const rocprofiler_host_work_item_t* item, void* raw)
{
    static_cast<indirect_args*>(raw)->entries->data[item->global_linear_id] += 1;
}

template <typename T>
T*
device_alloc(size_t count)
{
    void* ptr = nullptr;
    EXPECT_EQ(rocprofiler_host_malloc(count * sizeof(T), &ptr), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_memset(ptr, 0, count * sizeof(T)), ROCPROFILER_HOST_STATUS_SUCCESS);
    return static_cast<T*>(ptr);
}

void
run(const char* name, rocprofiler_host_kernel_fn_t fn, const void* args, size_t args_size)
{
    auto queue = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    sdk_test::dispatch_and_wait(queue,
                                {sdk_test::register_kernel(name, fn), args, args_size, 4, 16});
    ASSERT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
}

// 64 ints that another part of the application writes during the window, at PASS ENTER of pass 0:
// after the snapshot, before the restores of passes 1 and 2.
int*
written_during_the_window()
{
    auto* unrelated = device_alloc<int>(64);
    on_pass_enter   = [unrelated](uint64_t pass)
    {
        if(pass == 0) unrelated[0] = 100;
    };
    return unrelated;
}

// Replays increment_direct over 64 ints of `data`.
void
run_direct(const char* name, int* data)
{
    auto args = direct_args{data};
    run(name, increment_direct, &args, sizeof(args));
    on_pass_enter = {};
}
} // namespace

TEST_F(snapshot_scope, an_allocation_the_kernel_cannot_reach_is_never_written_back)
{
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_SNAPSHOT");
    auto* data = device_alloc<int>(64);
    // Another part of the application writes memory the kernel never sees.
    auto* unrelated = written_during_the_window();
    run_direct("scope_direct", data);
    EXPECT_EQ(unrelated[0], 100) << "the write survives: the allocation was not restored";
    for(int i = 0; i < 64; ++i)
        ASSERT_EQ(data[i], 1) << "one run's state at " << i;
}

TEST_F(snapshot_scope, memory_reached_through_a_pointer_in_device_memory_is_restored)
{
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_SNAPSHOT");
    auto* data    = device_alloc<int>(64);
    auto* entries = device_alloc<table>(1);
    entries->tag  = 7;
    entries->data = data;
    auto args     = indirect_args{entries};
    run("scope_indirect", increment_indirect, &args, sizeof(args));
    for(int i = 0; i < 64; ++i)
        ASSERT_EQ(data[i], 1) << "one run's state at " << i << " after " << passes << " passes";
}

TEST_F(snapshot_scope, snapshot_all_restores_every_tracked_allocation)
{
    replay_test::set_replay_env("ROCPROFILER_REPLAY_SNAPSHOT", "all");
    auto* data      = device_alloc<int>(64);
    auto* unrelated = written_during_the_window();
    run_direct("scope_all", data);
    replay_test::unset_replay_env("ROCPROFILER_REPLAY_SNAPSHOT");
    EXPECT_EQ(unrelated[0], 0) << "with 'all', the restore before pass 1 reverts the write";
    for(int i = 0; i < 64; ++i)
        ASSERT_EQ(data[i], 1);
}
