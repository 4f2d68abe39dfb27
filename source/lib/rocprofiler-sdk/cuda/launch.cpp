#include "cuda/launch.hpp"

#include "agent/agent.hpp"
#include "code_object/code_object.hpp"
#include "common/logging.hpp"
#include "common/thread.hpp"
#include "cuda/allocation_tracker.hpp"
#include "cuda/driver.hpp"
#include "cuda/memory.hpp"
#include "cuda/metrics.hpp"
#include "cuda/timing.hpp"
#include "dispatch/dispatch.hpp"
#include "kernel_replay/engine.hpp"
#include "registration/registration.hpp"
#include "registration/shutdown.hpp"

#include <cxxabi.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocprofiler::cuda
{
namespace
{
// What the adapter knows of one kernel handle (a CUfunction, or a CUkernel the runtime passes in
// its place). Entries live for the process: handles of unloaded modules keep their id.
struct kernel_entry
{
    uint64_t                               id            = 0;
    std::string                            name          = {};
    CUfunction                             function      = nullptr; // resolved CUfunction
    uint32_t                               local_bytes   = 0;       // per thread
    uint32_t                               static_shared = 0;       // per block
    uint32_t                               registers     = 0;       // per thread
    void*                                  module        = nullptr; // CUmodule or CUlibrary
    bool                                   params_known  = false;
    std::vector<std::pair<size_t, size_t>> params        = {}; // offset, size
    size_t                                 args_size     = 0;
    mutable bool                           reported      = false; // to CODE_OBJECT tracing
};

struct kernel_registry
{
    std::shared_mutex                        mutex     = {};
    std::unordered_map<void*, kernel_entry*> by_handle = {};
    std::deque<kernel_entry*>                by_id     = {}; // id - 1
};

kernel_registry&
get_registry()
{
    static auto* value = new kernel_registry{}; // never destroyed: names are read at exit
    return *value;
}

std::string
demangle(const char* name)
{
    if(name == nullptr) return "<unknown>";
    int   status    = 0;
    char* demangled = abi::__cxa_demangle(name, nullptr, nullptr, &status);
    auto  result    = std::string{(status == 0 && demangled != nullptr) ? demangled : name};
    std::free(demangled);
    return result;
}

// Resolves a kernel handle; called outside the registry's lock.
kernel_entry
resolve(CUfunction handle)
{
    const auto* drv   = driver();
    auto        scope = internal_call_scope{};
    auto        entry = kernel_entry{};
    entry.function    = handle;
    const char* raw   = nullptr;
    if(drv->cuFuncGetName(&raw, handle) != CUDA_SUCCESS)
    {
        auto function = CUfunction{};
        if(drv->cuKernelGetFunction != nullptr &&
           drv->cuKernelGetFunction(&function, reinterpret_cast<CUkernel>(handle)) == CUDA_SUCCESS)
        {
            entry.function = function;
            drv->cuFuncGetName(&raw, function);
        }
    }
    entry.name   = demangle(raw);
    auto module  = CUmodule{};
    auto library = CUlibrary{};
    if(entry.function != handle && drv->cuKernelGetLibrary != nullptr &&
       drv->cuKernelGetLibrary(&library, reinterpret_cast<CUkernel>(handle)) == CUDA_SUCCESS)
        entry.module = library;
    else if(drv->cuFuncGetModule != nullptr &&
            drv->cuFuncGetModule(&module, entry.function) == CUDA_SUCCESS)
        entry.module = module;
    auto value = 0;
    if(drv->cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_NUM_REGS, entry.function) == CUDA_SUCCESS)
        entry.registers = static_cast<uint32_t>(value);
    if(drv->cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, entry.function) ==
       CUDA_SUCCESS)
        entry.local_bytes = static_cast<uint32_t>(value);
    if(drv->cuFuncGetAttribute(&value, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, entry.function) ==
       CUDA_SUCCESS)
        entry.static_shared = static_cast<uint32_t>(value);
    if(drv->cuFuncGetParamInfo != nullptr)
    {
        for(size_t index = 0; index < 4096; ++index)
        {
            auto offset = size_t{0};
            auto size   = size_t{0};
            auto result = drv->cuFuncGetParamInfo(entry.function, index, &offset, &size);
            if(result == CUDA_ERROR_INVALID_VALUE)
            {
                entry.params_known = true; // past the last parameter
                break;
            }
            if(result != CUDA_SUCCESS) break; // layout unknown
            entry.params.emplace_back(offset, size);
            entry.args_size = std::max(entry.args_size, offset + size);
        }
    }
    return entry;
}

