/*
 * The C99 compile check of pc_sampling.h, experimental/spm.h and experimental/thread_trace.h
 * (built with -std=c99 -Wall -Wextra -pedantic -Werror): every type, every enumerator and the
 * address of every function, and the layout rocprofiler-sdk gives the structs (x86-64 / LP64),
 * checked at compile time. sampling_headers_c_summary() hands the counts to the C++ test so that
 * the test fails if this file stops taking part.
 */
#include <rocprofiler-sdk/rocprofiler.h>

#include <rocprofiler-sdk/experimental/spm.h>
#include <rocprofiler-sdk/experimental/thread_trace.h>
#include <rocprofiler-sdk/pc_sampling.h>

#include <stddef.h>

#include "sampling_headers_c.h"

/* C99 has no static assertion: an array of negative size does not compile. */
#define CHECK_CAT_(A, B) A##B
#define CHECK_CAT(A, B) CHECK_CAT_(A, B)
#define CHECK(COND) typedef char CHECK_CAT(layout_check_, __LINE__)[(COND) ? 1 : -1]
#define SIZE(T, N) CHECK(sizeof(T) == (N))
#define OFFSET(T, F, N) CHECK(offsetof(T, F) == (N))

/* --- pc_sampling.h ------------------------------------------------------------------------- */
SIZE(rocprofiler_pc_sampling_configuration_t, 40);
OFFSET(rocprofiler_pc_sampling_configuration_t, method, 8);
OFFSET(rocprofiler_pc_sampling_configuration_t, unit, 12);
OFFSET(rocprofiler_pc_sampling_configuration_t, min_interval, 16);
OFFSET(rocprofiler_pc_sampling_configuration_t, max_interval, 24);
OFFSET(rocprofiler_pc_sampling_configuration_t, flags, 32);
SIZE(rocprofiler_pc_sampling_hw_id_v0_t, 8);
SIZE(rocprofiler_pc_t, 16);
OFFSET(rocprofiler_pc_t, code_object_offset, 8);
SIZE(rocprofiler_pc_sampling_record_host_trap_v0_t, 88);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, hw_id, 8);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, pc, 16);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, exec_mask, 32);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, timestamp, 40);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, dispatch_id, 48);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, correlation_id, 56);
OFFSET(rocprofiler_pc_sampling_record_host_trap_v0_t, workgroup_id, 72);
SIZE(rocprofiler_pc_sampling_record_stochastic_header_t, 1);
SIZE(rocprofiler_pc_sampling_snapshot_v0_t, 4);
SIZE(rocprofiler_pc_sampling_memory_counters_t, 4);
SIZE(rocprofiler_pc_sampling_record_stochastic_v0_t, 104);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, flags, 8);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, wave_in_group, 9);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, hw_id, 16);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, pc, 24);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, exec_mask, 40);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, workgroup_id, 48);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, wave_count, 60);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, timestamp, 64);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, dispatch_id, 72);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, correlation_id, 80);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, snapshot, 96);
OFFSET(rocprofiler_pc_sampling_record_stochastic_v0_t, memory_counters, 100);
SIZE(rocprofiler_pc_sampling_record_invalid_t, 8);

/* --- experimental/spm.h -------------------------------------------------------------------- */
SIZE(rocprofiler_spm_available_configuration_t, 32);
OFFSET(rocprofiler_spm_available_configuration_t, type, 8);
OFFSET(rocprofiler_spm_available_configuration_t, interval, 16);
SIZE(rocprofiler_spm_parameters_t, 24);
OFFSET(rocprofiler_spm_parameters_t, type, 8);
OFFSET(rocprofiler_spm_parameters_t, value, 16);
SIZE(rocprofiler_spm_dispatch_counting_service_data_t, 152);
OFFSET(rocprofiler_spm_dispatch_counting_service_data_t, correlation_id, 8);
OFFSET(rocprofiler_spm_dispatch_counting_service_data_t, dispatch_info, 24);
SIZE(rocprofiler_spm_counter_record_t, 48);
OFFSET(rocprofiler_spm_counter_record_t, dispatch_id, 8);
OFFSET(rocprofiler_spm_counter_record_t, id, 16);
OFFSET(rocprofiler_spm_counter_record_t, agent_id, 24);
OFFSET(rocprofiler_spm_counter_record_t, timestamp, 32);
OFFSET(rocprofiler_spm_counter_record_t, value, 40);

