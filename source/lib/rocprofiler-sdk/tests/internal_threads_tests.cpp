// rocprofiler_at_internal_thread_create: the tool's precreate and postcreate callbacks run around
// every thread the SDK starts (here: the buffer callback thread that delivers its records), on the
// starting thread, with ROCPROFILER_LIBRARY and the tool's data; a registration for other
// libraries only is never called; after initialization the entry point is locked.
#include "sdk_test.hpp"

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <mutex>
#include <set>
#include <sys/syscall.h>
#include <unistd.h>
#include <vector>

namespace
{
pid_t
tid()
{
    return static_cast<pid_t>(::syscall(SYS_gettid));
}

struct observations
{
    std::mutex                                 mutex      = {};
    std::vector<rocprofiler_runtime_library_t> pre_libs   = {};
    std::vector<rocprofiler_runtime_library_t> post_libs  = {};
    std::set<pid_t>                            starters   = {};
    std::set<pid_t>                            delivery   = {};
    size_t                                     deliveries = 0;
    size_t deliveries_pre                                 = 99; // deliveries at the first precreate
    size_t others                                         = 0;  // calls of the HSA-only pair
};

observations&
obs()
{
    static auto* value = new observations{};
    return *value;
}

void
precreate(rocprofiler_runtime_library_t lib, void* data)
{
    auto* o    = static_cast<observations*>(data);
    auto  lock = std::lock_guard{o->mutex};
    if(o->pre_libs.empty()) o->deliveries_pre = o->deliveries;
    o->pre_libs.push_back(lib);
    o->starters.insert(tid());
}

void
postcreate(rocprofiler_runtime_library_t lib, void* data)
{
    auto* o    = static_cast<observations*>(data);
    auto  lock = std::lock_guard{o->mutex};
    o->post_libs.push_back(lib);
    o->starters.insert(tid());
}

void
other_library(rocprofiler_runtime_library_t, void* data)
{
    auto* o    = static_cast<observations*>(data);
    auto  lock = std::lock_guard{o->mutex};
    ++o->others;
}

void
collect(rocprofiler_context_id_t,
        rocprofiler_buffer_id_t,
        rocprofiler_record_header_t**,
        size_t num_headers,
        void*,
        uint64_t)
{
    auto lock = std::lock_guard{obs().mutex};
    obs().deliveries += num_headers;
    obs().delivery.insert(tid());
}

rocprofiler_buffer_id_t traced_buffer = {};

void
initialize()
{
    {
        auto  lock       = std::lock_guard{obs().mutex};
        auto& o          = obs();
        o.pre_libs       = {};
        o.post_libs      = {};
        o.starters       = {};
        o.delivery       = {};
        o.deliveries     = 0;
        o.deliveries_pre = 99;
        o.others         = 0;
    }
    SDK_TEST_CHECK(
        rocprofiler_at_internal_thread_create(precreate, postcreate, ROCPROFILER_LIBRARY, &obs()));
    SDK_TEST_CHECK(rocprofiler_at_internal_thread_create(
        other_library, other_library, ROCPROFILER_HSA_LIBRARY | ROCPROFILER_HIP_LIBRARY, &obs()));
    auto ctx      = sdk_test::create_context();
    traced_buffer = sdk_test::create_buffer(ctx, 1 << 14, 1 << 13, collect);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
        ctx, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, traced_buffer));
    sdk_test::start({ctx});
}

constexpr char tool_name[] = "internal-threads";
using internal_threads     = sdk_test::tool_test<tool_name, initialize>;
} // namespace

TEST_F(internal_threads, callbacks_run_around_the_callback_thread_start)
{
    auto kernel = sdk_test::register_kernel("internal_threads_increment", sdk_test::increment_each);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto data = sdk_test::device_ints{64};
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &data.data(), sizeof(int*), 4, 16}), 0);
    EXPECT_TRUE(data.incremented_once());
    ASSERT_EQ(rocprofiler_flush_buffer(traced_buffer), ROCPROFILER_STATUS_SUCCESS);
    rocprofiler_host_destroy_queue(queue);

    // Registration is closed once the tools are initialized.
    EXPECT_EQ(
        rocprofiler_at_internal_thread_create(precreate, postcreate, ROCPROFILER_LIBRARY, &obs()),
        ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED);

    auto lock = std::lock_guard{obs().mutex};
    ASSERT_GE(obs().deliveries, 1u) << "the dispatch record was delivered";
    ASSERT_EQ(obs().delivery.size(), 1u);
    const auto callback_thread = *obs().delivery.begin();
    EXPECT_NE(callback_thread, tid()) << "records are delivered on the SDK's callback thread";

    ASSERT_GE(obs().pre_libs.size(), 1u) << "precreate ran before the callback thread started";
    EXPECT_EQ(obs().pre_libs.size(), obs().post_libs.size());
    EXPECT_EQ(obs().deliveries_pre, 0u) << "the first precreate came before any delivery";
    for(auto lib : obs().pre_libs)
        EXPECT_EQ(lib, ROCPROFILER_LIBRARY);
    for(auto lib : obs().post_libs)
        EXPECT_EQ(lib, ROCPROFILER_LIBRARY);
    EXPECT_EQ(obs().starters.count(callback_thread), 0u)
        << "the callbacks run on the starting thread, not on the new one";
    EXPECT_EQ(obs().others, 0u) << "a registration for HSA and HIP only is never called here";
}
