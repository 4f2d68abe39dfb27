// The C++ side of the compile check of pc_sampling.h, experimental/spm.h and
// experimental/thread_trace.h, and their ABI: the sizes, offsets, bit-field positions and
// enumerator values of rocprofiler-sdk's headers (x86-64 / LP64), written down here so that an
// edit that changes the ABI fails to compile or fails a test. The C99 file checks the same
// layout as C sees it and reports what it saw.
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <gtest/gtest.h>

#include "sampling_headers_c.h"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace
{
// --- pc_sampling.h -------------------------------------------------------------------------------
static_assert(ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING == 2);
static_assert(ROCPROFILER_PC_SAMPLING_METHOD_NONE == 0 &&
              ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC == 1 &&
              ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP == 2 &&
              ROCPROFILER_PC_SAMPLING_METHOD_LAST == 3);
static_assert(ROCPROFILER_PC_SAMPLING_UNIT_NONE == 0 &&
              ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS == 1 &&
              ROCPROFILER_PC_SAMPLING_UNIT_CYCLES == 2 && ROCPROFILER_PC_SAMPLING_UNIT_TIME == 3 &&
              ROCPROFILER_PC_SAMPLING_UNIT_LAST == 4);
static_assert(ROCPROFILER_PC_SAMPLING_RECORD_NONE == 0 &&
              ROCPROFILER_PC_SAMPLING_RECORD_INVALID_SAMPLE == 1 &&
              ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE == 2 &&
              ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE == 3 &&
              ROCPROFILER_PC_SAMPLING_RECORD_LAST == 4);
static_assert(ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_NONE == 0 &&
              ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2 == 1 &&
              ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_LAST == 2);
static_assert(ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU == 1 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER == 10 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN == 11 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST == 15 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU == 16 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST == 17);
static_assert(ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE == 1 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT == 3 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL == 7 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT == 9 &&
              ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST == 10);

static_assert(sizeof(rocprofiler_pc_sampling_configuration_t) == 40);
static_assert(offsetof(rocprofiler_pc_sampling_configuration_t, method) == 8);
static_assert(offsetof(rocprofiler_pc_sampling_configuration_t, unit) == 12);
static_assert(offsetof(rocprofiler_pc_sampling_configuration_t, min_interval) == 16);
static_assert(offsetof(rocprofiler_pc_sampling_configuration_t, max_interval) == 24);
static_assert(offsetof(rocprofiler_pc_sampling_configuration_t, flags) == 32);
static_assert(sizeof(rocprofiler_pc_sampling_hw_id_v0_t) == 8);
static_assert(sizeof(rocprofiler_pc_t) == 16);
static_assert(sizeof(rocprofiler_pc_sampling_record_host_trap_v0_t) == 88);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, hw_id) == 8);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, pc) == 16);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, exec_mask) == 32);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, timestamp) == 40);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, dispatch_id) == 48);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, correlation_id) == 56);
static_assert(offsetof(rocprofiler_pc_sampling_record_host_trap_v0_t, workgroup_id) == 72);
static_assert(sizeof(rocprofiler_pc_sampling_record_stochastic_header_t) == 1);
static_assert(sizeof(rocprofiler_pc_sampling_snapshot_v0_t) == 4);
static_assert(sizeof(rocprofiler_pc_sampling_memory_counters_t) == 4);
static_assert(sizeof(rocprofiler_pc_sampling_record_stochastic_v0_t) == 104);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, flags) == 8);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, wave_in_group) == 9);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, hw_id) == 16);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, pc) == 24);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, exec_mask) == 40);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, workgroup_id) == 48);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, wave_count) == 60);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, timestamp) == 64);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, dispatch_id) == 72);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, correlation_id) == 80);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, snapshot) == 96);
static_assert(offsetof(rocprofiler_pc_sampling_record_stochastic_v0_t, memory_counters) == 100);
static_assert(sizeof(rocprofiler_pc_sampling_record_invalid_t) == 8);
static_assert(ROCPROFILER_CODE_OBJECT_ID_NONE == 0);