/* --- experimental/thread_trace.h ----------------------------------------------------------- */
SIZE(rocprofiler_thread_trace_parameter_t, 24);
OFFSET(rocprofiler_thread_trace_parameter_t, value, 8);
OFFSET(rocprofiler_thread_trace_parameter_t, counter_id, 8);
SIZE(rocprofiler_thread_trace_timestamp_t, 16);
OFFSET(rocprofiler_thread_trace_timestamp_t, system_clock, 8);
SIZE(rocprofiler_thread_trace_shader_data_t, 96);
OFFSET(rocprofiler_thread_trace_shader_data_t, data, 8);
OFFSET(rocprofiler_thread_trace_shader_data_t, data_size, 16);
OFFSET(rocprofiler_thread_trace_shader_data_t, shader_engine_id, 24);
OFFSET(rocprofiler_thread_trace_shader_data_t, chunk_index, 32);
OFFSET(rocprofiler_thread_trace_shader_data_t, read_offset, 40);
OFFSET(rocprofiler_thread_trace_shader_data_t, agent, 48);
OFFSET(rocprofiler_thread_trace_shader_data_t, flags, 56);
OFFSET(rocprofiler_thread_trace_shader_data_t, start_timestamp, 64);
OFFSET(rocprofiler_thread_trace_shader_data_t, end_timestamp, 80);

/* Every enumerator, in declaration order (the C++ test checks the values). */
static const int enumerators[] = {
    ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING,
    ROCPROFILER_PC_SAMPLING_METHOD_NONE,
    ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC,
    ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP,
    ROCPROFILER_PC_SAMPLING_METHOD_LAST,
    ROCPROFILER_PC_SAMPLING_UNIT_NONE,
    ROCPROFILER_PC_SAMPLING_UNIT_INSTRUCTIONS,
    ROCPROFILER_PC_SAMPLING_UNIT_CYCLES,
    ROCPROFILER_PC_SAMPLING_UNIT_TIME,
    ROCPROFILER_PC_SAMPLING_UNIT_LAST,
    ROCPROFILER_PC_SAMPLING_RECORD_NONE,
    ROCPROFILER_PC_SAMPLING_RECORD_INVALID_SAMPLE,
    ROCPROFILER_PC_SAMPLING_RECORD_HOST_TRAP_V0_SAMPLE,
    ROCPROFILER_PC_SAMPLING_RECORD_STOCHASTIC_V0_SAMPLE,
    ROCPROFILER_PC_SAMPLING_RECORD_LAST,
    ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_NONE,
    ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2,
    ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_LAST,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MATRIX,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_SCALAR,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS_DIRECT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_FLAT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_EXPORT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MESSAGE,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_TAKEN,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_JUMP,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_OTHER,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_INTERNAL_INSTRUCTION,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT,
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST,
    ROCPROFILER_SPM_PARAMETER_TYPE_NONE,
    ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES,
    ROCPROFILER_SPM_PARAMETER_TYPE_LAST,
    ROCPROFILER_SPM_RECORD_FLAG_NONE,
    ROCPROFILER_SPM_RECORD_FLAG_DATA,
    ROCPROFILER_SPM_RECORD_FLAG_DATA_LOSS,
    ROCPROFILER_SPM_RECORD_FLAG_DISPATCH_END,
    ROCPROFILER_SPM_RECORD_FLAG_LAST,
    ROCPROFILER_THREAD_TRACE_PARAMETER_TARGET_CU,
    ROCPROFILER_THREAD_TRACE_PARAMETER_SHADER_ENGINE_MASK,
    ROCPROFILER_THREAD_TRACE_PARAMETER_BUFFER_SIZE,
    ROCPROFILER_THREAD_TRACE_PARAMETER_SIMD_SELECT,
    ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTERS_CTRL,
    ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER,
    ROCPROFILER_THREAD_TRACE_PARAMETER_SERIALIZE_ALL,
    ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER_EXCLUDE_MASK,
    ROCPROFILER_THREAD_TRACE_PARAMETER_NO_DETAIL,
    ROCPROFILER_THREAD_TRACE_PARAMETER_NUM_BUFFERS,
    ROCPROFILER_THREAD_TRACE_PARAMETER_LAST,
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_NONE,
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_END,
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_GPU_BUFFER_FULL,
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_CPU_BUFFER_FULL,
    ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_LAST,
    ROCPROFILER_THREAD_TRACE_CONTROL_NONE,
    ROCPROFILER_THREAD_TRACE_CONTROL_START_AND_STOP,
};

/* Every function, through a variable of its exact type (a signature drift fails to compile). */
static rocprofiler_status_t (*const pcs_configure)(rocprofiler_context_id_t,
                                                   rocprofiler_agent_id_t,
                                                   rocprofiler_pc_sampling_method_t,
                                                   rocprofiler_pc_sampling_unit_t,
                                                   uint64_t,
                                                   rocprofiler_buffer_id_t,
                                                   int) = rocprofiler_configure_pc_sampling_service;
