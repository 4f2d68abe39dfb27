// PC sampling on CUDA agents through CUPTI's PC Sampling API (cupti_pcsampling.h): the table of
// its functions (injectable: a test fills one with its own functions), the configuration the agent
// would offer in rocprofiler's units, and the decoding of CUPTI's parsed sampling data
// (CUpti_PCSamplingData) into the dispatch pipeline's samples, attributed to dispatches by CUPTI's
// correlation id.
//
// Status: written and tested on the CPU with hand-made CUpti_PCSamplingData; offered on CUDA
// agents and run around each execution by pc_sampling_session.hpp; not yet run on a GPU
// (docs/pc_sampling.md).
//
// Only files of the CUDA backend (cuda/) include this header (it includes CUPTI's headers).
#pragma once

#include "backend/device_backend.hpp"
#include "dispatch/backend.hpp"

#include <cupti.h>
#include <cupti_pcsampling.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace rocprofiler::cuda::pc_sampling
{
#define ROCP_CUPTI_PC_SAMPLING_FUNCTIONS(X)                                                        \
    X(cuptiGetResultString)                                                                        \
    X(cuptiPCSamplingGetNumStallReasons)                                                           \
    X(cuptiPCSamplingGetStallReasons)                                                              \
    X(cuptiPCSamplingSetConfigurationAttribute)                                                    \
    X(cuptiPCSamplingEnable)                                                                       \
    X(cuptiPCSamplingDisable)                                                                      \
    X(cuptiPCSamplingStart)                                                                        \
    X(cuptiPCSamplingStop)                                                                         \
    X(cuptiPCSamplingGetData)

// CUPTI's PC Sampling API. Usable when every function is set.
struct cupti_pc_sampling_table
{
#define ROCP_CUPTI_DECLARE(NAME) decltype(&::NAME) NAME = nullptr;
    ROCP_CUPTI_PC_SAMPLING_FUNCTIONS(ROCP_CUPTI_DECLARE)
#undef ROCP_CUPTI_DECLARE
};

// The table looked up in `handle` (libcupti's dlopen handle), or nothing when a function is
// missing.
std::optional<cupti_pc_sampling_table> load_table(void* handle);

// CUPTI samples every 2^k cycles of the SM clock, k from 5 to 31
// (CUPTI_PC_SAMPLING_CONFIGURATION_ATTR_TYPE_SAMPLING_PERIOD).
constexpr uint32_t min_period_exponent = 5;
constexpr uint32_t max_period_exponent = 31;

// The configuration a CUDA agent offers: STOCHASTIC (the SM's sampling hardware), in CYCLES, from
// 2^5 to 2^31; only powers of two are taken (flags: ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_
// INTERVAL_POW2).
backend::pc_sampling_configuration offered_configuration();

// CUPTI's sampling period exponent for an interval in cycles: nothing unless the interval is a
// power of two from 2^5 to 2^31.
std::optional<uint32_t> period_exponent(uint64_t interval_cycles);

// One PC of CUPTI's parsed data with one of its stall reasons.
struct decoded_pc
{
    uint32_t    correlation_id = 0; // CUPTI's: the launch's driver API correlation id
    uint64_t    cubin_crc      = 0;
    uint64_t    pc_offset      = 0; // from the start of the function's cubin section
    uint32_t    function_index = 0;
    std::string function       = {};
    uint32_t    stall_reason   = 0; // CUPTI's stall reason index (names: stall_reason_names)
    uint32_t    samples        = 0;
};

// One CUpti_PCSamplingData as read from cuptiPCSamplingGetData.
struct decoded_data
{
    std::vector<decoded_pc> pcs                  = {};
    uint64_t                total_samples        = 0;
    uint64_t                dropped_samples      = 0; // CUPTI's count of samples it lost
    uint64_t                non_user_samples     = 0; // samples in kernels CUPTI does not show
    bool                    hardware_buffer_full = false;
    size_t                  remaining_pcs        = 0; // still in CUPTI's buffer: call GetData again
};

// Reads the first totalNumPcs entries of data.pPcData (CUPTI fills at most collectNumPcs); an
// entry without stall reasons is skipped.
decoded_data decode(const CUpti_PCSamplingData& data);

// Stall reason names by CUPTI's index, from cuptiPCSamplingGetStallReasons' parallel arrays.
std::unordered_map<uint32_t, std::string>
stall_reason_names(const uint32_t* indices, const char* const* names, size_t count);

// Appends the samples of one decoded PC to `batch`: `pc.samples` samples in_kernel with pc =
// offset = pcOffset (the offset in the kernel's cubin function, as the host device gives the
// offset from the kernel's entry), worker 0 (no SM id in the data), the stall state of
// `stall_name` (pc_sampling_stalls.hpp); nothing for a "_not_issued" twin, whose samples are
// counted under its reason. Returns the samples appended.
uint64_t
append_samples(const decoded_pc& pc, std::string_view stall_name, dispatch::pc_sample_batch& batch);

// The samples of one dispatch (CUPTI correlation id `correlation_id`) as the pipeline takes them
// (append_samples, stall names by CUPTI's index), at `timestamp_ns` (CUPTI's parsed data has no
// time per sample: the end of the range); `dropped` is the data's dropped samples when
// `owns_drops` (kernel-serialized collection: one kernel per range), else 0.
dispatch::pc_sample_batch to_batch(const decoded_data&                              data,
                                   const std::unordered_map<uint32_t, std::string>& stall_names,
                                   uint32_t                                         correlation_id,
                                   uint64_t                                         timestamp_ns,
                                   bool                                             owns_drops);

// Samples per stall reason of one dispatch, for the report (index -> samples).
std::unordered_map<uint32_t, uint64_t> stall_histogram(const decoded_data& data,
                                                       uint32_t            correlation_id);
} // namespace rocprofiler::cuda::pc_sampling
