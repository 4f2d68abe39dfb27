// Helpers shared by the host runtime tests.

#pragma once

#include <rocprofiler-sdk-host/host.h>

#include "rocprofiler-sdk/host/runtime/runtime.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

namespace rocprofiler
{
namespace host
{
namespace test
{
// Longest time any test waits for something that should happen; tests never hang past it.
constexpr auto patience = std::chrono::seconds{2};
// The same, in nanoseconds (the unit of the C API's timeouts).
constexpr auto patience_ns = static_cast<uint64_t>(std::chrono::nanoseconds{patience}.count());

// Statuses are compared by name so that failures print readable values.
#define HOST_EXPECT_STATUS(expected, call)                                                         \
    EXPECT_STREQ(rocprofiler_host_status_string(call), rocprofiler_host_status_string(expected))
#define HOST_ASSERT_OK(call)                                                                       \
    ASSERT_STREQ(rocprofiler_host_status_string(call),                                             \
                 rocprofiler_host_status_string(ROCPROFILER_HOST_STATUS_SUCCESS))

// Spins until `flag` becomes true or `patience` passes; returns the flag.
inline bool
spin_until(const std::atomic<bool>& flag, std::chrono::nanoseconds limit = patience)
{
    auto deadline = std::chrono::steady_clock::now() + limit;
    while(!flag.load(std::memory_order_acquire))
    {
        if(std::chrono::steady_clock::now() > deadline) return false;
        std::this_thread::yield();
    }
    return true;
}

// A kernel that holds its queue until the test opens it. Its args are a `gate*`.
struct gate
{
    std::atomic<bool> entered{false};
    std::atomic<bool> open{false};
    std::atomic<bool> timed_out{false};
};

inline void
gate_kernel(const rocprofiler_host_work_item_t*, void* args)
{
    auto* g = *static_cast<gate**>(args);
    g->entered.store(true, std::memory_order_release);
    if(!spin_until(g->open)) g->timed_out.store(true);
}

// Builds dispatch params with every field set; the caller adjusts what a test needs.
inline rocprofiler_host_dispatch_params_t
make_params(rocprofiler_host_kernel_t kernel,
            rocprofiler_host_dim3_t   grid,
            rocprofiler_host_dim3_t   workgroup,
            const void*               args      = nullptr,
            size_t                    args_size = 0,
            rocprofiler_host_signal_t signal    = {0})
{
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = kernel;
    params.grid              = grid;
    params.workgroup_size    = workgroup;
    params.args              = args;
    params.args_size         = args_size;
    params.completion_signal = signal;
    return params;
}

// Builds a packet for the C++ enqueue API.
inline packet
make_packet(std::shared_ptr<const kernel_info> kernel,
            rocprofiler_host_dim3_t            grid,
            rocprofiler_host_dim3_t            workgroup,
            const void*                        args      = nullptr,
            size_t                             args_size = 0)
{
    auto pkt           = packet{};
    pkt.kernel         = std::move(kernel);
    pkt.grid           = grid;
    pkt.workgroup_size = workgroup;
    pkt.args           = kernel_args{args, args_size};
    return pkt;
}

// Unique kernel names for the process device, which outlives every test.
inline std::string
unique_name(const char* base)
{
    static std::atomic<int> counter{0};
    return std::string{base} + "_" + std::to_string(counter.fetch_add(1));
}
} // namespace test
} // namespace host
} // namespace rocprofiler
