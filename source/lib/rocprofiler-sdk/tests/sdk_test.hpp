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

#include <atomic>
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

// A fixture that resets the SDK and configures the tool before each test (the test fails when
// the SDK refuses). A subclass's SetUp calls tool_fixture::SetUp() once its own state is ready for
// the tool's initialize.
class tool_fixture : public ::testing::Test
{
protected:
    tool_fixture(const char* name, std::function<void()> init);
    void SetUp() override;

private:
    const char*           m_name = nullptr;
    std::function<void()> m_init = {};
};

// A tool_fixture named by one alias: using my_tests = sdk_test::tool_test<name, init>; where
// name is a constexpr char array (the tool's name) and init its initialize.
template <const char* Name, void (*Init)()> class tool_test : public tool_fixture
{
protected:
    tool_test()
        : tool_fixture{Name, Init}
    {
    }
};

// A new context (SDK_TEST_CHECK on failure).
rocprofiler_context_id_t create_context();

// A new context with callback tracing of @p kind for @p operations (empty: all).
rocprofiler_context_id_t
callback_tracing_context(rocprofiler_callback_tracing_kind_t          kind,
                         rocprofiler_callback_tracing_cb_t            callback,
                         void*                                        data       = nullptr,
                         std::vector<rocprofiler_tracing_operation_t> operations = {});

// A LOSSLESS buffer of @p size bytes owned by @p ctx (SDK_TEST_CHECK on failure).
rocprofiler_buffer_id_t create_buffer(rocprofiler_context_id_t        ctx,
                                      size_t                          size,
                                      size_t                          watermark,
                                      rocprofiler_buffer_tracing_cb_t callback,
                                      void*                           data = nullptr);

// Where a counter buffer's records go, one call per record, in order, on the buffer's callback
// thread. Must outlive the SDK's finalization (exit-time finalization delivers too).
struct counter_sink
{
    std::function<void(const rocprofiler_dispatch_counting_service_record_t&)> header = {};
    std::function<void(const rocprofiler_counter_record_t&)>                   value  = {};
};

// A LOSSLESS buffer whose dispatch counting headers and counter values go to @p sink (other
// records are skipped).
rocprofiler_buffer_id_t create_counter_buffer(rocprofiler_context_id_t ctx,
                                              size_t                   size,
                                              size_t                   watermark,
                                              const counter_sink*      sink);

// External correlation ids for every kernel dispatch of @p ctx: each request takes the next value
// of @p counter ("blindly incremented": one new id per submit).
void request_external_ids(rocprofiler_context_id_t ctx, std::atomic<uint64_t>* counter);

// Starts each context (SDK_TEST_CHECK on failure).
void start(std::initializer_list<rocprofiler_context_id_t> contexts);

// --- agents and counters ------------------------------------------------------------------------

// The last GPU agent reported (the host reference device on a CPU build).
rocprofiler_agent_id_t gpu_agent();

// The counters of @p agent by name.
std::map<std::string, rocprofiler_counter_id_t> counters_by_name(rocprofiler_agent_id_t agent);

// The name of the counter a record's instance id belongs to ("?" when it cannot be queried).
std::string counter_name(rocprofiler_counter_instance_id_t instance);

// A counter configuration of @p agent with the named counters (EXPECT on failure).
rocprofiler_counter_config_id_t make_config(rocprofiler_agent_id_t          agent,
                                            const std::vector<std::string>& names);

// --- the host device ----------------------------------------------------------------------------

// Registers a kernel (aborts on failure).
rocprofiler_host_kernel_t register_kernel(const char* name, rocprofiler_host_kernel_fn_t fn);

// A host kernel that adds 1 to element global_linear_id of an int array (args: int* const*).
void increment_each(const rocprofiler_host_work_item_t* item, void* args);

// @p n ints of host-device memory holding 0, 1, 2, ... (allocation failures are test failures);
// freed when destroyed.
class device_ints
{
public:
    explicit device_ints(size_t n);
    ~device_ints();
    device_ints(const device_ints&)            = delete;
    device_ints& operator=(const device_ints&) = delete;

    int* const& data() const { return m_data; } // the kernel argument of increment_each
    // True when every element was incremented exactly once.
    bool incremented_once() const;

private:
    size_t m_size = 0;
    int*   m_data = nullptr;
};

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
