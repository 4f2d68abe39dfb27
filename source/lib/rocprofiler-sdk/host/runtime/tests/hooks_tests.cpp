// The C++ hook points used by the profiler's adapter: dispatch interception, enqueue with a
// completion callback, run_and_wait, drain, execution hooks, and the device-thread query.

#include "test_support.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <thread>
#include <vector>

namespace host = rocprofiler::host;
using namespace rocprofiler::host::test;

namespace
{
// Adds 1 to *counter per work-item. Args: std::atomic<int64_t>*.
void
count_items(const rocprofiler_host_work_item_t*, void* args)
{
    (*static_cast<std::atomic<int64_t>**>(args))->fetch_add(1);
}

// A private device with one queue, one signal and a few kernels.
struct hook_fixture : ::testing::Test
{
    host::device              dev{host::device_options{4}};
    rocprofiler_host_queue_t  queue          = {};
    rocprofiler_host_signal_t signal         = {};
    rocprofiler_host_kernel_t counter_kernel = {};
    rocprofiler_host_kernel_t gate_kernel    = {};
    std::atomic<int64_t>      count{0};
    std::atomic<int64_t>*     countp = &count;

    void SetUp() override
    {
        HOST_ASSERT_OK(dev.create_queue(&queue));
        HOST_ASSERT_OK(dev.create_signal(1, &signal));
        HOST_ASSERT_OK(dev.register_kernel("count_items", count_items, 0, 0, &counter_kernel));
        HOST_ASSERT_OK(dev.register_kernel("gate", host::test::gate_kernel, 0, 0, &gate_kernel));
    }

    void TearDown() override { EXPECT_TRUE(dev.drain(patience_ns)); }

    rocprofiler_host_dispatch_params_t counter_params(rocprofiler_host_dim3_t grid = {2, 3, 1},
                                                      rocprofiler_host_dim3_t wg   = {4, 1, 2})
    {
        return make_params(counter_kernel, grid, wg, &countp, sizeof(countp), signal);
    }

    host::packet gate_packet(gate* g)
    {
        return make_packet(dev.find_kernel(gate_kernel), {1, 1, 1}, {1, 1, 1}, &g, sizeof(g));
    }

    int64_t signal_value() { return dev.find_signal(signal)->load(); }
};
} // namespace

TEST_F(hook_fixture, interceptor_receives_the_packet_on_the_submitting_thread)
{
    auto received = std::optional<host::packet>{};
    auto thread   = std::thread::id{};
    dev.set_dispatch_interceptor(
        [&](const host::packet& pkt)
        {
            received = pkt;
            thread   = std::this_thread::get_id();
            return ROCPROFILER_HOST_STATUS_SUCCESS;
        });
    auto params                       = counter_params({2, 3, 1}, {4, 1, 2});
    params.dynamic_group_segment_size = 40;
    HOST_ASSERT_OK(dev.dispatch(queue, &params));

    ASSERT_TRUE(received.has_value());
    EXPECT_EQ(thread, std::this_thread::get_id());
    EXPECT_EQ(received->kernel->id, counter_kernel.handle);
    EXPECT_EQ(received->kernel->name, "count_items");
    EXPECT_EQ(received->grid.x, 2u);
    EXPECT_EQ(received->grid.y, 3u);
    EXPECT_EQ(received->workgroup_size.z, 2u);
    EXPECT_EQ(received->workgroup_count(), 6u);
    EXPECT_EQ(received->work_item_count(), 48u);
    EXPECT_EQ(received->dynamic_group_segment_size, 40u);
    EXPECT_EQ(received->queue.handle, queue.handle);
    EXPECT_EQ(received->completion_signal_handle.handle, signal.handle);
    EXPECT_EQ(received->completion_signal, dev.find_signal(signal));
    // The arguments are a copy, not the caller's buffer.
    ASSERT_EQ(received->args.size(), sizeof(countp));
    EXPECT_NE(received->args.data(), static_cast<const void*>(&countp));
    EXPECT_EQ(std::memcmp(received->args.data(), &countp, sizeof(countp)), 0);

    // Nothing was enqueued: the interceptor owns the dispatch.
    EXPECT_TRUE(dev.drain(0));
    EXPECT_EQ(count.load(), 0);
    EXPECT_EQ(signal_value(), 1);
    host::device::signal_completion(*received);
    EXPECT_EQ(signal_value(), 0);
}

