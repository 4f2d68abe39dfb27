#include "test_support.hpp"

#include <atomic>
#include <cstdint>
#include <vector>

namespace host = rocprofiler::host;
using host::test::gate;
using host::test::make_params;
using host::test::unique_name;

namespace
{
rocprofiler_host_kernel_t
register_kernel(const char*                  base,
                rocprofiler_host_kernel_fn_t fn,
                uint32_t                     priv  = 0,
                uint32_t                     group = 0)
{
    auto k    = rocprofiler_host_kernel_t{};
    auto name = unique_name(base);
    EXPECT_EQ(rocprofiler_host_register_kernel(name.c_str(), fn, priv, group, &k),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    return k;
}

// Creates a queue and a signal with value 1 for one dispatch; destroys them at scope exit.
struct fixture
{
    rocprofiler_host_queue_t  queue  = {};
    rocprofiler_host_signal_t signal = {};

    fixture()
    {
        EXPECT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_EQ(rocprofiler_host_create_signal(1, &signal), ROCPROFILER_HOST_STATUS_SUCCESS);
    }
    ~fixture()
    {
        EXPECT_EQ(rocprofiler_host_destroy_queue(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
        EXPECT_EQ(rocprofiler_host_destroy_signal(signal), ROCPROFILER_HOST_STATUS_SUCCESS);
    }
    fixture(const fixture&)            = delete;
    fixture& operator=(const fixture&) = delete;

    rocprofiler_host_status_t wait(int64_t below = 1) const
    {
        return rocprofiler_host_signal_wait(signal,
                                            ROCPROFILER_HOST_SIGNAL_CONDITION_LT,
                                            below,
                                            std::chrono::nanoseconds{host::test::patience}.count(),
                                            nullptr);
    }
};

struct vadd_args
{
    const float* a;
    const float* b;
    float*       c;
};

void
vadd(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* va = static_cast<vadd_args*>(args);
    auto  i  = item->global_linear_id;
    va->c[i] = va->a[i] + va->b[i];
}
} // namespace

TEST(host_dispatch, vector_add_over_a_3d_grid)
{
    auto       f    = fixture{};
    const auto grid = rocprofiler_host_dim3_t{3, 2, 2};
    const auto wg   = rocprofiler_host_dim3_t{4, 3, 2};
    const auto n    = size_t{3 * 4} * (2 * 3) * (2 * 2);
    float*     a    = nullptr;
    float*     b    = nullptr;
    float*     c    = nullptr;
    HOST_ASSERT_OK(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&a)));
    HOST_ASSERT_OK(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&b)));
    HOST_ASSERT_OK(rocprofiler_host_malloc(n * sizeof(float), reinterpret_cast<void**>(&c)));
    for(size_t i = 0; i < n; ++i)
    {
        a[i] = static_cast<float>(i);
        b[i] = static_cast<float>(2 * i + 1);
        c[i] = -1.0f;
    }
    auto k      = register_kernel("vadd", vadd);
    auto args   = vadd_args{a, b, c};
    auto params = make_params(k, grid, wg, &args, sizeof(args), f.signal);
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &params));
    HOST_ASSERT_OK(f.wait());
    for(size_t i = 0; i < n; ++i)
        ASSERT_EQ(c[i], static_cast<float>(3 * i + 1)) << "at " << i;
    HOST_ASSERT_OK(rocprofiler_host_free(a));
    HOST_ASSERT_OK(rocprofiler_host_free(b));
    HOST_ASSERT_OK(rocprofiler_host_free(c));
}

namespace
{
struct count_args
{
    uint32_t* counts; // one per work-item, by global linear id
    uint32_t* errors; // inconsistent work-item descriptions
    uint32_t* order;  // per workgroup: next expected local linear id
};

void
count_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* ca = static_cast<count_args*>(args);
    __atomic_fetch_add(&ca->counts[item->global_linear_id], 1u, __ATOMIC_RELAXED);

