#include "json/record_json.hpp"
#include "model/graph_node.hpp"
#include "model/names.hpp"

namespace rocprofiler::tool
{
namespace
{
using json = nlohmann::ordered_json;

json
dim3_json(const rocprofiler_dim3_t& d)
{
    return json{{"x", d.x}, {"y", d.y}, {"z", d.z}};
}

json
dispatch_info_json(const rocprofiler_kernel_dispatch_info_t& info)
{
    auto out = json{{"size", info.size},
                    {"agent_id", {{"handle", info.agent_id.handle}}},
                    {"queue_id", {{"handle", info.queue_id.handle}}},
                    {"kernel_id", info.kernel_id},
                    {"dispatch_id", info.dispatch_id},
                    {"private_segment_size", info.private_segment_size},
                    {"group_segment_size", info.group_segment_size},
                    {"workgroup_size", dim3_json(info.workgroup_size)},
                    {"grid_size", dim3_json(info.grid_size)}};
    // A graph's kernel node (experimental/graph.h) adds its ids; other dispatches have no keys.
    if(auto node = graph_node_of(info))
    {
        out["graph_id"]      = node->graph_id;
        out["graph_node_id"] = node->node_id;
    }
    return out;
}
} // namespace

json
agent_json(const agent_entry& a)
{
    const auto& i = a.info;
    auto        j = json{{"size", i.size},
                  {"id", {{"handle", i.id.handle}}},
                  {"type",
                   i.type == ROCPROFILER_AGENT_TYPE_GPU   ? "GPU"
                          : i.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU"
                                                                 : "NONE"},
                  {"cpu_cores_count", i.cpu_cores_count},
                  {"simd_count", i.simd_count},
                  {"max_waves_per_simd", i.max_waves_per_simd},
                  {"lds_size_in_kb", i.lds_size_in_kb},
                  {"wave_front_size", i.wave_front_size},
                  {"cu_count", i.cu_count},
                  {"simd_per_cu", i.simd_per_cu},
                  {"gfx_target_version", i.gfx_target_version},
                  {"vendor_id", i.vendor_id},
                  {"device_id", i.device_id},
                  {"max_waves_per_cu", i.max_waves_per_cu},
                  {"workgroup_max_size", i.workgroup_max_size},
                  {"grid_max_size", i.grid_max_size},
                  {"local_mem_size", i.local_mem_size},
                  {"workgroup_max_dim", dim3_json(i.workgroup_max_dim)},
                  {"grid_max_dim", dim3_json(i.grid_max_dim)},
                  {"name", a.name},
                  {"vendor_name", a.vendor_name},
                  {"product_name", a.product_name},
                  {"model_name", a.model_name},
                  {"node_id", i.node_id},
                  {"logical_node_id", i.logical_node_id},
                  {"logical_node_type_id", i.logical_node_type_id}};
    if(a.counters_error) j["counters_error"] = *a.counters_error;
    return j;
}

json
dispatch_record_json(const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    return json{
        {"size", r.size},
        {"kind", "KERNEL_DISPATCH"},
        {"operation", "COMPLETE"},
        {"correlation_id",
         {{"internal", r.correlation_id.internal}, {"external", r.correlation_id.external.value}}},
        {"thread_id", r.thread_id},
        {"start_timestamp", r.start_timestamp},
        {"end_timestamp", r.end_timestamp},
        {"dispatch_info", dispatch_info_json(r.dispatch_info)}};
}

json
marker_event_json(const marker_event& e)
{
    return json{{"kind", e.domain},
                {"function", e.function},
                {"correlation_id", {{"internal", e.correlation_id}}},
                {"thread_id", e.thread_id},
                {"start_timestamp", e.start},
                {"end_timestamp", e.end}};
}

json
memory_copy_record_json(const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    return json{
        {"size", r.size},
        {"kind", "MEMORY_COPY"},
        {"operation", memory_copy_direction_name(r.operation)},
        {"correlation_id",
         {{"internal", r.correlation_id.internal}, {"external", r.correlation_id.external.value}}},
        {"thread_id", r.thread_id},
        {"start_timestamp", r.start_timestamp},
        {"end_timestamp", r.end_timestamp},
        {"dst_agent_id", {{"handle", r.dst_agent_id.handle}}},
        {"src_agent_id", {{"handle", r.src_agent_id.handle}}},
        {"bytes", r.bytes},
        {"dst_address", {{"handle", r.dst_address.handle}}},
        {"src_address", {{"handle", r.src_address.handle}}}};
}

json
counter_record_json(const counter_dispatch& rec)
{
    auto values = json::array();
    for(const auto& v : rec.values)
        values.push_back(json{{"counter_id", {{"handle", v.counter_id}}}, {"value", v.value}});
    auto entry = json{{"thread_id", rec.thread_id},
                      {"dispatch_data",
                       {{"size", rec.data.size},
                        {"correlation_id",
                         {{"internal", rec.data.correlation_id.internal},
                          {"external", rec.data.correlation_id.external.value}}},
                        {"start_timestamp", rec.data.start_timestamp},
                        {"end_timestamp", rec.data.end_timestamp},
                        {"dispatch_info", dispatch_info_json(rec.data.dispatch_info)}}},
                      {"records", values}};
    if(rec.replay_pass) entry["replay_pass"] = *rec.replay_pass;
    return entry;
}
namespace
{
template <typename RecordT>
nlohmann::ordered_json
pc_sample_common(const RecordT& r)
{
    return nlohmann::ordered_json{
        {"hw_id",
         {{"chiplet", r.hw_id.chiplet},
          {"wave_id", r.hw_id.wave_id},
          {"simd_id", r.hw_id.simd_id},
          {"pipe_id", r.hw_id.pipe_id},
          {"cu_or_wgp_id", r.hw_id.cu_or_wgp_id},
          {"shader_array_id", r.hw_id.shader_array_id},
          {"shader_engine_id", r.hw_id.shader_engine_id},
          {"workgroup_id", r.hw_id.workgroup_id},
          {"vm_id", r.hw_id.vm_id},
          {"queue_id", r.hw_id.queue_id},
          {"microengine_id", r.hw_id.microengine_id}}},
        {"pc",
         {{"code_object_id", r.pc.code_object_id},
          {"code_object_offset", r.pc.code_object_offset}}},
        {"exec_mask", r.exec_mask},
        {"timestamp", r.timestamp},
        {"dispatch_id", r.dispatch_id},
        {"correlation_id",
         {{"internal", r.correlation_id.internal}, {"external", r.correlation_id.external.value}}},
        {"wrkgrp_id", {{"x", r.workgroup_id.x}, {"y", r.workgroup_id.y}, {"z", r.workgroup_id.z}}},
        {"wave_in_grp", r.wave_in_group}};
}

std::string
pc_name(results::pc_sampling_name_fn fn, uint32_t value)
{
    const char* text = fn != nullptr ? fn(value) : nullptr;
    return text != nullptr ? std::string{text} : "unknown (" + std::to_string(value) + ")";
}
} // namespace

nlohmann::ordered_json
pc_sample_json(const rocprofiler_pc_sampling_record_host_trap_v0_t& r)
{
    return nlohmann::ordered_json{{"record", pc_sample_common(r)}, {"inst_index", -1}};
}

nlohmann::ordered_json
pc_sample_json(const results& data, const rocprofiler_pc_sampling_record_stochastic_v0_t& r)
{
    auto record           = pc_sample_common(r);
    record["wave_issued"] = r.wave_issued;
    record["inst_type"]   = pc_name(data.pc_instruction_type_name, r.inst_type);
    record["wave_cnt"]    = r.wave_count;
    record["snapshot"]    = {{"stall_reason",
                           r.wave_issued != 0 ? std::string{}
                                                 : pc_name(data.pc_not_issued_reason_name,
                                                        r.snapshot.reason_not_issued)}};
    return nlohmann::ordered_json{{"record", std::move(record)}, {"inst_index", -1}};
}
} // namespace rocprofiler::tool
