// Two threads reach the SDK's initialization at once (two threads making their first CUDA call,
// for instance): the one that arrives second must wait until the tools are configured, not go on
// as if nothing were configured (an allocation it made then would never be tracked for replay).
// The tool is this executable's own rocprofiler_configure, which takes its time.
#include "registration/registration.hpp"

#include <rocprofiler-sdk/registration.h>

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

namespace
{
std::atomic<bool> configure_entered = false;
std::atomic<bool> configured        = false;
} // namespace

extern "C" __attribute__((visibility("default"))) rocprofiler_tool_configure_result_t*
rocprofiler_configure(uint32_t, const char*, uint32_t, rocprofiler_client_id_t*)
{
    configure_entered = true;
    std::this_thread::sleep_for(std::chrono::milliseconds{300});
    configured = true;
    return nullptr; // declines: only the timing matters here
}

TEST(initialization, a_second_thread_waits_for_the_tools_to_be_configured)
{
    auto first = std::thread{[] { rocprofiler::registration::initialize(); }};
    while(!configure_entered.load())
        std::this_thread::yield();
    // The first thread is inside the tool's configure now.
    rocprofiler::registration::initialize();
    EXPECT_TRUE(configured.load()) << "initialize() returned on a second thread before the tools "
                                      "were configured";
    first.join();
}
