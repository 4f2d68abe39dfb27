// PC sampling of the host device: samples of a spinning kernel fall inside its function and carry
// its dispatch; two kernels running at once on different workers are told apart; the host agent's
// configuration is offered and bad requests are refused; nothing is sampled when nothing asked;
// every pass of a replayed dispatch is sampled (PC sampling ignores localized toggles); and a full
// ring counts what it drops.
#include <rocprofiler-sdk/experimental/kernel_replay.h>
#include <rocprofiler-sdk/pc_sampling.h>
#include <rocprofiler-sdk/rocprofiler.h>

#include <gtest/gtest.h>

#include "dispatch/pc_sampling.hpp"
#include "host/pc_sample_ring.hpp"
#include "sdk_test.hpp"

#include <time.h>

#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <map>
#include <mutex>
#include <set>
#include <string>
#include <vector>

namespace
{
constexpr uint64_t interval_ns = 1000 * 1000; // the host agent's shortest interval
constexpr uint64_t spin_ns     = 50 * 1000 * 1000;
constexpr uint64_t passes      = 3;

struct spin_args
{
    uint64_t ns = 0;
};

uint64_t
now()
{
    auto ts = rocprofiler_timestamp_t{};
    rocprofiler_get_timestamp(&ts);
    return ts;
}

// CPU time of the calling thread: kernels spin for CPU time, not wall time, so that a loaded
// machine (parallel tests, sanitizers) still gives them the samples their interval promises.
uint64_t
thread_cpu_ns()
{
    auto ts = timespec{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// Spins for args->ns of CPU time. The inner loop has no call and no memory access, so that nearly
// every sample lands inside the function itself (even under sanitizers, which instrument
// accesses).
// Exported (extern, the test links with ENABLE_EXPORTS) so that the SDK learns their sizes.
#define DEFINE_SPIN_KERNEL(name)                                                                   \
    extern "C" __attribute__((noinline, visibility("default"))) void name(                         \
        const rocprofiler_host_work_item_t*, void* args)                                           \
    {                                                                                              \
        const auto until = thread_cpu_ns() + static_cast<const spin_args*>(args)->ns;              \
        uint64_t   x     = 1;                                                                      \
        while(thread_cpu_ns() < until)                                                             \
            for(int i = 0; i < (1 << 16); ++i)                                                     \
            {                                                                                      \
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;                           \
                asm volatile("" : "+r"(x));                                                        \
            }                                                                                      \
    }

DEFINE_SPIN_KERNEL(pcs_spin_a)
DEFINE_SPIN_KERNEL(pcs_spin_b)
DEFINE_SPIN_KERNEL(pcs_spin_replayed)

struct recorded
{
    std::mutex                                                 mutex      = {};
    std::vector<rocprofiler_pc_sampling_record_host_trap_v0_t> samples    = {};
    std::map<uint64_t, uint64_t>                               dispatches = {}; // id -> kernel
    std::map<uint64_t, uint64_t> code_objects = {}; // kernel id -> code object id
    std::map<uint64_t, uint64_t> entries      = {}; // kernel id -> kernel_object (its address)
    std::vector<std::pair<uint64_t, uint64_t>>  pass_windows = {}; // replayed kernel's passes
    uint64_t                                    pass_enter   = 0;
    uint64_t                                    drops        = 0; // buffer callbacks' drop_count
    std::map<std::string, rocprofiler_status_t> seen         = {};
};

recorded&
rec()
{
    static auto* value = new recorded{};
    return *value;
}

rocprofiler_context_id_t sampling_context = {};
rocprofiler_buffer_id_t  sampling_buffer  = {};
uint64_t                 replayed_kernel  = 0;

void
collect(rocprofiler_context_id_t,
        rocprofiler_buffer_id_t,
        rocprofiler_record_header_t** headers,
        size_t                        n,
        void*,
        uint64_t drops)
{
    auto lock = std::lock_guard{rec().mutex};
    rec().drops += drops;
    for(size_t i = 0; i < n; ++i)
    {
        const auto* h = headers[i];
        if(h->category == ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING &&
           h->kind == ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE)
            rec().samples.push_back(
                *static_cast<const rocprofiler_pc_sampling_record_host_trap_v0_t*>(h->payload));
        if(h->category == ROCPROFILER_BUFFER_CATEGORY_TRACING &&
           h->kind == ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
        {
            const auto* d =
                static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(h->payload);
            rec().dispatches[d->dispatch_info.dispatch_id] = d->dispatch_info.kernel_id;
        }
    }
}

void
on_code_object(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT ||
       record.operation != ROCPROFILER_CODE_OBJECT_DEVICE_KERNEL_SYMBOL_REGISTER)
        return;
    const auto* p =
        static_cast<const rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t*>(
            record.payload);
    auto lock                        = std::lock_guard{rec().mutex};
    rec().code_objects[p->kernel_id] = p->code_object_id;
    rec().entries[p->kernel_id]      = p->kernel_object;
}

uint64_t
three_passes(rocprofiler_kernel_dispatch_info_t, rocprofiler_user_data_t)
{
    return passes;
}

void
on_replay(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    auto* p = static_cast<rocprofiler_callback_tracing_kernel_replay_data_t*>(record.payload);
    if(p->dispatch_info.kernel_id != replayed_kernel) return;
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER) p->replay_pass_count = three_passes;
        return;
    }
    auto lock = std::lock_guard{rec().mutex};
    if(record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        // A local stop of the sampling context: PC sampling is agent-wide and ignores it.
        if(p->current_pass == 1)
            rec().seen["local stop"] = p->replay_stop_context(sampling_context);
        rec().pass_enter = now();
    }
    else
        rec().pass_windows.emplace_back(rec().pass_enter, now());
}

rocprofiler_status_t
configure(rocprofiler_context_id_t         ctx,
          rocprofiler_pc_sampling_method_t method,
          rocprofiler_pc_sampling_unit_t   unit,
          uint64_t                         interval)
{
    return rocprofiler_configure_pc_sampling_service(
        ctx, sdk_test::gpu_agent(), method, unit, interval, sampling_buffer, 0);
}

void
set_up_buffer_and_code_objects()
{
    // The SDK's reset between tests restarts dispatch ids: what an earlier test saw is stale.
    {
        auto lock          = std::lock_guard{rec().mutex};
        rec().samples      = {};
        rec().dispatches   = {};
        rec().code_objects = {};
        rec().entries      = {};
        rec().pass_windows = {};
        rec().drops        = 0;
        rec().seen         = {};
    }
    sampling_context = sdk_test::create_context();
    sampling_buffer  = sdk_test::create_buffer(sampling_context, 1 << 16, 1 << 15, collect);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
        sampling_context, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, sampling_buffer));
    SDK_TEST_CHECK(
        rocprofiler_configure_callback_tracing_service(sampling_context,
                                                       ROCPROFILER_CALLBACK_TRACING_CODE_OBJECT,
                                                       nullptr,
                                                       0,
                                                       on_code_object,
                                                       nullptr));
}

