// The dispatch::launch_backend of the CUDA adapter: one intercepted launch as the dispatch
// pipeline sees it (executions, counted executions, replay exclusion, memory). Every method is
// called on the application's launching thread, inside its launch call (the application's
// pointers in the request are valid only then), except that the pipeline may drop its reference
// on the completion thread.
#pragma once

#include "cuda/counters/metrics.hpp"
#include "cuda/interpose/interposer_guard.hpp"
#include "cuda/launch/kernel_registry.hpp"
#include "cuda/launch/launch.hpp"
#include "cuda/replay/memory.hpp"
#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

namespace rocprofiler::cuda
{
// The arguments are copies, so that every pass launches the same kernel with the same bytes.
class cuda_launch final : public dispatch::launch_backend
{
public:
    // `call` is the application's launch call, guarded (interposer_guard.hpp): every execution
    // records its result there; it outlives every execution.
    cuda_launch(const launch_request&  request,
                const kernel_entry&    kernel,
                CUcontext              ctx,
                int                    device,
                CUstream               stream,
                driver_call<CUresult>& call);

    // Executions with counters run under CUPTI's range profiler (cuda/counters/metrics.hpp); replay
    // passes (request->replayed) are waited for on this thread, which waits for them anyway.
    void enqueue(dispatch::completion_fn                            on_complete,
                 std::shared_ptr<const dispatch::execution_request> request) override;

    std::vector<dispatch::deferred_counters> finish_counting() override;

    // The application's completion is the stream's order: everything it enqueues after this
    // launch runs after the last execution, which the replay loop waits for before returning.
    void signal_application(const dispatch::execution_result&) override {}

    std::optional<dispatch::decline_reason> replay_exclusion() const override
    {
        return m_exclusion;
    }

    // The argument bytes the launch_info points at (empty when the layout is unknown); they live
    // as long as this object.
    dispatch::kernel_arguments arguments() const { return {m_args.data(), m_args.size()}; }

    dispatch::memory_backend* memory() override { return &m_memory; }

    // What the application's launch call returns: the first failing driver result, if any.
    CUresult status() const { return m_status; }

private:
    void launch(dispatch::completion_fn on_complete, const dispatch::execution_request& request);
    CUresult run_sampled(const dispatch::pc_sampling_request& sampling,
                         const std::function<CUresult()>&     run);
    void     copy_arguments(const kernel_entry& kernel);
    void     copy_extra_arguments();

    launch_request                          m_request = {};
    CUcontext                               m_ctx     = nullptr;
    int                                     m_device  = 0;
    CUstream                                m_stream  = nullptr;
    driver_call<CUresult>&                  m_call;
    CUlaunchConfig                          m_config      = {};
    std::vector<CUlaunchAttribute>          m_attrs       = {};
    std::vector<std::byte>                  m_args        = {};
    std::vector<void*>                      m_param_ptrs  = {};
    std::vector<void*>                      m_extra       = {};
    size_t                                  m_buffer_size = 0;
    CUresult                                m_status      = CUDA_SUCCESS;
    std::optional<dispatch::decline_reason> m_exclusion   = std::nullopt;
    launch_memory                           m_memory;
    metrics::dispatch_counting              m_counting;
};
} // namespace rocprofiler::cuda