// --- experimental/spm.h --------------------------------------------------------------------------
static_assert(ROCPROFILER_SPM_PARAMETER_TYPE_NONE == 0 &&
              ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES == 1 &&
              ROCPROFILER_SPM_PARAMETER_TYPE_LAST == 2);
static_assert(ROCPROFILER_SPM_RECORD_FLAG_NONE == 0 && ROCPROFILER_SPM_RECORD_FLAG_DATA == 1 &&
              ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS == 2 &&
              ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END == 4 &&
              ROCPROFILER_SPM_RECORD_FLAG_LAST == 8);
static_assert(sizeof(rocprofiler_spm_available_configuration_t) == 32);
static_assert(offsetof(rocprofiler_spm_available_configuration_t, type) == 8);
static_assert(offsetof(rocprofiler_spm_available_configuration_t, interval) == 16);
static_assert(sizeof(rocprofiler_spm_parameters_t) == 24);
static_assert(offsetof(rocprofiler_spm_parameters_t, type) == 8);
static_assert(offsetof(rocprofiler_spm_parameters_t, value) == 16);
static_assert(sizeof(rocprofiler_spm_dispatch_counting_service_data_t) == 152);
static_assert(offsetof(rocprofiler_spm_dispatch_counting_service_data_t, correlation_id) == 8);
static_assert(offsetof(rocprofiler_spm_dispatch_counting_service_data_t, dispatch_info) == 24);
static_assert(sizeof(rocprofiler_spm_counter_record_t) == 48);
static_assert(offsetof(rocprofiler_spm_counter_record_t, dispatch_id) == 8);
static_assert(offsetof(rocprofiler_spm_counter_record_t, id) == 16);
static_assert(offsetof(rocprofiler_spm_counter_record_t, agent_id) == 24);
static_assert(offsetof(rocprofiler_spm_counter_record_t, timestamp) == 32);
static_assert(offsetof(rocprofiler_spm_counter_record_t, value) == 40);

// --- experimental/thread_trace.h -----------------------------------------------------------------
static_assert(ROCPROFILER_THREAD_TRACE_PARAMETER_TARGET_CU == 0 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_SHADER_ENGINE_MASK == 1 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_BUFFER_SIZE == 2 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_SIMD_SELECT == 3 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTERS_CTRL == 4 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER == 5 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_SERIALIZE_ALL == 6 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER_EXCLUDE_MASK == 7 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_NO_DETAIL == 8 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_NUM_BUFFERS == 9 &&
              ROCPROFILER_THREAD_TRACE_PARAMETER_LAST == 10);
static_assert(ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_NONE == 0 &&
              ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_END == 1 &&
              ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_GPU_BUFFER_FULL == 2 &&
              ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_CPU_BUFFER_FULL == 4 &&
              ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_LAST == 4);
static_assert(ROCPROFILER_THREAD_TRACE_CONTROL_NONE == 0 &&
              ROCPROFILER_THREAD_TRACE_CONTROL_START_AND_STOP == 3);
static_assert(sizeof(rocprofiler_thread_trace_parameter_t) == 24);
static_assert(offsetof(rocprofiler_thread_trace_parameter_t, value) == 8);
static_assert(offsetof(rocprofiler_thread_trace_parameter_t, counter_id) == 8);
static_assert(sizeof(rocprofiler_thread_trace_timestamp_t) == 16);
static_assert(sizeof(rocprofiler_thread_trace_shader_data_t) == 96);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, data) == 8);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, data_size) == 16);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, shader_engine_id) == 24);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, chunk_index) == 32);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, read_offset) == 40);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, agent) == 48);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, flags) == 56);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, start_timestamp) == 64);
static_assert(offsetof(rocprofiler_thread_trace_shader_data_t, end_timestamp) == 80);

// Every function, with its exact type.
static_assert(std::is_same_v<decltype(&rocprofiler_configure_pc_sampling_service),
                             rocprofiler_status_t (*)(rocprofiler_context_id_t,
                                                      rocprofiler_agent_id_t,
                                                      rocprofiler_pc_sampling_method_t,
                                                      rocprofiler_pc_sampling_unit_t,
                                                      uint64_t,
                                                      rocprofiler_buffer_id_t,
                                                      int)>);
