// Hardware counters of NVIDIA GPUs around one launch, through CUPTI's range profiler in
// user-replay mode: the SDK's own replay engine drives the passes, CUPTI only programs the
// counters around one launch. This is what a launch backend calls; the parts behind it:
//   metric_registry.hpp   the counters a device lists, and whether a configuration fits a pass
//   range_profiler.hpp    the per-context profiler object and the steps of one counted launch
//   counter_schedule.hpp  which configuration each pass of a replayed dispatch measures
//   cache_control.hpp     the L2 flush before each counted execution
//   cupti_loader.hpp      libcupti and its function tables
//
// What an execution sees: measure() sets the configuration on the launch's context, starts the
// profiler, launches, stops, waits for the kernel, decodes and evaluates the metrics; or, for a
// one-pass configuration of a dispatch that is not replayed, puts the launch in one range of the
// context's batched session (counter_batch.hpp), whose values come with the completion. CUPTI
// calls run as internal driver calls (never traced or tracked).
//
// docs/cuda.md ("Counters") describes the environment variables and the failure messages.
#pragma once

#include "dispatch/dispatch.hpp"

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace rocprofiler::cuda::metrics
{
// The counting of one logical dispatch across its replay passes, owned by its launch backend.
//
// Under kernel replay (ROCPROFILER_CUDA_COUNTER_SCHEDULE=dispatch, the default) the passes of a
// dispatch are one CUPTI replay cycle: the configuration is the union of the agent's counter
// configurations, set at the start of the cycle; each pass runs the next of CUPTI's passes; after
// the last one the values are decoded and every pass's request is answered from them
// (measure()'s `resolved`). This avoids reconfiguring the range profiler for every pass, which
// costs more than 100 ms on an H200. When the union needs more CUPTI passes than the dispatch has
// left (or than there are configurations), or the tool's choice falls outside it, each pass
// measures its own configuration (schedule "pass"). docs/cuda.md has the details.
class dispatch_counting
{
public:
    dispatch_counting();
    ~dispatch_counting();

    dispatch_counting(const dispatch_counting&)            = delete;
    dispatch_counting& operator=(const dispatch_counting&) = delete;

    struct state;
    std::unique_ptr<state> impl; // made by the first counted execution (none for most launches)
};

class batched_execution; // counter_batch.hpp

// What measure() found out about one execution.
struct measurement
{
    std::vector<dispatch::counter_value> values = {}; // one per requested counter, when measured
    std::string                          error  = {}; // why none were measured
    bool deferred = false; // the values come in `resolved` now or later, or from finish()
    std::vector<dispatch::deferred_counters> resolved = {};
    // Set when the execution went into its context's batch: its values come with its completion
    // (batched_execution::complete), once the batch is decoded.
    std::shared_ptr<batched_execution> batched = {};
};

// Launches through `launch` with the counters of `request` measured around it. Returns the
// launch's result. The kernel runs either way; `out` says what was measured. Waits for the kernel
// when its values are decoded now.
CUresult measure(CUcontext                          ctx,
                 int                                device,
                 CUstream                           stream,
                 const dispatch::execution_request& request,
                 const std::function<CUresult()>&   launch,
                 dispatch_counting&                 counting,
                 measurement&                       out);

// After the last pass of a dispatch: the executions still waiting for values, with an error
// (the dispatch ended before CUPTI's cycle did).
std::vector<dispatch::deferred_counters> finish(dispatch_counting& counting);

// Gives a batched execution's completion to its batch: `next` gets the result with its values
// once the kernel finished and the batch was decoded. When the kernel finishes and is the last one
// of the batch open on `ctx` (the application launched nothing counted since: it waits, or is
// idle), the batch is decoded then, on the completion thread: records do not wait for the image
// to fill or for exit, and a later fault of the context cannot take them with it.
dispatch::completion_fn complete_batched(std::shared_ptr<batched_execution> entry,
                                         dispatch::completion_fn            next,
                                         CUcontext                          ctx);

// Before CUPTI's PC sampling or PM sampling runs on `ctx` (they do not run beside the range
// profiler): decodes the batch open there, if any, and disables the context's range profiler
// until the next counted execution.
void release_for_sampling(CUcontext ctx);

// Decodes every context's batch of counted executions (at exit: the records they hold are
// delivered before the SDK's completion queue drains).
void close_batches_at_exit();
} // namespace rocprofiler::cuda::metrics
