#include "csv/rows.hpp"
#include "model/names.hpp"

#include <iomanip>
#include <sstream>

namespace rocprofiler::tool
{
namespace
{
// VGPR_Count, Accum_VGPR_Count, SGPR_Count: from the kernel's symbol, 0 when not reported.
std::string
register_columns(const results& data, uint64_t kernel_id)
{
    const auto* sym = data.find_symbol(kernel_id);
    if(sym == nullptr) return "0,0,0";
    return std::to_string(sym->arch_vgpr_count) + ',' + std::to_string(sym->accum_vgpr_count) +
           ',' + std::to_string(sym->sgpr_count);
}

// A side of a copy in memory_copy_trace.csv: "host", or the agent as agent_label names it.
std::string
csv_memory_copy_agent(const results& data, rocprofiler_agent_id_t id)
{
    return csv_quote(id.handle == 0 ? std::string{"host"} : agent_label(data, id));
}
} // namespace

std::string
csv_quote(std::string_view text)
{
    auto out = std::string{"\""};
    for(char c : text)
    {
        if(c == '"') out += '"';
        out += c;
    }
    out += '"';
    return out;
}

std::string
csv_counter_value(double value)
{
    auto out = std::ostringstream{};
    if(value >= 1.0)
        out << std::fixed << std::setprecision(6) << value;
    else
        out << std::scientific << std::setprecision(8) << value;
    return out.str();
}

std::string
agent_label(const results& data, rocprofiler_agent_id_t id)
{
    const auto* agent = data.find_agent(id);
    if(agent == nullptr) return "Agent " + std::to_string(id.handle);
    switch(data.agent_index_mode)
    {
    case agent_index::absolute:
        return "Agent " + std::to_string(agent->info.node_id);
    case agent_index::type_relative:
        return std::string{agent->info.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU " : "GPU "} +
               std::to_string(agent->info.logical_node_type_id);
    case agent_index::relative:
        break;
    }
    return "Agent " + std::to_string(agent->info.logical_node_id);
}

std::string
kernel_trace_csv_header()
{
    return "\"Kind\",\"Agent_Id\",\"Queue_Id\",\"Stream_Id\",\"Thread_Id\",\"Dispatch_Id\","
           "\"Kernel_Id\",\"Kernel_Name\",\"Correlation_Id\",\"Start_Timestamp\","
           "\"End_Timestamp\",\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\","
           "\"Accum_VGPR_Count\",\"SGPR_Count\",\"Workgroup_Size_X\",\"Workgroup_Size_Y\","
           "\"Workgroup_Size_Z\",\"Grid_Size_X\",\"Grid_Size_Y\",\"Grid_Size_Z\"\n";
}

std::string
kernel_trace_csv_row(const results&                                             data,
                     const rocprofiler_buffer_tracing_kernel_dispatch_record_t& r)
{
    auto        out = std::ostringstream{};
    const auto& d   = r.dispatch_info;
    // Stream_Id: 0, as rocprofv3 writes when no HIP stream is known.
    out << csv_quote("KERNEL_DISPATCH") << ',' << csv_quote(agent_label(data, d.agent_id)) << ','
        << d.queue_id.handle << ',' << 0 << ',' << r.thread_id << ',' << d.dispatch_id << ','
        << d.kernel_id << ',' << csv_quote(data.kernel_name(d.kernel_id)) << ','
        << r.correlation_id.internal << ',' << r.start_timestamp << ',' << r.end_timestamp << ','
        << d.group_segment_size << ',' << d.private_segment_size << ','
        << register_columns(data, d.kernel_id) << ',' << d.workgroup_size.x << ','
        << d.workgroup_size.y << ',' << d.workgroup_size.z << ',' << d.grid_size.x << ','
        << d.grid_size.y << ',' << d.grid_size.z << '\n';
    return out.str();
}

std::string
counter_collection_csv_header()
{
    // No Replay_Pass column (spec): the JSON output carries replay_pass.
    return "\"Correlation_Id\",\"Dispatch_Id\",\"Agent_Id\",\"Queue_Id\",\"Process_Id\","
           "\"Thread_Id\",\"Grid_Size\",\"Kernel_Id\",\"Kernel_Name\",\"Workgroup_Size\","
           "\"LDS_Block_Size\",\"Scratch_Size\",\"VGPR_Count\",\"Accum_VGPR_Count\","
           "\"SGPR_Count\",\"Counter_Name\",\"Counter_Value\",\"Start_Timestamp\","
           "\"End_Timestamp\"\n";
}

std::string
counter_collection_csv_rows(const results& data, const counter_dispatch& rec)
{
    auto        out  = std::ostringstream{};
    const auto& d    = rec.data.dispatch_info;
    auto        grid = static_cast<uint64_t>(d.grid_size.x) * d.grid_size.y * d.grid_size.z;
    auto wg = static_cast<uint64_t>(d.workgroup_size.x) * d.workgroup_size.y * d.workgroup_size.z;
    for(const auto& v : rec.values)
    {
        out << rec.data.correlation_id.internal << ',' << d.dispatch_id << ','
            << csv_quote(agent_label(data, d.agent_id)) << ',' << d.queue_id.handle << ','
            << data.pid << ',' << rec.thread_id << ',' << grid << ',' << d.kernel_id << ','
            << csv_quote(data.kernel_name(d.kernel_id)) << ',' << wg << ',' << d.group_segment_size
            << ',' << d.private_segment_size << ',' << register_columns(data, d.kernel_id) << ','
            << csv_quote(v.name) << ',' << csv_counter_value(v.value) << ','
            << rec.data.start_timestamp << ',' << rec.data.end_timestamp << '\n';
    }
    return out.str();
}

std::string
memory_copy_trace_csv_header()
{
    return "\"Kind\",\"Direction\",\"Stream_Id\",\"Source_Agent_Id\",\"Destination_Agent_Id\","
           "\"Correlation_Id\",\"Start_Timestamp\",\"End_Timestamp\",\"Bytes\","
           "\"Source_Address\",\"Destination_Address\",\"Thread_Id\"\n";
}

std::string
memory_copy_trace_csv_row(const results&                                         data,
                          const rocprofiler_buffer_tracing_memory_copy_record_t& r)
{
    auto out = std::ostringstream{};
    // Stream_Id: 0, as for kernel dispatches (no stream is known). Addresses in hexadecimal.
    out << csv_quote("MEMORY_COPY") << ',' << csv_quote(memory_copy_direction_name(r.operation))
        << ',' << 0 << ',' << csv_memory_copy_agent(data, r.src_agent_id) << ','
        << csv_memory_copy_agent(data, r.dst_agent_id) << ',' << r.correlation_id.internal << ','
        << r.start_timestamp << ',' << r.end_timestamp << ',' << r.bytes << ",0x" << std::hex
        << r.src_address.handle << ",0x" << r.dst_address.handle << std::dec << ',' << r.thread_id
        << '\n';
    return out.str();
}

std::string
marker_api_trace_csv_header()
{
    return "\"Domain\",\"Function\",\"Process_Id\",\"Thread_Id\",\"Correlation_Id\","
           "\"Start_Timestamp\",\"End_Timestamp\"\n";
}

std::string
marker_api_trace_csv_row(const results& data, const marker_event& e)
{
    auto out = std::ostringstream{};
    out << csv_quote(e.domain) << ',' << csv_quote(e.function) << ',' << data.pid << ','
        << e.thread_id << ',' << e.correlation_id << ',' << e.start << ',' << e.end << '\n';
    return out.str();
}

std::string
kernel_trace_csv(const results& data)
{
    auto out = kernel_trace_csv_header();
    for(const auto& r : data.dispatches)
        out += kernel_trace_csv_row(data, r);
    return out;
}

std::string
counter_collection_csv(const results& data)
{
    auto out = counter_collection_csv_header();
    for(const auto& rec : data.counter_records)
        out += counter_collection_csv_rows(data, rec);
    return out;
}

std::string
memory_copy_trace_csv(const results& data)
{
    auto out = memory_copy_trace_csv_header();
    for(const auto& r : data.memory_copies)
        out += memory_copy_trace_csv_row(data, r);
    return out;
}

std::string
agent_info_csv(const results& data)
{
    auto out = std::ostringstream{};
    out << "\"Node_Id\",\"Logical_Node_Id\",\"Agent_Type\",\"Cpu_Cores_Count\",\"Simd_Count\","
           "\"Cpu_Core_Id_Base\",\"Simd_Id_Base\",\"Max_Waves_Per_Simd\",\"Lds_Size_In_Kb\","
           "\"Gds_Size_In_Kb\",\"Num_Gws\",\"Wave_Front_Size\",\"Num_Xcc\",\"Cu_Count\","
           "\"Array_Count\",\"Num_Shader_Banks\",\"Simd_Arrays_Per_Engine\","
           "\"Cu_Per_Simd_Array\",\"Simd_Per_Cu\",\"Max_Slots_Scratch_Cu\","
           "\"Gfx_Target_Version\",\"Vendor_Id\",\"Device_Id\",\"Location_Id\",\"Domain\","
           "\"Drm_Render_Minor\",\"Num_Sdma_Engines\",\"Num_Sdma_Xgmi_Engines\","
           "\"Num_Sdma_Queues_Per_Engine\",\"Num_Cp_Queues\",\"Max_Engine_Clk_Ccompute\","
           "\"Max_Engine_Clk_Fcompute\",\"Sdma_Fw_Version\",\"Fw_Version\",\"Capability\","
           "\"Cu_Per_Engine\",\"Max_Waves_Per_Cu\",\"Family_Id\",\"Workgroup_Max_Size\","
           "\"Grid_Max_Size\",\"Local_Mem_Size\",\"Hive_Id\",\"Gpu_Id\","
           "\"Workgroup_Max_Dim_X\",\"Workgroup_Max_Dim_Y\",\"Workgroup_Max_Dim_Z\","
           "\"Grid_Max_Dim_X\",\"Grid_Max_Dim_Y\",\"Grid_Max_Dim_Z\",\"Name\",\"Vendor_Name\","
           "\"Product_Name\",\"Model_Name\"\n";
    for(const auto& a : data.agents)
    {
        const auto& i = a.info;
        out << i.node_id << ',' << i.logical_node_id << ','
            << csv_quote(i.type == ROCPROFILER_AGENT_TYPE_GPU   ? "GPU"
                         : i.type == ROCPROFILER_AGENT_TYPE_CPU ? "CPU"
                                                                : "NONE")
            << ',' << i.cpu_cores_count << ',' << i.simd_count << ',' << i.cpu_core_id_base << ','
            << i.simd_id_base << ',' << i.max_waves_per_simd << ',' << i.lds_size_in_kb << ','
            << i.gds_size_in_kb << ',' << i.num_gws << ',' << i.wave_front_size << ',' << i.num_xcc
            << ',' << i.cu_count << ',' << i.array_count << ',' << i.num_shader_banks << ','
            << i.simd_arrays_per_engine << ',' << i.cu_per_simd_array << ',' << i.simd_per_cu << ','
            << i.max_slots_scratch_cu << ',' << i.gfx_target_version << ',' << i.vendor_id << ','
            << i.device_id << ',' << i.location_id << ',' << i.domain << ',' << i.drm_render_minor
            << ',' << i.num_sdma_engines << ',' << i.num_sdma_xgmi_engines << ','
            << i.num_sdma_queues_per_engine << ',' << i.num_cp_queues << ','
            << i.max_engine_clk_ccompute << ',' << i.max_engine_clk_fcompute << ','
            << i.sdma_fw_version.Value << ',' << i.fw_version.Value << ',' << i.capability.Value
            << ',' << i.cu_per_engine << ',' << i.max_waves_per_cu << ',' << i.family_id << ','
            << i.workgroup_max_size << ',' << i.grid_max_size << ',' << i.local_mem_size << ','
            << i.hive_id << ',' << i.gpu_id << ',' << i.workgroup_max_dim.x << ','
            << i.workgroup_max_dim.y << ',' << i.workgroup_max_dim.z << ',' << i.grid_max_dim.x
            << ',' << i.grid_max_dim.y << ',' << i.grid_max_dim.z << ',' << csv_quote(a.name) << ','
            << csv_quote(a.vendor_name) << ',' << csv_quote(a.product_name) << ','
            << csv_quote(a.model_name) << '\n';
    }
    return out.str();
}

std::string
kernel_stats_csv(const std::vector<kernel_stat>& stats)
{
    auto out = std::ostringstream{};
    out << std::fixed << std::setprecision(2);
    out << "\"Name\",\"Calls\",\"TotalDurationNs\",\"AverageNs\",\"Percentage\",\"MinNs\","
           "\"MaxNs\",\"StdDev\"\n";
    for(const auto& s : stats)
        out << csv_quote(s.name) << ',' << s.calls << ',' << s.total_ns << ',' << s.average_ns
            << ',' << s.percentage << ',' << s.min_ns << ',' << s.max_ns << ',' << s.stddev_ns
            << '\n';
    return out.str();
}
} // namespace rocprofiler::tool

namespace rocprofiler::tool
{
namespace
{
// The columns both PC sampling files share, up to Correlation_Id, and the PC after them.
template <typename RecordT>
std::string
pc_sample_columns(const RecordT& r)
{
    return std::to_string(r.timestamp) + ',' + std::to_string(r.exec_mask) + ',' +
           std::to_string(r.dispatch_id) + ",\"\",\"\"," +
           std::to_string(r.correlation_id.internal);
}

template <typename RecordT>
std::string
pc_columns(const RecordT& r)
{
    return ',' + std::to_string(r.pc.code_object_id) + ',' +
           std::to_string(r.pc.code_object_offset);
}

const char* const pc_sample_header =
    "\"Sample_Timestamp\",\"Exec_Mask\",\"Dispatch_Id\",\"Instruction\",\"Instruction_Comment\","
    "\"Correlation_Id\"";
const char* const pc_header = ",\"Code_Object_Id\",\"Code_Object_Offset\"\n";
} // namespace

std::string
pc_sampling_host_trap_csv_header()
{
    return std::string{pc_sample_header} + pc_header;
}

std::string
pc_sampling_host_trap_csv_row(const rocprofiler_pc_sampling_record_host_trap_v0_t& r)
{
    return pc_sample_columns(r) + pc_columns(r) + '\n';
}

std::string
pc_sampling_stochastic_csv_header()
{
    return std::string{pc_sample_header} +
           ",\"Wave_Issued_Instruction\",\"Instruction_Type\",\"Stall_Reason\",\"Wave_Count\"" +
           pc_header;
}

std::string
pc_sampling_stochastic_csv_row(const results&                                        data,
                               const rocprofiler_pc_sampling_record_stochastic_v0_t& r)
{
    auto name = [](results::pc_sampling_name_fn fn, uint32_t value)
    {
        const char* text = fn != nullptr ? fn(value) : nullptr;
        return text != nullptr ? std::string{text} : "unknown (" + std::to_string(value) + ")";
    };
    auto stall = std::string{};
    if(r.wave_issued == 0)
        stall = name(data.pc_not_issued_reason_name, r.snapshot.reason_not_issued);
    return pc_sample_columns(r) + ',' + std::to_string(r.wave_issued) + ',' +
           csv_quote(name(data.pc_instruction_type_name, r.inst_type)) + ',' + csv_quote(stall) +
           ',' + std::to_string(r.wave_count) + pc_columns(r) + '\n';
}
} // namespace rocprofiler::tool
