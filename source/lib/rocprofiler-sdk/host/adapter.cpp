#include "host/adapter.hpp"

#include "agent/agent.hpp"
#include "code_object/code_object.hpp"
#include "common/environment.hpp"
#include "common/fork.hpp"
#include "common/logging.hpp"
#include "common/thread.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/interception.hpp"
#include "host/backend.hpp"
#include "host/counters.hpp"
#include "host/memory.hpp"
#include "host/pc_sampling.hpp"
#include "host/runtime/runtime.hpp"
#include "host/settings.hpp"
#include "host/spm.hpp"
#include "memory_copy/memory_copy.hpp"
#include "registration/registration.hpp"
#include "registration/shutdown.hpp"

#include <pthread.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <memory>
#include <string>

namespace rocprofiler::host
{
namespace
{
std::atomic<device*> attached_device = nullptr;

dispatch::execution_result
convert(const execution_result& result)
{
    auto out     = dispatch::execution_result{};
    out.start_ns = result.start_ns;
    out.end_ns   = result.end_ns;
    out.ok       = (result.status == ROCPROFILER_HOST_STATUS_SUCCESS);
    out.error    = result.error;
    if(!out.ok && out.error.empty()) out.error = rocprofiler_host_status_string(result.status);
    return out;
}

// The hooks of an execution that counts, samples PCs or samples counters over time, in any
// combination. Sampling runs inside counting, so that the counters' own reads are not sampled (the
// signal handler's cost is still counted).
class combined_hooks final : public execution_hooks
{
public:
    combined_hooks(std::shared_ptr<execution_hooks> counting,
                   std::shared_ptr<execution_hooks> sampling,
                   std::shared_ptr<execution_hooks> spm)
        : m_counting{std::move(counting)}
        , m_sampling{std::move(sampling)}
        , m_spm{std::move(spm)}
    {
    }

    void on_worker_begin(uint32_t worker_index) override
    {
        if(m_counting) m_counting->on_worker_begin(worker_index);
        if(m_spm) m_spm->on_worker_begin(worker_index);
        if(m_sampling) m_sampling->on_worker_begin(worker_index);
    }

    void on_worker_end(uint32_t worker_index) override
    {
        if(m_sampling) m_sampling->on_worker_end(worker_index);
        if(m_spm) m_spm->on_worker_end(worker_index);
        if(m_counting) m_counting->on_worker_end(worker_index);
    }

private:
    std::shared_ptr<execution_hooks> m_counting;
    std::shared_ptr<execution_hooks> m_sampling;
    std::shared_ptr<execution_hooks> m_spm;
};

// One logical dispatch of the host device, as the pipeline sees it.
class host_launch final : public dispatch::launch_backend
{
public:
    host_launch(device& dev, packet pkt)
        : m_device{dev}
        , m_packet{std::move(pkt)}
    {
    }

    void report_enqueue_failure(rocprofiler_host_status_t      status,
                                const dispatch::completion_fn& on_complete)
    {
        auto failed  = dispatch::execution_result{};
        failed.ok    = false;
        failed.error = rocprofiler_host_status_string(status);
        ROCP_LOG(error) << "host device: could not enqueue kernel '" << m_packet.kernel->name
                        << "': " << failed.error;
        on_complete(failed);
    }

    void enqueue(dispatch::completion_fn                            on_complete,
                 std::shared_ptr<const dispatch::execution_request> request) override
    {
        if(request->counters.empty() && !request->pc_sampling && !request->spm)
        {
            auto status = m_device.enqueue(m_packet.queue,
                                           m_packet,
                                           [on_complete](const execution_result& result)
                                           { on_complete(convert(result)); });
            if(status != ROCPROFILER_HOST_STATUS_SUCCESS)
                report_enqueue_failure(status, on_complete);
            return;
        }
        auto sampler = std::shared_ptr<pc_sampling_session>{};
        if(request->pc_sampling)
            sampler = std::make_shared<pc_sampling_session>(
                request->pc_sampling, *m_packet.kernel, m_device.worker_count());
        auto spm = std::shared_ptr<spm_session>{};
        if(request->spm) spm = std::make_shared<spm_session>(request->spm, m_device.worker_count());
        auto session = std::shared_ptr<counter_session>{};
        if(!request->counters.empty())
            session = std::make_shared<counter_session>(request, m_device.worker_count());
        auto hooks =
            std::make_shared<combined_hooks>(session ? session->hooks() : nullptr, sampler, spm);
        auto pkt    = m_packet;
        auto status = m_device.enqueue(
            m_packet.queue,
            m_packet,
            [on_complete, session, sampler, spm, pkt](const execution_result& result)
            {
                // Samples reach the tool before the execution's completion records.
                if(sampler) sampler->finish();
                if(spm) spm->finish();
                auto out = convert(result);
                if(out.ok && session) out.counters = session->finish(pkt, result);
                on_complete(out);
            },
            hooks);
        if(status != ROCPROFILER_HOST_STATUS_SUCCESS)
        {
            if(sampler) sampler->finish();
            if(spm) spm->finish();
            report_enqueue_failure(status, on_complete);
        }
    }

