// What the unit tests of the SDK share: one test tool, configured afresh for each test.
//
// configure_tool() resets the SDK to its just-loaded state (registration::reset_for_tests) and
// force-configures a tool whose initialize runs the given function, so that tests with different
// tools can share one executable. Call it from a fixture's SetUp, before the test's first use of
// the host device (any host-device call initializes the SDK with whatever tool is configured).
// Everything here runs on the test's thread.
#pragma once

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <string>
#include <vector>

// Inside a tool's initialize: aborts the test program with the failing call when it does not
// succeed (a tool that half-configured itself would make every later assertion meaningless).
#define SDK_TEST_CHECK(call) ::sdk_test::check_setup((call), #call)

namespace sdk_test
{
void check_setup(rocprofiler_status_t status, const char* call);

// Resets the SDK, then force-configures a tool named @p name whose initialize runs @p init.
// Returns rocprofiler_force_configure's status.
rocprofiler_status_t configure_tool(const char* name, std::function<void()> init);

// A new context (SDK_TEST_CHECK on failure).
rocprofiler_context_id_t create_context();

// A new context with callback tracing of @p kind for @p operations (empty: all).
rocprofiler_context_id_t
callback_tracing_context(rocprofiler_callback_tracing_kind_t          kind,
                         rocprofiler_callback_tracing_cb_t            callback,
                         void*                                        data       = nullptr,
                         std::vector<rocprofiler_tracing_operation_t> operations = {});

// Starts each context (SDK_TEST_CHECK on failure).
void start(std::initializer_list<rocprofiler_context_id_t> contexts);

// --- agents and counters ------------------------------------------------------------------------

// The last GPU agent reported (the host reference device on a CPU build).
rocprofiler_agent_id_t gpu_agent();

// The counters of @p agent by name.
std::map<std::string, rocprofiler_counter_id_t> counters_by_name(rocprofiler_agent_id_t agent);

// A counter configuration of @p agent with the named counters (EXPECT on failure).
rocprofiler_counter_config_id_t make_config(rocprofiler_agent_id_t          agent,
                                            const std::vector<std::string>& names);

// --- the host device ----------------------------------------------------------------------------

// Registers a kernel (aborts on failure).
rocprofiler_host_kernel_t register_kernel(const char* name, rocprofiler_host_kernel_fn_t fn);

// A one-dimensional launch: @p grid workgroups of @p workgroup work-items.
struct launch
{
    rocprofiler_host_kernel_t kernel    = {};
    const void*               args      = nullptr;
    size_t                    args_size = 0;
    uint32_t                  grid      = 1;
    uint32_t                  workgroup = 1;
};

// Dispatches on @p queue with a completion signal that starts at 1, waits (2 s at most) until it
// drops below 1, then waits for the whole device. Returns the signal's final value (-99 when it
// could not be read); gtest assertions report failed calls.
int64_t dispatch_and_wait(rocprofiler_host_queue_t queue, const launch& what);
} // namespace sdk_test
