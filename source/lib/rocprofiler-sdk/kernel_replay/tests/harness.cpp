#include "harness.hpp"
#include "replay_env.hpp"

#include "sdk_test.hpp"

#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iterator>
#include <thread>

namespace replay_test
{
namespace
{
contexts_t g_contexts  = {};
behaviour  g_behaviour = {};
recorder*  g_recorder  = new recorder{}; // never destroyed: buffer callbacks may run at exit

thread_local int64_t this_thread_pass = -1;

uint64_t
tool_pass_count(rocprofiler_kernel_dispatch_info_t info, rocprofiler_user_data_t user_data)
{
    {
        auto lock = std::lock_guard{g_recorder->mutex};
        g_recorder->pass_count.push_back({UINT64_MAX, 0, user_data.value, info.dispatch_id});
    }
    return g_behaviour.pass_count(info, user_data);
}

int
tool_continue(rocprofiler_kernel_dispatch_info_t info,
              uint64_t                           current_pass,
              uint64_t                           total_passes,
              rocprofiler_user_data_t            user_data)
{
    {
        auto lock = std::lock_guard{g_recorder->mutex};
        g_recorder->continues.push_back(
            {current_pass, total_passes, user_data.value, info.dispatch_id});
    }
    return g_behaviour.continue_fn(current_pass, total_passes, user_data);
}

void
record_replay(const rocprofiler_callback_tracing_record_t& record,
              const payload_t&                             payload,
              const rocprofiler_user_data_t*               user_data)
{
    auto ev           = replay_event{};
    ev.operation      = record.operation;
    ev.phase          = record.phase;
    ev.current_pass   = payload.current_pass;
    ev.total_passes   = payload.total_passes;
    ev.dispatch_id    = payload.dispatch_info.dispatch_id;
    ev.kernel_id      = payload.dispatch_info.kernel_id;
    ev.correlation    = record.correlation_id;
    ev.thread_id      = os_thread_id();
    ev.user_data      = user_data->value;
    ev.has_pass_count = payload.replay_pass_count != nullptr;
    ev.has_continue   = payload.replay_continue != nullptr;
    ev.has_start_stop =
        payload.replay_start_context != nullptr && payload.replay_stop_context != nullptr;
    auto name =
        std::string{record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG ? "config" : "pass"} +
        (record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER ? "-enter" : "-exit");
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_PASS)
        name += " " + std::to_string(payload.current_pass);
    auto lock = std::lock_guard{g_recorder->mutex};
    g_recorder->replay.push_back(ev);
    g_recorder->order.push_back(name);
}

void
replay_callback(rocprofiler_callback_tracing_record_t record,
                rocprofiler_user_data_t*              user_data,
                void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY) return;
    auto* payload = static_cast<payload_t*>(record.payload);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG &&
       record.phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        auto lock = std::lock_guard{g_recorder->mutex};
        g_recorder->config_kernels.push_back(payload->dispatch_info.kernel_id);
    }
    if(!g_behaviour.is_target(payload->dispatch_info.kernel_id)) return;

    auto phase = static_cast<rocprofiler_callback_phase_t>(record.phase);
    if(record.operation == ROCPROFILER_KERNEL_REPLAY_CONFIG)
    {
        if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
        {
            record_replay(record, *payload, user_data);
            if(g_behaviour.pass_count) payload->replay_pass_count = &tool_pass_count;
            if(g_behaviour.continue_fn) payload->replay_continue = &tool_continue;
            if(g_behaviour.on_config) g_behaviour.on_config(*payload, user_data, phase);
        }
        else
        {
            if(g_behaviour.on_config) g_behaviour.on_config(*payload, user_data, phase);
            record_replay(record, *payload, user_data);
        }
        return;
    }
    if(phase == ROCPROFILER_CALLBACK_PHASE_ENTER)
    {
        record_replay(record, *payload, user_data);
        this_thread_pass = static_cast<int64_t>(payload->current_pass);
        if(g_behaviour.on_pass) g_behaviour.on_pass(*payload, user_data, phase);
    }
    else
    {
        if(g_behaviour.on_pass) g_behaviour.on_pass(*payload, user_data, phase);
        record_replay(record, *payload, user_data);
        this_thread_pass = -1;
    }
}