void
initialize_sampling()
{
    set_up_buffer_and_code_objects();
    constexpr auto trap = ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP;
    constexpr auto time = ROCPROFILER_PC_SAMPLING_UNIT_TIME;
    auto&          seen = rec().seen;
    seen["zero"]        = configure(sampling_context, trap, time, 0);
    seen["too short"]   = configure(sampling_context, trap, time, interval_ns - 1);
    seen["too long"]    = configure(sampling_context, trap, time, 2'000'000'000ULL);
    seen["stochastic"] =
        configure(sampling_context, ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC, time, interval_ns);
    seen["cycles"] = configure(sampling_context, trap, ROCPROFILER_PC_SAMPLING_UNIT_CYCLES, 4096);
    seen["good"]   = configure(sampling_context, trap, time, interval_ns);
    seen["again"]  = configure(sampling_context, trap, time, interval_ns);
    seen["other context"] = configure(sdk_test::create_context(), trap, time, interval_ns);
    seen["counting too"]  = rocprofiler_configure_buffer_dispatch_counting_service(
        sampling_context,
        sampling_buffer,
        [](rocprofiler_dispatch_counting_service_data_t,
           rocprofiler_counter_config_id_t*,
           rocprofiler_user_data_t*,
           void*) {},
        nullptr);

    auto replay =
        sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, on_replay);
    sdk_test::start({sampling_context, replay});
}