static rocprofiler_status_t (*const pcs_query)(
    rocprofiler_agent_id_t,
    rocprofiler_available_pc_sampling_configurations_cb_t,
    void*) = rocprofiler_query_pc_sampling_agent_configurations;
static const char* (*const pcs_type_name)(rocprofiler_pc_sampling_instruction_type_t) =
    rocprofiler_get_pc_sampling_instruction_type_name;
static const char* (*const pcs_reason_name)(
    rocprofiler_pc_sampling_instruction_not_issued_reason_t) =
    rocprofiler_get_pc_sampling_instruction_not_issued_reason_name;
static rocprofiler_status_t (*const spm_query)(rocprofiler_agent_id_t,
                                               rocprofiler_spm_available_configurations_cb_t,
                                               void*) = rocprofiler_spm_query_agent_configurations;
static rocprofiler_status_t (*const spm_create)(rocprofiler_agent_id_t,
                                                rocprofiler_counter_id_t*,
                                                size_t,
                                                rocprofiler_spm_parameters_t**,
                                                size_t,
                                                rocprofiler_counter_config_id_t*) =
    rocprofiler_spm_create_counter_config;
static rocprofiler_status_t (*const spm_destroy)(rocprofiler_counter_config_id_t) =
    rocprofiler_spm_destroy_counter_config;
static rocprofiler_status_t (*const spm_counters)(rocprofiler_agent_id_t,
                                                  rocprofiler_available_counters_cb_t,
                                                  void*) =
    rocprofiler_spm_iterate_agent_supported_counters;
static rocprofiler_status_t (*const spm_callback_service)(
    rocprofiler_context_id_t,
    rocprofiler_spm_dispatch_counting_service_cb_t,
    void*,
    rocprofiler_spm_dispatch_counting_record_cb_t,
    void*) = rocprofiler_spm_configure_callback_dispatch_service;
static rocprofiler_status_t (*const spm_buffer_service)(
    rocprofiler_context_id_t,
    rocprofiler_buffer_id_t,
    rocprofiler_spm_dispatch_counting_service_cb_t,
    void*) = rocprofiler_spm_configure_buffer_dispatch_service;
static rocprofiler_status_t (*const spm_device_service)(rocprofiler_context_id_t,
                                                        rocprofiler_buffer_id_t,
                                                        rocprofiler_agent_id_t,
                                                        rocprofiler_device_counting_service_cb_t,
                                                        void*) =
    rocprofiler_configure_spm_device_counting_service;
static rocprofiler_status_t (*const tt_dispatch)(rocprofiler_context_id_t,
                                                 rocprofiler_agent_id_t,
                                                 rocprofiler_thread_trace_parameter_t*,
                                                 size_t,
                                                 rocprofiler_thread_trace_dispatch_callback_t,
                                                 rocprofiler_thread_trace_shader_data_callback_t,
                                                 void*) =
    rocprofiler_configure_dispatch_thread_trace_service;
static rocprofiler_status_t (*const tt_device)(rocprofiler_context_id_t,
                                               rocprofiler_agent_id_t,
                                               rocprofiler_thread_trace_parameter_t*,
                                               size_t,
                                               rocprofiler_thread_trace_shader_data_callback_t,
                                               rocprofiler_user_data_t) =
    rocprofiler_configure_device_thread_trace_service;