void
dispatch_callback(rocprofiler_callback_tracing_record_t record, rocprofiler_user_data_t*, void*)
{
    if(record.kind != ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH) return;
    const auto* payload =
        static_cast<const rocprofiler_callback_tracing_kernel_dispatch_data_t*>(record.payload);
    if(!g_behaviour.is_target(payload->dispatch_info.kernel_id)) return;
    auto ev           = dispatch_event{};
    ev.context        = record.context_id.handle;
    ev.operation      = record.operation;
    ev.phase          = record.phase;
    ev.dispatch_id    = payload->dispatch_info.dispatch_id;
    ev.kernel_id      = payload->dispatch_info.kernel_id;
    ev.correlation    = record.correlation_id;
    ev.thread_id      = os_thread_id();
    ev.start          = payload->start_timestamp;
    ev.end            = payload->end_timestamp;
    ev.pass_on_thread = this_thread_pass;
    auto lock         = std::lock_guard{g_recorder->mutex};
    g_recorder->dispatches.push_back(ev);
    if(record.operation == ROCPROFILER_KERNEL_DISPATCH_COMPLETE)
        g_recorder->order.push_back("complete " + std::to_string(this_thread_pass));
}

void
buffer_callback(rocprofiler_context_id_t,
                rocprofiler_buffer_id_t,
                rocprofiler_record_header_t** headers,
                size_t                        num_headers,
                void*,
                uint64_t)
{
    for(size_t i = 0; i < num_headers; ++i)
    {
        if(headers[i]->category != ROCPROFILER_BUFFER_CATEGORY_TRACING ||
           headers[i]->kind != ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH)
            continue;
        const auto* rec = static_cast<const rocprofiler_buffer_tracing_kernel_dispatch_record_t*>(
            headers[i]->payload);
        auto ev        = buffer_event{};
        ev.dispatch_id = rec->dispatch_info.dispatch_id;
        ev.kernel_id   = rec->dispatch_info.kernel_id;
        ev.internal    = rec->correlation_id.internal;
        ev.external    = rec->correlation_id.external.value;
        ev.start       = rec->start_timestamp;
        ev.end         = rec->end_timestamp;
        auto lock      = std::lock_guard{g_recorder->mutex};
        g_recorder->buffer.push_back(ev);
    }
}

std::atomic<uint64_t> external_counter = 1000;

// The tool's initialize (see harness.hpp for the contexts).
void
initialize_tool()
{
    auto& c  = g_contexts;
    c.replay = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY,
                                                  replay_callback);

    c.second        = sdk_test::create_context();
    c.second_status = rocprofiler_configure_callback_tracing_service(
        c.second, ROCPROFILER_CALLBACK_TRACING_KERNEL_REPLAY, nullptr, 0, replay_callback, nullptr);

    c.traced = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                  dispatch_callback);
    sdk_test::request_external_ids(c.traced, &external_counter);

    c.buffered = sdk_test::create_context();
    c.buffer   = sdk_test::create_buffer(c.buffered, 4096, 2048, buffer_callback);
    SDK_TEST_CHECK(rocprofiler_configure_buffer_tracing_service(
        c.buffered, ROCPROFILER_BUFFER_TRACING_KERNEL_DISPATCH, nullptr, 0, c.buffer));

    c.idle = sdk_test::callback_tracing_context(ROCPROFILER_CALLBACK_TRACING_KERNEL_DISPATCH,
                                                dispatch_callback);

    sdk_test::start({c.replay, c.traced, c.buffered});
}