// A code object id per CUmodule/CUlibrary, from a range of its own (1 << 40 up) so that it never
// meets the ids the SDK gives kernels reported without one.
uint64_t
code_object_id_of(void* module)
{
    if(module == nullptr) return 0;
    static auto* ids   = new std::unordered_map<void*, uint64_t>{};
    static auto* lock  = new std::mutex{};
    auto         guard = std::lock_guard{*lock};
    auto [itr, added]  = ids->emplace(module, 0);
    if(added) itr->second = (uint64_t{1} << 40) + ids->size();
    return itr->second;
}

// CODE_OBJECT tracing learns the kernel here, before its first dispatch record.
void
report_kernel(const kernel_entry& entry, CUfunction handle, rocprofiler_agent_id_t agent)
{
    auto symbol           = code_object::kernel_symbol{};
    symbol.kernel_id      = entry.id;
    symbol.agent          = agent;
    symbol.name           = entry.name;
    symbol.code_object_id = code_object_id_of(entry.module);
    char uri[64]          = {};
    std::snprintf(uri, sizeof(uri), "cuda://module/%p", entry.module);
    symbol.uri                  = uri;
    symbol.kernel_object        = reinterpret_cast<uint64_t>(handle);
    symbol.kernarg_size         = static_cast<uint32_t>(entry.args_size);
    symbol.group_segment_size   = entry.static_shared;
    symbol.private_segment_size = entry.local_bytes;
    symbol.registers            = entry.registers;
    code_object::register_kernel(std::move(symbol));
}

const kernel_entry&
lookup_kernel(CUfunction handle)
{
    auto& reg = get_registry();
    {
        auto lock = std::shared_lock{reg.mutex};
        if(auto itr = reg.by_handle.find(handle); itr != reg.by_handle.end()) return *itr->second;
    }
    auto resolved = resolve(handle);
    auto lock     = std::unique_lock{reg.mutex};
    if(auto itr = reg.by_handle.find(handle); itr != reg.by_handle.end()) return *itr->second;
    auto* entry = new kernel_entry{std::move(resolved)};
    entry->id   = reg.by_id.size() + 1;
    reg.by_id.push_back(entry);
    reg.by_handle.emplace(handle, entry);
    return *entry;
}

bool
is_collective(std::string_view name)
{
    return name.starts_with("ncclKernel") || name.starts_with("ncclDevKernel");
}

// The stream a launch really goes to: the _ptsz variants read stream 0 as the per-thread stream.
CUstream
effective_stream(CUstream stream, bool per_thread)
{
    if(stream == nullptr && per_thread) return CU_STREAM_PER_THREAD;
    return stream;
}

// One intercepted launch as the pipeline sees it. The arguments are copies, so that every pass
// launches the same kernel with the same bytes.
class cuda_launch final : public dispatch::launch_backend
{
public:
    cuda_launch(const launch_request& request,
                const kernel_entry&   kernel,
                CUcontext             ctx,
                int                   device,
                CUstream              stream)
        : m_request{request}
        , m_ctx{ctx}
        , m_device{device}
        , m_stream{stream}
        , m_memory{ctx, device, &m_args}
    {
        if(m_request.config != nullptr)
        {
            m_config = *m_request.config;
            if(m_config.attrs != nullptr && m_config.numAttrs > 0)
                m_attrs.assign(m_config.attrs, m_config.attrs + m_config.numAttrs);
            m_config.attrs   = m_attrs.empty() ? nullptr : m_attrs.data();
            m_request.config = &m_config;
        }
        copy_arguments(kernel);
        if(is_collective(kernel.name)) m_exclusion = "collective_kernel";
        // Snapshot and restore copies go on the launch's own stream, so that stream order puts
        // every pass after its restore without a wait on the host.
        m_memory.set_launch_stream(stream);
    }