/* Every struct and callback type, with the C spellings (anonymous members, designated fields). */
static size_t
every_type(void)
{
    rocprofiler_pc_sampling_configuration_t            config  = {0};
    rocprofiler_pc_sampling_hw_id_v0_t                 hw_id   = {0};
    rocprofiler_pc_t                                   pc      = {0};
    rocprofiler_pc_sampling_record_host_trap_v0_t      trap    = {0};
    rocprofiler_pc_sampling_record_stochastic_header_t header  = {0};
    rocprofiler_pc_sampling_snapshot_v0_t              snap    = {0};
    rocprofiler_pc_sampling_memory_counters_t          mem     = {0};
    rocprofiler_pc_sampling_record_stochastic_v0_t     stoch   = {0};
    rocprofiler_pc_sampling_record_invalid_t           invalid = {0};
    rocprofiler_spm_available_configuration_t          spm_cfg;
    rocprofiler_spm_parameters_t                       spm_param = {0};
    rocprofiler_spm_dispatch_counting_service_data_t   spm_data;
    rocprofiler_spm_counter_record_t                   spm_record = {0};
    rocprofiler_thread_trace_parameter_t               tt_param;
    rocprofiler_thread_trace_timestamp_t               tt_time = {0};
    rocprofiler_thread_trace_shader_data_t             tt_data;
    rocprofiler_pc_sampling_configuration_flags_t      cflags =
        ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_NONE;
    rocprofiler_pc_sampling_instruction_type_t itype =
        ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE;
    rocprofiler_pc_sampling_instruction_not_issued_reason_t reason =
        ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE;
    rocprofiler_pc_sampling_record_kind_t     kind   = ROCPROFILER_PC_SAMPLING_RECORD_NONE;
    rocprofiler_spm_parameter_type_t          ptype  = ROCPROFILER_SPM_PARAMETER_TYPE_NONE;
    rocprofiler_spm_record_flag_t             rflag  = ROCPROFILER_SPM_RECORD_FLAG_NONE;
    rocprofiler_thread_trace_parameter_type_t tptype = ROCPROFILER_THREAD_TRACE_PARAMETER_TARGET_CU;
    rocprofiler_thread_trace_shader_data_flags_t tflags =
        ROCPROFILER_THREAD_TRACE_SHADER_DATA_FLAGS_NONE;
    rocprofiler_thread_trace_control_flags_t ctl = ROCPROFILER_THREAD_TRACE_CONTROL_NONE;
    rocprofiler_available_pc_sampling_configurations_cb_t pcs_cb    = NULL;
    rocprofiler_spm_available_configurations_cb_t         spm_cb    = NULL;
    rocprofiler_spm_dispatch_counting_record_cb_t         spm_rec   = NULL;
    rocprofiler_spm_dispatch_counting_service_cb_t        spm_disp  = NULL;
    rocprofiler_thread_trace_shader_data_callback_t       tt_shader = NULL;
    rocprofiler_thread_trace_dispatch_callback_t          tt_disp   = NULL;

    spm_cfg.type                  = ROCPROFILER_SPM_PARAMETER_TYPE_SAMPLE_INTERVAL_SCLK_CYCLES;
    spm_cfg.interval.min_interval = 1;
    spm_cfg.interval.max_interval = 2;
    spm_data.size                 = sizeof(spm_data);
    tt_param.type                 = ROCPROFILER_THREAD_TRACE_PARAMETER_PERFCOUNTER;
    tt_param.counter_id.handle    = 1;
    tt_param.simd_mask            = 0xf;
    tt_data.size                  = sizeof(tt_data);
    pc.code_object_id             = ROCPROFILER_CODE_OBJECT_ID_NONE;
    stoch.wave_issued             = 1;
    stoch.inst_type               = ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU;
    snap.reason_not_issued        = ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT;
    header.has_memory_counter     = 1;
    hw_id.wave_id                 = 3;
    mem.load_cnt                  = 1;
    trap.wave_in_group            = 2;

    (void)cflags, (void)itype, (void)reason, (void)kind, (void)ptype, (void)rflag;
    (void)tptype, (void)tflags, (void)ctl, (void)pcs_cb, (void)spm_cb, (void)spm_rec;
    (void)spm_disp, (void)tt_shader, (void)tt_disp;
    return sizeof(config) + sizeof(hw_id) + sizeof(pc) + sizeof(trap) + sizeof(header) +
           sizeof(snap) + sizeof(mem) + sizeof(stoch) + sizeof(invalid) + sizeof(spm_cfg) +
           sizeof(spm_param) + sizeof(spm_data) + sizeof(spm_record) + sizeof(tt_param) +
           sizeof(tt_time) + sizeof(tt_data);
}

sampling_headers_c_summary_t
sampling_headers_c_summary(void)
{
    sampling_headers_c_summary_t summary;
    size_t                       i;
    summary.functions          = 13;
    summary.functions_resolved = 0;
    /* Each variable holds a function the library must export (else the link fails). */
    summary.functions_resolved += pcs_configure != NULL;
    summary.functions_resolved += pcs_query != NULL;
    summary.functions_resolved += pcs_type_name != NULL;
    summary.functions_resolved += pcs_reason_name != NULL;
    summary.functions_resolved += spm_query != NULL;
    summary.functions_resolved += spm_create != NULL;
    summary.functions_resolved += spm_destroy != NULL;
    summary.functions_resolved += spm_counters != NULL;
    summary.functions_resolved += spm_callback_service != NULL;
    summary.functions_resolved += spm_buffer_service != NULL;
    summary.functions_resolved += spm_device_service != NULL;
    summary.functions_resolved += tt_dispatch != NULL;
    summary.functions_resolved += tt_device != NULL;
    summary.enumerators    = sizeof(enumerators) / sizeof(enumerators[0]);
    summary.enumerator_sum = 0;
    for(i = 0; i < summary.enumerators; ++i)
        summary.enumerator_sum += (long)enumerators[i];
    summary.struct_bytes           = every_type();
    summary.stochastic_record_size = sizeof(rocprofiler_pc_sampling_record_stochastic_v0_t);
    return summary;
}
