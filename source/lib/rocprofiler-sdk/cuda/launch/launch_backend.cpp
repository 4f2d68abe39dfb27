#include "cuda/launch/launch_backend.hpp"

#include "common/logging.hpp"
#include "common/time.hpp"
#include "cuda/interpose/driver.hpp"
#include "cuda/sampling/pc_sampling_session.hpp"
#include "cuda/sampling/pm_sampling_offer.hpp"
#include "cuda/timing/timing.hpp"

#include <cstring>
#include <string>
#include <string_view>
#include <utility>

namespace rocprofiler::cuda
{
namespace
{
bool
is_collective(std::string_view name)
{
    return name.starts_with("ncclKernel") || name.starts_with("ncclDevKernel");
}
} // namespace

cuda_launch::cuda_launch(const launch_request&  request,
                         const kernel_entry&    kernel,
                         CUcontext              ctx,
                         int                    device,
                         CUstream               stream,
                         driver_call<CUresult>& call)
    : m_request{request}
    , m_ctx{ctx}
    , m_device{device}
    , m_stream{stream}
    , m_call{call}
    , m_memory{ctx, device}
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
    if(is_collective(kernel.name)) m_exclusion = dispatch::decline_reason::collective_kernel;
    // Snapshot and restore copies go on the launch's own stream, so that stream order puts
    // every pass after its restore without a wait on the host.
    m_memory.set_launch_stream(stream);
}

void
cuda_launch::enqueue(dispatch::completion_fn                            on_complete,
                     std::shared_ptr<const dispatch::execution_request> request)
{
    launch(std::move(on_complete), *request);
}

std::vector<dispatch::deferred_counters>
cuda_launch::finish_counting()
{
    return metrics::finish(m_counting);
}

void
cuda_launch::launch(dispatch::completion_fn on_complete, const dispatch::execution_request& request)
{
    auto marks    = timing::execution_marks{m_ctx, m_stream};
    auto result   = CUDA_SUCCESS;
    auto measured = metrics::measurement{};
    auto run      = [this]
    {
        auto scope = internal_call_scope{};
        return call_driver(m_request);
    };
    const auto counted = !request.counters.empty();
    // CUPTI's samplers do not run beside the range profiler: a batch open here ends first, and the
    // range profiler is disabled until the next counted execution.
    if(!counted && (request.pc_sampling || request.spm)) metrics::release_for_sampling(m_ctx);
    if(counted)
        result = metrics::measure(m_ctx, m_device, m_stream, request, run, m_counting, measured);
    else if(request.pc_sampling)
        result = run_sampled(*request.pc_sampling, run);
    else if(request.spm)
        result = static_cast<CUresult>(pm_sampling::sample_execution(
            static_cast<uint32_t>(m_device),
            *request.spm,
            [&run] { return static_cast<int>(run()); },
            [this]
            {
                auto scope = internal_call_scope{};
                if(const auto* drv = driver(); drv != nullptr) drv->cuStreamSynchronize(m_stream);
            }));
    else
        result = run();
    // CUPTI runs one of its profiling and sampling APIs at a time: SPM is declined in an
    // execution that counts or is PC-sampled, with the reason.
    if((counted || request.pc_sampling) && request.spm && request.spm->deliver)
    {
        auto declined  = dispatch::spm_sample_batch{};
        declined.error = "SPM is not taken in executions that count or are PC-sampled (CUPTI runs "
                         "one of its profiling and sampling APIs at a time)";
        request.spm->deliver(declined);
    }
    // CUPTI's PC sampling and its range profiler do not run together: a counted execution of an
    // agent that is sampled has its samples declined with the reason.
    if(counted && request.pc_sampling && request.pc_sampling->deliver)
    {
        auto declined  = dispatch::pc_sample_batch{};
        declined.error = "PC sampling is not taken in executions that count (CUPTI runs one of "
                         "its PC sampling and profiling APIs at a time)";
        request.pc_sampling->deliver(declined);
    }
    if(counted && measured.batched)
        on_complete =
            metrics::complete_batched(std::move(measured.batched), std::move(on_complete), m_ctx);
    else if(counted)
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
    m_call.record(m_status);
    if(result != CUDA_SUCCESS)
    {
        auto failed  = dispatch::execution_result{};
        failed.ok    = false;
        failed.error = error_name(result);
        on_complete(failed);
        return;
    }
    // A replay pass is waited for on this thread, which waits for it anyway.
    if(request.replayed)
        marks.complete_pass(std::move(on_complete));
    else
        marks.complete_after_kernel(std::move(on_complete));
}

// One PC sampling range around the launch (pc_sampling_session.hpp): the kernel is waited for
// before the range stops, so that the range holds all of its samples, and the samples are
// delivered before the execution completes.
CUresult
cuda_launch::run_sampled(const dispatch::pc_sampling_request& sampling,
                         const std::function<CUresult()>&     run)
{
    const auto* table = pc_sampling::table();
    if(table == nullptr)
    {
        auto missing  = dispatch::pc_sample_batch{};
        missing.error = "this CUPTI has no PC Sampling API";
        if(sampling.deliver) sampling.deliver(missing);
        return run();
    }
    auto session = pc_sampling::session{*table, m_ctx, sampling.interval};
    session.start();
    const auto result = run();
    if(result == CUDA_SUCCESS)
    {
        auto scope = internal_call_scope{};
        if(const auto* drv = driver(); drv != nullptr) drv->cuStreamSynchronize(m_stream);
    }
    auto batch = session.finish(common::timestamp_ns());
    if(sampling.deliver) sampling.deliver(batch);
    return result;
}

void
cuda_launch::copy_arguments(const kernel_entry& kernel)
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
        copy_extra_arguments();
        return;
    }
    // Layout unknown: every pass runs inside the application's launch call, so its pointers
    // stay valid; the arguments cannot be checked for host memory, though.
    if(m_request.params != nullptr)
        common::log::warn_once("cuda-params-unknown",
                               "cuda: kernel parameter layout unknown (cuFuncGetParamInfo); "
                               "replay passes reuse the application's parameter pointers");
}

// The argument buffer of CU_LAUNCH_PARAM_BUFFER_POINTER, copied; the other extra entries kept.
void
cuda_launch::copy_extra_arguments()
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
}
} // namespace rocprofiler::cuda
