/**
 * @file pc_sampling.h
 * @brief PC (program counter) sampling service (experimental): the configurations an agent
 * offers, configuring the service on an agent, and the sample records it delivers into a buffer.
 *
 * A tool asks an agent which sampling configurations it offers
 * (@ref rocprofiler_query_pc_sampling_agent_configurations), picks one, and configures it in a
 * context with a buffer (@ref rocprofiler_configure_pc_sampling_service). Samples then arrive in
 * that buffer as records of @ref ROCPROFILER_BUFFER_CATEGORY_PC_SAMPLING, whose kinds are
 * @ref rocprofiler_pc_sampling_record_kind_t.
 *
 * The host device offers host-trap sampling of its worker threads (unit: ns), delivered as
 * host-trap records; CUDA agents offer stochastic sampling in cycles (CUPTI's PC Sampling API,
 * powers of two), delivered as stochastic records whose not-issued reason is mapped from CUPTI's
 * stall reason, where libcupti has that API; elsewhere the query delivers an empty list and
 * configuring returns @ref ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE (docs/pc_sampling.md). The types
 * are those of rocprofiler-sdk 1.x, field for field, so that tools compile unchanged and can fall
 * back. Pointer parameters carry no nonnull attribute: the SDK checks them and answers
 * @ref ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT (a compiler told they are never NULL would drop
 * that check).
 */
#pragma once

#include <rocprofiler-sdk/agent.h>
#include <rocprofiler-sdk/defines.h>
#include <rocprofiler-sdk/fwd.h>

ROCPROFILER_EXTERN_C_INIT

/**
 * @defgroup PC_SAMPLING_SERVICE PC sampling
 * @brief Sampling the program counters of running waves.
 * @{
 */

#ifndef ROCPROFILER_CODE_OBJECT_ID_NONE
/** @brief The code object id of a sampled PC that belongs to no known code object. */
#    define ROCPROFILER_CODE_OBJECT_ID_NONE ROCPROFILER_UINT64_C(0)
#endif

/**
 * @brief Configures PC sampling of @p agent_id in @p context_id, delivering samples to
 * @p buffer_id. One agent runs at most one sampling configuration at a time, and at most one
 * context of the process holds PC sampling services (one per agent). Starting and stopping the
 * context starts and stops sampling. The request must match one of the configurations that
 * @ref rocprofiler_query_pc_sampling_agent_configurations reports, with @p interval inside its
 * [min_interval, max_interval].
 * @param [in] context_id Context that starts and stops sampling.
 * @param [in] agent_id Agent to sample.
 * @param [in] method How samples are taken.
 * @param [in] unit Unit of @p interval.
 * @param [in] interval Distance between two samples, in @p unit.
 * @param [in] buffer_id Buffer the sample records go to.
 * @param [in] flags Reserved; pass 0.
 * @retval ROCPROFILER_STATUS_SUCCESS Configured.
 * @retval ROCPROFILER_STATUS_ERROR_CONFIGURATION_LOCKED Called after tool initialization.
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_NOT_FOUND No such context.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_BUFFER_NOT_FOUND No such buffer.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p method or @p unit is not a valid value, or
 * @p interval lies outside the offered configuration's [min_interval, max_interval] (or is not a
 * power of 2 when the configuration requires one).
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE The agent offers no configuration with this
 * @p method and @p unit (CUDA agents: none at all yet).
 * @retval ROCPROFILER_STATUS_ERROR_CONTEXT_CONFLICT The context counts dispatches, or another
 * context already holds PC sampling.
 * @retval ROCPROFILER_STATUS_ERROR_SERVICE_ALREADY_CONFIGURED The context already samples
 * @p agent_id.
 */
rocprofiler_status_t
rocprofiler_configure_pc_sampling_service(rocprofiler_context_id_t         context_id,
                                          rocprofiler_agent_id_t           agent_id,
                                          rocprofiler_pc_sampling_method_t method,
                                          rocprofiler_pc_sampling_unit_t   unit,
                                          uint64_t                         interval,
                                          rocprofiler_buffer_id_t          buffer_id,
                                          int                              flags) ROCPROFILER_API;

/** @brief Bits of @ref rocprofiler_pc_sampling_configuration_t::flags. */
typedef enum rocprofiler_pc_sampling_configuration_flags_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_NONE = 0,      ///< No constraint
    ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_INTERVAL_POW2, ///< The interval is a power of 2
    ROCPROFILER_PC_SAMPLING_CONFIGURATION_FLAGS_LAST,          ///< Sentinel
} rocprofiler_pc_sampling_configuration_flags_t;

