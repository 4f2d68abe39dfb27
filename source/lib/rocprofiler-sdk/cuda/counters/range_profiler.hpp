// CUPTI's range profiler on one context, in user-replay mode: the SDK's replay engine drives the
// passes, CUPTI only programs the counters around one launch. This file owns the per-context
// profiler object, the counter configurations it has built, and the steps of one counted launch
// (set the configuration, start, launch, stop, decode, evaluate); which configuration a pass sets
// is the schedule's choice (counter_schedule.hpp, metrics.hpp).
//
// Threading: a context_profiler is used under its `mutex`, held by measure() for a whole counted
// execution; CUPTI calls run as internal driver calls (never traced or tracked).
#pragma once

#include "cuda/counters/cache_control.hpp"
#include "cuda/counters/metrics.hpp"
#include "cuda/counters/profiler_host.hpp"

#include <cuda.h>

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda::metrics
{
// One counter configuration as a context collects it.
struct collection_config
{
    std::vector<std::string>     names        = {};
    std::vector<const char*>     name_ptrs    = {};
    std::unique_ptr<host_object> host         = {}; // evaluates the values
    std::vector<uint8_t>         config_image = {};
    std::vector<uint8_t>         counter_data = {};
    uint32_t                     passes       = 0;  // CUPTI passes of the configuration
    std::string                  error        = {}; // why it cannot be collected, or empty
};

class batched_execution; // counter_batch.hpp

// How a configuration's counter data image and ranges are set: one range per execution (auto or
// user, the per-pass and cycle paths), or many user ranges in one session (the batched path).
struct range_shape
{
    CUpti_ProfilerRange mode   = CUPTI_AutoRange;
    size_t              ranges = 1;

    bool operator==(const range_shape&) const = default;
};

// The range-profiler session of the batched path on one context (counter_batch.hpp).
struct batch_session
{
    collection_config* cfg      = nullptr; // the configuration of the running session
    bool               running  = false;   // Start was called: counted executions push ranges
    uint64_t           sequence = 0;       // names the ranges, unique on the context
    std::vector<std::shared_ptr<batched_execution>> ranges = {}; // in the order pushed
};

// The range profiler of one context.
struct context_profiler
{
    std::mutex                  mutex        = {};
    bool                        tried        = false;
    std::string                 error        = {};
    std::string                 chip         = {};
    CUpti_RangeProfiler_Object* object       = nullptr;
    std::vector<uint8_t>        availability = {};
    CUpti_ProfilerRange         range        = CUPTI_AutoRange;
    CUcontext                   ctx          = nullptr;
    const void*                 last         = nullptr; // the configuration set last
    range_shape                 last_shape   = {};      // and the shape it was set for
    // The dispatch whose CUPTI replay cycle is in progress on this context, if any; a cycle left
    // unfinished leaves the range profiler mid-cycle, so it is re-enabled before the next use.
    dispatch_counting::state* cycle_owner = nullptr;
    bool                      needs_reset = false;
    bool                      cycles_off  = false; // a cycle could not finish: schedule per pass
    bool                      suspended   = false; // disabled for a sampler: enable() resumes
    cache_flusher             flusher     = {};    // before each counted execution, when on
    batch_session             batch       = {};
    std::map<std::vector<std::string>, std::unique_ptr<collection_config>> configs = {};
};

// The profiler of `ctx`, made on first use and never destroyed. Thread-safe.
context_profiler& profiler_of(CUcontext ctx);

// Calls `fn` with every profiler made so far (without their locks). Thread-safe.
void for_each_profiler(const std::function<void(context_profiler&)>& fn);

// Enables the range profiler on the context, once; `prof.error` says why it failed. Called with
// the profiler's lock held.
void enable(context_profiler& prof, CUcontext ctx, int device);

// Disables the context's range profiler, so that CUPTI's PM or PC sampling can take the hardware
// (with it enabled, cuptiPmSamplingSetConfig fails with CUPTI_ERROR_HARDWARE_BUSY: measured on the
// H100); the next enable() enables it again. Only between sessions: not while a batch or a
// replay cycle runs (false then, and nothing changes). Called with the profiler's lock held.
bool suspend(context_profiler& prof);

// The configuration of `names` on the context (cached, failures included: `error` says why).
collection_config& config_for(context_profiler& prof, const std::vector<std::string>& names);

// The counter names of a request, in its order.
std::vector<std::string> names_of(const dispatch::execution_request& request);

// Sets the configuration and a freshly initialized counter data image for one execution (or one
// CUPTI replay cycle, or one batched session) of `shape` (nothing: one range of the context's
// range mode). A change of configuration or shape re-enables the range profiler first. False with
// `error` set on failure.
bool set_config(context_profiler&                 prof,
                collection_config&                cfg,
                std::string&                      error,
                const std::optional<range_shape>& shape = std::nullopt);

// Decodes the counter data image of the session just stopped: how many ranges it holds and how
// many CUPTI dropped; nothing with `error` set on failure.
struct decoded_image
{
    size_t ranges  = 0;
    size_t dropped = 0;
};
std::optional<decoded_image>
decode_image(context_profiler& prof, collection_config& cfg, std::string& error);

// Evaluates range `index` of the decoded image into `values` (the order of cfg.names), under the
// host API's lock. False with `error` set on failure.
bool evaluate_range(collection_config&   cfg,
                    size_t               index,
                    std::vector<double>& values,
                    std::string&         error);

// Decodes the one range of the last execution (or cycle) and evaluates every metric of `cfg` into
// `result` (in the order of cfg.names). False with `error` set on failure.
bool decode_and_evaluate(context_profiler&    prof,
                         collection_config&   cfg,
                         std::vector<double>& result,
                         std::string&         error);

// One counted launch: the cache flush (when on), Start, a user range around the launch in that
// mode, the launch, Stop. When Start fails nothing else happens (the caller launches plainly).
struct counted_launch
{
    CUptiResult started       = CUPTI_SUCCESS;
    CUresult    launched      = CUDA_SUCCESS;
    CUptiResult stopped       = CUPTI_SUCCESS;
    bool        all_submitted = false; // CUPTI's last pass of the configuration
};

counted_launch run_counted(context_profiler&                prof,
                           int                              device,
                           CUstream                         stream,
                           const std::function<CUresult()>& launch);
} // namespace rocprofiler::cuda::metrics
