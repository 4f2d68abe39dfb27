#include "test_support.hpp"

#include <cstdint>
#include <mutex>
#include <vector>

namespace host = rocprofiler::host;

TEST(host_memory, malloc_is_aligned_and_memcpy_memset_work)
{
    void* a = nullptr;
    void* b = nullptr;
    HOST_ASSERT_OK(rocprofiler_host_malloc(1000, &a));
    HOST_ASSERT_OK(rocprofiler_host_malloc(1000, &b));
    ASSERT_NE(a, nullptr);
    ASSERT_NE(b, nullptr);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(a) % ROCPROFILER_HOST_ALLOCATION_ALIGNMENT, 0u);
    EXPECT_EQ(reinterpret_cast<uintptr_t>(b) % ROCPROFILER_HOST_ALLOCATION_ALIGNMENT, 0u);

    HOST_ASSERT_OK(rocprofiler_host_memset(a, 0x5a, 1000));
    HOST_ASSERT_OK(rocprofiler_host_memcpy(b, a, 1000));
    auto host_copy = std::vector<unsigned char>(1000, 0);
    HOST_ASSERT_OK(rocprofiler_host_memcpy(host_copy.data(), b, 1000));
    for(auto byte : host_copy)
        ASSERT_EQ(byte, 0x5a);

    // Overlapping copies behave like memmove.
    auto* bytes = static_cast<unsigned char*>(a);
    for(int i = 0; i < 16; ++i)
        bytes[i] = static_cast<unsigned char>(i);
    HOST_ASSERT_OK(rocprofiler_host_memcpy(bytes + 1, bytes, 8));
    EXPECT_EQ(bytes[1], 0);
    EXPECT_EQ(bytes[8], 7);

    HOST_ASSERT_OK(rocprofiler_host_free(a));
    HOST_ASSERT_OK(rocprofiler_host_free(b));
}

TEST(host_memory, free_of_unknown_pointers_returns_not_found)
{
    void* p = nullptr;
    HOST_ASSERT_OK(rocprofiler_host_malloc(512, &p));
    // Interior pointers are not allocations.
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_free(static_cast<char*>(p) + 1));
    HOST_ASSERT_OK(rocprofiler_host_free(p));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_free(p)); // double free

    int on_stack = 0;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_free(&on_stack));
    auto heap = std::make_unique<int>(1);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_free(heap.get()));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SUCCESS, rocprofiler_host_free(nullptr));
}

TEST(host_memory, invalid_arguments)
{
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_malloc(16, nullptr));
    void* p = reinterpret_cast<void*>(0x1);
    HOST_ASSERT_OK(rocprofiler_host_malloc(0, &p));
    EXPECT_EQ(p, nullptr);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_OUT_OF_MEMORY,
                       rocprofiler_host_malloc(SIZE_MAX, &p));
    EXPECT_EQ(p, nullptr);

    int x = 0;
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memcpy(nullptr, &x, 4));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memcpy(&x, nullptr, 4));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SUCCESS,
                       rocprofiler_host_memcpy(nullptr, nullptr, 0));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memset(nullptr, 0, 4));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SUCCESS, rocprofiler_host_memset(nullptr, 0, 0));

    // Ranges that overrun a device allocation are refused, whichever side they are on.
    void* dev = nullptr;
    HOST_ASSERT_OK(rocprofiler_host_malloc(64, &dev));
    auto host_buf = std::vector<char>(128);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memset(dev, 0, 65));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memset(static_cast<char*>(dev) + 60, 0, 5));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SUCCESS,
                       rocprofiler_host_memset(static_cast<char*>(dev) + 60, 0, 4));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memcpy(host_buf.data(), dev, 128));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_memcpy(dev, host_buf.data(), 128));
    HOST_ASSERT_OK(rocprofiler_host_free(dev));
}

namespace
{
struct event
{
    bool   allocate;
    void*  ptr;
    size_t size;
};

struct recorder
{
    std::mutex         mutex;
    std::vector<event> events;

    host::allocation_observer observer()
    {
        auto obs        = host::allocation_observer{};
        obs.on_allocate = [this](const host::allocation& a)
        {
            auto lock = std::lock_guard{mutex};
            events.push_back({true, a.ptr, a.size});
        };
        obs.on_free = [this](const host::allocation& a)
        {
            auto lock = std::lock_guard{mutex};
            events.push_back({false, a.ptr, a.size});
        };
        return obs;
    }
};
} // namespace

TEST(host_memory, observer_sees_every_allocation_and_free_with_sizes)
{
    auto dev = host::device{host::device_options{2}};
    auto rec = recorder{};
    dev.set_allocation_observer(rec.observer());

    void* a = nullptr;
    void* b = nullptr;
    void* c = nullptr;
    HOST_ASSERT_OK(dev.allocate(100, &a));
    HOST_ASSERT_OK(dev.allocate(1, &b));
    HOST_ASSERT_OK(dev.allocate(4096, &c));
    HOST_ASSERT_OK(dev.deallocate(b));
    HOST_ASSERT_OK(dev.deallocate(a));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, dev.deallocate(a)); // not reported

    ASSERT_EQ(rec.events.size(), 5u);
    EXPECT_TRUE(rec.events[0].allocate);
    EXPECT_EQ(rec.events[0].ptr, a);
    EXPECT_EQ(rec.events[0].size, 100u);
    EXPECT_EQ(rec.events[1].ptr, b);
    EXPECT_EQ(rec.events[1].size, 1u);
    EXPECT_EQ(rec.events[2].ptr, c);
    EXPECT_EQ(rec.events[2].size, 4096u);
    EXPECT_FALSE(rec.events[3].allocate);
    EXPECT_EQ(rec.events[3].ptr, b);
    EXPECT_EQ(rec.events[3].size, 1u);
    EXPECT_FALSE(rec.events[4].allocate);
    EXPECT_EQ(rec.events[4].ptr, a);
    EXPECT_EQ(rec.events[4].size, 100u);

    // Removing the observer stops the notifications.
    dev.set_allocation_observer({});
    HOST_ASSERT_OK(dev.deallocate(c));
    EXPECT_EQ(rec.events.size(), 5u);
}