    const auto& g  = item->grid_size;
    const auto& ws = item->workgroup_size;
    auto        ok = true;
    ok             = ok && item->workgroup_id.x < g.x && item->workgroup_id.y < g.y &&
         item->workgroup_id.z < g.z;
    ok = ok && item->local_id.x < ws.x && item->local_id.y < ws.y && item->local_id.z < ws.z;
    ok = ok && item->global_id.x == uint64_t{item->workgroup_id.x} * ws.x + item->local_id.x;
    ok = ok && item->global_id.y == uint64_t{item->workgroup_id.y} * ws.y + item->local_id.y;
    ok = ok && item->global_id.z == uint64_t{item->workgroup_id.z} * ws.z + item->local_id.z;
    ok = ok && item->local_linear_id ==
                   item->local_id.x + ws.x * (item->local_id.y + ws.y * item->local_id.z);
    // Work-items of a workgroup run in linear order, x fastest, one at a time.
    auto wg = item->workgroup_id.x +
              uint64_t{g.x} * (item->workgroup_id.y + uint64_t{g.y} * item->workgroup_id.z);
    ok            = ok && ca->order[wg] == item->local_linear_id;
    ca->order[wg] = item->local_linear_id + 1;
    if(!ok) __atomic_fetch_add(ca->errors, 1u, __ATOMIC_RELAXED);
}
} // namespace

TEST(host_dispatch, every_work_item_runs_exactly_once_in_linear_order)
{
    auto       f      = fixture{};
    const auto grid   = rocprofiler_host_dim3_t{5, 3, 2};
    const auto wg     = rocprofiler_host_dim3_t{7, 2, 3};
    const auto groups = size_t{5 * 3 * 2};
    const auto n      = groups * (7 * 2 * 3);
    auto       counts = std::vector<uint32_t>(n, 0);
    auto       order  = std::vector<uint32_t>(groups, 0);
    auto       errors = uint32_t{0};
    auto       args   = count_args{counts.data(), &errors, order.data()};
    auto       k      = register_kernel("count", count_kernel);
    auto       params = make_params(k, grid, wg, &args, sizeof(args), f.signal);
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &params));
    HOST_ASSERT_OK(f.wait());
    for(size_t i = 0; i < n; ++i)
        ASSERT_EQ(counts[i], 1u) << "work-item " << i;
    for(auto next : order)
        EXPECT_EQ(next, 7u * 2 * 3);
    EXPECT_EQ(errors, 0u);
}

namespace
{
struct segment_args
{
    uint32_t* items_seen;    // per workgroup, counted in the group segment
    uint32_t* dirty_group;   // group segment not zero at workgroup start
    uint32_t* dirty_private; // private segment not zero at work-item start
    uint32_t* bad_sizes;
};

void
segment_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* sa    = static_cast<segment_args*>(args);
    auto* group = static_cast<unsigned char*>(item->group_segment);
    auto* priv  = static_cast<unsigned char*>(item->private_segment);
    if(item->group_segment_size != 96 + 32 || !group || item->private_segment_size != 24 || !priv)
    {
        __atomic_fetch_add(sa->bad_sizes, 1u, __ATOMIC_RELAXED);
        return;
    }
    auto* counter = reinterpret_cast<uint32_t*>(group);
    if(item->local_linear_id == 0)
    {
        for(uint32_t i = 0; i < item->group_segment_size; ++i)
            if(group[i] != 0) __atomic_fetch_add(sa->dirty_group, 1u, __ATOMIC_RELAXED);
    }
    for(uint32_t i = 0; i < item->private_segment_size; ++i)
        if(priv[i] != 0) __atomic_fetch_add(sa->dirty_private, 1u, __ATOMIC_RELAXED);
    std::memset(priv, 0xcd, item->private_segment_size);
    // Scribble over the rest of the segment so that a missing reset would be seen.
    std::memset(group + sizeof(uint32_t), 0xab, item->group_segment_size - sizeof(uint32_t));
    auto seen = ++*counter;
    auto wg   = item->workgroup_id.x + uint64_t{item->grid_size.x} * item->workgroup_id.y;
    if(item->local_linear_id + 1 == item->workgroup_size.x * item->workgroup_size.y)
        sa->items_seen[wg] = seen;
}
} // namespace

TEST(host_dispatch, group_segment_is_per_workgroup_and_zeroed)
{
    auto       f      = fixture{};
    const auto groups = size_t{8 * 8};
    auto       seen   = std::vector<uint32_t>(groups, 0);
    auto       dirty  = uint32_t{0};
    auto       dirtyp = uint32_t{0};
    auto       bad    = uint32_t{0};
    auto       args   = segment_args{seen.data(), &dirty, &dirtyp, &bad};
    auto       k      = register_kernel("segments", segment_kernel, 24, 96);
    auto       params = make_params(k, {8, 8, 1}, {4, 4, 1}, &args, sizeof(args), f.signal);
    params.dynamic_group_segment_size = 32;
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &params));
    HOST_ASSERT_OK(f.wait());
    EXPECT_EQ(bad, 0u);
    EXPECT_EQ(dirty, 0u);
    EXPECT_EQ(dirtyp, 0u);
    for(auto s : seen)
        EXPECT_EQ(s, 16u);
}