TEST_F(hook_fixture, interceptor_status_is_returned_to_the_application)
{
    dev.set_dispatch_interceptor([](const host::packet&)
                                 { return ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY; });
    auto params = counter_params();
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY, dev.dispatch(queue, &params));
    // Invalid dispatches never reach the interceptor.
    auto calls = 0;
    dev.set_dispatch_interceptor(
        [&](const host::packet&)
        {
            ++calls;
            return ROCPROFILER_HOST_STATUS_SUCCESS;
        });
    params.grid.y = 0;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT, dev.dispatch(queue, &params));
    params = counter_params();
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       dev.dispatch(rocprofiler_host_queue_t{999}, &params));
    EXPECT_EQ(calls, 0);
    // Removing the interceptor restores direct execution with signalling.
    dev.set_dispatch_interceptor({});
    params = counter_params();
    HOST_ASSERT_OK(dev.dispatch(queue, &params));
    ASSERT_TRUE(
        dev.find_signal(signal)->wait(ROCPROFILER_HOST_SIGNAL_CONDITION_EQ, 0, patience_ns));
    EXPECT_EQ(count.load(), 48);
}

TEST_F(hook_fixture, enqueue_with_on_complete_leaves_the_app_signal_alone)
{
    auto pkt = std::optional<host::packet>{};
    dev.set_dispatch_interceptor(
        [&](const host::packet& p)
        {
            pkt = p;
            return ROCPROFILER_HOST_STATUS_SUCCESS;
        });
    auto params = counter_params();
    HOST_ASSERT_OK(dev.dispatch(queue, &params));
    ASSERT_TRUE(pkt.has_value());

    auto result = dev.run_and_wait(queue, *pkt, patience_ns);
    HOST_ASSERT_OK(result.status);
    EXPECT_EQ(count.load(), 48);
    EXPECT_TRUE(dev.drain(patience_ns));
    EXPECT_EQ(signal_value(), 1); // the execution finished, the app signal is untouched
    host::device::signal_completion(*pkt);
    EXPECT_EQ(signal_value(), 0);
}

TEST_F(hook_fixture, replaying_a_packet_three_times_signals_once)
{
    auto results = std::vector<host::execution_result>{};
    dev.set_dispatch_interceptor(
        [&](const host::packet& pkt)
        {
            for(int pass = 0; pass < 3; ++pass)
            {
                results.push_back(dev.run_and_wait(pkt.queue, pkt, patience_ns));
                if(results.back().status != ROCPROFILER_HOST_STATUS_SUCCESS)
                    return results.back().status;
            }
            host::device::signal_completion(pkt);
            return ROCPROFILER_HOST_STATUS_SUCCESS;
        });
    auto params = counter_params();
    HOST_ASSERT_OK(dev.dispatch(queue, &params));
    ASSERT_EQ(results.size(), 3u);
    EXPECT_EQ(count.load(), 3 * 48);
    EXPECT_EQ(signal_value(), 0);
    // Passes of one queue are sequential and each has sane timestamps.
    for(size_t i = 0; i < results.size(); ++i)
    {
        EXPECT_LE(results[i].start_ns, results[i].end_ns);
        EXPECT_GT(results[i].start_ns, 0u);
        if(i > 0)
        {
            EXPECT_GE(results[i].start_ns, results[i - 1].end_ns);
        }
    }
}