    void enqueue(dispatch::completion_fn on_complete) override
    {
        launch(std::move(on_complete), nullptr);
    }

    // Counted executions run under CUPTI's range profiler (cuda/metrics.hpp) and are waited for.
    void enqueue_counted(dispatch::completion_fn                            on_complete,
                         std::shared_ptr<const dispatch::execution_request> request) override
    {
        launch(std::move(on_complete), request.get());
    }

    std::vector<dispatch::deferred_counters> finish_counting() override
    {
        return metrics::finish(m_counting);
    }

    // The application's completion is the stream's order: everything it enqueues after this
    // launch runs after the last execution, which the replay loop waits for before returning.
    void signal_application(const dispatch::execution_result&) override {}

    std::optional<std::string_view> replay_exclusion() const override { return m_exclusion; }

    dispatch::memory_backend* memory() override { return &m_memory; }

    // What the application's launch call returns: the first failing driver result, if any.
    CUresult status() const { return m_status; }

private:
    void launch(dispatch::completion_fn on_complete, const dispatch::execution_request* request)
    {
        auto marks    = timing::execution_marks{m_ctx, m_stream};
        auto result   = CUDA_SUCCESS;
        auto measured = metrics::measurement{};
        auto run      = [this]
        {
            auto scope = internal_call_scope{};
            return call_driver(m_request);
        };
        if(request != nullptr)
            result =
                metrics::measure(m_ctx, m_device, m_stream, *request, run, m_counting, measured);
        else
            result = run();
        if(request != nullptr)
            on_complete = [measured = std::move(measured),
                           next     = std::move(on_complete)](const dispatch::execution_result& r)
            {
                auto copy              = r;
                copy.counters          = measured.values;
                copy.counters_error    = measured.error;
                copy.counters_deferred = measured.deferred;
                copy.resolved          = measured.resolved;
                next(copy);
            };
        if(m_status == CUDA_SUCCESS) m_status = result;
        if(result != CUDA_SUCCESS)
        {
            auto failed  = dispatch::execution_result{};
            failed.ok    = false;
            failed.error = error_name(result);
            on_complete(failed);
            return;
        }
        // Inside a replay window (a snapshot is held) every execution is a pass: it is waited
        // for on this thread, which waits for it anyway.
        if(m_memory.in_window())
            marks.complete_pass(std::move(on_complete));
        else
            marks.complete_after_kernel(std::move(on_complete));
    }

    void copy_arguments(const kernel_entry& kernel)
    {
        if(m_request.params != nullptr && kernel.params_known)
        {
            m_args.resize(kernel.args_size);
            m_param_ptrs.resize(kernel.params.size());
            for(size_t i = 0; i < kernel.params.size(); ++i)
            {
                const auto [offset, size] = kernel.params[i];
                std::memcpy(m_args.data() + offset, m_request.params[i], size);
                m_param_ptrs[i] = m_args.data() + offset;
            }
            m_request.params = m_param_ptrs.empty() ? nullptr : m_param_ptrs.data();
            return;
        }
        if(m_request.params == nullptr && m_request.extra != nullptr)
        {
            const void* buffer = nullptr;
            auto        others = std::vector<void*>{};
            for(size_t i = 0; m_request.extra[i] != CU_LAUNCH_PARAM_END; i += 2)
            {
                if(m_request.extra[i] == CU_LAUNCH_PARAM_BUFFER_POINTER)
                    buffer = m_request.extra[i + 1];
                else if(m_request.extra[i] == CU_LAUNCH_PARAM_BUFFER_SIZE)
                    m_buffer_size = *static_cast<const size_t*>(m_request.extra[i + 1]);
                else
                {
                    others.push_back(m_request.extra[i]);
                    others.push_back(m_request.extra[i + 1]);
                }
            }
            if(buffer != nullptr)
            {
                const auto* bytes = static_cast<const std::byte*>(buffer);
                m_args.assign(bytes, bytes + m_buffer_size);
            }
            m_extra = {CU_LAUNCH_PARAM_BUFFER_POINTER,
                       m_args.empty() ? nullptr : m_args.data(),
                       CU_LAUNCH_PARAM_BUFFER_SIZE,
                       &m_buffer_size};
            m_extra.insert(m_extra.end(), others.begin(), others.end());
            m_extra.push_back(CU_LAUNCH_PARAM_END);
            m_request.extra = m_extra.data();
            return;
        }
        // Layout unknown: every pass runs inside the application's launch call, so its pointers
        // stay valid; the arguments cannot be checked for host memory, though.
        if(m_request.params != nullptr)
            common::log::warn_once("cuda-params-unknown",
                                   "cuda: kernel parameter layout unknown (cuFuncGetParamInfo); "
                                   "replay passes reuse the application's parameter pointers");
    }