/** @brief One sampling configuration an agent offers. */
typedef struct rocprofiler_pc_sampling_configuration_t
{
    uint64_t                         size;         ///< Size of this struct
    rocprofiler_pc_sampling_method_t method;       ///< How samples are taken
    rocprofiler_pc_sampling_unit_t   unit;         ///< Unit of the interval bounds
    size_t                           min_interval; ///< Shortest interval (most samples)
    size_t                           max_interval; ///< Longest interval (fewest samples)
    uint64_t flags; ///< Bits of @ref rocprofiler_pc_sampling_configuration_flags_t
} rocprofiler_pc_sampling_configuration_t;

/**
 * @brief Receives the configurations an agent offers. Called by
 * @ref rocprofiler_query_pc_sampling_agent_configurations on the calling thread.
 * @param [in] configs Array of @p num_config configurations, owned by the SDK and valid only
 * during the call; may be NULL when @p num_config is 0.
 * @param [in] num_config Number of configurations; 0 when the agent offers none.
 * @param [in] user_data The query's @p user_data.
 * @return A status that the query returns.
 */
typedef rocprofiler_status_t (*rocprofiler_available_pc_sampling_configurations_cb_t)(
    const rocprofiler_pc_sampling_configuration_t* configs, size_t num_config, void* user_data);

/**
 * @brief Lists the sampling configurations @p agent_id offers now (only the active one when
 * sampling is already configured on it). Calls @p cb once, with an empty list when the agent
 * offers none, and returns what @p cb returns.
 * @param [in] agent_id Agent to ask.
 * @param [in] cb Receives the configurations.
 * @param [in] user_data Passed to @p cb.
 * @retval ROCPROFILER_STATUS_SUCCESS @p cb was called and returned SUCCESS.
 * @retval ROCPROFILER_STATUS_ERROR_AGENT_NOT_FOUND No such agent.
 * @retval ROCPROFILER_STATUS_ERROR_INVALID_ARGUMENT @p cb is NULL.
 * @retval ROCPROFILER_STATUS_ERROR_NOT_AVAILABLE Sampling cannot be offered in this process.
 */
rocprofiler_status_t rocprofiler_query_pc_sampling_agent_configurations(
    rocprofiler_agent_id_t                                agent_id,
    rocprofiler_available_pc_sampling_configurations_cb_t cb,
    void*                                                 user_data) ROCPROFILER_API;

/** @brief Where on the device the sampled wave ran. 8 bytes of bit-fields. */
typedef struct rocprofiler_pc_sampling_hw_id_v0_t
{
    uint64_t chiplet : 6;          ///< Chiplet index
    uint64_t wave_id : 7;          ///< Wave slot index
    uint64_t simd_id : 2;          ///< SIMD index
    uint64_t pipe_id : 4;          ///< Pipe index
    uint64_t cu_or_wgp_id : 4;     ///< Compute unit (or workgroup processor) index
    uint64_t shader_array_id : 1;  ///< Shader array index
    uint64_t shader_engine_id : 5; ///< Shader engine index
    uint64_t workgroup_id : 7;     ///< Workgroup (thread group) slot index
    uint64_t vm_id : 6;            ///< Virtual memory id
    uint64_t queue_id : 4;         ///< Hardware queue index
    uint64_t microengine_id : 2;   ///< Micro-engine index
    uint64_t reserved0 : 16;       ///< Reserved; zero
} rocprofiler_pc_sampling_hw_id_v0_t;

/**
 * @brief A sampled program counter as a code object and an offset into it. When
 * @ref code_object_id is @ref ROCPROFILER_CODE_OBJECT_ID_NONE, @ref code_object_offset is the
 * absolute address; otherwise add the code object's load base to it for the address.
 */
typedef struct rocprofiler_pc_t
{
    uint64_t code_object_id;     ///< Loaded code object that holds the PC, or NONE
    uint64_t code_object_offset; ///< Offset from the code object's load base (or the address)
} rocprofiler_pc_t;

/** @brief A sample taken by @ref ROCPROFILER_PC_SAMPLING_METHOD_HOST_TRAP. */
typedef struct rocprofiler_pc_sampling_record_host_trap_v0_t
{
    uint64_t                           size;              ///< Size of this struct
    rocprofiler_pc_sampling_hw_id_v0_t hw_id;             ///< Where the wave ran
    rocprofiler_pc_t                   pc;                ///< The sampled PC
    uint64_t                           exec_mask;         ///< Active lanes when sampled
    uint64_t                           timestamp;         ///< When the sample was taken
    uint64_t                           dispatch_id;       ///< Dispatch the wave belongs to
    rocprofiler_async_correlation_id_t correlation_id;    ///< Correlation ids of that dispatch
    rocprofiler_dim3_t                 workgroup_id;      ///< The wave's workgroup in the grid
    uint32_t                           wave_in_group : 8; ///< The wave's index in its workgroup
    uint32_t                           reserved0 : 24;    ///< Reserved; zero
} rocprofiler_pc_sampling_record_host_trap_v0_t;