TEST_F(hook_fixture, asynchronous_replay_chained_from_completions)
{
    // Pass n's completion enqueues pass n + 1 on the same queue; the last one signals. The queue
    // never looks idle in between, so synchronize/drain wait for the whole chain.
    auto passes  = std::atomic<int>{0};
    auto on_pass = std::function<void(const host::packet&, const host::execution_result&)>{};
    on_pass      = [&](const host::packet& pkt, const host::execution_result& result)
    {
        EXPECT_TRUE(dev.is_device_thread());
        EXPECT_EQ(result.status, ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_FALSE(dev.drain(patience_ns)); // refused on a device thread, without waiting
        if(++passes < 3)
        {
            auto next = [&, pkt](const host::execution_result& r) { on_pass(pkt, r); };
            EXPECT_EQ(dev.enqueue(pkt.queue, pkt, next), ROCPROFILER_HOST_STATUS_SUCCESS);
        }
        else
        {
            host::device::signal_completion(pkt);
        }
    };
    dev.set_dispatch_interceptor(
        [&](const host::packet& pkt)
        {
            return dev.enqueue(
                pkt.queue, pkt, [&, pkt](const host::execution_result& r) { on_pass(pkt, r); });
        });
    auto params = counter_params();
    HOST_ASSERT_OK(dev.dispatch(queue, &params));
    HOST_ASSERT_OK(dev.synchronize_queue(queue, patience_ns));
    EXPECT_EQ(passes.load(), 3);
    EXPECT_EQ(count.load(), 3 * 48);
    EXPECT_EQ(signal_value(), 0);
}

TEST_F(hook_fixture, destroy_queue_runs_passes_enqueued_by_completions)
{
    auto passes = std::atomic<int>{0};
    auto pkt =
        make_packet(dev.find_kernel(counter_kernel), {1, 1, 1}, {1, 1, 1}, &countp, sizeof(countp));
    auto chain = std::function<void(const host::execution_result&)>{};
    chain      = [&](const host::execution_result&)
    {
        if(++passes < 3) dev.enqueue(queue, pkt, chain);
    };
    HOST_ASSERT_OK(dev.enqueue(queue, pkt, chain));
    HOST_ASSERT_OK(dev.destroy_queue(queue));
    EXPECT_EQ(passes.load(), 3);
    EXPECT_EQ(count.load(), 3);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, dev.enqueue(queue, pkt, {}));
}

TEST_F(hook_fixture, pass_through_enqueue_signals_the_app)
{
    dev.set_dispatch_interceptor([&](const host::packet& pkt)
                                 { return dev.enqueue(pkt.queue, pkt); });
    auto params = counter_params();
    HOST_ASSERT_OK(dev.dispatch(queue, &params));
    ASSERT_TRUE(
        dev.find_signal(signal)->wait(ROCPROFILER_HOST_SIGNAL_CONDITION_EQ, 0, patience_ns));
    EXPECT_EQ(count.load(), 48);
}

TEST_F(hook_fixture, timestamps_bracket_the_kernel)
{
    auto k = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(dev.register_kernel(
        "sleep_3ms",
        +[](const rocprofiler_host_work_item_t*, void*)
        { std::this_thread::sleep_for(std::chrono::milliseconds{3}); },
        0,
        0,
        &k));
    auto pkt    = make_packet(dev.find_kernel(k), {1, 1, 1}, {1, 1, 1});
    auto before = host::now_ns();
    auto first  = dev.run_and_wait(queue, pkt, patience_ns);
    auto second = dev.run_and_wait(queue, pkt, patience_ns);
    auto after  = host::now_ns();
    HOST_ASSERT_OK(first.status);
    HOST_ASSERT_OK(second.status);
    EXPECT_LE(before, first.start_ns);
    EXPECT_GE(first.end_ns - first.start_ns, 3'000'000u);
    EXPECT_LE(first.end_ns, second.start_ns);
    EXPECT_GE(second.end_ns - second.start_ns, 3'000'000u);
    EXPECT_LE(second.end_ns, after);
    EXPECT_EQ(first.worker_count, 1u); // one workgroup: one participant
}

TEST_F(hook_fixture, drain_waits_for_in_flight_work_and_times_out)
{
    auto g = gate{};
    HOST_ASSERT_OK(dev.enqueue(queue, gate_packet(&g), {}));
    HOST_ASSERT_OK(dev.enqueue(
        queue,
        make_packet(dev.find_kernel(counter_kernel), {1, 1, 1}, {1, 1, 1}, &countp, sizeof(countp)),
        {}));
    ASSERT_TRUE(host::test::spin_until(g.entered));

    auto start = host::now_ns();
    EXPECT_FALSE(dev.drain(10'000'000));
    EXPECT_GE(host::now_ns() - start, 10'000'000u);
    EXPECT_FALSE(dev.drain(0));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT, dev.synchronize_queue(queue, 1'000'000));

    auto opener = std::thread{[&g]
                              {
                                  std::this_thread::sleep_for(std::chrono::milliseconds{5});
                                  g.open = true;
                              }};
    EXPECT_TRUE(dev.drain(patience_ns));
    EXPECT_EQ(count.load(), 1); // drained means the packet queued behind the gate ran too
    opener.join();
    EXPECT_FALSE(g.timed_out.load());
}