void
initialize_sampling_only()
{
    set_up_buffer_and_code_objects();
    SDK_TEST_CHECK(configure(sampling_context,
                             ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,
                             ROCPROFILER_PC_SAMPLING_UNIT_TIME,
                             interval_ns));
    sdk_test::start({sampling_context});
}

void
initialize_without_sampling()
{
    set_up_buffer_and_code_objects();
    sdk_test::start({sampling_context});
}

constexpr char sampling_tool[]   = "pc-sampling-host";
constexpr char unsampled_tool[]  = "pc-sampling-host-unconfigured";
using pc_sampling_host           = sdk_test::tool_test<sampling_tool, initialize_sampling>;
using pc_sampling_not_configured = sdk_test::tool_test<unsampled_tool, initialize_without_sampling>;
constexpr char small_ring_tool[] = "pc-sampling-host-small-ring";
using pc_sampling_small_ring     = sdk_test::tool_test<small_ring_tool, initialize_sampling_only>;

uint64_t
kernel_id_of(rocprofiler_host_kernel_t kernel)
{
    return kernel.handle;
}

void
spin_on(rocprofiler_host_queue_t queue, rocprofiler_host_kernel_t kernel, uint64_t ns)
{
    auto args = spin_args{ns};
    EXPECT_EQ(sdk_test::dispatch_and_wait(queue, {kernel, &args, sizeof(args)}), 0);
}

// The samples of one dispatch, after the buffer was flushed.
std::vector<rocprofiler_pc_sampling_record_host_trap_v0_t>
samples_of(uint64_t dispatch_id)
{
    auto out  = std::vector<rocprofiler_pc_sampling_record_host_trap_v0_t>{};
    auto lock = std::lock_guard{rec().mutex};
    for(const auto& s : rec().samples)
        if(s.dispatch_id == dispatch_id) out.push_back(s);
    return out;
}

uint64_t
dispatch_of(uint64_t kernel_id)
{
    auto lock = std::lock_guard{rec().mutex};
    for(const auto& [dispatch, kernel] : rec().dispatches)
        if(kernel == kernel_id) return dispatch;
    return 0;
}

// Checks that every sample of `dispatch_id` that names a code object names its kernel's, at an
// offset inside the function, and that at least one does. Returns how many do.
size_t
expect_inside(uint64_t dispatch_id, uint64_t kernel_id, rocprofiler_host_kernel_fn_t fn)
{
    auto       lock        = std::unique_lock{rec().mutex};
    const auto code_object = rec().code_objects[kernel_id];
    const auto entry       = rec().entries[kernel_id];
    lock.unlock();
    EXPECT_NE(code_object, 0u);
    EXPECT_EQ(entry, reinterpret_cast<uint64_t>(fn));
    size_t inside = 0;
    for(const auto& s : samples_of(dispatch_id))
    {
        EXPECT_EQ(s.size, sizeof(s));
        EXPECT_EQ(s.correlation_id.internal != 0, true);
        if(s.pc.code_object_id == ROCPROFILER_CODE_OBJECT_ID_NONE) continue;
        EXPECT_EQ(s.pc.code_object_id, code_object) << "dispatch " << dispatch_id;
        EXPECT_LT(s.pc.code_object_offset, 4096u); // a spin loop is a few hundred bytes
        ++inside;
    }
    EXPECT_GT(inside, 0u) << "dispatch " << dispatch_id << " has no sample inside its kernel";
    std::cout << "dispatch " << dispatch_id << ": " << inside << " sample(s) inside its kernel\n";
    return inside;
}
} // namespace