namespace
{
struct value_args
{
    uint64_t  value;
    uint64_t* out;
};

void
store_value(const rocprofiler_host_work_item_t*, void* args)
{
    auto* va = static_cast<value_args*>(args);
    *va->out = va->value;
}
} // namespace

TEST(host_dispatch, arguments_are_copied_at_submit)
{
    auto  f     = fixture{};
    auto  hold  = gate{};
    auto* holdp = &hold;
    auto  gk    = register_kernel("gate", host::test::gate_kernel);
    auto  sk    = register_kernel("store", store_value);

    // The gate keeps the queue busy, so the store kernel can only run after the caller mutated
    // its argument buffer.
    auto gp = make_params(gk, {1, 1, 1}, {1, 1, 1}, &holdp, sizeof(holdp));
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &gp));
    auto out  = uint64_t{0};
    auto args = value_args{42, &out};
    auto sp   = make_params(sk, {1, 1, 1}, {1, 1, 1}, &args, sizeof(args), f.signal);
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &sp));
    args.value = 7;
    args.out   = nullptr;
    ASSERT_TRUE(host::test::spin_until(hold.entered));
    hold.open = true;
    HOST_ASSERT_OK(f.wait());
    EXPECT_EQ(out, 42u);
    EXPECT_FALSE(hold.timed_out.load());
}

TEST(host_dispatch, invalid_arguments)
{
    auto f = fixture{};
    auto k = register_kernel(
        "noop", +[](const rocprofiler_host_work_item_t*, void*) {});
    auto ok     = make_params(k, {1, 1, 1}, {1, 1, 1});
    auto bad    = ok;
    auto expect = [&](rocprofiler_host_status_t status, const rocprofiler_host_dispatch_params_t& p)
    {
        HOST_EXPECT_STATUS(status, rocprofiler_host_dispatch(f.queue, &p));
        bad = ok;
    };
    constexpr auto invalid   = ROCPROFILER_HOST_STATUS_INVALID_ARGUMENT;
    constexpr auto not_found = ROCPROFILER_HOST_STATUS_NOT_FOUND;

    HOST_EXPECT_STATUS(invalid, rocprofiler_host_dispatch(f.queue, nullptr));
    HOST_EXPECT_STATUS(invalid, rocprofiler_host_dispatch(rocprofiler_host_queue_t{0}, &ok));
    HOST_EXPECT_STATUS(not_found,
                       rocprofiler_host_dispatch(rocprofiler_host_queue_t{1u << 30}, &ok));
    bad.size = 0;
    expect(invalid, bad);
    bad.size = sizeof(bad) - sizeof(bad.completion_signal);
    expect(invalid, bad);
    bad.kernel.handle = 0;
    expect(invalid, bad);
    bad.kernel.handle = 1u << 30;
    expect(not_found, bad);
    bad.grid.x = 0;
    expect(invalid, bad);
    bad.grid.y = 0;
    expect(invalid, bad);
    bad.grid.z = 0;
    expect(invalid, bad);
    bad.workgroup_size.x = 0;
    expect(invalid, bad);
    bad.workgroup_size.z = 0;
    expect(invalid, bad);
    bad.workgroup_size = {1025, 1, 1};
    expect(invalid, bad);
    bad.workgroup_size = {32, 32, 2};
    expect(invalid, bad);
    bad.grid = {UINT32_MAX, UINT32_MAX, UINT32_MAX};
    expect(invalid, bad); // > 2^64 work-items
    bad.args_size = 8;
    expect(invalid, bad); // args NULL
    bad.args      = &ok;
    bad.args_size = ROCPROFILER_HOST_MAX_ARGS_SIZE + 1;
    expect(invalid, bad);
    bad.dynamic_group_segment_size = ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE + 1;
    expect(invalid, bad);
    bad.completion_signal.handle = 1u << 30;
    expect(not_found, bad);

    // The largest workgroup and group segment are accepted, and so is a larger (newer) struct.
    struct newer_params
    {
        rocprofiler_host_dispatch_params_t v1;
        uint64_t                           future_field;
    } newer                             = {ok, 123};
    newer.v1.size                       = sizeof(newer);
    newer.v1.workgroup_size             = {32, 32, 1};
    newer.v1.dynamic_group_segment_size = ROCPROFILER_HOST_MAX_GROUP_SEGMENT_SIZE;
    newer.v1.completion_signal          = f.signal;
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &newer.v1));
    HOST_ASSERT_OK(f.wait());
}

