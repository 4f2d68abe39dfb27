// One PM sampling range of CUPTI's PM sampling API around one execution of a kernel on a CUDA
// agent (SPM): enable on the device, set the configuration image of the request's metrics,
// initialize a counter data image, start, (the kernel runs), stop, decode, read the samples
// (pm_sampling_cupti.hpp), disable. Every CUPTI call goes through the table given to the
// constructor, so a test's table of hand-written functions stands in for libcupti.
//
// Timestamps: CUPTI gives each sample's start and end on the GPU's clock. The range holds only
// this execution, so all of its completed samples are the execution's, and each is placed on the
// SDK clock by an offset (to_sdk_clock): zero when the samples lie inside the range as the SDK
// clock saw it, else the difference between the range's start on the SDK clock and its first
// sample's start (logged once), which is exact to about one sampling interval.
//
// Status: written and tested on the CPU through a fake table; not yet run on a GPU.
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "cuda/sampling/pm_sampling_cupti.hpp"
#include "dispatch/backend.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace rocprofiler::cuda::pm_sampling
{
// The hardware buffer CUPTI fills and the samples the counter data image holds, per range.
constexpr size_t   hardware_buffer_bytes = size_t{64} << 20;
constexpr uint32_t max_samples           = 4096;

// The interval a CUDA agent offers for SPM, in GPU system clock cycles (CUPTI documents no bounds
// for CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_SYSCLK_INTERVAL: these are this SDK's).
constexpr uint64_t min_interval_cycles = 1000;
constexpr uint64_t max_interval_cycles = uint64_t{1} << 32;

// Places a batch's samples (timestamps on the GPU's clock, with `first_start_gpu` the start of the
// range's first sample) on the SDK clock, given the range's bounds on the SDK clock. Returns the
// offset applied (SDK minus GPU).
int64_t to_sdk_clock(dispatch::spm_sample_batch& batch,
                     uint64_t                    first_start_gpu,
                     uint64_t                    range_start_sdk,
                     uint64_t                    range_end_sdk);

class session
{
public:
    // `config_image` is the profiler host's configuration image of `metrics` for PM sampling on
    // the device's chip; `host` the profiler host object that made it (used to evaluate).
    session(const cupti_pm_sampling_table& table,
            size_t                         device_index,
            std::vector<uint8_t>           config_image,
            std::vector<std::string>       metrics,
            CUpti_Profiler_Host_Object*    host,
            uint64_t                       interval_cycles);
    ~session();

    session(const session&)            = delete;
    session& operator=(const session&) = delete;

    // Enables PM sampling, configures it, prepares the counter data image and starts sampling at
    // `now_sdk`. False (and error() says why) when a step failed; sampling is disabled again.
    bool start(uint64_t now_sdk);

    // Stops sampling at `now_sdk` (after the kernel completed), decodes and reads the samples,
    // disables sampling, and returns the execution's samples on the SDK clock. After a failed
    // start(), a batch with only the error.
    dispatch::spm_sample_batch finish(uint64_t now_sdk);

    const std::string& error() const { return m_error; }

private:
    bool call(CUptiResult result, const char* what);
    void disable();

    const cupti_pm_sampling_table& m_table;
    size_t                         m_device    = 0;
    std::vector<uint8_t>           m_config    = {};
    std::vector<std::string>       m_metrics   = {};
    CUpti_Profiler_Host_Object*    m_host      = nullptr;
    uint64_t                       m_interval  = 0;
    CUpti_PmSampling_Object*       m_sampler   = nullptr;
    bool                           m_started   = false;
    uint64_t                       m_start_sdk = 0;
    std::vector<uint8_t>           m_image     = {};
    std::string                    m_error     = {};
};

// The table of the libcupti in use, or nullptr when libcupti or one of its PM sampling functions
// is missing. A table installed by use_table() (tests) comes first.
const cupti_pm_sampling_table* table();
void                           use_table(const cupti_pm_sampling_table* table);
} // namespace rocprofiler::cuda::pm_sampling