/** @brief Which optional parts of a stochastic sample are valid. One byte. */
typedef struct rocprofiler_pc_sampling_record_stochastic_header_t
{
    uint8_t has_memory_counter : 1; ///< @ref rocprofiler_pc_sampling_memory_counters_t is valid
    uint8_t reserved_type : 7;      ///< Reserved; zero
} rocprofiler_pc_sampling_record_stochastic_header_t;

/** @brief Type of the instruction a sampled wave issued. */
typedef enum rocprofiler_pc_sampling_instruction_type_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NONE = 0,         ///< Unknown
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU,             ///< Vector ALU
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MATRIX,           ///< Matrix
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_SCALAR,           ///< Scalar ALU or scalar memory
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_TEX,              ///< Texture (vector) memory
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS,              ///< Local data share
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LDS_DIRECT,       ///< Local data share, direct
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_FLAT,             ///< Flat memory
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_EXPORT,           ///< Export
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_MESSAGE,          ///< Message
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BARRIER,          ///< Barrier
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_NOT_TAKEN, ///< Branch, not taken
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_BRANCH_TAKEN,     ///< Branch, taken
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_JUMP,             ///< Jump
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_OTHER,            ///< Any other type
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_NO_INST,          ///< No instruction was issued
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_DUAL_VALU,        ///< Two vector ALU, co-issued
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_LAST,             ///< Sentinel
} rocprofiler_pc_sampling_instruction_type_t;

/** @brief Why a sampled wave issued no instruction. */
typedef enum rocprofiler_pc_sampling_instruction_not_issued_reason_t // NOLINT(performance-enum-size)
{
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NONE = 0,                 ///< Unknown
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_NO_INSTRUCTION_AVAILABLE, ///< Not fetched
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ALU_DEPENDENCY, ///< Waits on an ALU
                                                                          ///< result
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT,        ///< In a wait-count wait
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_INTERNAL_INSTRUCTION, ///< Internal op
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_BARRIER_WAIT,         ///< At a barrier
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_NOT_WIN, ///< Lost arbitration
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_ARBITER_WIN_EX_STALL, ///< Won, then
                                                                                ///< stalled by
                                                                                ///< its pipe
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_OTHER_WAIT,           ///< Any other wait
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_SLEEP_WAIT,           ///< Sleeping
    ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_LAST,                 ///< Sentinel
} rocprofiler_pc_sampling_instruction_not_issued_reason_t;

/**
 * @brief The sampling hardware's view of the wave's SIMD when the sample was taken: for each
 * instruction class, whether the arbiter issued it and whether it stalled. 4 bytes of bit-fields.
 */
typedef struct rocprofiler_pc_sampling_snapshot_v0_t
{
    uint32_t reason_not_issued : 4;    ///< A @ref
                                       ///< rocprofiler_pc_sampling_instruction_not_issued_reason_t
    uint32_t reserved0 : 1;            ///< Reserved; zero
    uint32_t arb_state_issue_valu : 1; ///< Vector ALU issued
    uint32_t arb_state_issue_matrix : 1;     ///< Matrix issued
    uint32_t arb_state_issue_lds : 1;        ///< LDS issued
    uint32_t arb_state_issue_lds_direct : 1; ///< LDS direct issued
    uint32_t arb_state_issue_scalar : 1;     ///< Scalar issued
    uint32_t arb_state_issue_vmem_tex : 1;   ///< Texture memory issued
    uint32_t arb_state_issue_flat : 1;       ///< Flat memory issued
    uint32_t arb_state_issue_exp : 1;        ///< Export issued
    uint32_t arb_state_issue_misc : 1;       ///< Miscellaneous issued
    uint32_t arb_state_issue_brmsg : 1;      ///< Branch or message issued
    uint32_t arb_state_issue_reserved : 1;   ///< Reserved; zero
    uint32_t arb_state_stall_valu : 1;       ///< Vector ALU stalled
    uint32_t arb_state_stall_matrix : 1;     ///< Matrix stalled
    uint32_t arb_state_stall_lds : 1;        ///< LDS stalled
    uint32_t arb_state_stall_lds_direct : 1; ///< LDS direct stalled
    uint32_t arb_state_stall_scalar : 1;     ///< Scalar stalled
    uint32_t arb_state_stall_vmem_tex : 1;   ///< Texture memory stalled
    uint32_t arb_state_stall_flat : 1;       ///< Flat memory stalled
    uint32_t arb_state_stall_exp : 1;        ///< Export stalled
    uint32_t arb_state_stall_misc : 1;       ///< Miscellaneous stalled
    uint32_t arb_state_stall_brmsg : 1;      ///< Branch or message stalled
    uint32_t arb_state_state_reserved : 1;   ///< Reserved; zero
    uint32_t dual_issue_valu : 1;            ///< Two vector ALU instructions co-issued
    uint32_t reserved1 : 1;                  ///< Reserved; zero
    uint32_t reserved2 : 3;                  ///< Reserved; zero
} rocprofiler_pc_sampling_snapshot_v0_t;