namespace
{
struct nested_args
{
    rocprofiler_host_queue_t  queue;
    rocprofiler_host_kernel_t child;
    rocprofiler_host_signal_t child_signal;
    uint64_t*                 out;
    rocprofiler_host_status_t dispatch_status;
    rocprofiler_host_status_t sync_status;
    rocprofiler_host_status_t device_sync_status;
    rocprofiler_host_status_t destroy_status;
};

void
nested_parent(const rocprofiler_host_work_item_t*, void* args)
{
    auto* na    = static_cast<nested_args*>(args);
    auto  child = value_args{99, na->out};
    auto  params =
        make_params(na->child, {1, 1, 1}, {1, 1, 1}, &child, sizeof(child), na->child_signal);
    na->dispatch_status    = rocprofiler_host_dispatch(na->queue, &params);
    na->sync_status        = rocprofiler_host_queue_synchronize(na->queue);
    na->device_sync_status = rocprofiler_host_device_synchronize();
    na->destroy_status     = rocprofiler_host_destroy_queue(na->queue);
}
} // namespace

TEST(host_dispatch, kernels_may_dispatch_but_not_block)
{
    auto f     = fixture{};
    auto child = rocprofiler_host_signal_t{};
    HOST_ASSERT_OK(rocprofiler_host_create_signal(1, &child));
    auto out  = uint64_t{0};
    auto args = nested_args{f.queue,
                            register_kernel("child", store_value),
                            child,
                            &out,
                            ROCPROFILER_HOST_STATUS_ERROR,
                            ROCPROFILER_HOST_STATUS_ERROR,
                            ROCPROFILER_HOST_STATUS_ERROR,
                            ROCPROFILER_HOST_STATUS_ERROR};
    // The args block is copied, so the kernel reports through a pointer to the original.
    struct holder
    {
        nested_args* target;
    };
    auto kernel = register_kernel(
        "parent",
        +[](const rocprofiler_host_work_item_t* item, void* a)
        { nested_parent(item, static_cast<holder*>(a)->target); });
    auto h      = holder{&args};
    auto params = make_params(kernel, {1, 1, 1}, {1, 1, 1}, &h, sizeof(h), f.signal);
    HOST_ASSERT_OK(rocprofiler_host_dispatch(f.queue, &params));
    HOST_ASSERT_OK(f.wait());
    HOST_ASSERT_OK(
        rocprofiler_host_signal_wait(child,
                                     ROCPROFILER_HOST_SIGNAL_CONDITION_EQ,
                                     0,
                                     std::chrono::nanoseconds{host::test::patience}.count(),
                                     nullptr));
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_SUCCESS, args.dispatch_status);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_OPERATION, args.sync_status);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_OPERATION, args.device_sync_status);
    HOST_EXPECT_STATUS(ROCPROFILER_HOST_STATUS_INVALID_OPERATION, args.destroy_status);
    EXPECT_EQ(out, 99u);
    HOST_ASSERT_OK(rocprofiler_host_destroy_signal(child));
}

TEST(host_dispatch, workgroups_are_spread_over_the_workers)
{
    auto dev = host::device{host::device_options{4}};
    auto q   = rocprofiler_host_queue_t{};
    HOST_ASSERT_OK(dev.create_queue(&q));
    auto k = rocprofiler_host_kernel_t{};
    HOST_ASSERT_OK(dev.register_kernel(
        "spread",
        +[](const rocprofiler_host_work_item_t* item, void* args)
        {
            auto* used = *static_cast<std::atomic<uint32_t>**>(args);
            used->fetch_or(1u << item->worker_index);
            // Long enough that one worker cannot take every workgroup.
            std::this_thread::sleep_for(std::chrono::milliseconds{1});
        },
        0,
        0,
        &k));
    auto  used  = std::atomic<uint32_t>{0};
    auto* usedp = &used;
    auto  pkt =
        host::test::make_packet(dev.find_kernel(k), {32, 1, 1}, {1, 1, 1}, &usedp, sizeof(usedp));
    auto res = dev.run_and_wait(q, pkt, std::chrono::nanoseconds{host::test::patience}.count());
    HOST_ASSERT_OK(res.status);
    EXPECT_GE(res.worker_count, 2u);
    EXPECT_LE(res.worker_count, 4u);
    EXPECT_GE(__builtin_popcount(used.load()), 2);
    EXPECT_EQ(used.load() & ~0xfu, 0u); // worker_index < worker count
}