    launch_request                  m_request     = {};
    CUcontext                       m_ctx         = nullptr;
    int                             m_device      = 0;
    CUstream                        m_stream      = nullptr;
    CUlaunchConfig                  m_config      = {};
    std::vector<CUlaunchAttribute>  m_attrs       = {};
    std::vector<std::byte>          m_args        = {};
    std::vector<void*>              m_param_ptrs  = {};
    std::vector<void*>              m_extra       = {};
    size_t                          m_buffer_size = 0;
    CUresult                        m_status      = CUDA_SUCCESS;
    std::optional<std::string_view> m_exclusion   = std::nullopt;
    launch_memory                   m_memory;
    metrics::dispatch_counting      m_counting;
};

std::atomic<bool> initialized = false;

void
drain_at_exit()
{
    timing::drain(5ULL * 1000 * 1000 * 1000);
}
} // namespace

CUresult
call_driver(const launch_request& r)
{
    switch(r.api)
    {
    case launch_api::kernel:
        return reinterpret_cast<decltype(&::cuLaunchKernel)>(r.real)(r.function,
                                                                     r.grid[0],
                                                                     r.grid[1],
                                                                     r.grid[2],
                                                                     r.block[0],
                                                                     r.block[1],
                                                                     r.block[2],
                                                                     r.shared,
                                                                     r.stream,
                                                                     r.params,
                                                                     r.extra);
    case launch_api::cooperative:
        return reinterpret_cast<decltype(&::cuLaunchCooperativeKernel)>(r.real)(r.function,
                                                                                r.grid[0],
                                                                                r.grid[1],
                                                                                r.grid[2],
                                                                                r.block[0],
                                                                                r.block[1],
                                                                                r.block[2],
                                                                                r.shared,
                                                                                r.stream,
                                                                                r.params);
    case launch_api::kernel_ex:
        return reinterpret_cast<decltype(&::cuLaunchKernelEx)>(r.real)(
            r.config, r.function, r.params, r.extra);
    }
    return CUDA_ERROR_INVALID_VALUE;
}

uint64_t
queue_handle(CUstream stream, int device, bool per_thread_default)
{
    // Real streams are heap addresses; the default streams get small values that no address has:
    // legacy stream of device d: 0x10 + d; per-thread stream of thread t on device d:
    // (t << 8) | 0x80 | d.
    const auto dev = static_cast<uint64_t>(device) & 0x7f;
    if(stream == CU_STREAM_PER_THREAD || (stream == nullptr && per_thread_default))
        return (common::thread_id() << 8) | 0x80 | dev;
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
                       kernel_replay::on_tracking_enabled([] { enable_allocation_tracking(); });
                       registration::add_shutdown_hook(drain_at_exit);
                   });
    registration::initialize();
    // CUPTI starts here, at the application's first allocation or launch, rather than inside its
    // first traced launch: its start-up must not delay that kernel.
    if(dispatch::any_consumer()) timing::initialize();
    initialized.store(true, std::memory_order_release);
}