static_assert(
    std::is_same_v<decltype(&rocprofiler_query_pc_sampling_agent_configurations),
                   rocprofiler_status_t (*)(rocprofiler_agent_id_t,
                                            rocprofiler_available_pc_sampling_configurations_cb_t,
                                            void*)>);
static_assert(std::is_same_v<decltype(&rocprofiler_spm_create_counter_config),
                             rocprofiler_status_t (*)(rocprofiler_agent_id_t,
                                                      rocprofiler_counter_id_t*,
                                                      size_t,
                                                      rocprofiler_spm_parameters_t**,
                                                      size_t,
                                                      rocprofiler_counter_config_id_t*)>);
static_assert(
    std::is_same_v<rocprofiler_thread_trace_shader_data_callback_t,
                   void (*)(rocprofiler_thread_trace_shader_data_t, rocprofiler_user_data_t)>);

// The value of the bits of a bit-field struct, with one field set.
template <typename T, typename Word>
Word
bits_of(const T& value)
{
    static_assert(sizeof(T) == sizeof(Word));
    auto word = Word{};
    std::memcpy(&word, &value, sizeof(word));
    return word;
}

TEST(sampling_headers, hw_id_bit_positions)
{
    auto check = [](auto set, int first_bit, int width)
    {
        auto id = rocprofiler_pc_sampling_hw_id_v0_t{};
        set(id, (uint64_t{1} << width) - 1);
        const auto expected = ((uint64_t{1} << width) - 1) << first_bit;
        EXPECT_EQ((bits_of<rocprofiler_pc_sampling_hw_id_v0_t, uint64_t>(id)), expected)
            << "field at bit " << first_bit;
    };
    check([](auto& id, uint64_t v) { id.chiplet = v; }, 0, 6);
    check([](auto& id, uint64_t v) { id.wave_id = v; }, 6, 7);
    check([](auto& id, uint64_t v) { id.simd_id = v; }, 13, 2);
    check([](auto& id, uint64_t v) { id.pipe_id = v; }, 15, 4);
    check([](auto& id, uint64_t v) { id.cu_or_wgp_id = v; }, 19, 4);
    check([](auto& id, uint64_t v) { id.shader_array_id = v; }, 23, 1);
    check([](auto& id, uint64_t v) { id.shader_engine_id = v; }, 24, 5);
    check([](auto& id, uint64_t v) { id.workgroup_id = v; }, 29, 7);
    check([](auto& id, uint64_t v) { id.vm_id = v; }, 36, 6);
    check([](auto& id, uint64_t v) { id.queue_id = v; }, 42, 4);
    check([](auto& id, uint64_t v) { id.microengine_id = v; }, 46, 2);
    check([](auto& id, uint64_t v) { id.reserved0 = v; }, 48, 16);
}