TEST_F(hook_fixture, run_and_wait_timeout_and_refusals)
{
    auto g      = gate{};
    auto result = dev.run_and_wait(queue, gate_packet(&g), 1'000'000);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_TIMEOUT, result.status);
    g.open = true;
    EXPECT_TRUE(dev.drain(patience_ns)); // the execution still completed

    auto pkt =
        make_packet(dev.find_kernel(counter_kernel), {1, 1, 1}, {1, 1, 1}, &countp, sizeof(countp));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       dev.run_and_wait(rocprofiler_host_queue_t{12345}, pkt).status);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       dev.run_and_wait(rocprofiler_host_queue_t{0}, pkt).status);

    // On a device thread run_and_wait would block a queue or a worker: refused.
    auto nested = std::optional<rocprofiler_host_status_t>{};
    HOST_ASSERT_OK(dev.enqueue(queue,
                               pkt,
                               [&](const host::execution_result&)
                               { nested = dev.run_and_wait(queue, pkt, patience_ns).status; }));
    EXPECT_TRUE(dev.drain(patience_ns));
    ASSERT_TRUE(nested.has_value());
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_OPERATION, *nested);
}

TEST_F(hook_fixture, enqueue_rejects_bad_packets_without_calling_back)
{
    auto called = std::atomic<int>{0};
    auto cb     = [&](const host::execution_result&) { ++called; };
    auto pkt =
        make_packet(dev.find_kernel(counter_kernel), {1, 1, 1}, {1, 1, 1}, &countp, sizeof(countp));

    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       dev.enqueue(rocprofiler_host_queue_t{777}, pkt, cb));
    auto no_kernel   = pkt;
    no_kernel.kernel = nullptr;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT, dev.enqueue(queue, no_kernel, cb));
    auto zero_grid   = pkt;
    zero_grid.grid.z = 0;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT, dev.enqueue(queue, zero_grid, cb));
    auto huge_wg           = pkt;
    huge_wg.workgroup_size = {2048, 1, 1};
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT, dev.enqueue(queue, huge_wg, cb));
    EXPECT_TRUE(dev.drain(patience_ns));
    EXPECT_EQ(called.load(), 0);
    EXPECT_EQ(count.load(), 0);
}

namespace
{
struct reentrancy_args
{
    const host::device* dev;
    const host::device* other;
    std::atomic<int>*   inside;
    std::atomic<int>*   other_inside;
};

void
report_reentrancy(const rocprofiler_host_work_item_t*, void* args)
{
    auto* ra = static_cast<reentrancy_args*>(args);
    if(ra->dev->is_device_thread()) ++*ra->inside;
    if(ra->other->is_device_thread()) ++*ra->other_inside;
}
} // namespace

TEST_F(hook_fixture, device_thread_query)
{
    auto other        = host::device{host::device_options{2}};
    auto inside       = std::atomic<int>{0};
    auto other_inside = std::atomic<int>{0};
    auto args         = reentrancy_args{&dev, &other, &inside, &other_inside};
    auto k            = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(dev.register_kernel("reentrancy", report_reentrancy, 0, 0, &k));
    auto in_callback = std::optional<bool>{};
    auto pkt         = make_packet(dev.find_kernel(k), {4, 1, 1}, {2, 1, 1}, &args, sizeof(args));
    HOST_ASSERT_OK(dev.enqueue(
        queue, pkt, [&](const host::execution_result&) { in_callback = dev.is_device_thread(); }));
    EXPECT_TRUE(dev.drain(patience_ns));
    EXPECT_EQ(inside.load(), 8);
    EXPECT_EQ(other_inside.load(), 0); // another device's threads are not ours
    ASSERT_TRUE(in_callback.has_value());
    EXPECT_TRUE(*in_callback);
    EXPECT_FALSE(dev.is_device_thread());
    EXPECT_FALSE(host::get_device().is_device_thread());
}

namespace
{
// Records, per worker thread, the begin/end calls of one execution.
struct recording_hooks : host::execution_hooks
{
    std::mutex                     mutex;
    std::map<std::thread::id, int> begins;
    std::map<std::thread::id, int> ends;
    std::set<uint32_t>             indices;
    std::atomic<int>               open{0};
    std::atomic<bool>              on_non_device_thread{false};
    const host::device*            dev = nullptr;