    void signal_application(const dispatch::execution_result&) override
    {
        device::signal_completion(m_packet);
    }

    dispatch::memory_backend* memory() override { return &host_memory(m_device); }

    // A dispatch made from inside a kernel or a completion callback runs on a device thread,
    // where waiting for a pass would wait for ourselves.
    std::optional<dispatch::decline_reason> replay_exclusion() const override
    {
        if(m_device.is_device_thread()) return dispatch::decline_reason::reentrant_dispatch;
        return std::nullopt;
    }

    // The argument bytes the pipeline's launch_info points at; they live as long as this object.
    dispatch::kernel_arguments arguments() const
    {
        return {m_packet.args.data(), m_packet.args.size()};
    }

private:
    device& m_device;
    packet  m_packet;
};

rocprofiler_host_status_t
intercept(device& dev, const packet& pkt)
{
    // Fast path: nobody is listening, the dispatch goes straight into its queue.
    if(!dispatch::any_consumer()) return dev.enqueue(pkt.queue, pkt);

    static const auto agent_id = agent::id_of(get_device_backend(), 0);
    auto              info     = dispatch::launch_info{};
    info.agent                 = agent_id.value_or(rocprofiler_agent_id_t{0});
    info.queue                 = rocprofiler_queue_id_t{pkt.queue.handle};
    info.kernel_id             = pkt.kernel->id;
    info.private_segment_size  = pkt.kernel->private_segment_size;
    info.group_segment_size    = pkt.group_segment_size();
    info.workgroup_size        = {pkt.workgroup_size.x, pkt.workgroup_size.y, pkt.workgroup_size.z};
    info.grid_size             = {pkt.grid.x * pkt.workgroup_size.x,
                                  pkt.grid.y * pkt.workgroup_size.y,
                                  pkt.grid.z * pkt.workgroup_size.z};
    info.kernel_name           = pkt.kernel->name.c_str(); // kernels are never unregistered
    auto launch                = std::make_shared<host_launch>(dev, pkt);
    info.arguments             = launch->arguments();
    dispatch::intercept(info, std::move(launch));
    return ROCPROFILER_HOST_STATUS_SUCCESS;
}

// Every registered kernel is its own code object, so that tools learn kernel names the way
// they do on other devices (CODE_OBJECT tracing).
void
report_kernel(const kernel_info& kernel)
{
    static const auto agent_id  = agent::id_of(get_device_backend(), 0);
    auto              symbol    = code_object::kernel_symbol{};
    symbol.kernel_id            = kernel.id;
    symbol.agent                = agent_id.value_or(rocprofiler_agent_id_t{0});
    symbol.name                 = kernel.name;
    symbol.uri                  = "host://" + kernel.name;
    symbol.kernel_object        = reinterpret_cast<uint64_t>(kernel.function);
    symbol.group_segment_size   = kernel.group_segment_size;
    symbol.private_segment_size = kernel.private_segment_size;
    code_object::register_kernel(std::move(symbol));
}

// A finished rocprofiler_host_memcpy, for memory copy tracing.
void
report_copy(const copy_event& event)
{
    static const auto agent_id = agent::id_of(get_device_backend(), 0);
    const auto        device   = agent_id.value_or(rocprofiler_agent_id_t{0});
    auto              c        = memory_copy::copy{};
    c.direction                = memory_copy::direction_of(event.dst_device, event.src_device);
    c.dst_agent                = event.dst_device ? device : rocprofiler_agent_id_t{0};
    c.src_agent                = event.src_device ? device : rocprofiler_agent_id_t{0};
    c.bytes                    = event.bytes;
    c.dst_address              = reinterpret_cast<uint64_t>(event.dst);
    c.src_address              = reinterpret_cast<uint64_t>(event.src);
    c.start_ns                 = event.start_ns;
    c.end_ns                   = event.end_ns;
    c.thread_id                = common::thread_id();
    memory_copy::report(c);
}

// At finalization: let queued work finish so its completion records reach the tools, for at most
// ROCPROFILER_HOST_SHUTDOWN_TIMEOUT_MS. The message says what happened: a device thread (exit()
// from a kernel or a completion callback) cannot wait for the device's work at all, which is not
// a timeout.
void
drain_at_exit()
{
    auto* dev = attached_device.load();
    if(dev == nullptr) return;
    if(dev->is_device_thread())
    {
        ROCP_LOG(warning) << "host device: exit() was called on a host-device thread (from a "
                             "kernel or a completion callback), which cannot wait for the "
                             "device's work; records of work still in flight may be missing";
        return;
    }
    const auto timeout_ms = common::env::get(settings::shutdown_timeout_ms);
    const auto start      = std::chrono::steady_clock::now();
    if(!dev->drain(timeout_ms * 1000 * 1000))
    {
        const auto waited = std::chrono::duration_cast<std::chrono::milliseconds>(
            std::chrono::steady_clock::now() - start);
        ROCP_LOG(warning) << "host device: work still in flight at exit after waiting "
                          << waited.count()
                          << " ms (ROCPROFILER_HOST_SHUTDOWN_TIMEOUT_MS=" << timeout_ms
                          << "); its records may be missing";
    }
}
// In a child forked without exec, profiling is off (common/fork.hpp): the device keeps working
// (the runtime restarts its threads there), its dispatches and copies bypass the SDK, and the
// first dispatch says so once.
void
detach_in_forked_child()
{
    auto* dev = attached_device.load();
    if(dev == nullptr) return;
    // A process whose dispatches nobody traced, counted or replayed loses nothing: no warning.
    const bool profiled = dispatch::any_consumer();
    dev->set_dispatch_interceptor(
        [dev, profiled](const packet& pkt)
        {
            if(profiled)
                common::log::warn_once(
                    "host-forked-child",
                    "host device: process " + std::to_string(getpid()) +
                        " was forked without exec from process " +
                        std::to_string(common::profiled_process()) +
                        ": profiling is off in it; its kernels run unprofiled and appear in no "
                        "output");
            return dev->enqueue(pkt.queue, pkt);
        });
    dev->set_copy_observer({});
    dev->set_kernel_observer({}, /*report_existing=*/false);
    dev->set_allocation_observer({}, /*report_live_allocations=*/false);
}
} // namespace

void
attach_profiler(device& dev)
{
    if(attached_device.load(std::memory_order_acquire) == nullptr)
    {
        device* expected = nullptr;
        if(attached_device.compare_exchange_strong(expected, &dev))
        {
            dev.set_dispatch_interceptor([&dev](const packet& pkt) { return intercept(dev, pkt); });
            dispatch::on_interception_installed([&dev] { enable_allocation_tracking(dev); });
            dev.set_kernel_observer(report_kernel, /*report_existing=*/true);
            dev.set_copy_observer(report_copy);
            registration::add_shutdown_hook(drain_at_exit);
            // After the device's own fork handler (registered when it was created), which
            // restarts its threads in the child.
            pthread_atfork(nullptr, nullptr, detach_in_forked_child);
        }
    }
    registration::initialize();
}

namespace
{
// At library load, before the application (or a tool loaded after this library) can reach
// get_device(): the runtime attaches the profiler on its first use through this hook.
[[gnu::constructor]] void
install_first_use_hook()
{
    set_first_use_hook(attach_profiler);
}
} // namespace
} // namespace rocprofiler::host

// Nothing references this file from the runtime any more, so a static link (the tests' archive)
// would leave it out, and with it the hook: the archive's users name this symbol as undefined
// (-u, source/lib/rocprofiler-sdk/CMakeLists.txt) to keep it in.
extern "C" const int rocprofiler_host_adapter_link_anchor = 0;