CUresult
handle_launch(const launch_request& request)
{
    if(internal_call_scope::active()) return call_driver(request);
    ensure_initialized();
    if(!dispatch::any_consumer()) return call_driver(request);

    const auto* drv = driver();
    auto        ctx = CUcontext{};
    auto        dev = CUdevice{};
    if(drv->cuCtxGetCurrent(&ctx) != CUDA_SUCCESS || ctx == nullptr ||
       drv->cuCtxGetDevice(&dev) != CUDA_SUCCESS)
        return call_driver(request); // the driver reports the error itself

    auto launch = request;
    if(launch.api == launch_api::kernel_ex)
    {
        if(launch.config == nullptr) return call_driver(request);
        launch.grid[0]  = launch.config->gridDimX;
        launch.grid[1]  = launch.config->gridDimY;
        launch.grid[2]  = launch.config->gridDimZ;
        launch.block[0] = launch.config->blockDimX;
        launch.block[1] = launch.config->blockDimY;
        launch.block[2] = launch.config->blockDimZ;
        launch.shared   = launch.config->sharedMemBytes;
        launch.stream   = launch.config->hStream;
    }
    const auto stream = effective_stream(launch.stream, launch.per_thread);

    // A launch into a capture does not run now; the graph that runs it is not replayed either.
    auto capture = CU_STREAM_CAPTURE_STATUS_NONE;
    // A failing query (a context with a sticky error after a fault, an invalid stream): the
    // launch goes to the driver as it is, which reports the error the application expects.
    if(drv->cuStreamIsCapturing(stream, &capture) != CUDA_SUCCESS) return call_driver(request);
    if(capture != CU_STREAM_CAPTURE_STATUS_NONE)
    {
        if(kernel_replay::is_configured())
            common::log::warn_once(
                "kernel-replay:stream_capture",
                "[kernel-replay] dispatch_id=0 kernel=" + lookup_kernel(launch.function).name +
                    " passes=1 outcome=declined reason=stream_capture (a "
                    "captured launch runs in a graph launch, which is not "
                    "traced or replayed)");
        return call_driver(request);
    }

    static const auto agents_known = agent::id_of(agent::backend::cuda, 0).has_value();
    const auto        agent_id     = agent::id_of(agent::backend::cuda, static_cast<uint32_t>(dev));
    if(!agent_id)
    {
        if(!agents_known)
            common::log::warn_once("cuda-no-agents",
                                   "cuda: the agent list was built before the CUDA driver was "
                                   "loaded (set ROCPROFILER_CUDA_AGENTS=1); launches are not "
                                   "traced");
        return call_driver(request);
    }

    timing::initialize();
    const auto& kernel = lookup_kernel(launch.function);
    {
        static auto* report_mutex = new std::mutex{};
        auto         guard        = std::lock_guard{*report_mutex};
        if(!kernel.reported)
        {
            report_kernel(kernel, launch.function, *agent_id);
            kernel.reported = true;
        }
    }

    auto info                 = dispatch::launch_info{};
    info.agent                = *agent_id;
    info.queue                = rocprofiler_queue_id_t{queue_handle(stream, dev, false)};
    info.kernel_id            = kernel.id;
    info.private_segment_size = kernel.local_bytes;
    info.group_segment_size   = kernel.static_shared + launch.shared;
    info.workgroup_size       = {launch.block[0], launch.block[1], launch.block[2]};
    info.grid_size            = {launch.grid[0] * launch.block[0],
                                 launch.grid[1] * launch.block[1],
                                 launch.grid[2] * launch.block[2]};
    info.kernel_name          = kernel.name.c_str();

    // The pipeline may release its reference on the completion thread before intercept returns.
    auto backend = std::make_shared<cuda_launch>(launch, kernel, ctx, dev, stream);
    dispatch::intercept(info, backend);
    return backend->status();
}
} // namespace rocprofiler::cuda