/** @brief Instructions of the wave issued and not yet complete, by class. 4 bytes. */
typedef struct rocprofiler_pc_sampling_memory_counters_t
{
    uint32_t load_cnt : 6;   ///< Vector memory loads
    uint32_t store_cnt : 6;  ///< Vector memory stores
    uint32_t bvh_cnt : 3;    ///< Vector memory BVH operations
    uint32_t sample_cnt : 6; ///< Vector memory samples
    uint32_t ds_cnt : 6;     ///< LDS operations
    uint32_t km_cnt : 5;     ///< Scalar memory reads and messages
} rocprofiler_pc_sampling_memory_counters_t;

/** @brief A sample taken by @ref ROCPROFILER_PC_SAMPLING_METHOD_STOCHASTIC. */
typedef struct rocprofiler_pc_sampling_record_stochastic_v0_t
{
    uint64_t                                           size;  ///< Size of this struct
    rocprofiler_pc_sampling_record_stochastic_header_t flags; ///< Which optional parts are valid
    uint8_t                                            wave_in_group; ///< Index in the workgroup
    uint8_t wave_issued : 1; ///< The wave issued the sampled PC
    uint8_t inst_type : 5;   ///< A @ref
                             ///< rocprofiler_pc_sampling_instruction_type_t
    uint8_t                                   reserved : 2;    ///< Reserved; zero
    rocprofiler_pc_sampling_hw_id_v0_t        hw_id;           ///< Where the wave ran
    rocprofiler_pc_t                          pc;              ///< The sampled PC
    uint64_t                                  exec_mask;       ///< Active lanes when sampled
    rocprofiler_dim3_t                        workgroup_id;    ///< The wave's workgroup
    uint32_t                                  wave_count;      ///< Waves active on the unit
    uint64_t                                  timestamp;       ///< When the sample was taken
    uint64_t                                  dispatch_id;     ///< Dispatch the wave belongs to
    rocprofiler_async_correlation_id_t        correlation_id;  ///< Correlation ids of the dispatch
    rocprofiler_pc_sampling_snapshot_v0_t     snapshot;        ///< Arbiter state
    rocprofiler_pc_sampling_memory_counters_t memory_counters; ///< Outstanding instructions
} rocprofiler_pc_sampling_record_stochastic_v0_t;

/** @brief A sample that could not be decoded; only its size is meaningful. */
typedef struct rocprofiler_pc_sampling_record_invalid_t
{
    uint64_t size; ///< Size of this struct
} rocprofiler_pc_sampling_record_invalid_t;

/**
 * @brief Name of an instruction type, e.g. "ROCPROFILER_PC_SAMPLING_INSTRUCTION_TYPE_VALU".
 * @param [in] instruction_type A value of the enumeration.
 * @return The enumerator's name as a static string (NONE included), or NULL for a value that is
 * not one of the enumeration's (LAST and beyond).
 */
const char* rocprofiler_get_pc_sampling_instruction_type_name(
    rocprofiler_pc_sampling_instruction_type_t instruction_type) ROCPROFILER_API;

/**
 * @brief Name of a not-issued reason, e.g.
 * "ROCPROFILER_PC_SAMPLING_INSTRUCTION_NOT_ISSUED_REASON_WAITCNT".
 * @param [in] not_issued_reason A value of the enumeration.
 * @return The enumerator's name as a static string (NONE included), or NULL for a value that is
 * not one of the enumeration's (LAST and beyond).
 */
const char* rocprofiler_get_pc_sampling_instruction_not_issued_reason_name(
    rocprofiler_pc_sampling_instruction_not_issued_reason_t not_issued_reason) ROCPROFILER_API;

/** @} */

ROCPROFILER_EXTERN_C_FINI
