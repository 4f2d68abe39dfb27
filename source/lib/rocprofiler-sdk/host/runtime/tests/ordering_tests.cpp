#include "test_support.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace host = rocprofiler::host;
using host::test::make_params;
using host::test::patience;
using host::test::unique_name;

namespace
{
constexpr auto patience_ns = std::chrono::nanoseconds{patience}.count();

rocprofiler_host_kernel_t
register_kernel(const char* base, rocprofiler_host_kernel_fn_t fn)
{
    auto k    = rocprofiler_host_kernel_t{};
    auto name = unique_name(base);
    EXPECT_EQ(rocprofiler_host_register_kernel(name.c_str(), fn, 0, 0, &k),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    return k;
}

struct stage_args
{
    uint32_t* data;
    uint32_t* out;
    uint32_t  value;
};

// Slow writer: the first workgroup sleeps, so a reader that did not wait would see old data.
void
write_stage(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* sa = static_cast<stage_args*>(args);
    if(item->global_linear_id == 0) std::this_thread::sleep_for(std::chrono::milliseconds{5});
    sa->data[item->global_linear_id] = sa->value + static_cast<uint32_t>(item->global_linear_id);
}

void
read_stage(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* sa                        = static_cast<stage_args*>(args);
    sa->out[item->global_linear_id] = sa->data[item->global_linear_id] + 1;
}
} // namespace

TEST(host_ordering, packets_of_one_queue_run_in_order)
{
    auto q   = rocprofiler_host_queue_t{};
    auto sig = rocprofiler_host_signal_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q));
    HOST_ASSERT_OK(rocprofiler_host_create_signal(0, &sig));
    constexpr uint32_t n      = 256;
    constexpr int      rounds = 4;
    auto               data   = std::vector<uint32_t>(n, 0);
    auto out    = std::vector<std::vector<uint32_t>>(rounds, std::vector<uint32_t>(n, 0));
    auto writer = register_kernel("writer", write_stage);
    auto reader = register_kernel("reader", read_stage);
    HOST_ASSERT_OK(rocprofiler_host_signal_store(sig, 2 * rounds));
    for(int r = 0; r < rounds; ++r)
    {
        auto args = stage_args{data.data(), out[r].data(), 1000u * (r + 1)};
        auto wp   = make_params(writer, {n / 16, 1, 1}, {16, 1, 1}, &args, sizeof(args), sig);
        auto rp   = make_params(reader, {n / 16, 1, 1}, {16, 1, 1}, &args, sizeof(args), sig);
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q, &wp));
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q, &rp));
    }
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(
        sig, ROCPROFILER_HOST_SIGNAL_CONDITION_EQ, 0, patience_ns, nullptr));
    for(int r = 0; r < rounds; ++r)
        for(uint32_t i = 0; i < n; ++i)
            ASSERT_EQ(out[r][i], 1000u * (r + 1) + i + 1) << "round " << r << " item " << i;
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(sig));
}

namespace
{
struct handshake
{
    std::atomic<bool> flag{false};
    std::atomic<bool> saw_flag{false};
};

void
wait_for_flag(const rocprofiler_host_work_item_t*, void* args)
{
    auto* h     = *static_cast<handshake**>(args);
    h->saw_flag = host::test::spin_until(h->flag);
}

void
set_flag(const rocprofiler_host_work_item_t*, void* args)
{
    (*static_cast<handshake**>(args))->flag = true;
}
} // namespace

TEST(host_ordering, different_queues_run_concurrently)
{
    if(host::get_device().worker_count() < 2) GTEST_SKIP() << "needs at least two workers";
    auto q1 = rocprofiler_host_queue_t{};
    auto q2 = rocprofiler_host_queue_t{};
    auto s1 = rocprofiler_host_signal_t{};
    auto s2 = rocprofiler_host_signal_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q1));
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q2));
    HOST_ASSERT_OK(rocprofiler_host_create_signal(1, &s1));
    HOST_ASSERT_OK(rocprofiler_host_create_signal(1, &s2));
    auto h  = handshake{};
    auto hp = &h;
    // The kernel on queue 1 can only finish with the flag if queue 2 runs while it spins.
    auto waiter = make_params(
        register_kernel("waiter", wait_for_flag), {1, 1, 1}, {1, 1, 1}, &hp, sizeof(hp), s1);
    auto setter =
        make_params(register_kernel("setter", set_flag), {1, 1, 1}, {1, 1, 1}, &hp, sizeof(hp), s2);
    HOST_ASSERT_OK(rocprofiler_host_dispatch(q1, &waiter));
    HOST_ASSERT_OK(rocprofiler_host_dispatch(q2, &setter));
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(
        s1, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, patience_ns, nullptr));
    HOST_ASSERT_OK(rocprofiler_host_signal_wait(
        s2, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, patience_ns, nullptr));
    EXPECT_TRUE(h.saw_flag.load());
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q1));
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q2));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(s1));
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(s2));
}

namespace
{
void
slow_increment(const rocprofiler_host_work_item_t*, void* args)
{
    std::this_thread::sleep_for(std::chrono::milliseconds{2});
    (*static_cast<std::atomic<int>**>(args))->fetch_add(1);
}
} // namespace

TEST(host_ordering, synchronize_and_destroy_wait_for_the_work)
{
    auto q1 = rocprofiler_host_queue_t{};
    auto q2 = rocprofiler_host_queue_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q1));
    HOST_ASSERT_OK(rocprofiler_host_create_queue(&q2));
    EXPECT_NE(q1.handle, q2.handle);
    auto count  = std::atomic<int>{0};
    auto countp = &count;
    auto k      = register_kernel("slow_increment", slow_increment);
    auto params = make_params(k, {1, 1, 1}, {1, 1, 1}, &countp, sizeof(countp));

    for(int i = 0; i < 3; ++i)
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q1, &params));
    HOST_ASSERT_OK(rocprofiler_host_queue_synchronize(q1));
    EXPECT_EQ(count.load(), 3);

    for(int i = 0; i < 3; ++i)
    {
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q1, &params));
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q2, &params));
    }
    HOST_ASSERT_OK(rocprofiler_host_device_synchronize());
    EXPECT_EQ(count.load(), 9);

    for(int i = 0; i < 3; ++i)
        HOST_ASSERT_OK(rocprofiler_host_dispatch(q1, &params));
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q1));
    EXPECT_EQ(count.load(), 12);

    // A destroyed queue is gone for every operation.
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_dispatch(q1, &params));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_queue_synchronize(q1));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND, rocprofiler_host_destroy_queue(q1));
    HOST_ASSERT_OK(rocprofiler_host_destroy_queue(q2));
}

TEST(host_ordering, queue_invalid_arguments)
{
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_create_queue(nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_destroy_queue(rocprofiler_host_queue_t{0}));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT,
                       rocprofiler_host_queue_synchronize(rocprofiler_host_queue_t{0}));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_destroy_queue(rocprofiler_host_queue_t{1u << 30}));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_NOT_FOUND,
                       rocprofiler_host_queue_synchronize(rocprofiler_host_queue_t{1u << 30}));
}
