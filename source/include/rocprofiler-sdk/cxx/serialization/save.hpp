/**
 * @file cxx/serialization/save.hpp
 * @brief cereal `save` functions for the handles and records this SDK delivers, so that a tool
 * writes them with `ar(cereal::make_nvp("name", record))` in any cereal archive (JSON, binary).
 *
 * Every record is saved as an object whose keys are its field names; strings that may be NULL are
 * saved as "" ; enumerations as their integer value; unions as the member the SDK fills. Records
 * of runtimes that never run here (HSA, HIP, RCCL, rocDecode, rocJPEG, OMPT arguments) have no
 * save function. The functions live in namespace cereal (ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN /
 * _END may name another), where cereal finds them. C++17.
 */
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/buffer_tracing.h>
#include <rocprofiler-sdk/callback_tracing.h>
#include <rocprofiler-sdk/counters.h>
#include <rocprofiler-sdk/cxx/name_info.hpp>
#include <rocprofiler-sdk/dispatch_counting_service.h>
#include <rocprofiler-sdk/fwd.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <cereal/archives/binary.hpp>
#include <cereal/archives/json.hpp>
#include <cereal/archives/portable_binary.hpp>
#include <cereal/cereal.hpp>
#include <cereal/types/common.hpp>
#include <cereal/types/map.hpp>
#include <cereal/types/string.hpp>
#include <cereal/types/utility.hpp>
#include <cereal/types/vector.hpp>

#include <cstdint>
#include <string>
#include <type_traits>
#include <vector>