void
count_kernel(const rocprofiler_host_work_item_t*, void* args)
{
    static_cast<count_args*>(args)->counter->fetch_add(1);
}

void
add_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* a = static_cast<add_args*>(args);
    if(item->global_linear_id < a->n) a->a[item->global_linear_id] += a->b[item->global_linear_id];
}

void
histogram_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    auto* a = static_cast<histogram_args*>(args);
    if(item->global_linear_id >= a->n) return;
    __atomic_fetch_add(&a->hist[a->in[item->global_linear_id] % a->bins], 1u, __ATOMIC_RELAXED);
}

void
scan_kernel(const rocprofiler_host_work_item_t*, void* args)
{
    auto* a = static_cast<scan_args*>(args);
    for(uint64_t i = 1; i < a->n; ++i)
        a->a[i] += a->a[i - 1];
}

void
spawn_kernel(const rocprofiler_host_work_item_t* item, void* args)
{
    if(item->global_linear_id != 0) return;
    auto* a               = static_cast<spawn_args*>(args);
    auto  child           = count_args{a->counter};
    auto  params          = rocprofiler_host_dispatch_params_t{};
    params.size           = sizeof(params);
    params.kernel         = a->child;
    params.grid           = {1, 1, 1};
    params.workgroup_size = {1, 1, 1};
    params.args           = &child;
    params.args_size      = sizeof(child);
    rocprofiler_host_dispatch(a->queue, &params);
}

void
gate_kernel(const rocprofiler_host_work_item_t*, void* args)
{
    auto* open     = static_cast<gate_args*>(args)->open;
    auto  deadline = std::chrono::steady_clock::now() + std::chrono::seconds{5};
    while(!open->load() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
}

} // namespace

bool
behaviour::is_target(uint64_t kernel_id) const
{
    return std::find(targets.begin(), targets.end(), kernel_id) != targets.end();
}

const contexts_t&
contexts()
{
    return g_contexts;
}

behaviour&
tool()
{
    return g_behaviour;
}

void
replay_fixed(uint64_t passes)
{
    g_behaviour.pass_count = [passes](const auto&, auto) { return passes; };
}

void
continue_until(int64_t last)
{
    if(last < 0) return;
    g_behaviour.continue_fn = [last](uint64_t pass, uint64_t, auto)
    { return pass < static_cast<uint64_t>(last) ? 1 : 0; };
}

void
recorder::clear()
{
    auto lock = std::lock_guard{mutex};
    replay.clear();
    config_kernels.clear();
    pass_count.clear();
    continues.clear();
    dispatches.clear();
    buffer.clear();
    order.clear();
}

std::vector<replay_event>
recorder::replay_of(int32_t operation, int32_t phase)
{
    auto lock = std::lock_guard{mutex};
    auto out  = std::vector<replay_event>{};
    std::copy_if(replay.begin(),
                 replay.end(),
                 std::back_inserter(out),
                 [&](const auto& ev) { return ev.operation == operation && ev.phase == phase; });
    return out;
}

// Dispatch events of one context and operation.
std::vector<dispatch_event>
recorder::dispatches_of(uint64_t context, int32_t operation)
{
    auto out = std::vector<dispatch_event>{};
    {
        auto lock = std::lock_guard{mutex};
        for(const auto& ev : dispatches)
            if(ev.context == context && ev.operation == operation) out.push_back(ev);
    }
    return out;
}

recorder&
log()
{
    return *g_recorder;
}

std::vector<dispatch_event>
traced_completes()
{
    return log().dispatches_of(g_contexts.traced.handle, ROCPROFILER_KERNEL_DISPATCH_COMPLETE);
}

std::vector<buffer_event>
flushed_buffer()
{
    EXPECT_EQ(rocprofiler_flush_buffer(g_contexts.buffer), ROCPROFILER_STATUS_SUCCESS);
    auto lock = std::lock_guard{g_recorder->mutex};
    return g_recorder->buffer;
}