TEST(sampling_headers, snapshot_and_counter_bit_positions)
{
    auto snap              = rocprofiler_pc_sampling_snapshot_v0_t{};
    snap.reason_not_issued = 0xf;
    EXPECT_EQ((bits_of<rocprofiler_pc_sampling_snapshot_v0_t, uint32_t>(snap)), 0xfu);
    snap                      = {};
    snap.arb_state_issue_valu = 1;
    EXPECT_EQ((bits_of<rocprofiler_pc_sampling_snapshot_v0_t, uint32_t>(snap)), 1u << 5);
    snap                      = {};
    snap.arb_state_stall_valu = 1;
    EXPECT_EQ((bits_of<rocprofiler_pc_sampling_snapshot_v0_t, uint32_t>(snap)), 1u << 16);
    snap                 = {};
    snap.dual_issue_valu = 1;
    EXPECT_EQ((bits_of<rocprofiler_pc_sampling_snapshot_v0_t, uint32_t>(snap)), 1u << 27);

    auto mem   = rocprofiler_pc_sampling_memory_counters_t{};
    mem.km_cnt = 0x1f;
    EXPECT_EQ((bits_of<rocprofiler_pc_sampling_memory_counters_t, uint32_t>(mem)), 0x1fu << 27);
    mem        = {};
    mem.ds_cnt = 0x3f;
    EXPECT_EQ((bits_of<rocprofiler_pc_sampling_memory_counters_t, uint32_t>(mem)), 0x3fu << 21);

    // The byte after wave_in_group: wave_issued is bit 0, inst_type bits 1-5.
    auto record        = rocprofiler_pc_sampling_record_stochastic_v0_t{};
    record.wave_issued = 1;
    record.inst_type   = ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU;
    unsigned char byte = 0;
    std::memcpy(&byte, reinterpret_cast<const unsigned char*>(&record) + 10, 1);
    EXPECT_EQ(byte, 1u | (16u << 1));

    auto trap          = rocprofiler_pc_sampling_record_host_trap_v0_t{};
    trap.wave_in_group = 0xff;
    uint32_t word      = 0;
    std::memcpy(&word, reinterpret_cast<const unsigned char*>(&trap) + 84, 4);
    EXPECT_EQ(word, 0xffu);
}

TEST(sampling_headers, thread_trace_parameter_union)
{
    auto param              = rocprofiler_thread_trace_parameter_t{};
    param.type              = ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER;
    param.counter_id.handle = 7;
    param.simd_mask         = 0xf;
    EXPECT_EQ(param.value, 7u) << "counter_id shares its bytes with value";
    uint64_t mask_word = 0;
    std::memcpy(&mask_word, reinterpret_cast<const unsigned char*>(&param) + 16, 8);
    EXPECT_EQ(mask_word, 0xfu);
}

// The C99 file compiled, linked against the library (every function resolved), and saw the same
// enumerators and struct sizes as C++.
TEST(sampling_headers, c99_translation_unit_agrees)
{
    const auto c = sampling_headers_c_summary();
    EXPECT_EQ(c.functions, 13u);
    EXPECT_EQ(c.functions_resolved, c.functions);
    EXPECT_EQ(c.enumerators, 73u);
    // The C list in declaration order: its values summed as C++ sees them.
    const long expected_sum = 2 + (0 + 1 + 2 + 3) + (0 + 1 + 2 + 3 + 4) + (0 + 1 + 2 + 3 + 4) +
                              (0 + 1 + 2) + (17 * 18 / 2) + (10 * 11 / 2) + (0 + 1 + 2) +
                              (0 + 1 + 2 + 4 + 8) + (10 * 11 / 2) + (0 + 1 + 2 + 4 + 4) + (0 + 3);
    EXPECT_EQ(c.enumerator_sum, expected_sum);
    const size_t cxx_bytes =
        sizeof(rocprofiler_pc_sampling_configuration_t) +
        sizeof(rocprofiler_pc_sampling_hw_id_v0_t) + sizeof(rocprofiler_pc_t) +
        sizeof(rocprofiler_pc_sampling_record_host_trap_v0_t) +
        sizeof(rocprofiler_pc_sampling_record_stochastic_header_t) +
        sizeof(rocprofiler_pc_sampling_snapshot_v0_t) +
        sizeof(rocprofiler_pc_sampling_memory_counters_t) +
        sizeof(rocprofiler_pc_sampling_record_stochastic_v0_t) +
        sizeof(rocprofiler_pc_sampling_record_invalid_t) +
        sizeof(rocprofiler_spm_available_configuration_t) + sizeof(rocprofiler_spm_parameters_t) +
        sizeof(rocprofiler_spm_dispatch_counting_service_data_t) +
        sizeof(rocprofiler_spm_counter_record_t) + sizeof(rocprofiler_thread_trace_parameter_t) +
        sizeof(rocprofiler_thread_trace_timestamp_t) +
        sizeof(rocprofiler_thread_trace_shader_data_t);
    EXPECT_EQ(c.struct_bytes, cxx_bytes);
    EXPECT_EQ(c.stochastic_record_size, 104u);
}
} // namespace
