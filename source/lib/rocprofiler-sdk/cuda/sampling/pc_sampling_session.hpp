// One PC sampling range of CUPTI's PC Sampling API around one execution of a kernel on a CUDA
// agent: enable and configure on the launch's context, start, (the kernel runs), stop, read every
// PC CUPTI holds, disable, and the samples handed to the pipeline as one batch. Every CUPTI call
// goes through the table given to the constructor, so a test's table of hand-written functions
// stands in for libcupti.
//
// CUPTI is configured in kernel-serialized collection mode with start/stop control and parsed
// output, so that a range holds exactly the samples of the one kernel launched inside it: the
// batch takes every PC of the range whatever its correlation id. Samples CUPTI dropped, and a
// full hardware buffer (CUPTI_ERROR_OUT_OF_MEMORY from cuptiPCSamplingGetData), are counted in
// the batch's `dropped` and logged, never hidden.
//
// Status: tested on the CPU through a fake table; run on an H100 (docs/pc_sampling.md).
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "cuda/sampling/pc_sampling_cupti.hpp"
#include "dispatch/backend.hpp"

#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace rocprofiler::cuda::pc_sampling
{
// PCs one cuptiPCSamplingGetData call may return (the buffer this side provides).
constexpr size_t pcs_per_read = 1024;

class session
{
public:
    session(const cupti_pc_sampling_table& table, CUcontext ctx, uint64_t interval_cycles);
    ~session();

    session(const session&)            = delete;
    session& operator=(const session&) = delete;

    // Enables PC sampling on the context, configures it and starts the range. False (and error()
    // says why) when any step failed; sampling is then disabled again.
    bool start();

    // Stops the range (after the kernel completed), reads every PC, disables sampling and
    // returns the execution's samples at `timestamp_ns` (the range's end: CUPTI's parsed data has
    // no time per sample). After a failed start(), a batch with only the error.
    dispatch::pc_sample_batch finish(uint64_t timestamp_ns);

    const std::string& error() const { return m_error; }
    // Samples per CUPTI stall reason index of the range, and their names (after finish()).
    const std::unordered_map<uint32_t, uint64_t>&    stall_histogram() const { return m_stalls; }
    const std::unordered_map<uint32_t, std::string>& stall_names() const { return m_names; }

private:
    // A CUpti_PCSamplingData with room for pcs_per_read PCs of every stall reason.
    struct buffer
    {
        CUpti_PCSamplingData                                  data    = {};
        std::vector<CUpti_PCSamplingPCData>                   pcs     = {};
        std::vector<std::vector<CUpti_PCSamplingStallReason>> reasons = {};
        void                                                  reset(size_t stall_reasons);
    };

    bool call(CUptiResult result, const char* what);
    void take(const decoded_data& data);
    void disable();

    const cupti_pc_sampling_table&            m_table;
    CUcontext                                 m_ctx         = nullptr;
    uint64_t                                  m_interval    = 0;
    bool                                      m_enabled     = false;
    bool                                      m_started     = false;
    std::string                               m_error       = {};
    std::vector<uint32_t>                     m_indices     = {};
    std::unordered_map<uint32_t, std::string> m_names       = {};
    std::unordered_map<uint32_t, uint64_t>    m_stalls      = {};
    uint64_t                                  m_cupti_total = 0; // CUPTI's totalSamples, summed
    uint64_t m_cupti_largest = 0; // the largest totalSamples of one read
    uint64_t m_non_user      = 0; // nonUsrKernelsTotalSamples, summed
    uint64_t m_reads         = 0; // data structures taken (GetData reads and the config buffer)
    uint64_t m_delivered     = 0; // samples put in the batch
    std::unique_ptr<buffer>   m_config_buffer = {}; // SAMPLING_DATA_BUFFER: filled on disable
    std::unique_ptr<buffer>   m_read_buffer   = {}; // cuptiPCSamplingGetData's
    dispatch::pc_sample_batch m_batch         = {};
};

// The table of the libcupti in use, or nullptr when libcupti or one of its PC sampling functions
// is missing. A table installed by use_table() (tests) comes first.
const cupti_pc_sampling_table* table();
void                           use_table(const cupti_pc_sampling_table* table);
} // namespace rocprofiler::cuda::pc_sampling