uint64_t
os_thread_id()
{
    return static_cast<uint64_t>(::syscall(SYS_gettid));
}

const kernels_t&
device()
{
    static const kernels_t value = []
    {
        auto k      = kernels_t{};
        k.add       = sdk_test::register_kernel("replay_add", add_kernel);
        k.histogram = sdk_test::register_kernel("replay_histogram", histogram_kernel);
        k.scan      = sdk_test::register_kernel("replay_scan", scan_kernel);
        k.count     = sdk_test::register_kernel("replay_count", count_kernel);
        k.spawn     = sdk_test::register_kernel("replay_spawn", spawn_kernel);
        k.gate      = sdk_test::register_kernel("replay_gate", gate_kernel);
        if(rocprofiler_host_create_queue(&k.queue) != ROCPROFILER_HOST_STATUS_SUCCESS) std::abort();
        if(rocprofiler_host_create_queue(&k.other) != ROCPROFILER_HOST_STATUS_SUCCESS) std::abort();
        return k;
    }();
    return value;
}

void
run_kernel(rocprofiler_host_kernel_t kernel,
           const void*               args,
           size_t                    args_size,
           uint32_t                  grid,
           uint32_t                  workgroup,
           rocprofiler_host_queue_t  queue)
{
    if(queue.handle == 0) queue = device().queue;
    auto sig = rocprofiler_host_signal_t{};
    ASSERT_EQ(rocprofiler_host_create_signal(1, &sig), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto params              = rocprofiler_host_dispatch_params_t{};
    params.size              = sizeof(params);
    params.kernel            = kernel;
    params.grid              = {grid, 1, 1};
    params.workgroup_size    = {workgroup, 1, 1};
    params.args              = args;
    params.args_size         = args_size;
    params.completion_signal = sig;
    ASSERT_EQ(rocprofiler_host_dispatch(queue, &params), ROCPROFILER_HOST_STATUS_SUCCESS);
    auto observed = int64_t{-99};
    EXPECT_EQ(rocprofiler_host_signal_wait(
                  sig, ROCPROFILER_HOST_SIGNAL_CONDITION_LT, 1, 2'000'000'000ULL, &observed),
              ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(rocprofiler_host_queue_synchronize(queue), ROCPROFILER_HOST_STATUS_SUCCESS);
    EXPECT_EQ(signal_value(sig), 0) << "the application's completion must fire exactly once";
    rocprofiler_host_destroy_signal(sig);
}

int64_t
signal_value(rocprofiler_host_signal_t sig)
{
    auto value = int64_t{-99};
    EXPECT_EQ(rocprofiler_host_signal_load(sig, &value), ROCPROFILER_HOST_STATUS_SUCCESS);
    return value;
}

add_problem
targeted_add(std::optional<uint64_t> passes)
{
    g_behaviour.targets = {device().add.handle};
    if(passes) replay_fixed(*passes);
    return add_problem{};
}

void
replay_fixture::SetUp()
{
    // Keeps the one drain-stuck test fast; drains that succeed are unaffected.
    m_drain_timeout_set = (std::getenv("ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS") == nullptr);
    if(m_drain_timeout_set)
        replay_test::set_replay_env("ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS", "100");
    g_behaviour = behaviour{};
    log().clear();
    ASSERT_EQ(sdk_test::configure_tool("kernel-replay-tests", initialize_tool),
              ROCPROFILER_STATUS_SUCCESS);
    (void)device();
}

void
replay_fixture::TearDown()
{
    EXPECT_EQ(rocprofiler_host_device_synchronize(), ROCPROFILER_HOST_STATUS_SUCCESS);
    g_behaviour = behaviour{};
    (void)flushed_buffer();
    log().clear();
    if(m_drain_timeout_set) replay_test::unset_replay_env("ROCPROFILER_REPLAY_DRAIN_TIMEOUT_MS");
}
} // namespace replay_test
