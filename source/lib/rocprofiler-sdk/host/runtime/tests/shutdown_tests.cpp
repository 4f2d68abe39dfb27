#include "test_support.hpp"

#include <atomic>
#include <mutex>
#include <thread>
#include <vector>

namespace host = rocprofiler::host;
using namespace rocprofiler::host::test;

TEST(host_shutdown, running_work_finishes_and_queued_work_is_dropped)
{
    auto dev = host::device{host::device_options{2}};
    auto q   = rocprofiler_host_queue_t{};
    auto sig = rocprofiler_host_signal_t{};
    auto gk  = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(dev.create_queue(&q));
    HOST_ASSERT_OK(dev.create_signal(1, &sig));
    HOST_ASSERT_OK(dev.register_kernel("gate", host::test::gate_kernel, 0, 0, &gk));

    auto  g    = gate{};
    auto* gp   = &g;
    auto  pkt  = make_packet(dev.find_kernel(gk), {1, 1, 1}, {1, 1, 1}, &gp, sizeof(gp));
    auto  mtx  = std::mutex{};
    auto  seen = std::vector<rocprofiler_host_status_t>{};
    auto  cb   = [&](const host::execution_result& r)
    {
        auto lock = std::lock_guard{mtx};
        seen.push_back(r.status);
    };
    HOST_ASSERT_OK(dev.enqueue(q, pkt, cb)); // runs: holds the queue until the gate opens
    HOST_ASSERT_OK(dev.enqueue(q, pkt, cb)); // queued
    auto params = make_params(gk, {1, 1, 1}, {1, 1, 1}, &gp, sizeof(gp), sig);
    HOST_ASSERT_OK(dev.dispatch(q, &params)); // queued, default completion
    ASSERT_TRUE(host::test::spin_until(g.entered));

    // Open the gate only once the queue refuses new work, i.e. once shutdown has stopped it, so
    // that the queued entries are certainly still pending when the running one completes.
    auto accepted = std::atomic<int>{0};
    auto opener   = std::thread{[&]
                              {
                                  auto deadline = std::chrono::steady_clock::now() + patience;
                                  while(std::chrono::steady_clock::now() < deadline)
                                  {
                                      auto status = dev.enqueue(q, pkt, cb);
                                      if(status == ROCPROFILER_HOST_STATUS_SHUTDOWN) break;
                                      if(status == ROCPROFILER_HOST_STATUS_SUCCESS) ++accepted;
                                      std::this_thread::sleep_for(std::chrono::microseconds{100});
                                  }
                                  g.open = true;
                              }};
    EXPECT_TRUE(dev.shutdown(patience_ns));
    opener.join();

    ASSERT_EQ(seen.size(),
              size_t(2 + accepted.load())); // exactly one callback per accepted enqueue
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SUCCESS, seen[0]);
    for(size_t i = 1; i < seen.size(); ++i)
        HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SHUTDOWN, seen[i]);
    EXPECT_EQ(dev.find_signal(sig)->load(), 1); // a dropped dispatch does not signal
    EXPECT_FALSE(g.timed_out.load());

    // Everything is refused from now on; shutting down again is harmless.
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SHUTDOWN, dev.enqueue(q, pkt, cb));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SHUTDOWN, dev.dispatch(q, &params));
    auto q2 = rocprofiler_host_queue_t{};
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SHUTDOWN, dev.create_queue(&q2));
    void* p = nullptr;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SHUTDOWN, dev.allocate(8, &p));
    EXPECT_TRUE(dev.drain(0));
    EXPECT_TRUE(dev.shutdown(0));
}

TEST(host_shutdown, destructor_joins_idle_and_busy_devices)
{
    auto count = std::atomic<int>{0};
    {
        auto dev = host::device{host::device_options{3}};
        auto q   = rocprofiler_host_queue_t{};
        auto k   = rocprofiler_host_kernel_t{};
        HOST_ASSERT_OK(dev.create_queue(&q));
        HOST_ASSERT_OK(dev.register_kernel(
            "increment",
            +[](const rocprofiler_host_work_item_t*, void* args)
            { (*static_cast<std::atomic<int>**>(args))->fetch_add(1); },
            0,
            0,
            &k));
        auto* cp  = &count;
        auto  pkt = make_packet(dev.find_kernel(k), {4, 1, 1}, {1, 1, 1}, &cp, sizeof(cp));
        for(int i = 0; i < 50; ++i)
            HOST_ASSERT_OK(dev.enqueue(q, pkt));
        void* leak = nullptr;
        HOST_ASSERT_OK(dev.allocate(64, &leak)); // released by the destructor
    }
    // Whatever ran, ran whole: every execution has 4 workgroups.
    EXPECT_EQ(count.load() % 4, 0);
    {
        auto idle = host::device{host::device_options{2}};
    }
}

TEST(host_shutdown, shutdown_times_out_on_a_kernel_that_never_returns)
{
    // A kernel that outlives the timeout leaves the device's threads abandoned, so the device
    // (and the gate its kernel reads) must never be destroyed: both are leaked on purpose and
    // kept reachable, so LeakSanitizer stays quiet.
    static auto* abandoned = new std::vector<std::pair<host::device*, gate*>>{};
    auto*        dev       = new host::device{host::device_options{2}};
    auto*        gp        = new gate{};
    abandoned->emplace_back(dev, gp);
    auto& g = *gp;
    auto  q = rocprofiler_host_queue_t{};
    auto  k = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(dev->create_queue(&q));
    HOST_ASSERT_OK(dev->register_kernel("gate", host::test::gate_kernel, 0, 0, &k));
    HOST_ASSERT_OK(
        dev->enqueue(q, make_packet(dev->find_kernel(k), {1, 1, 1}, {1, 1, 1}, &gp, sizeof(gp))));
    ASSERT_TRUE(host::test::spin_until(g.entered));
    auto start = host::now_ns();
    EXPECT_FALSE(dev->shutdown(20'000'000));
    EXPECT_GE(host::now_ns() - start, 20'000'000u);
    EXPECT_FALSE(dev->shutdown(0)); // the outcome is remembered
    g.open = true; // let the abandoned worker finish; the device is never destroyed
}