    void on_worker_begin(uint32_t index) override
    {
        if(!dev->is_device_thread()) on_non_device_thread = true;
        auto lock = std::lock_guard{mutex};
        ++begins[std::this_thread::get_id()];
        indices.insert(index);
        ++open;
    }
    void on_worker_end(uint32_t) override
    {
        auto lock = std::lock_guard{mutex};
        ++ends[std::this_thread::get_id()];
        --open;
    }
};

// Records the thread of each workgroup. Args: pointer to the vector below.
struct workgroup_threads
{
    std::mutex                   mutex;
    std::vector<std::thread::id> by_workgroup;
};

void
record_thread(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* wt = *static_cast<workgroup_threads**>(args);
    std::this_thread::sleep_for(std::chrono::microseconds{200});
    auto lock                              = std::lock_guard{wt->mutex};
    wt->by_workgroup[item->workgroup_id.x] = std::this_thread::get_id();
}
} // namespace

TEST_F(hook_fixture, execution_hooks_bracket_each_participating_worker_once)
{
    auto k = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(dev.register_kernel("record_thread", record_thread, 0, 0, &k));
    auto threads = workgroup_threads{};
    threads.by_workgroup.resize(64);
    auto* tp                = &threads;
    auto  hooks             = std::make_shared<recording_hooks>();
    hooks->dev              = &dev;
    auto open_at_completion = std::optional<int>{};
    auto result             = std::optional<host::execution_result>{};
    auto pkt = make_packet(dev.find_kernel(k), {64, 1, 1}, {1, 1, 1}, &tp, sizeof(tp));
    HOST_ASSERT_OK(dev.enqueue(
        queue,
        pkt,
        [&](const host::execution_result& r)
        {
            open_at_completion = hooks->open.load();
            result             = r;
        },
        hooks));
    ASSERT_TRUE(dev.drain(patience_ns));
    ASSERT_TRUE(result.has_value());
    HOST_ASSERT_OK(result->status);
    EXPECT_EQ(*open_at_completion, 0); // every on_worker_end happened before on_complete
    EXPECT_FALSE(hooks->on_non_device_thread.load());
    EXPECT_EQ(hooks->begins.size(), result->worker_count);
    EXPECT_GE(result->worker_count, 1u);
    EXPECT_LE(result->worker_count, dev.worker_count());
    for(const auto& [thread, n] : hooks->begins)
    {
        EXPECT_EQ(n, 1);
        EXPECT_EQ(hooks->ends[thread], 1);
    }
    // Every workgroup ran on a thread that was bracketed by the hooks.
    for(const auto& thread : threads.by_workgroup)
        EXPECT_EQ(hooks->begins.count(thread), 1u);
    for(auto index : hooks->indices)
        EXPECT_LT(index, dev.worker_count());
}

namespace
{
struct throwing_hooks : host::execution_hooks
{
    void on_worker_begin(uint32_t) override { throw std::runtime_error{"counter setup failed"}; }
};
} // namespace

TEST_F(hook_fixture, hook_failures_are_reported_in_the_result)
{
    auto pkt =
        make_packet(dev.find_kernel(counter_kernel), {1, 1, 1}, {1, 1, 1}, &countp, sizeof(countp));
    auto result = dev.run_and_wait(queue, pkt, patience_ns, std::make_shared<throwing_hooks>());
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_ERROR, result.status);
    EXPECT_EQ(result.error, "counter setup failed");
    EXPECT_EQ(count.load(), 1); // the kernel still ran: its effects are what they are
}

TEST_F(hook_fixture, same_packet_on_two_queues_concurrently)
{
    auto q2 = rocprofiler_host_queue_t{};
    HOST_ASSERT_OK(dev.create_queue(&q2));
    auto pkt =
        make_packet(dev.find_kernel(counter_kernel), {8, 1, 1}, {8, 1, 1}, &countp, sizeof(countp));
    auto done = std::atomic<int>{0};
    for(int i = 0; i < 10; ++i)
    {
        HOST_ASSERT_OK(dev.enqueue(queue, pkt, [&](const host::execution_result&) { ++done; }));
        HOST_ASSERT_OK(dev.enqueue(q2, pkt, [&](const host::execution_result&) { ++done; }));
    }
    ASSERT_TRUE(dev.drain(patience_ns));
    EXPECT_EQ(done.load(), 20);
    EXPECT_EQ(count.load(), 20 * 64);
    HOST_ASSERT_OK(dev.destroy_queue(q2));
}
