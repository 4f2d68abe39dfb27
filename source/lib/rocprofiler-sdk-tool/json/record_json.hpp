// The JSON of each record as results.json holds it (field names as upstream rocprofv3 writes them).
#pragma once

#include "model/records.hpp"
#include "model/results.hpp"

#include <nlohmann/json.hpp>

#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/pc_sampling.h>

namespace rocprofiler::tool
{
nlohmann::ordered_json agent_json(const agent_entry& a);
// The JSON of one kernel dispatch record and of one counter record, as results.json holds them.
nlohmann::ordered_json
dispatch_record_json(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r);
nlohmann::ordered_json counter_record_json(const counter_dispatch& rec);
nlohmann::ordered_json
memory_copy_record_json(const rocprofiler_buffer_tracing_memory_copy_record_t& r);
nlohmann::ordered_json marker_event_json(const marker_event& e);
// A PC sample as upstream's buffer_records.pc_sample_host_trap / pc_sample_stochastic hold it:
// {"record": {...}, "inst_index": -1} (no instruction text: -1, as upstream writes for a PC it
// could not decode). The stochastic record names its instruction type and stall reason through
// @p data's name functions (results.hpp).
nlohmann::ordered_json pc_sample_json(const rocprofiler_pc_sampling_record_host_trap_v0_t& r);
nlohmann::ordered_json pc_sample_json(const results&                                        data,
                                      const rocprofiler_pc_sampling_record_stochastic_v0_t& r);

} // namespace rocprofiler::tool
