// Hardware counters of NVIDIA GPUs, through CUPTI's range profiler in user-replay mode: the SDK's
// own replay engine drives the passes, CUPTI only programs the counters around one launch.
//
// What the counter registry sees: every metric of the device's chip that CUPTI's profiler host
// API lists (raw counters with their .sum/.avg/.min/.max roll-ups, ratios, throughputs), with
// CUPTI's descriptions and hardware units. A configuration fits in one pass when CUPTI schedules
// its metrics into a single pass on that chip, so the groups a tool collects are CUPTI passes.
//
// What an execution sees: measure() sets the configuration on the launch's context, starts the
// profiler, launches, stops, waits for the kernel, decodes and evaluates the metrics. CUPTI calls
// run as internal driver calls (never traced or tracked).
//
// docs/cuda.md ("Counters") describes the environment variables and the failure messages.
#pragma once

#include "counters/counters.hpp"
#include "dispatch/dispatch.hpp"

#include <cuda.h>
#include <cupti_result.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace rocprofiler::cuda::metrics
{
// The counters of CUDA device `ordinal`, or nothing (CUPTI missing or the chip unsupported; the
// reason is logged once). ROCPROFILER_CUDA_METRIC_FILTER_DEVICE<N>=<regex> keeps only the metrics
// of device N whose name contains a match.
std::optional<counters::agent_counters> agent_counters(uint32_t ordinal);

// Number of passes CUPTI needs for `names` on `chip` (0 with `error` set when a name is unknown or
// CUPTI fails). Works without a GPU: the profiler host API needs the chip name only.
uint32_t pass_count(std::string_view                chip,
                    const std::vector<std::string>& names,
                    std::string*                    error = nullptr);

// Metric names CUPTI lists for a chip, as agent_counters() lists them (for tests).
std::vector<counters::counter_spec> chip_metrics(std::string_view chip);

// The metrics device `ordinal` keeps under ROCPROFILER_CUDA_METRIC_FILTER_DEVICE<ordinal> (all of
// them when it is unset or not a valid regular expression, which is logged).
std::vector<counters::counter_spec> filter_for_device(std::vector<counters::counter_spec> metrics,
                                                      uint32_t                            ordinal);

// A clear, actionable message for a CUPTI failure of `call`.
std::string explain(std::string_view call, CUptiResult result);

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

// What measure() found out about one execution.
struct measurement
{
    std::vector<dispatch::counter_value> values = {}; // one per requested counter, when measured
    std::string                          error  = {}; // why none were measured
    bool deferred = false; // the values come in `resolved` now or later, or from finish()
    std::vector<dispatch::deferred_counters> resolved = {};
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

// True when `names` are all in `set` (sorted). For the schedule and its tests.
bool covers(const std::vector<std::string>& set, const std::vector<std::string>& names);

// The sorted union of the counter names of `configs` and `request` (for the schedule and its
// tests).
std::vector<std::string>
union_names(const std::vector<std::shared_ptr<const counters::config>>& configs,
            const dispatch::execution_request&                          request);
} // namespace rocprofiler::cuda::metrics