TEST(host_memory, process_device_reports_c_api_allocations)
{
    auto& dev = host::get_device();
    auto  rec = recorder{};
    dev.set_allocation_observer(rec.observer());
    void* p = nullptr;
    HOST_ASSERT_OK(rocprofiler_host_malloc(333, &p));
    HOST_ASSERT_OK(rocprofiler_host_free(p));
    dev.set_allocation_observer({});

    ASSERT_EQ(rec.events.size(), 2u);
    EXPECT_TRUE(rec.events[0].allocate);
    EXPECT_EQ(rec.events[0].size, 333u);
    EXPECT_FALSE(rec.events[1].allocate);
    EXPECT_EQ(rec.events[1].ptr, p);
    EXPECT_EQ(rec.events[1].size, 333u);
}

TEST(host_memory, registry_queries)
{
    auto  dev = host::device{host::device_options{2}};
    void* a   = nullptr;
    void* b   = nullptr;
    HOST_ASSERT_OK(dev.allocate(300, &a));
    HOST_ASSERT_OK(dev.allocate(10, &b));

    auto live = dev.live_allocations();
    ASSERT_EQ(live.size(), 2u);
    EXPECT_LT(reinterpret_cast<uintptr_t>(live[0].ptr), reinterpret_cast<uintptr_t>(live[1].ptr));

    auto found = dev.find_allocation(static_cast<char*>(a) + 299);
    ASSERT_TRUE(found.has_value());
    EXPECT_EQ(found->ptr, a);
    EXPECT_EQ(found->size, 300u);
    EXPECT_FALSE(dev.find_allocation(static_cast<char*>(a) + 300).has_value()); // one past the end
    int on_stack = 0;
    EXPECT_FALSE(dev.find_allocation(&on_stack).has_value());

    HOST_ASSERT_OK(dev.deallocate(a));
    EXPECT_FALSE(dev.find_allocation(a).has_value());
    EXPECT_EQ(dev.live_allocations().size(), 1u);
    HOST_ASSERT_OK(dev.deallocate(b));
}

TEST(host_memory, observer_installation_can_report_live_allocations)
{
    auto  dev = host::device{host::device_options{2}};
    void* a   = nullptr;
    HOST_ASSERT_OK(dev.allocate(48, &a));
    auto rec = recorder{};
    dev.set_allocation_observer(rec.observer(), true);
    ASSERT_EQ(rec.events.size(), 1u);
    EXPECT_TRUE(rec.events[0].allocate);
    EXPECT_EQ(rec.events[0].ptr, a);
    EXPECT_EQ(rec.events[0].size, 48u);
    HOST_ASSERT_OK(dev.deallocate(a));
    EXPECT_EQ(rec.events.size(), 2u);
}

TEST(host_memory, observer_may_query_but_not_allocate)
{
    auto dev          = host::device{host::device_options{2}};
    auto found_inside = false;
    auto nested       = ROCPROFILER_HOST_STATUS_SUCCESS;
    auto obs          = host::allocation_observer{};
    obs.on_allocate   = [&](const host::allocation& a)
    {
        found_inside = dev.find_allocation(a.ptr).has_value();
        void* p      = nullptr;
        nested       = dev.allocate(8, &p);
    };
    obs.on_free = [&](const host::allocation& a)
    {
        // The memory is still readable, but the allocation has left the registry.
        EXPECT_EQ(static_cast<unsigned char*>(a.ptr)[0], 0xee);
        EXPECT_FALSE(dev.find_allocation(a.ptr).has_value());
    };
    dev.set_allocation_observer(obs);
    void* p = nullptr;
    HOST_ASSERT_OK(dev.allocate(8, &p));
    EXPECT_TRUE(found_inside);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_OPERATION, nested);
    HOST_ASSERT_OK(dev.fill(p, 0xee, 8));
    HOST_ASSERT_OK(dev.deallocate(p));
    EXPECT_EQ(dev.live_allocations().size(), 0u);
}

TEST(host_memory, concurrent_allocations_are_all_observed)
{
    auto                 dev = host::device{host::device_options{2}};
    std::atomic<int64_t> balance{0};
    std::atomic<int>     events{0};
    auto                 obs = host::allocation_observer{};
    obs.on_allocate          = [&](const host::allocation& a)
    {
        balance += static_cast<int64_t>(a.size);
        ++events;
    };
    obs.on_free = [&](const host::allocation& a)
    {
        balance -= static_cast<int64_t>(a.size);
        ++events;
    };
    dev.set_allocation_observer(obs);
    auto threads = std::vector<std::thread>{};
    for(int t = 0; t < 4; ++t)
        threads.emplace_back(
            [&dev, t]
            {
                for(int i = 0; i < 200; ++i)
                {
                    void* p = nullptr;
                    ASSERT_EQ(dev.allocate(static_cast<size_t>(1 + t * 1000 + i), &p),
                              ROCPROFILER_HOST_STATUS_SUCCESS);
                    ASSERT_EQ(dev.deallocate(p), ROCPROFILER_HOST_STATUS_SUCCESS);
                }
            });
    for(auto& thread : threads)
        thread.join();
    EXPECT_EQ(events.load(), 4 * 200 * 2);
    EXPECT_EQ(balance.load(), 0);
    EXPECT_TRUE(dev.live_allocations().empty());
}
