// SPM on the dispatch path: which executions are sampled, and how a backend's samples become the
// records the tool's record callback receives. What an agent offers and the SPM configurations are
// in spm/spm.hpp; taking the samples is the backend's (dispatch/backend.hpp: spm_request).
//
// SPM is per dispatch, as dispatch counting is: a context takes part in an execution when it is
// active for it, the kernel replay engine's per-thread mask included, so that a tool gives SPM a
// pass of its own with replay_start_context / replay_stop_context (spec: "Service combination
// limits"). Its dispatch callback chooses the configuration (none: not sampled). One context
// samples an execution; another that also chose one is told once that it is left out.
//
// Delivery, on the thread that completes the execution, before its completion records: the record
// callback is called with every sample of the execution (flags DATA, and DATA_LOSS when samples
// were dropped), then once with no record and DISPATCH_END.
#pragma once

#include "dispatch/backend.hpp"
#include "dispatch/dispatch.hpp"
#include "spm/spm.hpp"

#include <rocprofiler-sdk/experimental/spm.h>

#include <functional>
#include <memory>
#include <vector>

namespace rocprofiler::dispatch
{
// The SPM request of one execution of @p dispatch, or null when no context samples it.
// @p external gives a context's external correlation id for the dispatch. Called on the
// submitting thread, inside the replay engine's mask when the execution is a pass.
std::shared_ptr<const spm_request>
spm_request_for(const logical_dispatch&                                          dispatch,
                const std::function<rocprofiler_user_data_t(context::context&)>& external);

// One record per counter per sample, sample by sample (exposed for unit tests).
std::vector<rocprofiler_spm_counter_record_t>
make_spm_records(const spm::config& cfg, uint64_t dispatch_id, const spm_sample_batch& batch);
} // namespace rocprofiler::dispatch
