// SPM on CUDA agents through CUPTI's PM sampling API (cupti_pmsampling.h): the table of its
// functions and of the profiler host's evaluation (injectable: a test fills one with its own
// functions), and the reading of a decoded PM sampling counter data image into the SPM samples of
// one dispatch (dispatch/backend.hpp: spm_sample_batch).
//
// Status: written and tested on the CPU with a hand-written table standing in for libcupti; run
// around each SPM execution by pm_sampling_session.hpp; not yet run on a GPU (docs/pc_sampling.md).
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "dispatch/backend.hpp"

#include <cupti.h>
#include <cupti_pmsampling.h>
#include <cupti_profiler_host.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace rocprofiler::cuda::pm_sampling
{
#define ROCP_CUPTI_PM_SAMPLING_FUNCTIONS(X)                                                        \
    X(cuptiGetResultString)                                                                        \
    X(cuptiPmSamplingSetConfig)                                                                    \
    X(cuptiPmSamplingEnable)                                                                       \
    X(cuptiPmSamplingDisable)                                                                      \
    X(cuptiPmSamplingStart)                                                                        \
    X(cuptiPmSamplingStop)                                                                         \
    X(cuptiPmSamplingDecodeData)                                                                   \
    X(cuptiPmSamplingGetCounterAvailability)                                                       \
    X(cuptiPmSamplingGetCounterDataSize)                                                           \
    X(cuptiPmSamplingCounterDataImageInitialize)                                                   \
    X(cuptiPmSamplingGetCounterDataInfo)                                                           \
    X(cuptiPmSamplingCounterDataGetSampleInfo)                                                     \
    X(cuptiProfilerHostEvaluateToGpuValues)

// CUPTI's PM sampling API and the profiler host's evaluation. Usable when every function is set.
struct cupti_pm_sampling_table
{
#define ROCP_CUPTI_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUPTI_PM_SAMPLING_FUNCTIONS(ROCP_CUPTI_DECLARE)
#undef ROCP_CUPTI_DECLARE
};

// The table looked up in `handle` (libcupti's dlopen handle), or nothing when a function is
// missing.
std::optional<cupti_pm_sampling_table> load_table(void* handle);

// What one decode of the hardware buffer said (cuptiPmSamplingDecodeData).
struct decode_status
{
    bool overflow   = false; // the hardware buffer overflowed: samples were lost
    bool image_full = false; // the counter data image is full: later samples were not decoded
};

// One decode's outcome from its parameters.
decode_status status_of(const CUpti_PmSampling_DecodeData_Params& params);

// The completed samples of a decoded counter data image whose interval overlaps
// [window_start, window_end] (the dispatch's execution, on the clock of CUPTI's sample timestamps),
// each with the values of `metrics` (the request's counters, in its order) evaluated through
// cuptiProfilerHostEvaluateToGpuValues (`host` is the profiler host object initialized for PM
// sampling with those metrics). A sample's timestamp is its end. Samples CUPTI did not complete,
// and a decode that overflowed or filled the image, count in `dropped`; an evaluation that fails
// ends the reading with `error` set.
dispatch::spm_sample_batch read_samples(const cupti_pm_sampling_table&  table,
                                        CUpti_PmSampling_Object*        sampler,
                                        CUpti_Profiler_Host_Object*     host,
                                        const std::vector<uint8_t>&     image,
                                        const std::vector<std::string>& metrics,
                                        uint64_t                        window_start,
                                        uint64_t                        window_end,
                                        const decode_status&            decoded);
} // namespace rocprofiler::cuda::pm_sampling