/* Helpers of the save functions (and of a tool's own): each saves one named value of `data`. */
#define ROCP_SDK_SAVE_DATA_FIELD(FIELD) ar(make_nvp(#FIELD, data.FIELD))
#define ROCP_SDK_SAVE_DATA_VALUE(NAME, VALUE) ar(make_nvp(NAME, data.VALUE))
#define ROCP_SDK_SAVE_VALUE(NAME, VALUE) ar(make_nvp(NAME, VALUE))
#define ROCP_SDK_SAVE_DATA_CSTR(FIELD)                                                             \
    ar(make_nvp(#FIELD, std::string{data.FIELD != nullptr ? data.FIELD : ""}))
#define ROCP_SDK_SAVE_DATA_BITFIELD(NAME, VALUE)                                                   \
    {                                                                                              \
        auto _val = data.VALUE;                                                                    \
        ar(make_nvp(NAME, _val));                                                                  \
    }

#if !defined(ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN)
#    define ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN                                                 \
        namespace cereal                                                                           \
        {
#endif

#if !defined(ROCPROFILER_SDK_CEREAL_NAMESPACE_END)
#    define ROCPROFILER_SDK_CEREAL_NAMESPACE_END } // namespace cereal
#endif

ROCPROFILER_SDK_CEREAL_NAMESPACE_BEGIN

// Handles: one field, "handle".
#define ROCP_SDK_SAVE_HANDLE(TYPE)                                                                 \
    template <typename ArchiveT> void save(ArchiveT& ar, TYPE data)                                \
    {                                                                                              \
        ROCP_SDK_SAVE_DATA_FIELD(handle);                                                          \
    }

ROCP_SDK_SAVE_HANDLE(rocprofiler_context_id_t)
ROCP_SDK_SAVE_HANDLE(rocprofiler_agent_id_t)
ROCP_SDK_SAVE_HANDLE(hsa_agent_t)
ROCP_SDK_SAVE_HANDLE(rocprofiler_queue_id_t)
ROCP_SDK_SAVE_HANDLE(rocprofiler_stream_id_t)
ROCP_SDK_SAVE_HANDLE(rocprofiler_counter_id_t)
ROCP_SDK_SAVE_HANDLE(rocprofiler_buffer_id_t)
ROCP_SDK_SAVE_HANDLE(rocprofiler_counter_config_id_t)
#undef ROCP_SDK_SAVE_HANDLE

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_address_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(handle);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_user_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(value);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_correlation_id_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(internal);
    ROCP_SDK_SAVE_DATA_VALUE("external", external.value);
    ROCP_SDK_SAVE_DATA_FIELD(ancestor);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_async_correlation_id_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(internal);
    ROCP_SDK_SAVE_DATA_VALUE("external", external.value);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_dim3_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(x);
    ROCP_SDK_SAVE_DATA_FIELD(y);
    ROCP_SDK_SAVE_DATA_FIELD(z);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_kernel_dispatch_info_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(queue_id);
    ROCP_SDK_SAVE_DATA_FIELD(kernel_id);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
    ROCP_SDK_SAVE_DATA_FIELD(private_segment_size);
    ROCP_SDK_SAVE_DATA_FIELD(group_segment_size);
    ROCP_SDK_SAVE_DATA_FIELD(workgroup_size);
    ROCP_SDK_SAVE_DATA_FIELD(grid_size);
}

// Callback tracing payloads.

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_record_t data)
{
    ROCP_SDK_SAVE_DATA_VALUE("context_id", context_id.handle);
    ROCP_SDK_SAVE_DATA_FIELD(thread_id);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(operation);
    ROCP_SDK_SAVE_DATA_FIELD(phase);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_code_object_load_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
    ROCP_SDK_SAVE_DATA_FIELD(rocp_agent);
    ROCP_SDK_SAVE_DATA_FIELD(hsa_agent);
    ROCP_SDK_SAVE_DATA_CSTR(uri);
    ROCP_SDK_SAVE_DATA_FIELD(load_base);
    ROCP_SDK_SAVE_DATA_FIELD(load_size);
    ROCP_SDK_SAVE_DATA_FIELD(load_delta);
    ROCP_SDK_SAVE_DATA_FIELD(storage_type);
    if(data.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_FILE)
    {
        ROCP_SDK_SAVE_DATA_FIELD(storage_file);
    }
    else if(data.storage_type == ROCPROFILER_CODE_OBJECT_STORAGE_TYPE_MEMORY)
    {
        ROCP_SDK_SAVE_DATA_FIELD(memory_base);
        ROCP_SDK_SAVE_DATA_FIELD(memory_size);
    }
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_code_object_kernel_symbol_register_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kernel_id);
    ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
    ROCP_SDK_SAVE_DATA_CSTR(kernel_name);
    ROCP_SDK_SAVE_DATA_FIELD(kernel_object);
    ROCP_SDK_SAVE_DATA_FIELD(kernarg_segment_size);
    ROCP_SDK_SAVE_DATA_FIELD(kernarg_segment_alignment);
    ROCP_SDK_SAVE_DATA_FIELD(group_segment_size);
    ROCP_SDK_SAVE_DATA_FIELD(private_segment_size);
    ROCP_SDK_SAVE_DATA_FIELD(sgpr_count);
    ROCP_SDK_SAVE_DATA_FIELD(arch_vgpr_count);
    ROCP_SDK_SAVE_DATA_FIELD(accum_vgpr_count);
    ROCP_SDK_SAVE_DATA_FIELD(kernel_code_entry_byte_offset);
    ROCP_SDK_SAVE_DATA_FIELD(kernel_address);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_kernel_dispatch_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_memory_copy_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dst_agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(src_agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(bytes);
    ROCP_SDK_SAVE_DATA_FIELD(dst_address);
    ROCP_SDK_SAVE_DATA_FIELD(src_address);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_memory_allocation_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(address);
    ROCP_SDK_SAVE_DATA_FIELD(allocation_size);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_callback_tracing_runtime_initialization_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(version);
    ROCP_SDK_SAVE_DATA_FIELD(instance);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_marker_api_retval_t data)
{
    // The widest member: every retval of a marker function fits it.
    ROCP_SDK_SAVE_DATA_FIELD(int64_t_retval);
}

// Buffer tracing records. The API records of every runtime share one shape.

template <typename ArchiveT, typename RecordT>
void
save_api_record(ArchiveT& ar, const RecordT& data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(operation);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(thread_id);
}

#define ROCP_SDK_SAVE_API_RECORD(TYPE)                                                             \
    template <typename ArchiveT> void save(ArchiveT& ar, TYPE data)                                \
    {                                                                                              \
        save_api_record(ar, data);                                                                 \
    }

ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_hsa_api_record_t)
ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_hip_api_record_t)
ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_marker_api_record_t)
ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_rccl_api_record_t)
ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_rocdecode_api_record_t)
ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_rocjpeg_api_record_t)
ROCP_SDK_SAVE_API_RECORD(rocprofiler_buffer_tracing_cuda_api_record_t)
#undef ROCP_SDK_SAVE_API_RECORD

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_buffer_tracing_kernel_dispatch_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(operation);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(thread_id);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_buffer_tracing_memory_copy_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(operation);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(thread_id);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dst_agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(src_agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(bytes);
    ROCP_SDK_SAVE_DATA_FIELD(dst_address);
    ROCP_SDK_SAVE_DATA_FIELD(src_address);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_buffer_tracing_memory_allocation_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(operation);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(thread_id);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(agent_id);
    ROCP_SDK_SAVE_DATA_FIELD(address);
    ROCP_SDK_SAVE_DATA_FIELD(allocation_size);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_buffer_tracing_correlation_id_retirement_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(internal_correlation_id);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_buffer_tracing_runtime_initialization_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(kind);
    ROCP_SDK_SAVE_DATA_FIELD(operation);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(thread_id);
    ROCP_SDK_SAVE_DATA_FIELD(timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(version);
    ROCP_SDK_SAVE_DATA_FIELD(instance);
}

// Counters.

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_counter_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(id);
    ROCP_SDK_SAVE_DATA_FIELD(counter_value);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
    ROCP_SDK_SAVE_DATA_VALUE("user_data", user_data.value);
    ROCP_SDK_SAVE_DATA_FIELD(agent_id);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_dispatch_counting_service_data_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_dispatch_counting_service_record_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(num_records);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(start_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(end_timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_info);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_counter_record_dimension_info_t data)
{
    ROCP_SDK_SAVE_DATA_CSTR(name);
    ROCP_SDK_SAVE_DATA_FIELD(instance_size);
    ROCP_SDK_SAVE_DATA_FIELD(id);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_counter_dimension_info_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_CSTR(dimension_name);
    ROCP_SDK_SAVE_DATA_FIELD(index);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_counter_record_dimension_instance_info_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(instance_id);
    ROCP_SDK_SAVE_DATA_FIELD(counter_id);
    auto dimensions = std::vector<rocprofiler_counter_dimension_info_t>{};
    for(uint64_t i = 0; data.dimensions != nullptr && i < data.dimensions_count; ++i)
        if(data.dimensions[i] != nullptr) dimensions.emplace_back(*data.dimensions[i]);
    ROCP_SDK_SAVE_VALUE("dimensions", dimensions);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_counter_info_v0_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(id);
    ROCP_SDK_SAVE_DATA_CSTR(name);
    ROCP_SDK_SAVE_DATA_CSTR(description);
    ROCP_SDK_SAVE_DATA_CSTR(block);
    ROCP_SDK_SAVE_DATA_CSTR(expression);
    ROCP_SDK_SAVE_DATA_BITFIELD("is_constant", is_constant);
    ROCP_SDK_SAVE_DATA_BITFIELD("is_derived", is_derived);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_counter_info_v1_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(id);
    ROCP_SDK_SAVE_DATA_CSTR(name);
    ROCP_SDK_SAVE_DATA_CSTR(description);
    ROCP_SDK_SAVE_DATA_CSTR(block);
    ROCP_SDK_SAVE_DATA_CSTR(expression);
    ROCP_SDK_SAVE_DATA_BITFIELD("is_constant", is_constant);
    ROCP_SDK_SAVE_DATA_BITFIELD("is_derived", is_derived);
    auto dimensions = std::vector<rocprofiler_counter_record_dimension_info_t>{};
    for(uint64_t i = 0; data.dimensions != nullptr && i < data.dimensions_count; ++i)
        if(data.dimensions[i] != nullptr) dimensions.emplace_back(*data.dimensions[i]);
    ROCP_SDK_SAVE_VALUE("dimensions", dimensions);
    auto instances = std::vector<rocprofiler_counter_record_dimension_instance_info_t>{};
    for(uint64_t i = 0; data.dimensions_instances != nullptr && i < data.dimensions_instances_count;
        ++i)
        if(data.dimensions_instances[i] != nullptr)
            instances.emplace_back(*data.dimensions_instances[i]);
    ROCP_SDK_SAVE_VALUE("dimensions_instances", instances);
}

// PC sampling.

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_pc_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(code_object_id);
    ROCP_SDK_SAVE_DATA_FIELD(code_object_offset);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_pc_sampling_hw_id_v0_t data)
{
    ROCP_SDK_SAVE_DATA_BITFIELD("chiplet", chiplet);
    ROCP_SDK_SAVE_DATA_BITFIELD("wave_id", wave_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("simd_id", simd_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("pipe_id", pipe_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("cu_or_wgp_id", cu_or_wgp_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("shader_array_id", shader_array_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("shader_engine_id", shader_engine_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("workgroup_id", workgroup_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("vm_id", vm_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("queue_id", queue_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("microengine_id", microengine_id);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_pc_sampling_record_host_trap_v0_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(hw_id);
    ROCP_SDK_SAVE_DATA_FIELD(pc);
    ROCP_SDK_SAVE_DATA_FIELD(exec_mask);
    ROCP_SDK_SAVE_DATA_FIELD(timestamp);
    ROCP_SDK_SAVE_DATA_FIELD(dispatch_id);
    ROCP_SDK_SAVE_DATA_FIELD(correlation_id);
    ROCP_SDK_SAVE_DATA_FIELD(workgroup_id);
    ROCP_SDK_SAVE_DATA_BITFIELD("wave_in_group", wave_in_group);
}

template <typename ArchiveT>
void
save(ArchiveT& ar, rocprofiler_pc_sampling_configuration_t data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(method);
    ROCP_SDK_SAVE_DATA_FIELD(unit);
    ROCP_SDK_SAVE_DATA_FIELD(min_interval);
    ROCP_SDK_SAVE_DATA_FIELD(max_interval);
    ROCP_SDK_SAVE_DATA_FIELD(flags);
}

// Agents: identity and the compute properties; the HSA/KFD property words are zero here.
template <typename ArchiveT>
void
save(ArchiveT& ar, const rocprofiler_agent_v0_t& data)
{
    ROCP_SDK_SAVE_DATA_FIELD(size);
    ROCP_SDK_SAVE_DATA_FIELD(id);
    ROCP_SDK_SAVE_DATA_FIELD(type);
    ROCP_SDK_SAVE_DATA_FIELD(cpu_cores_count);
    ROCP_SDK_SAVE_DATA_FIELD(simd_count);
    ROCP_SDK_SAVE_DATA_FIELD(mem_banks_count);
    ROCP_SDK_SAVE_DATA_FIELD(caches_count);
    ROCP_SDK_SAVE_DATA_FIELD(io_links_count);
    ROCP_SDK_SAVE_DATA_FIELD(max_waves_per_simd);
    ROCP_SDK_SAVE_DATA_FIELD(lds_size_in_kb);
    ROCP_SDK_SAVE_DATA_FIELD(wave_front_size);
    ROCP_SDK_SAVE_DATA_FIELD(num_xcc);
    ROCP_SDK_SAVE_DATA_FIELD(cu_count);
    ROCP_SDK_SAVE_DATA_FIELD(simd_per_cu);
    ROCP_SDK_SAVE_DATA_FIELD(gfx_target_version);
    ROCP_SDK_SAVE_DATA_FIELD(vendor_id);
    ROCP_SDK_SAVE_DATA_FIELD(device_id);
    ROCP_SDK_SAVE_DATA_FIELD(location_id);
    ROCP_SDK_SAVE_DATA_FIELD(node_id);
    ROCP_SDK_SAVE_DATA_FIELD(logical_node_id);
    ROCP_SDK_SAVE_DATA_FIELD(logical_node_type_id);
    ROCP_SDK_SAVE_DATA_CSTR(name);
    ROCP_SDK_SAVE_DATA_CSTR(vendor_name);
    ROCP_SDK_SAVE_DATA_CSTR(product_name);
    ROCP_SDK_SAVE_DATA_CSTR(model_name);
}

// The name tables of cxx/name_info.hpp: a kind is {kind, name, operations}; a table is the list
// of its kinds, in kind order. A NULL const char* name is saved as "".
template <typename ArchiveT, typename EnumT, typename ValueT>
void
save(ArchiveT& ar, const rocprofiler::sdk::utility::name_info_impl<EnumT, ValueT>& data)
{
    auto to_string = [](const ValueT& value)
    {
        if constexpr(std::is_pointer<ValueT>::value)
            return std::string{value != nullptr ? value : ""};
        else
            return std::string{value};
    };
    ROCP_SDK_SAVE_VALUE("kind", static_cast<int64_t>(data.value));
    ROCP_SDK_SAVE_VALUE("name", to_string(data.name));
    auto operations = std::vector<std::string>{};
    for(const auto& op : data.operations)
        operations.emplace_back(to_string(op));
    ROCP_SDK_SAVE_VALUE("operations", operations);
}

template <typename ArchiveT, typename EnumT, typename ValueT>
void
save(ArchiveT& ar, const rocprofiler::sdk::utility::name_info<EnumT, ValueT>& data)
{
    auto kinds = std::vector<rocprofiler::sdk::utility::name_info_impl<EnumT, ValueT>>{};
    for(const auto& item : data.items())
        if(item != nullptr) kinds.emplace_back(*item);
    ROCP_SDK_SAVE_VALUE("kinds", kinds);
}

ROCPROFILER_SDK_CEREAL_NAMESPACE_END
