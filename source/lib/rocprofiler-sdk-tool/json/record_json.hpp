// The JSON of each record as results.json holds it (field names as upstream rocprofv3 writes them).
#pragma once

#include "model/records.hpp"

#include <nlohmann/json.hpp>

#include <rocprofiler-sdk/buffer_tracing.h>

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

} // namespace rocprofiler::tool
