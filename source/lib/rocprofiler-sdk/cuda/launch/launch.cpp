#include "cuda/launch/launch.hpp"

#include "agent/agent.hpp"
#include "common/logging.hpp"
#include "common/thread.hpp"
#include "cuda/backend.hpp"
#include "cuda/counters/metrics.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/interpose/interposer_guard.hpp"
#include "cuda/launch/kernel_registry.hpp"
#include "cuda/launch/launch_backend.hpp"
#include "cuda/replay/allocation_tracker.hpp"
#include "cuda/timing/timing.hpp"
#include "cuda/tracing/api_callbacks.hpp"
#include "cuda/tracing/graph_kernels.hpp"
#include "cuda/tracing/memory_copies.hpp"
#include "dispatch/dispatch.hpp"
#include "dispatch/interception.hpp"
#include "registration/registration.hpp"
#include "registration/shutdown.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>

namespace rocprofiler::cuda
{
namespace
{
std::atomic<bool> initialized = false;

void
drain_at_exit()
{
    // Batched counter values first: the completions they hold then drain with the others.
    metrics::close_batches_at_exit();
    timing::drain(5ULL * 1000 * 1000 * 1000);
}

// The stream a launch really goes to: the _ptsz variants read stream 0 as the per-thread stream.
CUstream
effective_stream(CUstream stream, bool per_thread)
{
    if(stream == nullptr && per_thread) return CU_STREAM_PER_THREAD;
    return stream;
}

// The interposer a launch came through, for the exception log.
const char*
api_name(launch_api api)
{
    constexpr const char* names[] = {
        "cuLaunchKernel", "cuLaunchKernelEx", "cuLaunchCooperativeKernel"};
    return names[static_cast<size_t>(api)];
}

// cuLaunchKernelEx carries its grid, block, shared memory and stream in its configuration: copies
// them into the request's fields. False without a configuration.
bool
read_launch_config(launch_request& launch)
{
    if(launch.api != launch_api::kernel_ex) return true;
    if(launch.config == nullptr) return false;
    launch.grid[0]  = launch.config->gridDimX;
    launch.grid[1]  = launch.config->gridDimY;
    launch.grid[2]  = launch.config->gridDimZ;
    launch.block[0] = launch.config->blockDimX;
    launch.block[1] = launch.config->blockDimY;
    launch.block[2] = launch.config->blockDimZ;
    launch.shared   = launch.config->sharedMemBytes;
    launch.stream   = launch.config->hStream;
    return true;
}

// Whether the launch goes into a stream capture (and so to the driver as it is); nothing when the
// query fails (a context with a sticky error after a fault, an invalid stream: the driver reports
// the error the application expects).
std::optional<bool>
captured(const launch_request& launch, CUstream stream)
{
    auto capture = CU_STREAM_CAPTURE_STATUS_NONE;
    if(driver()->cuStreamIsCapturing(stream, &capture) != CUDA_SUCCESS) return std::nullopt;
    if(capture == CU_STREAM_CAPTURE_STATUS_NONE) return false;
    // A launch into a capture does not run now; the graph that runs it is not replayed either.
    dispatch::report_excluded_launch(lookup_kernel(launch.function).name,
                                     dispatch::decline_reason::stream_capture);
    return true;
}

// The agent of a device, when the agent list knows it.
std::optional<rocprofiler_agent_id_t>
launch_agent(CUdevice dev)
{
    static const auto agents_known = agent::id_of(get_device_backend(), 0).has_value();
    const auto        agent_id     = agent::id_of(get_device_backend(), static_cast<uint32_t>(dev));
    if(!agent_id && !agents_known)
        common::log::warn_once("cuda-no-agents",
                               "cuda: the agent list was built before the CUDA driver was "
                               "loaded (set ROCPROFILER_CUDA_AGENTS=1); launches are not "
                               "traced");
    return agent_id;
}

dispatch::launch_info
launch_info_of(const launch_request&  launch,
               const kernel_entry&    kernel,
               rocprofiler_agent_id_t agent_id,
               CUstream               stream,
               CUdevice               dev)
{
    auto info                 = dispatch::launch_info{};
    info.agent                = agent_id;
    info.queue                = rocprofiler_queue_id_t{queue_handle(stream, dev, false)};
    info.kernel_id            = kernel.id;
    info.private_segment_size = kernel.local_bytes;
    info.group_segment_size   = kernel.static_shared + launch.shared;
    info.workgroup_size       = {launch.block[0], launch.block[1], launch.block[2]};
    info.grid_size            = {launch.grid[0] * launch.block[0],
                                 launch.grid[1] * launch.block[1],
                                 launch.grid[2] * launch.block[2]};
    info.kernel_name          = kernel.name.c_str();
    return info;
}

// The SDK's handling of one launch: straight to the driver when nothing listens or the launch
// cannot be traced, else through the dispatch pipeline. Every driver call is recorded in `call`.
CUresult
route_launch(const launch_request& request, driver_call<CUresult>& call)
{
    const auto direct = [&] { return call.record(call_driver(request)); };
    if(internal_call_scope::active()) return direct();
    ensure_initialized();
    if(!dispatch::any_consumer()) return direct();

    const auto* drv     = driver();
    auto        ctx     = CUcontext{};
    auto        dev     = CUdevice{};
    const auto  current = [&]
    {
        auto scope = internal_call_scope{}; // the SDK's questions, not the application's calls
        return drv->cuCtxGetCurrent(&ctx) == CUDA_SUCCESS && ctx != nullptr &&
               drv->cuCtxGetDevice(&dev) == CUDA_SUCCESS;
    };
    if(!current()) return direct(); // the driver reports the error itself

    auto launch = request;
    if(!read_launch_config(launch)) return direct();
    const auto stream = effective_stream(launch.stream, launch.per_thread);
    if(captured(launch, stream).value_or(true)) return direct();
    const auto agent_id = launch_agent(dev);
    if(!agent_id) return direct();

    timing::initialize();
    const auto& kernel = lookup_kernel(launch.function);
    report_kernel_once(kernel, launch.function, *agent_id);

    // The pipeline may release its reference on the completion thread before intercept returns.
    auto backend   = std::make_shared<cuda_launch>(launch, kernel, ctx, dev, stream, call);
    auto info      = launch_info_of(launch, kernel, *agent_id, stream, dev);
    info.arguments = backend->arguments();
    dispatch::intercept(info, backend);
    return backend->status();
}
} // namespace

CUresult
call_driver(const launch_request& r)
{
    // cuLaunchKernel and cuLaunchCooperativeKernel take the same leading arguments.
    const auto grid_launch = [&r](auto fn, auto... extra)
    {
        return fn(r.function,
                  r.grid[0],
                  r.grid[1],
                  r.grid[2],
                  r.block[0],
                  r.block[1],
                  r.block[2],
                  r.shared,
                  r.stream,
                  r.params,
                  extra...);
    };
    switch(r.api)
    {
    case launch_api::kernel:
        return grid_launch(reinterpret_cast<decltype(&::cuLaunchKernel)>(r.real), r.extra);
    case launch_api::cooperative:
        return grid_launch(reinterpret_cast<decltype(&::cuLaunchCooperativeKernel)>(r.real));
    case launch_api::kernel_ex:
        return reinterpret_cast<decltype(&::cuLaunchKernelEx)>(r.real)(
            r.config, r.function, r.params, r.extra);
    }
    return CUDA_ERROR_INVALID_VALUE;
}

uint64_t
queue_handle(CUstream stream, int device, bool per_thread_default)
{
    return queue_handle(stream, device, per_thread_default, common::thread_id());
}

uint64_t
queue_handle(CUstream stream, int device, bool per_thread_default, uint64_t thread_id)
{
    // Real streams are heap addresses; the default streams get small values that no address has:
    // legacy stream of device d: 0x10 + d; per-thread stream of thread t on device d:
    // (t << 8) | 0x80 | d.
    const auto dev = static_cast<uint64_t>(device) & 0x7f;
    if(stream == CU_STREAM_PER_THREAD || (stream == nullptr && per_thread_default))
        return (thread_id << 8) | 0x80 | dev;
    if(stream == nullptr || stream == CU_STREAM_LEGACY) return 0x10 + dev;
    return reinterpret_cast<uint64_t>(stream);
}

void
ensure_initialized()
{
    if(initialized.load(std::memory_order_acquire)) return;
    static std::once_flag once;
    std::call_once(once,
                   []
                   {
                       dispatch::on_interception_installed([] { enable_allocation_tracking(); });
                       registration::add_shutdown_hook(drain_at_exit);
                   });
    registration::initialize();
    // CUPTI starts here, at the application's first allocation or launch, rather than inside its
    // first traced launch: its start-up must not delay that kernel.
    if(dispatch::any_consumer()) timing::initialize();
    memory_copies::start(); // before the application's first copy: its inputs follow allocations
    graph_kernels::start(); // before the application's first graph launch
    api_callbacks::start();
    initialized.store(true, std::memory_order_release);
}

CUresult
handle_launch(const launch_request& request) noexcept
{
    if(request.real == nullptr) return CUDA_ERROR_NOT_INITIALIZED; // the driver lacks the function
    auto api_call = api_callbacks::launch_call{request};
    return api_call.returned(guarded_interposer<CUresult>(
        api_name(request.api),
        [&](driver_call<CUresult>& call) { return route_launch(request, call); },
        [&] { return call_driver(request); }));
}
} // namespace rocprofiler::cuda