TEST_F(pc_sampling_host, host_agent_offers_host_trap_in_ns_and_refuses_bad_requests)
{
    auto& seen = rec().seen;
    EXPECT_EQ(seen["zero"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["too short"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["too long"], ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT);
    EXPECT_EQ(seen["stochastic"], ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
    EXPECT_EQ(seen["cycles"], ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE);
    EXPECT_EQ(seen["good"], ROCPROFILER_STATUS_SUCCESS);
    EXPECT_EQ(seen["again"], ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED);
    EXPECT_EQ(seen["other context"], ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);
    // PC sampling and dispatch counting do not share a context.
    EXPECT_EQ(seen["counting too"], ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT);

    // Once configured, the query offers the configuration in use.
    auto configs = std::vector<rocprofiler_pc_sampling_configuration_t>{};
    EXPECT_EQ(rocprofiler_query_pc_sampling_agent_configurations(
                  sdk_test::gpu_agent(),
                  [](const rocprofiler_pc_sampling_configuration_t* list, size_t n, void* data)
                  {
                      for(size_t i = 0; i < n; ++i)
                          static_cast<std::vector<rocprofiler_pc_sampling_configuration_t>*>(data)
                              ->push_back(list[i]);
                      return ROCPROFILER_STATUS_SUCCESS;
                  },
                  &configs),
              ROCPROFILER_STATUS_SUCCESS);
    ASSERT_EQ(configs.size(), 1u);
    EXPECT_EQ(configs[0].method, ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP);
    EXPECT_EQ(configs[0].unit, ROCPROFILER_PC_SAMPLING_UNIT_TIME);
    EXPECT_EQ(configs[0].min_interval, interval_ns);
    EXPECT_EQ(configs[0].max_interval, interval_ns);
}

TEST_F(pc_sampling_host, spinning_kernel_is_sampled_inside_its_function_with_its_dispatch)
{
    auto kernel = sdk_test::register_kernel("pcs_spin_a", pcs_spin_a);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    spin_on(queue, kernel, spin_ns);
    ASSERT_EQ(rocprofiler_flush_buffer(sampling_buffer), ROCPROFILER_STATUS_SUCCESS);

    const auto dispatch = dispatch_of(kernel_id_of(kernel));
    ASSERT_NE(dispatch, 0u);
    expect_inside(dispatch, kernel_id_of(kernel), pcs_spin_a);
    auto lock = std::lock_guard{rec().mutex};
    for(const auto& s : rec().samples)
        EXPECT_EQ(s.dispatch_id, dispatch) << "a sample of no dispatch that ran";
    rocprofiler_host_destroy_queue(queue);
}

TEST_F(pc_sampling_host, concurrent_kernels_on_different_workers_are_attributed_apart)
{
    auto workers = uint32_t{0};
    ASSERT_EQ(rocprofiler_host_get_worker_count(&workers), ROCPROFILER_HOST_STATUS_SUCCESS);
    if(workers < 2) GTEST_SKIP() << "the host device has one worker";
    auto a  = sdk_test::register_kernel("pcs_spin_a", pcs_spin_a);
    auto b  = sdk_test::register_kernel("pcs_spin_b", pcs_spin_b);
    auto qa = rocprofiler_host_queue_t{};
    auto qb = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&qa), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_host_create_queue(&qb), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto args = spin_args{spin_ns};
    for(auto [queue, kernel] : {std::pair{qa, a}, std::pair{qb, b}})
    {
        auto params           = rocprofiler_host_dispatch_params_t{};
        params.size           = sizeof(params);
        params.kernel         = kernel;
        params.grid           = {1, 1, 1};
        params.workgroup_size = {1, 1, 1};
        params.args           = &args;
        params.args_size      = sizeof(args);
        ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    }
    ASSERT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    ASSERT_EQ(rocprofiler_flush_buffer(sampling_buffer), ROCPROFILER_STATUS_SUCCESS);

    const auto da = dispatch_of(kernel_id_of(a));
    const auto db = dispatch_of(kernel_id_of(b));
    ASSERT_NE(da, 0u);
    ASSERT_NE(db, 0u);
    expect_inside(da, kernel_id_of(a), pcs_spin_a);
    expect_inside(db, kernel_id_of(b), pcs_spin_b);
    rocprofiler_host_destroy_queue(qa);
    rocprofiler_host_destroy_queue(qb);
}

TEST_F(pc_sampling_host, every_replay_pass_is_sampled_despite_a_local_stop)
{
    auto kernel     = sdk_test::register_kernel("pcs_spin_replayed", pcs_spin_replayed);
    replayed_kernel = kernel_id_of(kernel);
    auto queue      = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    spin_on(queue, kernel, spin_ns);
    ASSERT_EQ(rocprofiler_flush_buffer(sampling_buffer), ROCPROFILER_STATUS_SUCCESS);

    auto lock = std::unique_lock{rec().mutex};
    EXPECT_EQ(rec().seen["local stop"], ROCPROFILER_STATUS_SUCCESS);
    const auto windows = rec().pass_windows;
    lock.unlock();
    ASSERT_EQ(windows.size(), passes);
    // The record has no pass field: a sample's pass is the pass whose window holds its timestamp
    // (every pass carries the dispatch's id and correlation ids).
    auto samples = std::vector<rocprofiler_pc_sampling_record_host_trap_v0_t>{};
    {
        auto guard = std::lock_guard{rec().mutex};
        for(const auto& s : rec().samples)
            if(rec().dispatches.count(s.dispatch_id) != 0 &&
               rec().dispatches[s.dispatch_id] == replayed_kernel)
                samples.push_back(s);
    }
    auto per_pass = std::vector<size_t>(passes, 0);
    for(const auto& s : samples)
    {
        auto found = false;
        for(size_t i = 0; i < windows.size(); ++i)
            if(s.timestamp >= windows[i].first && s.timestamp <= windows[i].second)
            {
                ++per_pass[i];
                found = true;
            }
        EXPECT_TRUE(found) << "a sample outside every pass, at " << s.timestamp;
    }
    for(size_t i = 0; i < passes; ++i)
        EXPECT_GT(per_pass[i], 0u) << "pass " << i << " has no sample";
    rocprofiler_host_destroy_queue(queue);
}

TEST_F(pc_sampling_not_configured, nothing_is_sampled)
{
    auto kernel = sdk_test::register_kernel("pcs_spin_a", pcs_spin_a);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    spin_on(queue, kernel, 10 * interval_ns);
    ASSERT_EQ(rocprofiler_flush_buffer(sampling_buffer), ROCPROFILER_STATUS_SUCCESS);
    auto lock = std::lock_guard{rec().mutex};
    EXPECT_EQ(rec().dispatches.size(), 1u);
    EXPECT_TRUE(rec().samples.empty());
    rocprofiler_host_destroy_queue(queue);
}

// Run by CTest with ROCPROFILER_HOST_PC_SAMPLING_RING=2
// (pc_sampling.small_ring_drops_are_reported): a worker keeps 2 samples of the ~12 a 50 ms kernel
// gets, and the rest are reported as dropped.
TEST_F(pc_sampling_small_ring, drops_are_counted_and_reported)
{
    const char* ring = std::getenv("ROCPROFILER_HOST_PC_SAMPLING_RING");
    if(ring == nullptr || std::string{ring} != "2")
        GTEST_SKIP() << "runs with ROCPROFILER_HOST_PC_SAMPLING_RING=2 only";
    auto kernel = sdk_test::register_kernel("pcs_spin_a", pcs_spin_a);
    auto queue  = rocprofiler_host_queue_t{};
    ASSERT_EQ(rocprofiler_host_create_queue(&queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    ::testing::internal::CaptureStderr();
    spin_on(queue, kernel, spin_ns);
    const auto err = ::testing::internal::GetCapturedStderr();
    ASSERT_EQ(rocprofiler_flush_buffer(sampling_buffer), ROCPROFILER_STATUS_SUCCESS);
    const auto dispatch = dispatch_of(kernel_id_of(kernel));
    ASSERT_NE(dispatch, 0u);
    const auto kept = samples_of(dispatch).size();
    // One workgroup runs on one worker: it keeps its ring's 2 samples.
    EXPECT_GE(kept, 1u);
    EXPECT_LE(kept, 2u);
    const auto warning = "sample(s) of dispatch " + std::to_string(dispatch) + " were dropped";
    const auto at      = err.find(warning);
    ASSERT_NE(at, std::string::npos) << err;
    // The warning's count and the drop_count the tool's buffer callback received are the same
    // samples: a tool tallying drop_count loses none of them.
    const auto line_start = err.rfind("PC sampling: ", at);
    ASSERT_NE(line_start, std::string::npos) << err;
    const auto warned = std::stoull(err.substr(line_start + std::string{"PC sampling: "}.size()));
    EXPECT_GE(warned, 1u);
    {
        auto lock = std::lock_guard{rec().mutex};
        EXPECT_EQ(rec().drops, warned) << err;
    }
    rocprofiler_host_destroy_queue(queue);
}

TEST(pc_sample_ring, a_full_ring_counts_drops_and_a_disarmed_one_ignores_samples)
{
    auto ring = rocprofiler::host::pc_sample_ring{4};
    ring.push(1, 1); // not armed: no sample of any execution
    ring.arm();
    for(uint64_t i = 0; i < 10; ++i)
        ring.push(0x1000 + i, i);
    ring.disarm();
    ring.push(99, 99);
    auto pcs = std::vector<uint64_t>{};
    ring.drain([&](const rocprofiler::host::pc_sample_ring::entry& e) { pcs.push_back(e.pc); });
    EXPECT_EQ(pcs, (std::vector<uint64_t>{0x1000, 0x1001, 0x1002, 0x1003}));
    EXPECT_EQ(ring.dropped(), 6u);
    ring.arm();
    EXPECT_EQ(ring.dropped(), 0u);
}

TEST(pc_sampling_record, maps_a_sample_onto_the_kernels_code_object_or_its_address)
{
    auto origin           = rocprofiler::dispatch::pc_sample_origin{};
    origin.code_object_id = 7;
    origin.dispatch_id    = 42;
    origin.correlation_id = {5, {.value = 9}};

    auto inside         = rocprofiler::dispatch::pc_sample{};
    inside.pc           = 0x401010;
    inside.timestamp_ns = 123;
    inside.worker       = 3;
    inside.in_kernel    = true;
    inside.offset       = 0x10;
    const auto a        = rocprofiler::dispatch::make_host_trap_record(inside, origin);
    EXPECT_EQ(a.size, sizeof(a));
    EXPECT_EQ(a.pc.code_object_id, 7u);
    EXPECT_EQ(a.pc.code_object_offset, 0x10u);
    EXPECT_EQ(a.timestamp, 123u);
    EXPECT_EQ(a.dispatch_id, 42u);
    EXPECT_EQ(a.correlation_id.internal, 5u);
    EXPECT_EQ(a.correlation_id.external.value, 9u);
    EXPECT_EQ(a.hw_id.cu_or_wgp_id, 3u);
    EXPECT_EQ(a.exec_mask, 1u);

    // Outside the kernel: no code object, the address itself; a worker the 4-bit field cannot
    // name is left 0 rather than wrapped.
    auto outside      = inside;
    outside.in_kernel = false;
    outside.worker    = 16;
    const auto b      = rocprofiler::dispatch::make_host_trap_record(outside, origin);
    EXPECT_EQ(b.pc.code_object_id, ROCPROFILER_CODE_OBJECT_ID_NONE);
    EXPECT_EQ(b.pc.code_object_offset, 0x401010u);
    EXPECT_EQ(b.hw_id.cu_or_wgp_id, 0u);
}

TEST(pc_sampling_record, a_stochastic_sample_says_whether_the_wave_issued_and_why_not)
{
    auto origin           = rocprofiler::dispatch::pc_sample_origin{};
    origin.code_object_id = 7;
    origin.dispatch_id    = 42;
    origin.correlation_id = {5, {.value = 9}};

    auto stalled              = rocprofiler::dispatch::pc_sample{};
    stalled.timestamp_ns      = 123;
    stalled.in_kernel         = true;
    stalled.offset            = 0x80;
    stalled.not_issued_reason = ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT;
    const auto a              = rocprofiler::dispatch::make_stochastic_record(stalled, origin);
    EXPECT_EQ(a.size, sizeof(a));
    EXPECT_EQ(a.pc.code_object_id, 7u);
    EXPECT_EQ(a.pc.code_object_offset, 0x80u);
    EXPECT_EQ(a.timestamp, 123u);
    EXPECT_EQ(a.dispatch_id, 42u);
    EXPECT_EQ(a.correlation_id.internal, 5u);
    EXPECT_EQ(a.correlation_id.external.value, 9u);
    EXPECT_EQ(a.wave_issued, 0u);
    EXPECT_EQ(a.snapshot.reason_not_issued,
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT);
    EXPECT_EQ(a.exec_mask, 0u); // no lane mask is claimed
    EXPECT_EQ(a.flags.has_memory_counter, 0u);

    // An issued wave has no not-issued reason, whatever the sample says.
    auto issued        = stalled;
    issued.wave_issued = true;
    const auto b       = rocprofiler::dispatch::make_stochastic_record(issued, origin);
    EXPECT_EQ(b.wave_issued, 1u);
    EXPECT_EQ(b.snapshot.reason_not_issued,
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE);
}
