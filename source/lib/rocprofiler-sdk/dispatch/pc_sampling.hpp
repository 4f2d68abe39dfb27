// PC sampling on the dispatch path: which executions are sampled, and how a backend's samples
// become host-trap or stochastic records in the tool's buffer. The policy lives here; taking the
// samples is the backend's (dispatch/backend.hpp: pc_sampling_request).
//
// PC sampling is agent-wide, as in rocprofiler-sdk: every execution on the agent is sampled while
// the context holding the service is globally active. The kernel replay engine's per-thread mask
// (replay_start_context / replay_stop_context) does not apply, so every pass of a replayed
// dispatch is sampled, and its samples carry the dispatch's id and correlation ids like the
// dispatch records of the pass.
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/dispatch.hpp"

#include <cstdint>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <functional>
#include <memory>

namespace rocprofiler::dispatch
{
// The PC sampling request for one execution of `dispatch`, or null when no active context samples
// its agent. `external` is the external correlation id of the sampling context for the dispatch.
// Called on the submitting thread.
std::shared_ptr<const pc_sampling_request>
pc_sampling_request_for(const logical_dispatch&                                          dispatch,
                        const std::function<rocprofiler_user_data_t(context::context&)>& external);

// Turns one sample into the record the tool receives (exposed for unit tests).
struct pc_sample_origin
{
    uint64_t                           code_object_id = 0;
    uint64_t                           dispatch_id    = 0;
    rocprofiler_async_correlation_id_t correlation_id = {};
};
rocprofiler_pc_sampling_record_host_trap_v0_t make_host_trap_record(const pc_sample&        sample,
                                                                    const pc_sample_origin& origin);
// The stochastic record of one sample (CUDA agents): the host-trap fields plus whether the wave
// issued and why not.
rocprofiler_pc_sampling_record_stochastic_v0_t
make_stochastic_record(const pc_sample& sample, const pc_sample_origin& origin);
} // namespace rocprofiler::dispatch
