// The test tool of kernel-replay-tests: configured afresh for every test by replay_fixture
// (tests/sdk_test.hpp), behaviour per test through `tool()`, and everything the tool
// observed in `log()`.
//
// Contexts (created by the tool's initialize, all started except `idle` and `second`):
// - replay:   KERNEL_REPLAY callback tracing, all operations (NULL, 0);
// - second:   tried to configure KERNEL_REPLAY too (must get ERROR_SERVICE_ALREADY_CONFIGURED);
// - traced:   KERNEL_DISPATCH callback tracing + external correlation requests (a counter);
// - buffered: KERNEL_DISPATCH buffer tracing into a small LOSSLESS buffer;
// - idle:     KERNEL_DISPATCH callback tracing, never started.
#pragma once

#include <rocprofiler-sdk-host/host.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace replay_test
{
using payload_t = rocprofiler_callback_tracing_kernel_replay_data_t;

constexpr auto phase_enter      = ROCPROFILER_CALLBACK_PHASE_ENTER;
constexpr auto phase_exit       = ROCPROFILER_CALLBACK_PHASE_EXIT;
constexpr auto config_operation = ROCPROFILER_KERNEL_REPLAY_CONFIG;
constexpr auto pass_operation   = ROCPROFILER_KERNEL_REPLAY_PASS;

struct contexts_t
{
    rocprofiler_context_id_t replay        = {};
    rocprofiler_context_id_t second        = {};
    rocprofiler_context_id_t traced        = {};
    rocprofiler_context_id_t buffered      = {};
    rocprofiler_context_id_t idle          = {};
    rocprofiler_buffer_id_t  buffer        = {};
    rocprofiler_status_t     second_status = ROCPROFILER_STATUS_SUCCESS;
};

const contexts_t& contexts();

// What the tool does for dispatches of the target kernels; others are left alone (CONFIG fires,
// replay_pass_count stays NULL, so they run once).
struct behaviour
{
    std::vector<uint64_t> targets = {};
    // Empty: replay_pass_count stays NULL.
    std::function<uint64_t(const rocprofiler_kernel_dispatch_info_t&, rocprofiler_user_data_t)>
        pass_count = {};
    // Empty: replay_continue stays NULL.
    std::function<int(uint64_t pass, uint64_t total, rocprofiler_user_data_t)> continue_fn = {};
    std::function<void(payload_t&, rocprofiler_user_data_t*, rocprofiler_callback_phase_t)>
        on_config = {};
    std::function<void(payload_t&, rocprofiler_user_data_t*, rocprofiler_callback_phase_t)>
        on_pass = {};

    bool is_target(uint64_t kernel_id) const;
};

behaviour& tool();

// Fixed N passes for the target kernels.
void replay_fixed(uint64_t passes);

// replay_continue returns 0 after pass @p last and 1 before it; nothing when @p last is negative.
void continue_until(int64_t last);

struct replay_event
{
    int32_t                      operation      = 0;
    int32_t                      phase          = 0;
    uint64_t                     current_pass   = 0;
    uint64_t                     total_passes   = 0;
    uint64_t                     dispatch_id    = 0;
    uint64_t                     kernel_id      = 0;
    rocprofiler_correlation_id_t correlation    = {};
    uint64_t                     thread_id      = 0;
    uint64_t                     user_data      = 0;
    bool                         has_pass_count = false; // replay_pass_count non-NULL
    bool                         has_continue   = false;
    bool                         has_start_stop = false; // both context callbacks non-NULL
};

struct call_event // replay_pass_count (pass == UINT64_MAX) or replay_continue
{
    uint64_t pass        = 0;
    uint64_t total       = 0;
    uint64_t user_data   = 0;
    uint64_t dispatch_id = 0;
};

struct dispatch_event // KERNEL_DISPATCH callback of the `traced` (or `idle`) context
{
    uint64_t                     context        = 0;
    int32_t                      operation      = 0;
    int32_t                      phase          = 0;
    uint64_t                     dispatch_id    = 0;
    uint64_t                     kernel_id      = 0;
    rocprofiler_correlation_id_t correlation    = {};
    uint64_t                     thread_id      = 0; // OS thread the callback ran on
    uint64_t                     start          = 0;
    uint64_t                     end            = 0;
    int64_t                      pass_on_thread = -1; // pass published by PASS ENTER on that thread
};

struct buffer_event
{
    uint64_t dispatch_id = 0;
    uint64_t kernel_id   = 0;
    uint64_t internal    = 0;
    uint64_t external    = 0;
    uint64_t start       = 0;
    uint64_t end         = 0;
};

struct recorder
{
    std::mutex                  mutex          = {};
    std::vector<replay_event>   replay         = {};
    std::vector<uint64_t>       config_kernels = {}; // kernel of every CONFIG ENTER, targets or not
    std::vector<call_event>     pass_count     = {};
    std::vector<call_event>     continues      = {};
    std::vector<dispatch_event> dispatches     = {}; // target kernels only
    std::vector<buffer_event>   buffer         = {}; // target kernels only
    std::vector<std::string>    order = {}; // "config-enter", "pass-enter 0", "complete 0", ...

    void                        clear();
    std::vector<replay_event>   replay_of(int32_t operation, int32_t phase);
    std::vector<dispatch_event> dispatches_of(uint64_t context, int32_t operation);
};

recorder& log();

// The COMPLETE records of the `traced` context so far.
std::vector<dispatch_event> traced_completes();

// Flushes the tool's buffer and returns the buffer records of target kernels so far.
std::vector<buffer_event> flushed_buffer();

// The calling thread's OS id (what records report as thread_id).
uint64_t os_thread_id();

// --- the host device ---------------------------------------------------------------------------

struct kernels_t
{
    rocprofiler_host_kernel_t add       = {}; // a[i] += b[i]
    rocprofiler_host_kernel_t histogram = {}; // atomic hist[in[i] % bins] += 1
    rocprofiler_host_kernel_t scan      = {}; // in-place inclusive prefix sum (one work-item)
    rocprofiler_host_kernel_t count     = {}; // ++*counter (host memory, untracked), once
    rocprofiler_host_kernel_t spawn     = {}; // work-item 0 dispatches `count` onto a queue
    rocprofiler_host_kernel_t gate      = {}; // spins until *open (bounded)
    rocprofiler_host_queue_t  queue     = {};
    rocprofiler_host_queue_t  other     = {};
};

const kernels_t& device();

struct add_args
{
    int32_t*       a;
    const int32_t* b;
    uint64_t       n;
};

struct histogram_args
{
    const uint32_t* in;
    uint32_t*       hist;
    uint64_t        n;
    uint32_t        bins;
};

struct scan_args
{
    int64_t* a;
    uint64_t n;
};

struct count_args
{
    std::atomic<int>* counter;
};

struct spawn_args
{
    rocprofiler_host_kernel_t child;
    rocprofiler_host_queue_t  queue;
    std::atomic<int>*         counter;
};

struct gate_args
{
    std::atomic<bool>* open;
};

// Dispatches `kernel` on `queue` with a completion signal that starts at 1, waits for it, and
// checks it ended at exactly 0. `grid` in workgroups of 64 work-items (1 for single work-item
// kernels).
void run_kernel(rocprofiler_host_kernel_t kernel,
                const void*               args,
                size_t                    args_size,
                uint32_t                  grid,
                uint32_t                  workgroup = 64,
                rocprofiler_host_queue_t  queue     = {});

// The signal value a dispatch started with 1 has right now (for PASS callbacks).
int64_t signal_value(rocprofiler_host_signal_t sig);

// Device memory helpers.
template <typename T>
T*
device_alloc(size_t n)
{
    void* ptr = nullptr;
    EXPECT_EQ(rocprofiler_host_malloc(n * sizeof(T), &ptr), ROCPROFILER_HOST_STATUS_SUCCESS);
    return static_cast<T*>(ptr);
}

// a[i] += b[i] over n = 4096 work-items, with a known initial state.
struct add_problem
{
    static constexpr uint64_t n    = 4096;
    int32_t*                  a    = device_alloc<int32_t>(n);
    int32_t*                  b    = device_alloc<int32_t>(n);
    add_args                  args = {a, b, n};

    add_problem()
    {
        for(uint64_t i = 0; i < n; ++i)
        {
            a[i] = static_cast<int32_t>(i);
            b[i] = static_cast<int32_t>(3 * i + 1);
        }
    }
    ~add_problem()
    {
        rocprofiler_host_free(a);
        rocprofiler_host_free(b);
    }
    add_problem(const add_problem&)            = delete;
    add_problem& operator=(const add_problem&) = delete;

    void run() { run_kernel(device().add, &args, sizeof(args), n / 64); }
    bool initial() const
    {
        for(uint64_t i = 0; i < n; ++i)
            if(a[i] != static_cast<int32_t>(i)) return false;
        return true;
    }
    // Exactly one application of the kernel.
    bool one_run() const
    {
        for(uint64_t i = 0; i < n; ++i)
            if(a[i] != static_cast<int32_t>(i + 3 * i + 1)) return false;
        return true;
    }
};

// An add_problem whose kernel the tool targets; replayed `passes` times when given (else
// replay_pass_count stays NULL).
add_problem targeted_add(std::optional<uint64_t> passes = std::nullopt);

// Resets the SDK and configures the test tool before every test; resets behaviour and log around
// it.
class replay_fixture : public ::testing::Test
{
protected:
    void SetUp() override;
    void TearDown() override;

private:
    bool m_drain_timeout_set = false; // this fixture set ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS
};
} // namespace replay_test
